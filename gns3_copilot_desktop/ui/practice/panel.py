"""The Practice panel: start an exercise on the lab, check the fix, ask for hints, give up.

It sits above the composer of a Practice session and talks to the project's `PracticeEngine`
(the backend's ``practice()``; a copilot service on another computer has none). Starting asks
the engine to prepare an exercise and shows its sealed approval with the app's `ApprovalCard`;
nothing in the lab changes before Approve. Each slow step shows what it does and for how long.
An exercise opens with its ticket (the symptom as a user would report it). While it runs the
panel shows the elapsed time, each check as passed, failed or "cannot check" (never which
fault), and the hints given so far, below the buttons in a results area of its own height, so
the buttons stay where they are and the chat keeps at least half of the dock. Give up asks
first. The answer appears only once the exercise ended (solved or given up). The conversation
shows the injection as one "Injected (sealed)" item until then.

Every engine error is shown in the panel with its text; the buttons come back.
"""

from __future__ import annotations

import asyncio
import getpass
import time
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QShowEvent
from PyQt6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.errors import CopilotError, ServicesClosedError
from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.package import SUFFIX, TrainerKey
from gns3_copilot_desktop.core.practice.store import PracticeError
from gns3_copilot_desktop.core.practice.trust import TrainerKeys
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk
from gns3_copilot_desktop.ui.backends.base import UserDecision, practice_engine
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.file_folders import FileFolders
from gns3_copilot_desktop.ui.qt_async import modal, spawn
from gns3_copilot_desktop.ui.sessions.panel import documents_folder

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.practice.engine import CheckReport, PracticeEngine, Reveal
    from gns3_copilot_desktop.core.practice.store import ExerciseRecord
    from gns3_copilot_desktop.ui.chat.message_view import MessageView

DIFFICULTIES = ("beginner", "intermediate", "advanced")
RESULTS_HEIGHT = 130
"""The fixed height of the checks, hints and answer area (it scrolls beyond)."""
INJECT_TOOL = "inject_practice_faults"  # the engine's name for the sealed injection


def difficulty_name(level: str) -> str:
    """A level as the learner reads it."""
    names = {
        "beginner": QCoreApplication.translate("PracticePanel", "Beginner"),
        "intermediate": QCoreApplication.translate("PracticePanel", "Intermediate"),
        "advanced": QCoreApplication.translate("PracticePanel", "Advanced"),
    }
    return names.get(level, level)


def status_name(status: str) -> str:
    """An exercise's status as the learner reads it."""
    names = {
        "planned": QCoreApplication.translate("PracticePanel", "waiting for approval"),
        "cancelled": QCoreApplication.translate("PracticePanel", "cancelled"),
        "active": QCoreApplication.translate("PracticePanel", "in progress"),
        "solved": QCoreApplication.translate("PracticePanel", "solved"),
        "given_up": QCoreApplication.translate("PracticePanel", "given up"),
    }
    return names.get(status, status)


def duration_text(seconds: int) -> str:
    """``4 min 05 s`` (or ``42 s``)."""
    minutes, rest = divmod(max(0, seconds), 60)
    if minutes:
        return (
            QCoreApplication.translate("PracticePanel", "%1 min %2 s")
            .replace("%1", str(minutes))
            .replace("%2", f"{rest:02d}")
        )
    return QCoreApplication.translate("PracticePanel", "%1 s").replace("%1", str(rest))


def past_row(record: ExerciseRecord) -> str:
    """One line of the past exercises: date, level, topic, status, score."""
    when = record.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
    topic = record.topic or QCoreApplication.translate("PracticePanel", "any topic")
    parts = [when, difficulty_name(record.difficulty), topic, status_name(record.status)]
    if record.score is not None and record.ended:
        parts.append(
            QCoreApplication.translate("PracticePanel", "score %1").replace("%1", str(record.score))
        )
    return " · ".join(parts)


def reveal_text(reveal: Reveal) -> str:
    """The answer: each fault, where, its symptoms and how to undo it."""
    lines: list[str] = []
    for number, fault in enumerate(reveal.faults, 1):
        lines.append(
            QCoreApplication.translate("PracticePanel", "Fault %1: %2 (on %3)")
            .replace("%1", str(number))
            .replace("%2", fault.title)
            .replace("%3", fault.where)
        )
        lines.append(
            QCoreApplication.translate("PracticePanel", "Symptoms: %1").replace(
                "%1", fault.symptoms
            )
        )
        if fault.undo:
            lines.append(QCoreApplication.translate("PracticePanel", "How to undo it:"))
            lines += [f"    {step}" for step in fault.undo]
    return "\n".join(lines)


def score_text(reveal: Reveal) -> str:
    """Time, hints used and score of a solved exercise."""
    return (
        QCoreApplication.translate("PracticePanel", "Solved in %1 with %2 hint(s). Score: %3/100.")
        .replace("%1", duration_text(reveal.seconds))
        .replace("%2", str(reveal.hints_used))
        .replace("%3", str(reveal.score))
    )


def checks_text(report: CheckReport) -> str:
    """Each check, passed, failed or cannot check (the checks never name the fault)."""
    lines = []
    for check in report.checks:
        if check.state == "cannot_check":
            reason = core_text(check.reason) if check.reason else ""
            state = QCoreApplication.translate("PracticePanel", "cannot check (%1)").replace(
                "%1", reason
            )
            lines.append(f"? {check.title}: {state}")
            continue
        mark = "✔" if check.passed else "✘"
        state = (
            QCoreApplication.translate("PracticePanel", "passed")
            if check.passed
            else QCoreApplication.translate("PracticePanel", "failed")
        )
        lines.append(f"{mark} {check.title}: {state}")
    return "\n".join(lines)


def _plain_label(parent: QWidget, name: str = "") -> QLabel:
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # lab names and catalog text are data
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    if name:
        label.setObjectName(name)
    return label


class PracticePanel(QFrame):
    """Exercises of one Practice session. Call `set_session` when the chat opens one."""

    folders: FileFolders | None = None
    """Where the exercise file dialogs open (set by the composition root)."""

    exercise_ended = pyqtSignal(str)
    """An exercise was solved or given up (its id)."""

    def __init__(
        self, backend: object, view: MessageView | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("practicePanel")
        self.setStyleSheet("QFrame#practicePanel { border-top: 1px solid palette(mid); }")
        self.setAccessibleName(QCoreApplication.translate("PracticePanel", "Practice"))
        self._backend = backend
        self._view = view
        self.engine: PracticeEngine | None = None
        self.session_id: str | None = None
        self.exercise_id: str | None = None
        self.started_at: datetime | None = None
        self.hints: list[str] = []
        self.fault_ids: list[str] | None = None
        """A trainer's (or a test's) choice of faults instead of a draw."""
        self.trainer_keys: TrainerKeys | None = _trainer_keys_of(backend)
        """The trainer's signing key and the pinned trainer keys (None: exercise files cannot
        be exported or imported here)."""
        self.trust_box: QMessageBox | None = None
        self.give_up_box: QMessageBox | None = None
        """The open "Give up this exercise?" question (tests answer it)."""
        self._card: ApprovalCard | None = None
        self._ended_id: str | None = None
        self._restore_request: ApprovalRequest | None = None
        self._busy = False
        self._progress = ""
        self._progress_since = 0.0
        self._watched: QWidget | None = None
        self._build()
        self._timer = QTimer(self)
        self._timer.setInterval(1000)
        self._timer.timeout.connect(self._tick)
        self._progress_timer = QTimer(self)
        self._progress_timer.setInterval(500)
        self._progress_timer.timeout.connect(self._tick_progress)
        self._show_idle()
        self._set_enabled(False)  # until `set_session` found the project's engine

    # --- layout -----------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(4)
        self.setup_row = QWidget(self)
        setup = QHBoxLayout(self.setup_row)
        setup.setContentsMargins(0, 0, 0, 0)
        self.difficulty_combo = QComboBox(self.setup_row)
        self.difficulty_combo.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Difficulty")
        )
        for level in DIFFICULTIES:
            self.difficulty_combo.addItem(difficulty_name(level), level)
        self.topic_combo = QComboBox(self.setup_row)
        self.topic_combo.setAccessibleName(QCoreApplication.translate("PracticePanel", "Topic"))
        self.topic_combo.addItem(QCoreApplication.translate("PracticePanel", "Any"), None)
        self.count_spin = QSpinBox(self.setup_row)
        self.count_spin.setRange(1, 3)
        self.count_spin.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Number of faults")
        )
        self.count_spin.setToolTip(QCoreApplication.translate("PracticePanel", "Number of faults"))
        spin_edit = self.count_spin.lineEdit()
        if spin_edit is not None:
            spin_edit.setAccessibleName(
                QCoreApplication.translate("PracticePanel", "Number of faults")
            )
        self.start_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Start exercise"), self.setup_row
        )
        self.start_button.setAutoDefault(False)
        self.start_button.clicked.connect(lambda: self._spawn(self._start()))
        setup.addWidget(self.difficulty_combo)
        setup.addWidget(self.topic_combo, 1)
        setup.addWidget(self.count_spin)
        setup.addWidget(self.start_button)
        layout.addWidget(self.setup_row)

        # A trainer's exercise: export the prepared one, import one, start an imported one.
        self.trainer_row = QWidget(self)
        trainer = QHBoxLayout(self.trainer_row)
        trainer.setContentsMargins(0, 0, 0, 0)
        self.imported_label = QLabel(
            QCoreApplication.translate(
                "PracticePanel", "A trainer's exercise is ready in this project."
            ),
            self.trainer_row,
        )
        self.imported_label.setWordWrap(True)
        self.start_imported_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Start the trainer's exercise"),
            self.trainer_row,
        )
        self.export_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Export for students…"), self.trainer_row
        )
        self.export_button.setToolTip(
            QCoreApplication.translate(
                "PracticePanel",
                "Save this exercise and the lab as it is now in one file, encrypted with a "
                "passphrase, for students to import. Nothing is injected here.",
            )
        )
        self.import_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Import an exercise…"), self.trainer_row
        )
        for button in (self.start_imported_button, self.export_button, self.import_button):
            button.setAutoDefault(False)
            button.setAccessibleName(button.text())
        self.start_imported_button.clicked.connect(lambda: self._spawn(self._start_imported()))
        self.export_button.clicked.connect(lambda: self._spawn(self._export()))
        self.import_button.clicked.connect(lambda: self._spawn(self._import()))
        trainer.addWidget(self.imported_label, 1)
        trainer.addWidget(self.start_imported_button)
        trainer.addWidget(self.export_button)
        trainer.addStretch(0)
        trainer.addWidget(self.import_button)
        self.imported_label.hide()
        self.start_imported_button.hide()
        self.export_button.hide()
        layout.addWidget(self.trainer_row)

        self.card_host = QVBoxLayout()
        self.card_host.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.card_host)

        self.active_row = QWidget(self)
        active = QHBoxLayout(self.active_row)
        active.setContentsMargins(0, 0, 0, 0)
        self.elapsed_label = QLabel(self.active_row)
        self.elapsed_label.setObjectName("muted")
        self.check_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Check my fix"), self.active_row
        )
        self.hint_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Hint"), self.active_row
        )
        self.give_up_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Give up"), self.active_row
        )
        for button in (self.start_button, self.check_button, self.hint_button, self.give_up_button):
            button.setAutoDefault(False)
            button.setAccessibleName(button.text())
        self.check_button.clicked.connect(lambda: self._spawn(self._check()))
        self.hint_button.clicked.connect(lambda: self._spawn(self._hint()))
        self.give_up_button.clicked.connect(lambda: self._spawn(self._give_up()))
        active.addWidget(self.elapsed_label, 1)
        active.addWidget(self.check_button)
        active.addWidget(self.hint_button)
        active.addWidget(self.give_up_button)
        layout.addWidget(self.active_row)

        self.ticket_label = _plain_label(self)
        self.ticket_label.setAccessibleName(QCoreApplication.translate("PracticePanel", "Ticket"))
        self.ticket_label.setStyleSheet(
            "QLabel { border-left: 3px solid palette(highlight); padding-left: 6px; }"
        )
        self.ticket_label.hide()
        layout.addWidget(self.ticket_label)
        self.status_label = _plain_label(self, "muted")
        self.error_label = _plain_label(self, "errorText")
        self.error_label.setStyleSheet("color: #c62828;")
        self.checks_label = _plain_label(self)
        self.checks_label.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Check results")
        )
        self.hints_label = _plain_label(self)
        self.hints_label.setAccessibleName(QCoreApplication.translate("PracticePanel", "Hints"))
        self.headline_label = _plain_label(self)
        font = self.headline_label.font()
        font.setBold(True)
        self.headline_label.setFont(font)
        self.answer_label = _plain_label(self)
        self.answer_label.setAccessibleName(QCoreApplication.translate("PracticePanel", "Answer"))
        layout.addWidget(self.status_label)
        layout.addWidget(self.error_label)
        # Checks, hints and the answer grow in their own scrolling area below the buttons: the
        # panel keeps its height, so a new hint never moves a button nor squeezes the chat.
        self.results = QScrollArea(self)
        self.results.setObjectName("practiceResults")
        self.results.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Checks, hints and the answer")
        )
        self.results.setWidgetResizable(True)
        self.results.setFrameShape(QFrame.Shape.NoFrame)
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget(self.results)
        results = QVBoxLayout(inner)
        results.setContentsMargins(0, 0, 0, 0)
        for label in (self.checks_label, self.hints_label, self.headline_label, self.answer_label):
            label.setParent(inner)
            results.addWidget(label)
        results.addStretch(1)
        self.results.setWidget(inner)
        self.results.setFixedHeight(RESULTS_HEIGHT)
        self.results.hide()
        layout.addWidget(self.results)

        self.past_toggle = QToolButton(self)
        self.past_toggle.setText(QCoreApplication.translate("PracticePanel", "Past exercises"))
        self.past_toggle.setCheckable(True)
        self.past_toggle.setAutoRaise(True)
        self.past_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.past_toggle.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Past exercises")
        )
        self.past_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.past_list = QListWidget(self)
        self.past_list.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Past exercises")
        )
        self.past_list.setMaximumHeight(110)
        self.past_list.hide()
        self.past_toggle.toggled.connect(self._toggle_past)
        layout.addWidget(self.past_toggle)
        layout.addWidget(self.past_list)

    # --- the chat keeps at least half of the height --------------------------------------------

    def showEvent(self, event: QShowEvent | None) -> None:
        """Follow the parent's height from the first show on (see `eventFilter`)."""
        parent = self.parentWidget()
        if parent is not None and parent is not self._watched:
            if self._watched is not None:
                self._watched.removeEventFilter(self)
            parent.installEventFilter(self)
            self._watched = parent
            self._fit(parent.height())
        super().showEvent(event)

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        """The parent was resized: the panel takes at most half of it."""
        if watched is self._watched and event is not None and event.type() == QEvent.Type.Resize:
            assert self._watched is not None
            self._fit(self._watched.height())
        return False

    def _fit(self, parent_height: int) -> None:
        limit = max(120, parent_height // 2)
        self.setMaximumHeight(limit)
        # the results area gives way first; the buttons and the ticket stay whole
        self.results.setFixedHeight(max(48, min(RESULTS_HEIGHT, limit - 150)))

    def _toggle_past(self, shown: bool) -> None:
        self.past_list.setVisible(shown)
        arrow = Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow
        self.past_toggle.setArrowType(arrow)

    def texts(self) -> list[str]:
        """Every text the panel shows (labels, list rows, buttons, tooltips): for tests."""
        found: list[str] = []
        for widget in [self, *self.findChildren(QWidget)]:
            for getter in ("text", "toolTip", "accessibleName", "currentText"):
                value = getattr(widget, getter, None)
                if callable(value):
                    text = value()
                    if isinstance(text, str) and text:
                        found.append(text)
        found += [self.past_list.item(i).text() for i in range(self.past_list.count())]  # type: ignore[union-attr]
        return found

    # --- states -----------------------------------------------------------------------------

    def _show_idle(self) -> None:
        self.exercise_id = None
        self.started_at = None
        self._timer.stop()
        self.setup_row.setVisible(True)
        self.trainer_row.setVisible(True)
        self.export_button.setVisible(False)
        self.active_row.setVisible(False)

    def _show_active(self, started_at: datetime | None) -> None:
        self.started_at = started_at or datetime.now(UTC)
        self.setup_row.setVisible(False)
        self.trainer_row.setVisible(False)
        self.active_row.setVisible(True)
        self._tick()
        self._timer.start()

    def _tick(self) -> None:
        if self.started_at is None:
            return
        seconds = int((datetime.now(UTC) - self.started_at).total_seconds())
        self.elapsed_label.setText(
            QCoreApplication.translate("PracticePanel", "Exercise running: %1").replace(
                "%1", duration_text(seconds)
            )
        )

    def _set_enabled(self, enabled: bool) -> None:
        available = enabled and self.engine is not None
        for widget in (
            self.start_button,
            self.difficulty_combo,
            self.topic_combo,
            self.count_spin,
            self.check_button,
            self.hint_button,
            self.give_up_button,
            self.start_imported_button,
            self.export_button,
            self.import_button,
        ):
            widget.setEnabled(available)

    def _say(self, text: str) -> None:
        self.status_label.setText(text)
        self.status_label.setVisible(bool(text))

    def _error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def _clear_results(self) -> None:
        for label in (self.checks_label, self.hints_label, self.headline_label, self.answer_label):
            label.clear()
            label.hide()
        self.results.hide()
        self.ticket_label.clear()
        self.ticket_label.hide()
        self.hints = []

    def _show_result(self, label: QLabel, text: str) -> None:
        """Put ``text`` in one label of the results area, shown, scrolled to it."""
        label.setText(text)
        label.show()
        self.results.show()
        self.results.ensureWidgetVisible(label)

    def _show_ticket(self, ticket: str) -> None:
        self.ticket_label.setText(
            QCoreApplication.translate("PracticePanel", "Ticket: %1").replace("%1", ticket)
        )
        self.ticket_label.setVisible(bool(ticket))

    def _drop_card(self) -> None:
        self.export_button.setVisible(False)
        if self._card is not None:
            self._card.hide()
            self._card.deleteLater()
            self._card = None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        spawn(work, name="practice-action")

    async def _guarded(self, progress: str, work: Callable[[], Awaitable[None]]) -> bool:
        """Run one engine call: buttons off meanwhile, its error shown, buttons back."""
        if self._busy or self.engine is None:
            return False
        self._busy = True
        self._set_enabled(False)
        self._error("")
        self._progress, self._progress_since = progress, time.monotonic()
        if progress:  # a quick step (a hint) leaves the status line, and the layout, alone
            self._say(progress)
            self._progress_timer.start()
        ok = False
        try:
            await work()
            ok = True
        except ServicesClosedError:
            raise
        except CopilotError as exc:
            if not sip.isdeleted(self):
                self._say("")
                self._error(core_text(exc.user_message))
        finally:
            self._busy = False
            if not sip.isdeleted(self):
                self._progress_timer.stop()
                self._progress = ""
                self._set_enabled(True)
        return ok

    def _tick_progress(self) -> None:
        """The step under way with its elapsed time ("Injecting… 3 s")."""
        if not self._progress or not self.status_label.text().startswith(self._progress):
            return  # the step already said how it went
        seconds = int(time.monotonic() - self._progress_since)
        self._say(f"{self._progress} {duration_text(seconds)}")

    # --- session ----------------------------------------------------------------------------

    async def set_session(self, session_id: str | None) -> None:
        """Show the exercises of `session_id` (a Practice session of the current project)."""
        self.session_id = session_id
        self._drop_card()
        self._clear_results()
        self._say("")
        self._error("")
        self._show_idle()
        try:
            self.engine = await practice_engine(self._backend)
        except ServicesClosedError:
            raise
        except CopilotError as exc:
            self.engine = None
            self._error(exc.user_message)
            self._set_enabled(False)
            return
        if self.engine is None:
            self._say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Practice needs the local agent: exercises run only when the copilot runs "
                    "on this computer (Settings, Copilot runs on).",
                )
            )
            self._set_enabled(False)
            return
        self._set_enabled(True)
        await self._guarded("", self._load)

    async def _load(self) -> None:
        assert self.engine is not None
        history = await self.engine.history()
        self._fill_past(history)
        active = next(
            (r for r in history if r.session_id == self.session_id and r.status == "active"), None
        )
        if active is not None:
            self.exercise_id = active.exercise_id
            self._show_active(active.started_at)
            self._show_ticket(active.ticket)
            self._sealed_item(active.exercise_id)
        await self._show_imported()
        topics = await self.engine.topics()
        chosen = self.topic_combo.currentData()
        self.topic_combo.clear()
        self.topic_combo.addItem(QCoreApplication.translate("PracticePanel", "Any"), None)
        for topic in topics:
            self.topic_combo.addItem(topic, topic)
        index = self.topic_combo.findData(chosen)
        self.topic_combo.setCurrentIndex(max(0, index))

    def _fill_past(self, history: list[ExerciseRecord]) -> None:
        self.past_list.clear()
        for record in history:
            if record.status != "planned":
                self.past_list.addItem(past_row(record))
        self.past_toggle.setText(
            QCoreApplication.translate("PracticePanel", "Past exercises (%1)").replace(
                "%1", str(self.past_list.count())
            )
        )

    async def _refresh_past(self) -> None:
        if self.engine is not None:
            self._fill_past(await self.engine.history())

    # --- start ------------------------------------------------------------------------------

    async def _start(self) -> None:
        if self.session_id is None:
            return
        session_id = self.session_id

        async def prepare() -> None:
            assert self.engine is not None
            plan = await self.engine.prepare(
                session_id,
                difficulty=str(self.difficulty_combo.currentData()),
                topic=self.topic_combo.currentData(),
                count=self.count_spin.value(),
                fault_ids=self.fault_ids,
            )
            self._clear_results()
            self.exercise_id = plan.exercise_id
            self._say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Approve to start: the faults go into the running lab; nothing is stopped.",
                )
            )
            self._show_card(plan.approval, self._inject_decided)
            self.setup_row.setVisible(False)
            self.export_button.setVisible(True)  # a trainer may give it to students instead

        await self._guarded(
            QCoreApplication.translate("PracticePanel", "Reading the lab and choosing faults…"),
            prepare,
        )

    # --- a trainer's exercise ---------------------------------------------------------------

    async def _show_imported(self) -> None:
        waiting = await self.engine.imported_exercise() if self.engine is not None else None
        self.imported_label.setVisible(waiting is not None)
        self.start_imported_button.setVisible(waiting is not None)

    async def _start_imported(self) -> None:
        if self.session_id is None:
            return
        session_id = self.session_id

        async def prepare() -> None:
            assert self.engine is not None
            plan = await self.engine.prepare_imported(session_id)
            self._clear_results()
            self.exercise_id = plan.exercise_id
            self.imported_label.hide()
            self.start_imported_button.hide()
            self._say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Approve to start: the faults go into the running lab; nothing is stopped.",
                )
            )
            self._show_card(plan.approval, self._inject_decided)
            self.setup_row.setVisible(False)

        await self._guarded(
            QCoreApplication.translate("PracticePanel", "Reading the lab and checking it works…"),
            prepare,
        )

    async def _export(self) -> None:
        exercise_id = self.exercise_id
        if exercise_id is None:
            return
        passphrase = await modal(lambda: self.ask_passphrase(True))
        if passphrase is None:
            return
        path = await modal(self.ask_export_path)
        if path is None:
            return
        target = path if path.suffix == SUFFIX else path.with_name(path.name + SUFFIX)

        async def export() -> None:
            assert self.engine is not None
            signer = await self._keys().signer(self.trainer_name())
            data = await self.engine.export_package(exercise_id, passphrase, signer)
            await asyncio.to_thread(_write_file, target, data)
            self._say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Exported to %1, signed by %2 (key fingerprint %3). Give students the file "
                    "and, separately, the passphrase; tell them the fingerprint so that they can "
                    "check it on their first import.",
                )
                .replace("%1", str(target))
                .replace("%2", signer.trainer)
                .replace("%3", signer.public.fingerprint)
            )

        await self._guarded(
            QCoreApplication.translate(
                "PracticePanel",
                "Trying each fault on the lab, then stopping the lab to export it… (it starts "
                "again after)",
            ),
            export,
        )

    async def _import(self) -> None:
        path = await modal(self.ask_import_path)
        if path is None:
            return
        passphrase = await modal(lambda: self.ask_passphrase(False))
        if passphrase is None:
            return

        async def import_() -> None:
            assert self.engine is not None
            try:
                data = await asyncio.to_thread(path.read_bytes)
            except OSError as exc:
                raise PracticeError(
                    QCoreApplication.translate("PracticePanel", "Cannot read %1: %2")
                    .replace("%1", str(path))
                    .replace("%2", exc.strerror or str(exc))
                ) from exc
            keys = self._keys()
            signer = await asyncio.to_thread(package.signer_of, data)
            trusted = await keys.trusted(signer.trainer)
            first_use = trusted is None
            if trusted is None:
                if not await self.ask_trust(signer):
                    self._say(
                        QCoreApplication.translate(
                            "PracticePanel", "Not imported: the trainer's key was not trusted."
                        )
                    )
                    return
                trusted = signer
            project, exercise = await self.engine.import_exercise(data, passphrase, trusted)
            if first_use:  # pinned once the file opened with the class passphrase
                await keys.pin(trusted)
            # kept beside the new project's own conversations, where its sessions will look
            target = await practice_engine(self._backend, project.project_id)
            if target is None:
                raise PracticeError(
                    QCoreApplication.translate(
                        "PracticePanel", "Exercises run only with the local agent."
                    )
                )
            await target.keep_imported(exercise)
            self._say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "The lab was imported as the project “%1”. Open it in GNS3, then start the "
                    "trainer's exercise from a Practice session there.",
                ).replace("%1", project.name)
            )

        await self._guarded(
            QCoreApplication.translate("PracticePanel", "Importing the exercise…"), import_
        )

    def _keys(self) -> TrainerKeys:
        if self.trainer_keys is None:
            raise PracticeError(
                QCoreApplication.translate(
                    "PracticePanel", "Exercise files need the local agent's keyring and settings."
                )
            )
        return self.trainer_keys

    def trainer_name(self) -> str:
        """The name exercise files are signed with: the GNS3 login, else the computer's user."""
        workspace = getattr(self._backend, "workspace", None)
        name = workspace.saved_username() if workspace is not None else ""
        return name or getpass.getuser() or "trainer"

    # The dialogs, replaceable (tests answer them without a modal loop).

    async def ask_trust(self, key: TrainerKey) -> bool:
        """Whether to trust ``key`` for its trainer from now on (the first file from them).
        Asked without a nested event loop (a modal exec would wedge the GNS3 GUI's tasks)."""
        text = (
            QCoreApplication.translate(
                "PracticePanel",
                "This exercise is signed by %1, whose key this computer has not seen before.\n\n"
                "Key fingerprint: %2\n\nCompare it with the fingerprint your trainer gave you. "
                "If you trust it, files from %1 signed by any other key will be refused.",
            )
            .replace("%1", key.trainer)
            .replace("%2", key.fingerprint)
        )
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("PracticePanel", "Trust this trainer's key?"),
            text,
            QMessageBox.StandardButton.Cancel,
            self.window(),
        )
        box.setTextFormat(Qt.TextFormat.PlainText)  # the trainer's name is the file's data
        trust = box.addButton(
            QCoreApplication.translate("PracticePanel", "Trust and import"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        self.trust_box = box
        answered: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def finished(_result: int) -> None:
            if not answered.done():
                answered.set_result(box.clickedButton() is trust)

        box.finished.connect(finished)
        box.open()
        try:
            return await answered
        finally:
            self.trust_box = None
            box.deleteLater()

    async def ask_give_up(self) -> bool:
        """Whether the learner really gives up (the answer is shown and the score is 0).
        Asked without a nested event loop, like `ask_trust`."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("PracticePanel", "Give up this exercise?"),
            QCoreApplication.translate(
                "PracticePanel",
                "The answer will be shown and the exercise scores 0. You can then undo the "
                "faults in the lab.",
            ),
            QMessageBox.StandardButton.Cancel,
            self.window(),
        )
        give_up = box.addButton(
            QCoreApplication.translate("PracticePanel", "Give up and show the answer"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        self.give_up_box = box
        answered: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def finished(_result: int) -> None:
            if not answered.done():
                answered.set_result(box.clickedButton() is give_up)

        box.finished.connect(finished)
        box.open()
        try:
            return await answered
        finally:
            self.give_up_box = None
            box.deleteLater()

    def ask_passphrase(self, confirm: bool) -> str | None:
        """The passphrase (asked twice to export); None when cancelled or not the same."""
        title = QCoreApplication.translate("PracticePanel", "Exercise passphrase")
        first, ok = QInputDialog.getText(
            self,
            title,
            QCoreApplication.translate(
                "PracticePanel", "Passphrase (at least 8 characters; students need it to import):"
            )
            if confirm
            else QCoreApplication.translate("PracticePanel", "The passphrase from your trainer:"),
            QLineEdit.EchoMode.Password,
        )
        if not ok:
            return None
        if confirm:
            second, ok = QInputDialog.getText(
                self,
                title,
                QCoreApplication.translate("PracticePanel", "The same passphrase again:"),
                QLineEdit.EchoMode.Password,
            )
            if not ok:
                return None
            if second != first:
                self._error(
                    QCoreApplication.translate(
                        "PracticePanel", "The two passphrases differ: nothing was exported."
                    )
                )
                return None
        return first

    def ask_export_path(self) -> Path | None:
        """Where to save the exercise file (the documents folder is proposed)."""
        path, _ = QFileDialog.getSaveFileName(
            self,
            QCoreApplication.translate("PracticePanel", "Export the exercise"),
            str(
                self.folders.proposed("exercises", "exercise", SUFFIX)
                if self.folders is not None
                else documents_folder() / f"exercise{SUFFIX}"
            ),
            QCoreApplication.translate("PracticePanel", "GNS3 Copilot exercises (*%1)").replace(
                "%1", SUFFIX
            ),
        )
        if path and self.folders is not None:
            self.folders.remember("exercises", Path(path))
        return Path(path) if path else None

    def ask_import_path(self) -> Path | None:
        """The exercise file to import."""
        path, _ = QFileDialog.getOpenFileName(
            self,
            QCoreApplication.translate("PracticePanel", "Import an exercise"),
            str(self.folders.folder("exercises")) if self.folders is not None else "",
            QCoreApplication.translate("PracticePanel", "GNS3 Copilot exercises (*%1)").replace(
                "%1", SUFFIX
            ),
        )
        if path and self.folders is not None:
            self.folders.remember("exercises", Path(path))
        return Path(path) if path else None

    def _show_card(
        self, request: ApprovalRequest, decided: Callable[[list[UserDecision]], None]
    ) -> None:
        self._drop_card()
        card = ApprovalCard([request], self)
        for item in card.items:
            item.always.hide()  # an exercise is approved each time, never "always"
        card.decided.connect(decided)
        self.card_host.addWidget(card)
        self._card = card

    def _inject_decided(self, decisions: list[UserDecision]) -> None:
        approved = bool(decisions) and decisions[0].action == "approve"
        self._spawn(self._approve() if approved else self._reject())

    async def _approve(self) -> None:
        exercise_id = self.exercise_id
        if exercise_id is None:
            return

        async def inject() -> None:
            assert self.engine is not None
            record = await self.engine.approve(exercise_id)
            self._drop_card()
            self._say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Exercise started (every fault confirmed): find what is broken and fix it.",
                )
            )
            self._show_active(record.started_at)
            self._show_ticket(record.ticket)
            self._sealed_item(exercise_id)
            await self._refresh_past()

        ok = await self._guarded(
            QCoreApplication.translate(
                "PracticePanel", "Injecting the faults and confirming each on its device…"
            ),
            inject,
        )
        if not ok and not sip.isdeleted(self):
            self._drop_card()
            self._show_idle()

    async def _reject(self) -> None:
        exercise_id = self.exercise_id
        if exercise_id is None:
            return

        async def reject() -> None:
            assert self.engine is not None
            await self.engine.reject(exercise_id)
            self._drop_card()
            self._show_idle()
            await self._refresh_past()

        if await self._guarded("", reject):
            self._say(QCoreApplication.translate("PracticePanel", "Nothing was injected."))
        elif not sip.isdeleted(self):
            self._drop_card()  # the plan stays unapproved: nothing was injected either way
            self._show_idle()

    # --- during the exercise ----------------------------------------------------------------

    async def _check(self) -> None:
        exercise_id = self.exercise_id
        if exercise_id is None:
            return

        async def check() -> None:
            assert self.engine is not None
            report = await self.engine.check(exercise_id)
            self._show_result(self.checks_label, checks_text(report))
            if report.solved and report.reveal is not None:
                self._ended(exercise_id, report.reveal, score_text(report.reveal))
            elif any(c.state == "cannot_check" for c in report.checks):
                self._say(
                    QCoreApplication.translate(
                        "PracticePanel",
                        "Some checks cannot run: the lab changed (a node or link the exercise "
                        "uses is gone, replaced or stopped). Put it back, then check again.",
                    )
                )
            else:
                self._say(
                    QCoreApplication.translate(
                        "PracticePanel", "Not fixed yet: some checks failed."
                    )
                )

        await self._guarded(QCoreApplication.translate("PracticePanel", "Checking the lab…"), check)

    async def _hint(self) -> None:
        exercise_id = self.exercise_id
        if exercise_id is None:
            return

        async def hint() -> None:
            assert self.engine is not None
            self.hints.append(await self.engine.hint(exercise_id))
            # the status line stays as it was: a hint changes no height above the results
            self._show_result(self.hints_label, "\n".join(self.hints))

        await self._guarded("", hint)

    async def _give_up(self) -> None:
        exercise_id = self.exercise_id
        if exercise_id is None or self._busy:
            return
        if not await self.ask_give_up():
            return

        async def give_up() -> None:
            assert self.engine is not None
            given = await self.engine.give_up(exercise_id)
            self._ended(
                exercise_id,
                given.reveal,
                QCoreApplication.translate("PracticePanel", "You gave up. Here is the answer."),
            )
            self._restore_request = given.restore
            if given.restore is not None:
                self._say(
                    QCoreApplication.translate(
                        "PracticePanel", "Undo the exercise's faults in the lab?"
                    )
                )
                self._show_card(given.restore, self._restore_decided)

        await self._guarded("", give_up)

    def _restore_decided(self, decisions: list[UserDecision]) -> None:
        if decisions and decisions[0].action == "approve" and self._ended_id is not None:
            self._spawn(self._restore(self._ended_id))
        else:
            self._say(QCoreApplication.translate("PracticePanel", "The lab stays as it is."))

    async def _restore(self, exercise_id: str) -> None:
        async def restore() -> None:
            assert self.engine is not None
            left = await self.engine.restore(exercise_id)
            self._drop_card()
            self._restore_request = None
            text = QCoreApplication.translate("PracticePanel", "The exercise's faults were undone.")
            if left:
                text += " " + QCoreApplication.translate(
                    "PracticePanel", "Left as they are (the lab changed): %1."
                ).replace("%1", "; ".join(core_text(t) for t in left))
            self._say(text)

        ok = await self._guarded(
            QCoreApplication.translate("PracticePanel", "Undoing the faults…"), restore
        )
        if not ok and self._restore_request is not None and not sip.isdeleted(self):
            self._show_card(self._restore_request, self._restore_decided)  # offered again

    def _ended(self, exercise_id: str, reveal: Reveal, headline: str) -> None:
        self._ended_id = exercise_id
        self._timer.stop()
        self._show_idle()
        self._say("")
        self._show_result(self.headline_label, headline)
        self._show_result(self.answer_label, reveal_text(reveal))
        self.results.ensureWidgetVisible(self.headline_label)
        self._unseal_item(exercise_id, reveal)
        self._spawn(self._refresh_after())
        self.exercise_ended.emit(exercise_id)

    async def _refresh_after(self) -> None:
        try:
            await self._refresh_past()
        except CopilotError as exc:
            self._error(exc.user_message)

    # --- the conversation's item ------------------------------------------------------------

    def _sealed_item(self, exercise_id: str) -> None:
        """The injection, in the conversation, as one item that says nothing of the faults."""
        view = self._view
        if view is None:
            return
        call_id = f"practice-inject-{exercise_id}"
        if view.card(call_id) is not None:
            return
        idle = view.current_turn is None
        summary = QCoreApplication.translate("PracticePanel", "Injected (sealed)")
        view.start_tool(
            ChatChunk(
                type="tool_start", tool_call_id=call_id, tool_name=INJECT_TOOL, content=summary
            )
        )
        view.end_tool(
            ChatChunk(
                type="tool_end",
                tool_call_id=call_id,
                tool_name=INJECT_TOOL,
                status="ok",
                tool_output=QCoreApplication.translate(
                    "PracticePanel", "What was injected stays sealed until the exercise ends."
                ),
            )
        )
        if idle:
            view.finish_turn("done")

    def _unseal_item(self, exercise_id: str, reveal: Reveal) -> None:
        view = self._view
        if view is None:
            return
        card = view.card(f"practice-inject-{exercise_id}")
        if card is None:
            return
        titles = "; ".join(f"{f.title} ({f.where})" for f in reveal.faults)
        card.set_summary(
            QCoreApplication.translate("PracticePanel", "Injected: %1").replace("%1", titles)
        )
        card.finish("ok", reveal_text(reveal))


def _trainer_keys_of(backend: object) -> TrainerKeys | None:
    """The local agent's keyring and settings as the trainer keys (a remote backend has none)."""
    workspace = getattr(backend, "workspace", None)
    if workspace is None:
        return None
    return TrainerKeys(workspace.secrets, workspace.settings, workspace.save_settings)


def _write_file(path: Path, data: bytes) -> None:
    """Write next to the target, then move it in place: a failed write leaves no half file."""
    partial = path.with_name(path.name + ".part")
    try:
        partial.write_bytes(data)
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise PracticeError(
            QCoreApplication.translate("PracticePanel", "Cannot write %1: %2")
            .replace("%1", str(path))
            .replace("%2", exc.strerror or str(exc))
        ) from exc
