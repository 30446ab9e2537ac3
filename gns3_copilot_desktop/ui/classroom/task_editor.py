""" "Save this lab as a task…": a trainer turns the working lab open in the dock into a task.

The lab as it is becomes the baseline. The editor proposes the checks the lab passes now (each
host's address, the pings that work) for the trainer to pick, then takes the fault: a device
and the lines that break it and undo it (the command gate refuses what it refuses anywhere).
**Prove** runs the task on the lab: every check must pass, at least one must fail once the fault
is in, and all must pass again once it is undone; the lab is left as it was. Only a proved task
can be saved (a file) or uploaded to the class's copilot service, and any edit asks for a new
proof.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from PyQt6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PyQt6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.practice.lab_facts import Logins
from gns3_copilot_desktop.core.practice.task import TaskCheck, TaskFault, parse_task
from gns3_copilot_desktop.core.practice.task_author import TaskDraft, propose_checks, render_task
from gns3_copilot_desktop.core.practice.task_checks import TaskRunner
from gns3_copilot_desktop.ui.qt_async import spawn

Upload = Callable[[str, str], Awaitable[str]]
LEVELS = (
    QT_TRANSLATE_NOOP("TaskEditor", "beginner"),
    QT_TRANSLATE_NOOP("TaskEditor", "intermediate"),
    QT_TRANSLATE_NOOP("TaskEditor", "advanced"),
)


class TaskEditor(QDialog):
    """See the module docstring."""

    def __init__(
        self,
        client: Gns3Client,
        project_id: str,
        upload: Upload | None = None,
        parent: QWidget | None = None,
        logins: Logins | None = None,
    ) -> None:
        super().__init__(parent)
        self._logins = logins
        """The user's saved console logins: a router's checks are read through its CLI."""
        self.setWindowTitle(QCoreApplication.translate("TaskEditor", "Save this lab as a task"))
        self._client, self._project_id, self._upload = client, project_id, upload
        self.checks: list[TaskCheck] = []
        self.proved_text: str | None = None
        form = QFormLayout()
        self.title_edit = QLineEdit(self)
        self.ticket_edit = QPlainTextEdit(self)
        self.ticket_edit.setPlaceholderText(
            QCoreApplication.translate("TaskEditor", "What the student is told, as a user says it")
        )
        self.ticket_edit.setFixedHeight(60)
        self.level_combo = QComboBox(self)
        for level in LEVELS:
            self.level_combo.addItem(QCoreApplication.translate("TaskEditor", level), level)
        self.minutes_spin = QSpinBox(self)
        self.minutes_spin.setRange(1, 600)
        self.minutes_spin.setValue(20)
        form.addRow(QCoreApplication.translate("TaskEditor", "Title"), self.title_edit)
        form.addRow(QCoreApplication.translate("TaskEditor", "Ticket"), self.ticket_edit)
        form.addRow(QCoreApplication.translate("TaskEditor", "Level"), self.level_combo)
        form.addRow(QCoreApplication.translate("TaskEditor", "Minutes"), self.minutes_spin)
        self.checks_list = QListWidget(self)
        self.checks_list.setAccessibleName(
            QCoreApplication.translate("TaskEditor", "Checks proposed from the lab")
        )
        self.device_combo = QComboBox(self)
        self.device_combo.setAccessibleName(QCoreApplication.translate("TaskEditor", "Device"))
        self.inject_edit = QPlainTextEdit(self)
        self.inject_edit.setPlaceholderText(
            QCoreApplication.translate("TaskEditor", "Lines that break it, one per line")
        )
        self.undo_edit = QPlainTextEdit(self)
        self.undo_edit.setPlaceholderText(
            QCoreApplication.translate("TaskEditor", "Lines that undo it, one per line")
        )
        for edit in (self.inject_edit, self.undo_edit):
            edit.setFixedHeight(48)
        self.status_label = QLabel(self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QHBoxLayout()
        self.prove_button = QPushButton(QCoreApplication.translate("TaskEditor", "Prove"), self)
        self.prove_button.setAccessibleName(
            QCoreApplication.translate("TaskEditor", "Prove the task on the lab")
        )
        self.save_button = QPushButton(QCoreApplication.translate("TaskEditor", "Save…"), self)
        self.save_button.setAccessibleName(
            QCoreApplication.translate("TaskEditor", "Save the task file")
        )
        self.upload_button = QPushButton(
            QCoreApplication.translate("TaskEditor", "Upload to the class"), self
        )
        self.upload_button.setAccessibleName(
            QCoreApplication.translate("TaskEditor", "Upload the task to the copilot service")
        )
        self.upload_button.setVisible(upload is not None)
        for button in (self.prove_button, self.save_button, self.upload_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(QCoreApplication.translate("TaskEditor", "Checks"), self))
        layout.addWidget(self.checks_list, 1)
        layout.addWidget(QLabel(QCoreApplication.translate("TaskEditor", "The fault"), self))
        layout.addWidget(self.device_combo)
        layout.addWidget(QLabel(QCoreApplication.translate("TaskEditor", "Break it with:"), self))
        layout.addWidget(self.inject_edit)
        layout.addWidget(QLabel(QCoreApplication.translate("TaskEditor", "Undo it with:"), self))
        layout.addWidget(self.undo_edit)
        layout.addWidget(self.status_label)
        layout.addLayout(buttons)
        self.prove_button.clicked.connect(lambda: spawn(self.prove(), name="task-prove"))
        self.save_button.clicked.connect(self.save)
        self.upload_button.clicked.connect(lambda: spawn(self.upload(), name="task-upload"))
        for widget in (self.title_edit, self.ticket_edit, self.inject_edit, self.undo_edit):
            widget.textChanged.connect(self._edited)
        self.checks_list.itemChanged.connect(lambda _item: self._edited())
        self.device_combo.currentIndexChanged.connect(lambda _i: self._edited())
        self._edited()

    # --- replaceable by tests (no modal loop) -----------------------------------------------

    def ask_save_path(self) -> Path | None:
        chosen, _filter = QFileDialog.getSaveFileName(
            self,
            QCoreApplication.translate("TaskEditor", "Save the task"),
            "task.toml",
            "TOML (*.toml)",
        )
        return Path(chosen) if chosen else None

    # --- steps ------------------------------------------------------------------------------

    async def propose(self) -> None:
        """Read the lab: the checks it passes now, the devices a fault can go on."""
        self.status_label.setText(QCoreApplication.translate("TaskEditor", "Reading the lab…"))
        try:
            self.checks = await propose_checks(self._client, self._project_id, logins=self._logins)
            nodes = await self._client.list_nodes(self._project_id)
        except CopilotError as exc:
            self.status_label.setText(exc.user_message)
            return
        self.checks_list.blockSignals(True)
        self.checks_list.clear()
        for check in self.checks:
            item = QListWidgetItem(f"{check.title} ({check.points})", self.checks_list)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
        self.checks_list.blockSignals(False)
        self.device_combo.clear()
        for node in sorted(nodes, key=lambda n: n.name):
            if node.status == "started":
                self.device_combo.addItem(node.name)
        self.status_label.setText(
            QCoreApplication.translate(
                "TaskEditor", "{count} checks pass on the lab now; pick them, then write the fault."
            ).format(count=len(self.checks))
        )
        self._edited()

    def draft_text(self) -> str:
        """The task file as the editor reads now; raises `CopilotError` (a task file error)
        naming what is wrong."""
        chosen = [
            check
            for row, check in enumerate(self.checks)
            if (item := self.checks_list.item(row)) is not None
            and item.checkState() == Qt.CheckState.Checked
        ]
        fault = TaskFault.model_validate(
            {
                "device": self.device_combo.currentText() or "-",
                "inject": _lines(self.inject_edit.toPlainText()),
                "undo": _lines(self.undo_edit.toPlainText()),
            }
        )
        draft = TaskDraft(
            title=self.title_edit.text().strip(),
            ticket=self.ticket_edit.toPlainText().strip(),
            level=str(self.level_combo.currentData()),
            time_limit_min=self.minutes_spin.value(),
            faults=[fault],
            checks=chosen,
        )
        text = render_task(draft)
        parse_task(text)  # the file reads back as the same task, or says what is wrong
        return text

    async def prove(self) -> None:
        try:
            text = self.draft_text()
        except (CopilotError, ValueError) as exc:
            self.status_label.setText(getattr(exc, "user_message", None) or _first_error(exc))
            return
        self.prove_button.setEnabled(False)
        self.status_label.setText(
            QCoreApplication.translate(
                "TaskEditor", "Proving on the lab: checks, the fault, checks, undo…"
            )
        )
        try:
            runner = TaskRunner(
                self._client, self._project_id, self._client.base_url, logins=self._logins
            )
            proof = await runner.prove(parse_task(text))
        except CopilotError as exc:
            self.status_label.setText(exc.user_message)
            return
        finally:
            self.prove_button.setEnabled(True)
        if not proof.ok:
            self.status_label.setText("\n".join(proof.problems))
            return
        failing = sum(r.state == "fail" for r in proof.injected)
        self.proved_text = text
        self.status_label.setText(
            QCoreApplication.translate(
                "TaskEditor",
                "Proved: every check passes on the lab, {failing} fail with the fault in, all "
                "pass again once it is undone. The lab is as it was.",
            ).format(failing=failing)
        )
        self._buttons()

    def save(self) -> None:
        if self.proved_text is None:
            return
        path = self.ask_save_path()
        if path is None:
            return
        try:
            path.write_text(self.proved_text, encoding="utf-8")
        except OSError as exc:
            self.status_label.setText(str(exc))
            return
        self.status_label.setText(
            QCoreApplication.translate("TaskEditor", "Saved to {name}.").format(name=path.name)
        )

    async def upload(self) -> None:
        if self.proved_text is None or self._upload is None:
            return
        try:
            await self._upload(_file_name(self.title_edit.text()), self.proved_text)
        except CopilotError as exc:
            self.status_label.setText(exc.user_message)
            return
        self.status_label.setText(
            QCoreApplication.translate("TaskEditor", "Uploaded: the task can go into an exam.")
        )

    def _edited(self) -> None:
        self.proved_text = None  # any edit asks for a new proof
        self._buttons()

    def _buttons(self) -> None:
        proved = self.proved_text is not None
        self.save_button.setEnabled(proved)
        self.upload_button.setEnabled(proved)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _file_name(title: str) -> str:
    stem = "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-")[:60]
    return f"{stem or 'task'}.toml"


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{where}: {first.get('msg', '')}".strip(": ")
    return str(exc)


def open_task_editor(parent: QWidget, backend: object) -> TaskEditor | None:
    """The editor on the lab open in the dock (None, saying why in ``parent``'s way, when no
    lab is open or nobody is logged in); it starts by reading the lab."""
    from gns3_copilot_desktop.ui.backends.base import classroom_client

    workspace = getattr(backend, "workspace", None)
    project_id = getattr(backend, "project_id", None)
    if workspace is None or project_id is None:
        return None
    client = workspace.check_login()
    classroom = classroom_client(backend)
    editor = TaskEditor(
        client,
        project_id,
        classroom.add_task if classroom else None,
        parent,
        logins=workspace.console_logins_for(project_id),
    )
    editor.resize(460, 640)
    editor.open()
    spawn(editor.propose(), name="task-propose")
    return editor
