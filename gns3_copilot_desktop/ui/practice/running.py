"""The running exercise: check the fix, ask for a hint, give up, and the end with its answer.

`ExerciseRun` shows each check as passed, failed or "cannot check" (never which fault), the hints
given so far, and once the exercise ended (solved or given up) the score or the answer. Giving
up asks first, then offers to undo the faults in the lab (after its own approval). Texts keep
the "PracticePanel" translation context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.practice.sealed_item import unseal
from gns3_copilot_desktop.ui.practice.texts import checks_text, reveal_text, score_text

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.practice.engine import Reveal
    from gns3_copilot_desktop.core.protocol import ApprovalRequest
    from gns3_copilot_desktop.ui.backends.base import UserDecision
    from gns3_copilot_desktop.ui.chat.message_view import MessageView
    from gns3_copilot_desktop.ui.practice.panel import PracticePanel


class ExerciseRun:
    """What the active row's buttons do, and the exercise's end."""

    def __init__(self, panel: PracticePanel, view: MessageView | None) -> None:
        self._panel = panel
        self._view = view
        self._ended_id: str | None = None
        self._restore_request: ApprovalRequest | None = None

    async def check(self) -> None:
        """Run the exercise's checks; solved, it ends with the score."""
        panel = self._panel
        exercise_id = panel.exercise_id
        if exercise_id is None:
            return

        async def check() -> None:
            assert panel.engine is not None
            report = await panel.engine.check(exercise_id)
            panel.results.show_result(panel.checks_label, checks_text(report))
            if report.solved and report.reveal is not None:
                self._ended(exercise_id, report.reveal, score_text(report.reveal))
            elif any(c.state == "cannot_check" for c in report.checks):
                panel.status.say(
                    QCoreApplication.translate(
                        "PracticePanel",
                        "Some checks cannot run: the lab changed (a node or link the exercise "
                        "uses is gone, replaced or stopped). Put it back, then check again.",
                    )
                )
            else:
                panel.status.say(
                    QCoreApplication.translate(
                        "PracticePanel", "Not fixed yet: some checks failed."
                    )
                )

        await panel.guarded(QCoreApplication.translate("PracticePanel", "Checking the lab…"), check)

    async def hint(self) -> None:
        """One more hint, shown under the ones given before."""
        panel = self._panel
        exercise_id = panel.exercise_id
        if exercise_id is None:
            return

        async def hint() -> None:
            assert panel.engine is not None
            panel.hints.append(await panel.engine.hint(exercise_id))
            # the status line stays as it was: a hint changes no height above the results
            panel.results.show_result(panel.hints_label, "\n".join(panel.hints))

        await panel.guarded("", hint)

    async def give_up(self) -> None:
        """After the learner confirmed: the answer, then the offer to undo the faults."""
        panel = self._panel
        exercise_id = panel.exercise_id
        if exercise_id is None or panel.busy:
            return
        if not await panel.ask_give_up():
            return

        async def give_up() -> None:
            assert panel.engine is not None
            given = await panel.engine.give_up(exercise_id)
            self._ended(
                exercise_id,
                given.reveal,
                QCoreApplication.translate("PracticePanel", "You gave up. Here is the answer."),
            )
            self._restore_request = given.restore
            if given.restore is not None:
                panel.status.say(
                    QCoreApplication.translate(
                        "PracticePanel", "Undo the exercise's faults in the lab?"
                    )
                )
                panel.show_card(given.restore, self._restore_decided)

        await panel.guarded("", give_up)

    def _restore_decided(self, decisions: list[UserDecision]) -> None:
        if decisions and decisions[0].action == "approve" and self._ended_id is not None:
            self._panel.spawn(self._restore(self._ended_id))
        else:
            self._panel.status.say(
                QCoreApplication.translate("PracticePanel", "The lab stays as it is.")
            )

    async def _restore(self, exercise_id: str) -> None:
        panel = self._panel

        async def restore() -> None:
            assert panel.engine is not None
            left = await panel.engine.restore(exercise_id)
            panel.drop_card()
            self._restore_request = None
            text = QCoreApplication.translate("PracticePanel", "The exercise's faults were undone.")
            if left:
                text += " " + QCoreApplication.translate(
                    "PracticePanel", "Left as they are (the lab changed): %1."
                ).replace("%1", "; ".join(core_text(t) for t in left))
            panel.status.say(text)

        ok = await panel.guarded(
            QCoreApplication.translate("PracticePanel", "Undoing the faults…"), restore
        )
        if not ok and self._restore_request is not None and not sip.isdeleted(panel):
            panel.show_card(self._restore_request, self._restore_decided)  # offered again

    def _ended(self, exercise_id: str, reveal: Reveal, headline: str) -> None:
        panel = self._panel
        self._ended_id = exercise_id
        panel.show_idle()
        panel.status.say("")
        panel.results.show_result(panel.headline_label, headline)
        panel.results.show_result(panel.answer_label, reveal_text(reveal))
        panel.results.ensureWidgetVisible(panel.headline_label)
        if self._view is not None:
            unseal(self._view, exercise_id, reveal)
        panel.spawn(self._refresh_after())
        panel.exercise_ended.emit(exercise_id)

    async def _refresh_after(self) -> None:
        try:
            await self._panel.refresh_past()
        except CopilotError as exc:
            self._panel.status.error(exc.user_message)
