"""The Classroom panel: the exams of the user's GNS3 group on the trainer's copilot service.

A student sees the ticket and the time left, starts the task (the service injects it into the
lab open in GNS3, with the student's own login), asks for a hint when the exam allows it, and
submits; the result shows once the checks ran. A trainer sees every student's state and score,
refreshed every few seconds, and exports the grades as CSV or JSON. Without a copilot service
(Settings → Copilot service) the panel says so: the answer key never lives on a student's disk.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any, Literal

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
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.platform import detect_platform
from gns3_copilot_desktop.ui.backends.base import classroom_client
from gns3_copilot_desktop.ui.classroom.questions import ClassroomQuestions
from gns3_copilot_desktop.ui.classroom.student import StudentExam
from gns3_copilot_desktop.ui.classroom.task_editor import TaskEditor, open_task_editor
from gns3_copilot_desktop.ui.classroom.trainer import ClassTable
from gns3_copilot_desktop.ui.qt_async import spawn

TRAINER_REFRESH_MS = 3000


class ClassroomPanel(ClassroomQuestions):
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
        self.student = StudentExam(self._start, self._hint, self._submit, self)
        self.table = ClassTable(self)
        self.table.csv_button.clicked.connect(lambda: spawn(self.export("csv"), name="export"))
        self.table.json_button.clicked.connect(lambda: spawn(self.export("json"), name="export"))
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
        self._reload = QTimer(self)
        self._reload.setInterval(TRAINER_REFRESH_MS)
        self._reload.timeout.connect(lambda: spawn(self._show(quiet=True), name="class-reload"))

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
        self._reload.stop()

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

    async def _show(self, *, quiet: bool = False) -> None:
        exam = self._exam()
        client = self._client()
        if exam is None or client is None:
            self.student.hide()
            self.table.hide()
            return
        if self.trainer:
            self.student.hide()
            try:
                self.table.show_rows(await client.results(exam.exam_id))
            except CopilotError as exc:
                if not quiet:
                    self._error(exc.user_message)
                return
            self.status_label.setText(
                QCoreApplication.translate(
                    "ClassroomPanel", "Group {group}: {students} students."
                ).format(group=exam.group, students=exam.students or 0)
            )
            self.table.show()
            if self.isVisible():
                self._reload.start()
            return
        self._reload.stop()
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

    # --- a student's actions ----------------------------------------------------------------

    def _start(self, task_id: str) -> None:
        spawn(self._run(self._do_start(task_id)), name="exam-start")

    def _hint(self, task_id: str) -> None:
        spawn(self._run(self._do_hint(task_id)), name="exam-hint")

    def _submit(self, task_id: str) -> None:
        spawn(self._run(self._ask_and_submit(task_id)), name="exam-submit")

    async def _run(self, work: Coroutine[Any, Any, None]) -> None:
        if self._busy:
            work.close()
            return
        self._busy = True
        self.student.setEnabled(False)  # one action at a time, and the student sees it
        self._error("")
        try:
            await work
        except CopilotError as exc:
            self._error(exc.user_message)
        finally:
            self._busy = False
            self.student.setEnabled(True)

    async def _do_start(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        project_id = getattr(self._backend, "project_id", None)
        if exam is None or client is None:
            return
        if project_id is None:
            self._error(
                QCoreApplication.translate(
                    "ClassroomPanel",
                    "Open your lab's project in GNS3 first: the task goes into it.",
                )
            )
            return
        self.status_label.setText(
            QCoreApplication.translate(
                "ClassroomPanel", "Starting… the service prepares the task in your lab."
            )
        )
        await client.start(exam.exam_id, task_id, project_id)
        await self.refresh()

    async def _do_hint(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        if exam is None or client is None:
            return
        text, _left = await client.hint(exam.exam_id, task_id)
        self.student.add_hint(text)
        await self.refresh()

    async def _ask_and_submit(self, task_id: str) -> None:
        if await self.ask_submit():
            await self._do_submit(task_id)

    async def _do_submit(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        if exam is None or client is None:
            return
        self.status_label.setText(
            QCoreApplication.translate("ClassroomPanel", "Checking your lab…")
        )
        try:
            await client.submit(exam.exam_id, task_id)
        finally:
            await self.refresh()  # the result, or the state the service keeps

    # --- a trainer's export -----------------------------------------------------------------

    async def export(self, fmt: Literal["csv", "json"]) -> None:
        exam, client = self._exam(), self._client()
        if exam is None or client is None:
            return
        path = self.ask_export_path(fmt)
        if path is None:
            return
        try:
            text = await client.export(exam.exam_id, fmt)
            await asyncio.to_thread(detect_platform().write_export, path, text)
        except (CopilotError, OSError) as exc:
            self._error(getattr(exc, "user_message", None) or str(exc))
            return
        self.status_label.setText(
            QCoreApplication.translate("ClassroomPanel", "Results saved to {path}.").format(
                path=path.name
            )
        )
