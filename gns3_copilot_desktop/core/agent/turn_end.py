"""How a turn ends and leaves its session whole: the new session's title, the stats and pending
approvals written once, and after a stop or a cancel every tool call answered and the partial
answer kept (in the graph's state and the transcript alike). `Turn` builds on `TurnEnding`."""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.types import StateSnapshot, StateUpdate

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.history import dangling_tool_calls
from gns3_copilot_desktop.core.agent.title import fallback_title, generate_title
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.core.sessions.pg_store import AnyStore

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.turn import Graph

log = logging.getLogger(__name__)

CANCELLED_TEXT = "Cancelled by the user before it finished."


async def commit_finished_steps(graph: Graph, config: RunnableConfig) -> StateSnapshot:
    """Save as done what the graph's nodes finished in a step its run did not get to close.

    A run stopped (or a process ended) after a node finished but before its step was saved
    leaves the node's output as pending writes: the state read back shows it, yet a new
    message starts from the saved step without it. A tool's result vanished that way and the
    provider refused the next message (a call without its result). A step waiting on the user's
    approval is left as it is: its resume reads those writes itself. Returns the state as saved
    afterwards."""
    snapshot = await graph.aget_state(config)
    if any(t.interrupts for t in snapshot.tasks):
        return snapshot
    finished = [t for t in snapshot.tasks if t.result is not None and t.error is None]
    if not finished:
        return snapshot
    await graph.abulk_update_state(
        config, [[StateUpdate(dict(t.result or {}), t.name, t.id) for t in finished]]
    )
    return await graph.aget_state(config)


@dataclass
class _Tally:
    """What a turn adds to the session's stats."""

    messages: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    recorded: list[AnyMessage] = field(default_factory=list)


class TurnEnding:
    """The end of a `Turn` (which provides the run's state named below)."""

    _graph: Graph
    _store: AnyStore
    _sid: str
    _ctx: RunContext
    _config: RunnableConfig
    _tally: _Tally
    _partial: list[str]
    _partial_id: str | None
    _approvals: list[ApprovalRequest]
    _title_from: str | None
    _title_task: asyncio.Task[str] | None
    _abort_reason: str | None

    async def record(self, messages: list[AnyMessage]) -> None:
        """Append messages to the transcript (the turn's)."""
        raise NotImplementedError

    async def _title(self) -> str | None:
        """The new session's title, asked for after the answer: local servers answer one request
        at a time, and a title asked first made the user wait for it. A stopped turn takes the
        message's first words instead of another model call."""
        if self._title_from is None:
            return None
        if self._abort_reason is not None:
            return fallback_title(self._title_from)
        # A task of its own, outside the graph's run, so its tokens never enter the chat stream.
        self._title_task = asyncio.create_task(
            generate_title(self._ctx.model, self._title_from, self._ctx.limits.title_timeout_s)
        )
        try:
            return await self._title_task
        except asyncio.CancelledError:
            if self._title_task.cancelled():
                return None
            raise

    async def _close_books(self, title: str | None = None) -> None:
        """Stats, pending approvals and checkpoint pruning: bounded work, once per turn."""
        try:
            await self._store.update_stats(
                self._sid,
                messages_delta=self._tally.messages,
                input_tokens_delta=self._tally.input_tokens,
                output_tokens_delta=self._tally.output_tokens,
                title=title,
                pending_approvals=self._approvals,
            )
            await self._store.prune_checkpoints(self._sid)
        except CopilotError as exc:
            log.warning("could not update the session after a turn: %s", exc.user_message)

    async def _repair_after_cancel(self) -> None:
        snapshot = await commit_finished_steps(self._graph, self._config)
        in_state = list(snapshot.values.get("messages") or [])
        fixes: list[AnyMessage] = []
        if self._partial:
            fixes.append(
                AIMessage(
                    content="".join(self._partial),
                    id=self._partial_id or f"ai-{uuid.uuid4()}",
                    response_metadata={"incomplete": "cancelled"},
                )
            )
        answers = {
            call_id: cancelled_tool_message(call_id, name)
            for call_id, name in dangling_tool_calls([*in_state, *self._tally.recorded])
        }
        state_fixes = [answers[c] for c, _ in dangling_tool_calls(in_state) if c in answers]
        if fixes or state_fixes:
            await self._graph.aupdate_state(
                self._config,
                {"messages": [*state_fixes, *fixes]},
                as_node="tools" if state_fixes else "llm_call",
            )
        transcript_fixes = [
            answers[c] for c, _ in dangling_tool_calls(self._tally.recorded) if c in answers
        ]
        await self.record([*transcript_fixes, *fixes])


def cancelled_tool_message(call_id: str, name: str, text: str = CANCELLED_TEXT) -> ToolMessage:
    """The answer given to a tool call that never finished."""
    return ToolMessage(
        content=text,
        tool_call_id=call_id,
        name=name,
        id=f"tool-{uuid.uuid4()}",
        status="error",
        response_metadata={"status": "cancelled"},
    )
