"""A student's exam in the dock: the ticket, the time left, Start, Hint and Submit, and the
result once submitted. The faults are never here: the service does not send them."""

from __future__ import annotations

import time
from collections.abc import Callable

from PyQt6.QtCore import QCoreApplication, Qt
from PyQt6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from gns3_copilot_desktop.core.classroom_client import CheckOutcome, Exam, ExamAttempt, ExamTask

Action = Callable[[str], None]


def _label(parent: QWidget, *, bold: bool = False, muted: bool = False) -> QLabel:
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # the service's text is never markup here
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if bold:
        font = label.font()
        font.setBold(True)
        label.setFont(font)
    if muted:
        label.setObjectName("muted")
    return label


def left_text(seconds: float) -> str:
    """The time left as a student reads it."""
    seconds = max(0, int(seconds))
    if seconds == 0:
        return QCoreApplication.translate("ClassroomPanel", "Time is over")
    return QCoreApplication.translate("ClassroomPanel", "{minutes} min {seconds} s left").format(
        minutes=seconds // 60, seconds=seconds % 60
    )


class StudentExam(QFrame):
    """One task of an exam, as its student sees and takes it."""

    def __init__(
        self,
        start: Action,
        hint: Action,
        submit: Action,
        parent: QWidget | None = None,
        *,
        check: Action | None = None,
        give_up: Action | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("studentExam")
        self.task: ExamTask | None = None
        self.attempt: ExamAttempt | None = None
        self.assist = "off"
        self.kind = "exam"
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        self.title_label = _label(self, bold=True)
        self.ticket_label = _label(self)
        self.ticket_label.setAccessibleName(QCoreApplication.translate("ClassroomPanel", "Ticket"))
        self.time_label = _label(self, muted=True)
        self.time_label.setAccessibleName(QCoreApplication.translate("ClassroomPanel", "Time left"))
        buttons = QHBoxLayout()
        self.start_button = QPushButton(QCoreApplication.translate("ClassroomPanel", "Start"), self)
        self.start_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Start the task")
        )
        self.hint_button = QPushButton(QCoreApplication.translate("ClassroomPanel", "Hint"), self)
        self.hint_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Show a hint")
        )
        self.submit_button = QPushButton(
            QCoreApplication.translate("ClassroomPanel", "Submit"), self
        )
        self.submit_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Submit the task")
        )
        self.check_button = QPushButton(
            QCoreApplication.translate("ClassroomPanel", "Check my fix"), self
        )
        self.check_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Check the lab now")
        )
        self.give_up_button = QPushButton(
            QCoreApplication.translate("ClassroomPanel", "Give up"), self
        )
        self.give_up_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Give up and see the answer")
        )
        for button in (
            self.start_button,
            self.check_button,
            self.hint_button,
            self.submit_button,
            self.give_up_button,
        ):
            buttons.addWidget(button)
        if check is not None:
            self.check_button.clicked.connect(lambda: self._act(check))
        if give_up is not None:
            self.give_up_button.clicked.connect(lambda: self._act(give_up))
        buttons.addStretch(1)
        self.start_button.clicked.connect(lambda: self._act(start))
        self.hint_button.clicked.connect(lambda: self._act(hint))
        self.submit_button.clicked.connect(lambda: self._act(submit))
        self.hints_label = _label(self)
        self.result_label = _label(self)
        self.result_label.setAccessibleName(QCoreApplication.translate("ClassroomPanel", "Result"))
        for widget in (self.title_label, self.ticket_label, self.time_label):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(self.hints_label)
        layout.addWidget(self.result_label)
        self.hints: list[str] = []
        self.last_checks: list[CheckOutcome] = []

    def _act(self, action: Action) -> None:
        if self.task is not None:
            action(self.task.task_id)

    def show_task(self, exam: Exam, task: ExamTask) -> None:
        """The task and the student's attempt at it, as the service says now."""
        if self.task is None or self.task.task_id != task.task_id:
            self.hints, self.last_checks = [], []
        self.task, self.attempt, self.assist = task, exam.attempt(task.task_id), exam.assist
        self.kind = exam.kind
        self.title_label.setText(
            QCoreApplication.translate(
                "ClassroomPanel", "{title} · {points} points · {minutes} min"
            ).format(title=task.title, points=task.points, minutes=task.time_limit_min)
        )
        self.ticket_label.setText(task.ticket)
        self._show_hints()
        self.result_label.setText(self._result_text(task) or _checks_text(self.last_checks))
        self.result_label.setVisible(bool(self.result_label.text()))
        self.refresh_state(exam, time.time())

    def refresh_state(self, exam: Exam, now: float) -> None:
        """Buttons and time left for the attempt's state (called every second)."""
        attempt = self.attempt
        running = attempt is not None and attempt.status == "running"
        open_now = exam.starts_at <= now < exam.ends_at
        self.start_button.setVisible(attempt is None)
        self.start_button.setEnabled(open_now)
        practice = self.kind == "practice"
        self.submit_button.setVisible(running and not practice)
        self.check_button.setVisible(running and practice)
        self.give_up_button.setVisible(running and practice)
        hints_left = self.task is not None and len(self.hints) < self.task.hints
        self.hint_button.setVisible(running and self.assist != "off" and hints_left)
        if attempt is None:
            self.time_label.setText(
                QCoreApplication.translate("ClassroomPanel", "The exam opens later.")
                if now < exam.starts_at
                else left_text(exam.ends_at - now)
                if open_now
                else QCoreApplication.translate("ClassroomPanel", "The exam is over.")
            )
        elif running:
            self.time_label.setText(left_text(attempt.deadline - now))
        elif attempt is not None and attempt.note == "solved":
            self.time_label.setText(QCoreApplication.translate("ClassroomPanel", "Solved."))
        elif attempt is not None and attempt.note == "gave up":
            self.time_label.setText(QCoreApplication.translate("ClassroomPanel", "You gave up."))
        else:
            self.time_label.setText(QCoreApplication.translate("ClassroomPanel", "Submitted."))

    def _result_text(self, task: ExamTask) -> str:
        attempt = self.attempt
        if attempt is None or attempt.status != "submitted":
            return ""
        lines = [
            QCoreApplication.translate("ClassroomPanel", "Score: {score} of {points}").format(
                score=attempt.score, points=attempt.points
            )
        ]
        if attempt.checks:
            lines.append(_checks_text(attempt.checks))
        if task.answers:
            lines.append(
                QCoreApplication.translate("ClassroomPanel", "The answer:")
                if attempt.note == "gave up"
                else QCoreApplication.translate(
                    "ClassroomPanel", "Answer (released by your trainer):"
                )
            )
            undo = QCoreApplication.translate("ClassroomPanel", "undone with")
            for fault in task.answers:
                broke = "; ".join(fault.get("inject", []))
                fixed = "; ".join(fault.get("undo", []))
                lines.append(f"{fault.get('device', '')}: {broke} ({undo} {fixed})")
        return "\n".join(lines)

    def show_checks(self, checks: list[CheckOutcome]) -> None:
        """A practice check's results (the exercise goes on until they all pass)."""
        self.last_checks = checks
        self.result_label.setText(_checks_text(checks))
        self.result_label.setVisible(bool(checks))

    def add_hint(self, text: str) -> None:
        self.hints.append(text)
        self._show_hints()

    def _show_hints(self) -> None:
        word = QCoreApplication.translate("ClassroomPanel", "Hint {number}:")
        lines = [f"{word.format(number=n)} {h}" for n, h in enumerate(self.hints, start=1)]
        self.hints_label.setText("\n".join(lines))
        self.hints_label.setVisible(bool(lines))


def _checks_text(checks: list[CheckOutcome]) -> str:
    marks = {"pass": "✓", "fail": "✗", "cannot-check": "?"}
    return "\n".join(f"{marks.get(c.state, '·')} {c.title}: {c.message}" for c in checks)
