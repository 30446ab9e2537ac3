"""The Classroom panel: the exams of the user's GNS3 group on the trainer's copilot service.

A student sees the ticket and the time left, starts the task (the service injects it into the
lab open in GNS3, with the student's own login), asks for a hint when the exam allows it, and
submits; the result shows once the checks ran. A trainer sees every student's state and score
as the service pushes each change (the exam's live view, read while the panel is shown), and
exports the grades as CSV or JSON. Without a copilot service
(Settings → Copilot service) the panel says so: the answer key never lives on a student's disk.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Literal

from PyQt6.QtCore import QCoreApplication, Qt, QTimer
from PyQt6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.classroom_client import ClassroomClient, Exam
from gns3_copilot_desktop.core.errors import (
    CopilotError,
    Gns3AuthError,
    Gns3PermissionError,
    SessionNotFoundError,
)
from gns3_copilot_desktop.core.platform import detect_platform
from gns3_copilot_desktop.ui.backends.base import classroom_client
from gns3_copilot_desktop.ui.classroom.actions import StudentActions
from gns3_copilot_desktop.ui.classroom.student import StudentExam
from gns3_copilot_desktop.ui.classroom.task_editor import TaskEditor, open_task_editor
from gns3_copilot_desktop.ui.classroom.trainer import ClassTable
from gns3_copilot_desktop.ui.qt_async import spawn

RECONNECT_FIRST_S = 1.0
RECONNECT_MAX_S = 30.0
"""A live view that broke is opened again after 1 s, then twice as long each time, up to this."""


class ClassroomPanel(StudentActions):
    """See the module docstring."""

    def __init__(self, backend: object, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("classroomPanel")
        self._backend = backend
        self.trainer = False
        self.exams: list[Exam] = []
        self._auto_submitted: set[tuple[str, str]] = set()
        self._busy = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        top = QHBoxLayout()
        self.title_label = QLabel(QCoreApplication.translate("ClassroomPanel", "Classroom"), self)
        font = self.title_label.font()
        font.setBold(True)
        self.title_label.setFont(font)
        self.refresh_button = QToolButton(self)
        self.refresh_button.setText(QCoreApplication.translate("ClassroomPanel", "Refresh"))
        self.refresh_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Refresh the exams")
        )
        self.refresh_button.clicked.connect(self._refresh_clicked)
        top.addWidget(self.title_label, 1)
        top.addWidget(self.refresh_button)
        self.exam_combo = QComboBox(self)
        self.exam_combo.setAccessibleName(QCoreApplication.translate("ClassroomPanel", "Exam"))
        self.exam_combo.currentIndexChanged.connect(lambda _i: spawn(self._show(), name="exam"))
        self.status_label = QLabel(self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.setStyleSheet("color: #c62828;")
        self.student = StudentExam(
            self._start, self._hint, self._submit, self, check=self._check, give_up=self._give_up
        )
        self.table = ClassTable(self)
        self.table.csv_button.clicked.connect(lambda: self.export_results("csv"))
        self.table.json_button.clicked.connect(lambda: self.export_results("json"))
        self.task_editor: TaskEditor | None = None
        self.table.new_task_button.clicked.connect(self._new_task)
        layout.addLayout(top)
        layout.addWidget(self.exam_combo)
        layout.addWidget(self.status_label)
        layout.addWidget(self.student)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.error_label)
        layout.addStretch(0)
        self.student.hide()
        self.table.hide()
        self.error_label.hide()
        self._clock = QTimer(self)
        self._clock.setInterval(1000)
        self._clock.timeout.connect(self._tick)
        self._live: list[asyncio.Task[None]] = []  # the live view's task, while one runs
        self._live_exam = ""
        live = self._live  # no reference to self: the task ends with the widget, not after it
        self.destroyed.connect(lambda *_: [task.cancel() for task in live])

    def _new_task(self) -> None:
        self.task_editor = open_task_editor(self, self._backend)
        if self.task_editor is None:
            self._error(QCoreApplication.translate("ClassroomPanel", "Open the lab in GNS3 first."))

    # --- state ------------------------------------------------------------------------------

    def _client(self) -> ClassroomClient | None:
        return classroom_client(self._backend)

    def _exam(self) -> Exam | None:
        index = self.exam_combo.currentIndex()
        return self.exams[index] if 0 <= index < len(self.exams) else None

    def _error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        self._clock.start()
        spawn(self.refresh(), name="classroom")

    def hideEvent(self, event: object) -> None:
        super().hideEvent(event)  # type: ignore[arg-type]
        self._clock.stop()
        self.stop_live()

    def _refresh_clicked(self) -> None:
        self._error("")
        spawn(self.refresh(), name="classroom")

    async def refresh(self) -> None:
        """Ask the service who the user is and which exams they have (an action's error stays
        shown)."""
        client = self._client()
        if client is None:
            self.exams = []
            self.exam_combo.clear()
            self.exam_combo.hide()
            self.student.hide()
            self.table.hide()
            self.status_label.setText(
                QCoreApplication.translate(
                    "ClassroomPanel",
                    "Exams run on your trainer's copilot service. Connect to it in Settings → "
                    "Copilot service, with your GNS3 account of the class.",
                )
            )
            return
        try:
            _name, self.trainer = await client.me()
            self.exams = await client.exams()
        except CopilotError as exc:
            self._error(exc.user_message)
            return
        chosen = self._exam()
        self.exam_combo.blockSignals(True)
        self.exam_combo.clear()
        for exam in self.exams:
            self.exam_combo.addItem(f"{exam.title} · {exam.group}" if self.trainer else exam.title)
        if chosen is not None:
            index = next((i for i, e in enumerate(self.exams) if e.exam_id == chosen.exam_id), -1)
            self.exam_combo.setCurrentIndex(max(index, len(self.exams) - 1 if index < 0 else index))
        else:
            self.exam_combo.setCurrentIndex(len(self.exams) - 1)
        self.exam_combo.blockSignals(False)
        self.exam_combo.setVisible(bool(self.exams))
        if not self.exams:
            self.status_label.setText(
                QCoreApplication.translate("ClassroomPanel", "No exam for you yet.")
                if not self.trainer
                else QCoreApplication.translate(
                    "ClassroomPanel",
                    "No exam yet: open one on the service (see the README's Classroom).",
                )
            )
        await self._show()

    async def _show(self) -> None:
        exam = self._exam()
        client = self._client()
        if exam is None or client is None:
            self.stop_live()
            self.student.hide()
            self.table.hide()
            return
        if self.trainer:
            self.student.hide()
            self.status_label.setText(
                QCoreApplication.translate(
                    "ClassroomPanel", "Group {group}: {students} students."
                ).format(group=exam.group, students=exam.students or 0)
            )
            self.table.show()
            if self.isVisible():
                self._follow(client, exam.exam_id)
            return
        self.stop_live()
        self.table.hide()
        if exam.tasks:
            self.status_label.setText(
                QCoreApplication.translate(
                    "ClassroomPanel", "Hints: {hints}. The copilot: {copilot}."
                ).format(
                    hints=QCoreApplication.translate("ClassroomPanel", "off")
                    if exam.assist == "off"
                    else QCoreApplication.translate("ClassroomPanel", "on"),
                    copilot=QCoreApplication.translate("ClassroomPanel", "Tutor only")
                    if exam.assist == "tutor"
                    else QCoreApplication.translate("ClassroomPanel", "off"),
                )
            )
            self.student.show_task(exam, exam.tasks[0])
            self.student.show()

    # --- a trainer's live view ---------------------------------------------------------------

    def _follow(self, client: ClassroomClient, exam_id: str) -> None:
        """Read the exam's live view (the one already read goes on; another exam's stops)."""
        if any(not t.done() for t in self._live) and self._live_exam == exam_id:
            return
        self.stop_live()
        self._live_exam = exam_id
        self._live.append(spawn(self._watch(client, exam_id), name="class-live"))

    def stop_live(self) -> None:
        """Stop reading the live view (the panel hidden or closed, another exam chosen)."""
        for task in self._live:
            task.cancel()
        self._live.clear()

    @property
    def live_task(self) -> asyncio.Task[None] | None:
        """The task reading the live view, if one runs."""
        return self._live[0] if self._live else None

    async def _watch(self, client: ClassroomClient, exam_id: str) -> None:
        """The table follows each pushed change; a stream that ends or breaks is opened again
        after a growing pause. A refusal (the login ended, not a trainer, no such exam) stops
        it with its message."""
        delay = RECONNECT_FIRST_S
        broken = False  # the error shown is this view's own (an export's stays)
        while True:
            try:
                async for live in client.live_results(exam_id):
                    self.table.show_rows(live.rows)
                    if broken:
                        self._error("")
                    broken, delay = False, RECONNECT_FIRST_S
            except (Gns3AuthError, Gns3PermissionError, SessionNotFoundError) as exc:
                self._error(exc.user_message)
                return
            except CopilotError as exc:
                self._error(exc.user_message)
                broken = True
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_S)

    def _tick(self) -> None:
        exam = self._exam()
        if exam is None or self.trainer or not self.student.isVisible():
            return
        now = time.time()
        self.student.refresh_state(exam, now)
        attempt = self.student.attempt
        key = (exam.exam_id, attempt.task_id) if attempt is not None else None
        if (
            attempt is not None
            and key is not None
            and attempt.status == "running"
            and now >= attempt.deadline
            and key not in self._auto_submitted
        ):
            self._auto_submitted.add(key)  # the end of time submits, once
            spawn(self._run(self._do_submit(attempt.task_id)), name="auto-submit")

    # --- a trainer's export -----------------------------------------------------------------

    def export_results(self, fmt: Literal["csv", "json"]) -> None:
        """Ask where (a dialog, outside any coroutine), then fetch and write the results."""
        exam, client = self._exam(), self._client()
        if exam is None or client is None:
            return
        path = self.ask_export_path(fmt)
        if path is not None:
            spawn(self._write_results(client, exam.exam_id, fmt, path), name="export")

    async def _write_results(
        self, client: ClassroomClient, exam_id: str, fmt: Literal["csv", "json"], path: Path
    ) -> None:
        try:
            text = await client.export(exam_id, fmt)
            await asyncio.to_thread(detect_platform().write_export, path, text)
        except (CopilotError, OSError) as exc:
            self._error(getattr(exc, "user_message", None) or str(exc))
            return
        self.status_label.setText(
            QCoreApplication.translate("ClassroomPanel", "Results saved to {path}.").format(
                path=path.name
            )
        )
