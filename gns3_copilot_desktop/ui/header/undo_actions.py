"""`UndoActions`: undoing a lab plan or one change from the chat, and a snapshot on request.

The chat's cards ask (Undo, Take a snapshot); this plans the undo against the project as it is
now, shows every action and what no longer applies, and carries it out once the user approves.
Questions are window-modal boxes awaited without a nested event loop.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QCoreApplication, QObject, Qt
from PyQt6.QtWidgets import QMessageBox

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.lab_plan.apply import ALWAYS_RUNNING, snapshot_project
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from gns3_copilot_desktop.core.undo.record import UndoRecord
from gns3_copilot_desktop.ui.cards.undo_view import (
    ChangeUndo,
    already_undone_text,
    nothing_text,
    outcome_text,
    question_box,
    undo_call_id,
)
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.lab.plan_view import PlanOutcome

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.header.header import CopilotHeader


class UndoActions(QObject):
    """Carries out the chat's Undo and snapshot requests, after asking."""

    def __init__(self, header: CopilotHeader) -> None:
        super().__init__(header)
        self.header = header
        self.confirm_box: QMessageBox | None = None
        """The question being asked, while it is open."""

    # --- a lab plan, and a snapshot -----------------------------------------------------------

    async def undo_plan(self, structured: dict[str, Any]) -> bool:
        """Plan the undo of a lab plan from its record against the project as it is now, show
        every action and what no longer applies, and carry it out once the user approves (the
        same question as every Undo). True when it was carried out whole."""
        project_id = self.header.backend.project_id
        client = self.header.workspace.client
        record = UndoRecord.from_structured(structured)
        outcome = self._plan_outcome_of(structured)
        if project_id is None or client is None or record is None or outcome is None:
            return False
        outcome.set_busy(True, QCoreApplication.translate("CopilotHeader", "Reading the project…"))
        try:
            plan = await plan_undo(
                record,
                client,
                project_id,
                push_config=self.header.workspace.config_pusher(project_id),
            )
            if not plan.actions:
                outcome.set_undone(nothing_text(plan))
                return False
            title = QCoreApplication.translate("CopilotHeader", "Undo the lab plan")
            if not await self._ask(question_box(title, plan, self.header.window())):
                outcome.set_undone("", done=False)
                return False
            outcome.state.setText(QCoreApplication.translate("CopilotHeader", "Undoing…"))
            result = await run_undo(plan)
        except CopilotError as exc:
            outcome.set_undone(core_text(exc.user_message), done=False)
            return False
        outcome.set_undone(outcome_text(result), done=result.ok)
        return result.ok

    async def take_plan_snapshot(self, structured: dict[str, Any]) -> bool:
        """Ask, then take a GNS3 snapshot: the running devices' configurations are saved first,
        the nodes that block a snapshot are stopped and started again. True when taken."""
        project_id = self.header.backend.project_id
        client = self.header.workspace.client
        outcome = self._plan_outcome_of(structured)
        if project_id is None or client is None or outcome is None:
            return False
        try:
            nodes = await client.list_nodes(project_id)
            running = [
                n.name for n in nodes if n.status == "started" and n.node_type not in ALWAYS_RUNNING
            ]
            text = QCoreApplication.translate(
                "CopilotHeader",
                "Take a GNS3 snapshot of the project? GNS3 takes one only while nodes are "
                "stopped: the devices' running configurations are saved first (write memory, "
                "save, commit), then the running nodes stop while the snapshot is taken and "
                "start again.",
            )
            if running:
                text += "\n\n" + QCoreApplication.translate(
                    "CopilotHeader", "These nodes stop for a moment: %1"
                ).replace("%1", ", ".join(running))
            title = QCoreApplication.translate("CopilotHeader", "Take a GNS3 snapshot")
            if not await self._confirm(title, text):
                return False
            outcome.set_busy(
                True, QCoreApplication.translate("CopilotHeader", "Taking the snapshot…")
            )
            stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
            report = await snapshot_project(
                client,
                project_id,
                f"copilot {stamp}",
                server_url=self.header.workspace.server_url,
            )
        except CopilotError as exc:
            outcome.set_undone(core_text(exc.user_message), done=False)
            return False
        done = QCoreApplication.translate("CopilotHeader", "Snapshot '%1' taken.").replace(
            "%1", report.snapshot.name
        )
        if report.not_saved:
            done += " " + QCoreApplication.translate(
                "CopilotHeader", "Not saved first: %1."
            ).replace("%1", "; ".join(report.not_saved))
        outcome.set_undone(done, done=not outcome.undo_button.isEnabled())
        return True

    # --- one change -----------------------------------------------------------------------------

    async def undo_change(self, structured: dict[str, Any]) -> bool:
        """Plan the undo of one change against the project as it is now, show every action (and
        every line a restore pushes) and what no longer applies, and carry it out once the user
        approves. True when it was carried out whole."""
        project_id = self.header.backend.project_id
        client = self.header.workspace.client
        record = UndoRecord.from_structured(structured)
        view = self._change_undo_of(structured)
        if project_id is None or client is None or record is None or view is None:
            return False
        session_id, call_id = self.header.panel.session_id, undo_call_id(view)
        if session_id is not None and call_id in await self._undone_changes(session_id):
            view.set_result(already_undone_text(), done=True)
            return False
        view.set_busy(True)
        try:
            plan = await plan_undo(
                record,
                client,
                project_id,
                push_config=self.header.workspace.config_pusher(project_id),
            )
            if not plan.actions:
                view.set_result(nothing_text(plan), done=True)
                return False
            title = (
                QCoreApplication.translate("CopilotHeader", "Restore this configuration")
                if view.restores
                else QCoreApplication.translate("CopilotHeader", "Undo this change")
            )
            if not await self._ask(question_box(title, plan, self.header.window())):
                view.set_result("", done=False)
                return False
            view.state.setText(QCoreApplication.translate("CopilotHeader", "Undoing…"))
            outcome = await run_undo(plan)
        except CopilotError as exc:
            view.set_result(core_text(exc.user_message), done=False)
            return False
        if outcome.ok and session_id is not None and call_id is not None:
            await self._record_undo(session_id, call_id)
        view.set_result(outcome_text(outcome), done=outcome.ok)
        return outcome.ok

    async def _undone_changes(self, session_id: str) -> set[str]:
        """The session's changes already undone, from the decision log of whoever runs the agent
        (this computer or the copilot service)."""
        try:
            return await self.header.backend.undone_changes(session_id)
        except CopilotError:
            return set()

    async def _record_undo(self, session_id: str, call_id: str) -> None:
        try:
            await self.header.backend.record_undo(session_id, call_id)
        except CopilotError as exc:
            self.header.show_message(exc.user_message, error=True)

    async def show_undone(self, session_id: str) -> None:
        """A reopened session: the changes already undone offer no Undo again."""
        undone = await self._undone_changes(session_id)
        panel = self.header.panel
        if not undone or panel.session_id != session_id:
            return
        for view in panel.view.findChildren(ChangeUndo):
            if undo_call_id(view) in undone:
                view.set_result(already_undone_text(), done=True)

    def _change_undo_of(self, structured: dict[str, Any]) -> ChangeUndo | None:
        for view in self.header.panel.view.findChildren(ChangeUndo):
            if view.structured is structured:
                return view
        return None

    def _plan_outcome_of(self, structured: dict[str, Any]) -> PlanOutcome | None:
        for outcome in self.header.panel.view.findChildren(PlanOutcome):
            if outcome.structured is structured:
                return outcome
        return None

    # --- asking -----------------------------------------------------------------------------

    async def _confirm(self, title: str, text: str) -> bool:
        """A modal question answered without a nested event loop (see the GNS3 GUI notes)."""
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            title,
            text,
            QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel,
            self.header.window(),
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setTextFormat(Qt.TextFormat.PlainText)  # lab names and device lines are data
        return await self._ask(box)

    async def _ask(self, box: QMessageBox) -> bool:
        """Show ``box`` (Ok / Cancel) and wait for the answer: True for Ok."""
        self.confirm_box = box
        answered: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def finished(result: int) -> None:
            if not answered.done():
                answered.set_result(result)

        box.finished.connect(finished)
        box.open()
        try:
            return await answered == QMessageBox.StandardButton.Ok.value
        finally:
            self.confirm_box = None
            box.deleteLater()
