"""Starting an exercise: the engine prepares it, the learner approves its sealed injection.

`ExerciseStart` asks the engine for an exercise of the chosen level, topic and number of faults,
shows its sealed approval on the panel with the app's `ApprovalCard`, and injects only after
Approve (Reject injects nothing). Texts keep the "PracticePanel" translation context.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.ui.practice.sealed_item import show_sealed

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.protocol import ApprovalRequest
    from gns3_copilot_desktop.ui.backends.base import UserDecision
    from gns3_copilot_desktop.ui.chat.message_view import MessageView
    from gns3_copilot_desktop.ui.practice.panel import PracticePanel


class ExerciseStart:
    """Prepare, offer for approval, inject or drop: from the setup row to a running exercise."""

    def __init__(self, panel: PracticePanel, view: MessageView | None) -> None:
        self._panel = panel
        self._view = view

    async def start(self) -> None:
        """Prepare an exercise as the setup row chose it and offer it for approval."""
        panel = self._panel
        if panel.session_id is None:
            return
        session_id = panel.session_id

        async def prepare() -> None:
            assert panel.engine is not None
            plan = await panel.engine.prepare(
                session_id,
                difficulty=str(panel.difficulty_combo.currentData()),
                topic=panel.topic_combo.currentData(),
                count=panel.count_spin.value(),
                fault_ids=panel.fault_ids,
            )
            self.offer(plan.exercise_id, plan.approval)
            panel.export_button.setVisible(True)  # a trainer may give it to students instead

        await panel.guarded(
            QCoreApplication.translate("PracticePanel", "Reading the lab and choosing faults…"),
            prepare,
        )

    def offer(self, exercise_id: str, approval: ApprovalRequest) -> None:
        """A prepared exercise waits for Approve: its card shows, the setup row hides."""
        panel = self._panel
        panel.clear_results()
        panel.exercise_id = exercise_id
        panel.status.say(
            QCoreApplication.translate(
                "PracticePanel",
                "Approve to start: the faults go into the running lab; nothing is stopped.",
            )
        )
        panel.show_card(approval, self._inject_decided)
        panel.setup_row.setVisible(False)

    def _inject_decided(self, decisions: list[UserDecision]) -> None:
        approved = bool(decisions) and decisions[0].action == "approve"
        self._panel.spawn(self._approve() if approved else self._reject())

    async def _approve(self) -> None:
        panel = self._panel
        exercise_id = panel.exercise_id
        if exercise_id is None:
            return

        async def inject() -> None:
            assert panel.engine is not None
            record = await panel.engine.approve(exercise_id)
            panel.drop_card()
            panel.status.say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Exercise started (every fault confirmed): find what is broken and fix it.",
                )
            )
            panel.show_active(record.started_at)
            panel.show_ticket(record.ticket)
            if self._view is not None:
                show_sealed(self._view, exercise_id)
            await panel.refresh_past()

        ok = await panel.guarded(
            QCoreApplication.translate(
                "PracticePanel", "Injecting the faults and confirming each on its device…"
            ),
            inject,
        )
        if not ok and not sip.isdeleted(panel):
            panel.drop_card()
            panel.show_idle()

    async def _reject(self) -> None:
        panel = self._panel
        exercise_id = panel.exercise_id
        if exercise_id is None:
            return

        async def reject() -> None:
            assert panel.engine is not None
            await panel.engine.reject(exercise_id)
            panel.drop_card()
            panel.show_idle()
            await panel.refresh_past()

        if await panel.guarded("", reject):
            panel.status.say(QCoreApplication.translate("PracticePanel", "Nothing was injected."))
        elif not sip.isdeleted(panel):
            panel.drop_card()  # the plan stays unapproved: nothing was injected either way
            panel.show_idle()
