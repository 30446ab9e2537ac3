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

The panel shows the states; its rows are in `rows`, what its buttons do in `starting`, `running`
and `exercise_files`, its questions in `questions` (over `dialogs`), the conversation's item in
`sealed_item` and its texts in `texts`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication, pyqtSignal
from PyQt6.QtGui import QShowEvent
from PyQt6.QtWidgets import QMessageBox, QPushButton, QVBoxLayout, QWidget

from gns3_copilot_desktop.core.errors import CopilotError, ServicesClosedError
from gns3_copilot_desktop.core.practice.trust import TrainerKeys
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.backends.base import UserDecision, practice_engine
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.practice.exercise_files import ExerciseFiles, trainer_keys_of
from gns3_copilot_desktop.ui.practice.half_height import HalfHeight
from gns3_copilot_desktop.ui.practice.questions import PanelQuestions
from gns3_copilot_desktop.ui.practice.rows import (
    ActiveRow,
    PastExercises,
    ResultsArea,
    SetupRow,
    TrainerRow,
    plain_label,
)
from gns3_copilot_desktop.ui.practice.running import ExerciseRun
from gns3_copilot_desktop.ui.practice.sealed_item import show_sealed
from gns3_copilot_desktop.ui.practice.starting import ExerciseStart
from gns3_copilot_desktop.ui.practice.status_lines import StatusLines
from gns3_copilot_desktop.ui.qt_async import spawn

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.practice.engine import PracticeEngine
    from gns3_copilot_desktop.ui.chat.message_view import MessageView


class PracticePanel(PanelQuestions):
    """Exercises of one Practice session. Call `set_session` when the chat opens one.

    The panel shows the states (idle, waiting for approval, running, ended) and runs each engine
    call through `guarded`; what the buttons do lives in its collaborators: `starting`
    (choose, approve), `running` (check, hint, give up) and `files` (a trainer's exercise files).
    """

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
        self.hints: list[str] = []
        self.fault_ids: list[str] | None = None
        """A trainer's (or a test's) choice of faults instead of a draw."""
        self.trainer_keys: TrainerKeys | None = trainer_keys_of(backend)
        """The trainer's signing key and the pinned trainer keys (None: exercise files cannot
        be exported or imported here)."""
        self.trust_box: QMessageBox | None = None
        self.give_up_box: QMessageBox | None = None
        """The open "Give up this exercise?" question (tests answer it)."""
        self._card: ApprovalCard | None = None
        self._busy = False
        self.starting = ExerciseStart(self, view)
        self.running = ExerciseRun(self, view)
        self.files = ExerciseFiles(self, backend, self.starting)
        self._build()
        self.show_idle()
        self._set_enabled(False)  # until `set_session` found the project's engine

    # --- layout -----------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(4)
        self.setup_row = SetupRow(self)
        self.trainer_row = TrainerRow(self)
        self.card_host = QVBoxLayout()
        self.card_host.setContentsMargins(0, 0, 0, 0)
        self.active_row = ActiveRow(self)
        self.ticket_label = plain_label(self)
        self.ticket_label.setAccessibleName(QCoreApplication.translate("PracticePanel", "Ticket"))
        self.ticket_label.setStyleSheet(
            "QLabel { border-left: 3px solid palette(highlight); padding-left: 6px; }"
        )
        self.ticket_label.hide()
        self.status = StatusLines(self)
        self.status_label = self.status.status_label
        self.error_label = self.status.error_label
        self.results = ResultsArea(self)
        self.past = PastExercises(self)
        self._half_height = HalfHeight(self, self.results)
        layout.addWidget(self.setup_row)
        layout.addWidget(self.trainer_row)
        layout.addLayout(self.card_host)
        for widget in (
            self.active_row,
            self.ticket_label,
            self.status_label,
            self.error_label,
            self.results,
            self.past,
        ):
            layout.addWidget(widget)
        # Each control by its name on the panel, where the flows and the tests reach it.
        self.difficulty_combo = self.setup_row.difficulty_combo
        self.topic_combo = self.setup_row.topic_combo
        self.count_spin = self.setup_row.count_spin
        self.start_button = self.setup_row.start_button
        self.imported_label = self.trainer_row.imported_label
        self.start_imported_button = self.trainer_row.start_imported_button
        self.start_lab_button = self.trainer_row.start_lab_button
        self.export_button = self.trainer_row.export_button
        self.import_button = self.trainer_row.import_button
        self.elapsed_label = self.active_row.elapsed_label
        self.check_button = self.active_row.check_button
        self.hint_button = self.active_row.hint_button
        self.give_up_button = self.active_row.give_up_button
        self.checks_label = self.results.checks_label
        self.hints_label = self.results.hints_label
        self.headline_label = self.results.headline_label
        self.answer_label = self.results.answer_label
        self.past_toggle = self.past.past_toggle
        self.past_list = self.past.past_list
        actions: list[tuple[QPushButton, Callable[[], Coroutine[Any, Any, None]]]] = [
            (self.start_button, self.starting.start),
            (self.start_imported_button, self.files.start_imported),
            (self.start_lab_button, self.files.start_lab),
            (self.export_button, self.files.export),
            (self.import_button, self.files.import_),
            (self.check_button, self.running.check),
            (self.hint_button, self.running.hint),
            (self.give_up_button, self.running.give_up),
        ]
        for button, action in actions:
            button.clicked.connect(lambda _c=False, a=action: self.spawn(a()))

    # --- the chat keeps at least half of the height --------------------------------------------

    def showEvent(self, event: QShowEvent | None) -> None:
        """Follow the parent's height from the first show on (see `HalfHeight`)."""
        self._half_height.follow_parent()
        super().showEvent(event)

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
        found += self.past.rows()
        return found

    # --- states -----------------------------------------------------------------------------

    def show_idle(self) -> None:
        """No exercise runs: the setup and trainer rows show."""
        self.exercise_id = None
        self.active_row.stop_clock()
        self.setup_row.setVisible(True)
        self.trainer_row.setVisible(True)
        self.export_button.setVisible(False)
        self.active_row.setVisible(False)

    def show_active(self, started_at: datetime | None) -> None:
        """An exercise runs since `started_at`: its buttons and elapsed time show."""
        self.setup_row.setVisible(False)
        self.trainer_row.setVisible(False)
        self.active_row.setVisible(True)
        self.results.open()
        self.active_row.start_clock(started_at or datetime.now(UTC))

    def _set_enabled(self, enabled: bool) -> None:
        available = enabled and self.engine is not None
        for row in (self.setup_row, self.active_row, self.trainer_row):
            for widget in row.controls():
                widget.setEnabled(available)

    def clear_results(self) -> None:
        """No checks, hints, answer nor ticket shown (a new exercise or session)."""
        self.results.clear()
        self.ticket_label.clear()
        self.ticket_label.hide()
        self.hints = []

    def show_ticket(self, ticket: str) -> None:
        """The exercise's ticket: the symptom as a user would report it."""
        self.ticket_label.setText(
            QCoreApplication.translate("PracticePanel", "Ticket: %1").replace("%1", ticket)
        )
        self.ticket_label.setVisible(bool(ticket))

    def show_card(
        self, request: ApprovalRequest, decided: Callable[[list[UserDecision]], None]
    ) -> None:
        """`request` as an approval card (never "always": an exercise is approved each time)."""
        self.drop_card()
        card = ApprovalCard([request], self)
        for item in card.items:
            item.always.hide()
        card.decided.connect(decided)
        self.card_host.addWidget(card)
        self._card = card

    def drop_card(self) -> None:
        """Remove the approval card (and the export button that goes with a prepared one)."""
        self.export_button.setVisible(False)
        if self._card is not None:
            self._card.hide()
            self._card.deleteLater()
            self._card = None

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run one of the panel's actions on the loop."""
        spawn(work, name="practice-action")

    @property
    def busy(self) -> bool:
        """An engine call is under way (the buttons are off)."""
        return self._busy

    async def guarded(self, progress: str, work: Callable[[], Awaitable[None]]) -> bool:
        """Run one engine call: buttons off meanwhile, its error shown, buttons back."""
        if self._busy or self.engine is None:
            return False
        self._busy = True
        self._set_enabled(False)
        self.status.error("")
        self.status.begin(progress)
        ok = False
        try:
            await work()
            ok = True
        except ServicesClosedError:
            raise
        except CopilotError as exc:
            if not sip.isdeleted(self):
                self.status.say("")
                self.status.error(core_text(exc.user_message))
        finally:
            self._busy = False
            if not sip.isdeleted(self):
                self.status.end()
                self._set_enabled(True)
        return ok

    # --- session ----------------------------------------------------------------------------

    async def set_session(self, session_id: str | None) -> None:
        """Show the exercises of `session_id` (a Practice session of the current project)."""
        self.session_id = session_id
        self.drop_card()
        self.clear_results()
        self.status.say("")
        self.status.error("")
        self.show_idle()
        try:
            self.engine = await practice_engine(self._backend)
        except ServicesClosedError:
            raise
        except CopilotError as exc:
            self.engine = None
            self.status.error(exc.user_message)
            self._set_enabled(False)
            return
        if self.engine is None:
            self.status.say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Practice needs the local agent: exercises run only when the copilot runs "
                    "on this computer (Settings, Copilot runs on).",
                )
            )
            self._set_enabled(False)
            return
        self._set_enabled(True)
        await self.guarded("", self._load)

    async def _load(self) -> None:
        assert self.engine is not None
        history = await self.engine.history()
        self.past.fill(history)
        active = next(
            (r for r in history if r.session_id == self.session_id and r.status == "active"), None
        )
        if active is not None:
            self.exercise_id = active.exercise_id
            self.show_active(active.started_at)
            self.show_ticket(active.ticket)
            if self._view is not None:
                show_sealed(self._view, active.exercise_id)
        await self.files.show_imported()
        self.setup_row.set_topics(await self.engine.topics())

    async def refresh_past(self) -> None:
        """Reload the past exercises."""
        if self.engine is not None:
            self.past.fill(await self.engine.history())
