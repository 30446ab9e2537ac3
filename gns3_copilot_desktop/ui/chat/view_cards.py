"""The message view's tool cards and approvals: a card per tool call as it is queued, runs and
ends (with its Undo or a plan's outcome), the approval card that asks for the decisions, and the
lock that settles a card the user moved on from."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PyQt6.QtCore import QCoreApplication, pyqtSignal
from PyQt6.QtWidgets import (
    QScrollArea,
    QWidget,
)

from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard, ToolState
from gns3_copilot_desktop.ui.chat.messages import AssistantMessage


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


NOT_RUN_TEXT = QT_TRANSLATE_NOOP("MessageView", "Not run: you sent a new message")


class ViewCards(QScrollArea):
    """Tool cards and approvals of `MessageView` (which provides the turn being written, the
    conversation's container, painting and scrolling)."""

    decisions_made = pyqtSignal(list)  # list[UserDecision]
    plan_undo_requested = pyqtSignal(object)  # a finished plan's structured result
    plan_snapshot_requested = pyqtSignal(object)  # the same, for "Take a GNS3 snapshot"
    change_undo_requested = pyqtSignal(object)  # a finished change's structured result

    _cards: dict[str, ToolCard]
    _current: AssistantMessage | None
    _approval: ApprovalCard | None
    _container: QWidget

    def flush(self) -> None:
        """Paint the buffered text (the view's)."""
        raise NotImplementedError

    def _assistant(self) -> AssistantMessage:
        """The assistant turn being written (the view's)."""
        raise NotImplementedError

    def jump_to_latest(self, *_: object) -> None:
        """Scroll to the bottom (the view's scrolling)."""
        raise NotImplementedError

    def start_tool(self, chunk: ChatChunk) -> ToolCard:
        """A tool_call (queued) or tool_start (running) chunk."""
        self.flush()
        call_id = chunk.tool_call_id or (chunk.tool_call.id if chunk.tool_call else "")
        state = ToolState.RUNNING if chunk.type == "tool_start" else ToolState.QUEUED
        card = self._cards.get(call_id)
        if card is None:
            name = chunk.tool_name or (chunk.tool_call.function.name if chunk.tool_call else "?")
            card = ToolCard(call_id, name, _arguments(chunk), chunk.content or "", state)
            self._cards[call_id] = card
            self._assistant().add_card(card)
        else:
            if chunk.type == "tool_start" and chunk.content:
                # the first tool_start carries the tool's summary; later ones its progress
                if card.state is ToolState.RUNNING:
                    card.set_progress(chunk.content)
                else:
                    card.set_summary(chunk.content)
            card.set_state(state)
        self._refresh_groups()
        return card

    def end_tool(self, chunk: ChatChunk) -> ToolCard:
        """A tool_end chunk: the card shows status, duration and output."""
        self.flush()
        card = self._cards.get(chunk.tool_call_id or "")
        if card is None:
            card = self.start_tool(chunk.model_copy(update={"type": "tool_start"}))
        card.finish(
            chunk.status or "ok", chunk.tool_output or "", chunk.duration_ms, bool(chunk.truncated)
        )
        card.set_structured(chunk.structured)
        if chunk.tool_name == "plan_lab" and chunk.structured and card.plan_outcome is None:
            outcome = card.show_plan_outcome(chunk.structured)
            outcome.undo_requested.connect(self.plan_undo_requested.emit)
            outcome.snapshot_requested.connect(self.plan_snapshot_requested.emit)
        elif chunk.structured:
            self._offer_undo(card, chunk.structured)
        self._refresh_groups()
        return card

    def _offer_undo(self, card: ToolCard, structured: dict[str, Any]) -> None:
        undo = card.show_undo(structured)
        if undo is not None:
            undo.undo_requested.connect(self.change_undo_requested.emit)

    def card(self, tool_call_id: str) -> ToolCard | None:
        """The card of a tool call."""
        return self._cards.get(tool_call_id)

    def _refresh_groups(self) -> None:
        if self._current is not None:
            for group in self._current.groups:
                group.refresh()

    def show_approvals(self, requests: Sequence[ApprovalRequest]) -> ApprovalCard:
        """Cards wait for approval; the approval card asks for the decisions."""
        self.flush()
        for request in requests:
            card = self._cards.get(request.tool_call_id)
            if card is None:
                card = ToolCard(
                    request.tool_call_id,
                    request.tool_name,
                    request.arguments,
                    request.summary,
                    ToolState.AWAITING_APPROVAL,
                )
                self._cards[request.tool_call_id] = card
                self._assistant().add_card(card)
            else:
                card.set_state(ToolState.AWAITING_APPROVAL)
        self.lock_approvals(QCoreApplication.translate("MessageView", NOT_RUN_TEXT))
        approval = ApprovalCard(list(requests), self._container)
        approval.decided.connect(self._decided)
        self._approval = approval
        self._assistant().add_widget(approval)
        self.jump_to_latest()
        approval.focus_first()
        return approval

    @property
    def open_approval(self) -> ApprovalCard | None:
        """The approval card that still waits for the user, if any."""
        card = self._approval
        return card if card is not None and not card.done else None

    def lock_approvals(self, text: str) -> None:
        """The turn moved on without a decision (a new message was sent): the waiting card and
        its tool cards say so, and nothing on them can be clicked any more."""
        card = self.open_approval
        if card is None or not card.lock(text):
            return
        for item in card.items:
            tool = self._cards.get(item.request.tool_call_id)
            if tool is not None:
                tool.finish("cancelled", text)

    def _decided(self, decisions: list[Any]) -> None:
        for decision in decisions:
            card = self._cards.get(decision.tool_call_id)
            if card is not None and decision.action == "reject":
                card.finish("rejected", decision.reason or "")
            elif card is not None:
                if decision.arguments is not None:  # it runs with the user's edits
                    card.arguments = dict(decision.arguments)
                card.set_state(ToolState.QUEUED)
        self.decisions_made.emit(decisions)


def _arguments(chunk: ChatChunk) -> dict[str, Any]:
    if chunk.tool_call is None or not chunk.tool_call.function.arguments:
        return {}
    try:
        value = json.loads(chunk.tool_call.function.arguments)
    except json.JSONDecodeError:
        return {"arguments": chunk.tool_call.function.arguments}
    return value if isinstance(value, dict) else {"arguments": value}
