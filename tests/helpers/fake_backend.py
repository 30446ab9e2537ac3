"""`ScriptedBackend`: a test double of `ui.backend.ChatBackend`.

It is NOT the agent: it yields the `ChatChunk` sequences a test gives it. Each scripted turn is a
list of steps; a step is a chunk, a delay in seconds (float), or an `asyncio.Event` the stream
waits on (a stall the test releases). Sessions and history live in memory. The double records
what the UI asked for (`sent`, `decisions`) and whether a stream saw `CancelledError`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from gns3_copilot_desktop.core.agent.approval import CallPreview
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import (
    ApprovalRequest,
    ChatChunk,
    FunctionCall,
    TokenUsage,
    ToolCall,
)
from gns3_copilot_desktop.core.sessions.export import export_json, export_markdown
from gns3_copilot_desktop.core.sessions.models import SessionInfo, TranscriptMessage
from gns3_copilot_desktop.ui.backends.base import (
    AssistantTurn,
    HistoryItem,
    SessionEntry,
    SessionMode,
    ToolRecord,
    UserDecision,
    UserTurn,
)

Step = ChatChunk | float | asyncio.Event


def content(text: str) -> ChatChunk:
    """A content chunk."""
    return ChatChunk(type="content", content=text)


def done() -> ChatChunk:
    """The closing chunk."""
    return ChatChunk(type="done")


def tool_start(call_id: str, name: str, arguments: str = "{}", summary: str = "") -> ChatChunk:
    """A tool_start chunk in OpenAI's tool call shape."""
    return ChatChunk.model_validate(
        {
            "type": "tool_start",
            "tool_call_id": call_id,
            "tool_name": name,
            "content": summary or None,
            "tool_call": {"id": call_id, "function": {"name": name, "arguments": arguments}},
        }
    )


def tool_end(
    call_id: str,
    name: str,
    output: str,
    status: str = "ok",
    duration_ms: int = 120,
    truncated: bool = False,
) -> ChatChunk:
    """A tool_end chunk."""
    return ChatChunk.model_validate(
        {
            "type": "tool_end",
            "tool_call_id": call_id,
            "tool_name": name,
            "tool_output": output,
            "status": status,
            "duration_ms": duration_ms,
            "truncated": truncated,
        }
    )


def approval(*requests: ApprovalRequest) -> ChatChunk:
    """An approval_request chunk."""
    return ChatChunk(type="approval_request", approvals=list(requests))


def error(message: str, kind: str = "provider") -> ChatChunk:
    """An error chunk (a `done` must follow it)."""
    return ChatChunk(type="error", error=message, error_kind=kind)


class ScriptedBackend:
    """Plays scripted turns; each `stream_chat` or `resume` call takes the next one."""

    def __init__(self, turns: Sequence[Sequence[Step]] = ()) -> None:
        self.turns: list[list[Step]] = [list(t) for t in turns]
        self.sent: list[tuple[str, str]] = []
        self.decisions: list[list[UserDecision]] = []
        self.cancelled = asyncio.Event()
        self.streams_closed = 0
        self.sessions: dict[str, SessionEntry] = {}
        self.histories: dict[str, list[HistoryItem]] = {}
        self.pending: dict[str, list[ApprovalRequest]] = {}
        self._ids = itertools.count(1)
        self._clock = datetime(2026, 1, 1, tzinfo=UTC)
        self.created_modes: list[str] = []
        self.practice_engine: Any = None
        """What `practice` answers: a real `PracticeEngine` on a live lab, a stand-in, or None."""
        self.practice_projects: list[str | None] = []

    # --- scripting --------------------------------------------------------------------------

    def add_turn(self, *steps: Step) -> None:
        """Append a scripted turn."""
        self.turns.append(list(steps))

    def add_session(
        self,
        title: str,
        history: Sequence[HistoryItem] = (),
        pinned: bool = False,
        age: timedelta = timedelta(0),
    ) -> SessionEntry:
        """Put a session (with its history) into the store."""
        sid = f"s{next(self._ids)}"
        entry = SessionEntry(sid, title, datetime.now(UTC) - age, pinned)
        self.sessions[sid] = entry
        self.histories[sid] = list(history)
        return entry

    # --- ChatBackend ------------------------------------------------------------------------

    def stream_chat(self, message: str, session_id: str) -> AsyncIterator[ChatChunk]:
        """Play the next turn."""
        self.sent.append((message, session_id))
        self.histories.setdefault(session_id, []).append(UserTurn(message))
        return self._play(session_id)

    def resume(self, session_id: str, decisions: list[UserDecision]) -> AsyncIterator[ChatChunk]:
        """Record the decisions and play the next turn."""
        self.decisions.append(list(decisions))
        return self._play(session_id)

    async def _play(self, session_id: str) -> AsyncIterator[ChatChunk]:
        if not self.turns:
            raise AssertionError("ScriptedBackend: no scripted turn left")
        steps = self.turns.pop(0)
        text: list[str] = []
        try:
            for step in steps:
                if isinstance(step, float | int):
                    await asyncio.sleep(step)
                elif isinstance(step, asyncio.Event):
                    await step.wait()
                else:
                    if step.type == "content" and step.content:
                        text.append(step.content)
                    if step.type == "title" and session_id in self.sessions:
                        old = self.sessions[session_id]
                        self.sessions[session_id] = replace(old, title=step.title or "")
                    yield step
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        finally:
            self.streams_closed += 1
            if text:
                self.histories.setdefault(session_id, []).append(AssistantTurn("".join(text)))

    async def preview_call(
        self, session_id: str, pending: ApprovalRequest, arguments: dict[str, Any]
    ) -> CallPreview:
        """The scripted backend has no tools and no lab: edits are never checked here, so the
        card offers the call only as proposed (as with a remote copilot service)."""
        return CallPreview(problem="The scripted backend cannot check edits.", can_edit=False)

    async def pending_approvals(self, session_id: str) -> list[ApprovalRequest]:
        """The scripted pending approvals of a session (see `pending`)."""
        await asyncio.sleep(0)
        return list(self.pending.get(session_id, []))

    async def get_history(self, session_id: str) -> list[HistoryItem]:
        """The in-memory history."""
        await asyncio.sleep(0)
        return list(self.histories.get(session_id, []))

    async def list_sessions(self) -> list[SessionEntry]:
        """Pinned first, newest first."""
        await asyncio.sleep(0)
        return sorted(
            self.sessions.values(), key=lambda e: (not e.pinned, -e.updated_at.timestamp())
        )

    async def create_session(self, mode: SessionMode = "assistant") -> SessionEntry:
        """A new empty session in `mode`, newest of all."""
        entry = replace(self.add_session(""), mode=mode)
        self.sessions[entry.session_id] = entry
        self.created_modes.append(mode)
        return entry

    async def rename_session(self, session_id: str, title: str) -> None:
        """Rename in memory."""
        old = self.sessions[session_id]
        self.sessions[session_id] = replace(old, title=title)

    async def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin in memory."""
        old = self.sessions[session_id]
        self.sessions[session_id] = replace(old, pinned=pinned)

    async def delete_session(self, session_id: str) -> None:
        """Delete in memory."""
        del self.sessions[session_id]
        self.histories.pop(session_id, None)

    async def search_sessions(self, query: str) -> list[SessionEntry]:
        """Case-insensitive match on titles and message text, with a snippet."""
        q = query.lower()
        hits = []
        for entry in await self.list_sessions():
            texts = [
                i.text if isinstance(i, UserTurn | AssistantTurn) else i.output
                for i in self.histories.get(entry.session_id, [])
            ]
            found = next((t for t in texts if q in t.lower()), None)
            if q in entry.title.lower() or found is not None:
                snippet = found[:80] if found else entry.title
                hits.append(replace(entry, snippet=snippet))
        return hits

    async def practice(self, project_id: str | None = None) -> Any:
        """The practice engine the test gave (`practice_engine`), for any project (the ids asked
        for are kept in `practice_projects`)."""
        await asyncio.sleep(0)
        self.practice_projects.append(project_id)
        return self.practice_engine

    async def import_session(self, data: bytes) -> SessionEntry:
        """Importing needs the real core (tests of it use the real service backend)."""
        raise CopilotError("This test backend does not import conversations.")

    async def imported_read_only(self, session_id: str) -> bool:
        """No session of this backend is an imported one."""
        return False

    async def continue_imported(self, session_id: str) -> None:
        """See `import_session`."""
        raise CopilotError("This test backend does not import conversations.")

    async def export_session(self, session_id: str, fmt: Literal["markdown", "json"]) -> str:
        """The in-memory history rendered by the real exporter."""
        entry = self.sessions[session_id]
        info = SessionInfo(
            id=session_id,
            title=entry.title or None,
            created_at=entry.updated_at,
            updated_at=entry.updated_at,
            pinned=entry.pinned,
            mode=entry.mode,
        )
        messages = [m for item in self.histories.get(session_id, []) for m in _transcript(item)]
        return (export_markdown if fmt == "markdown" else export_json)(info, messages)


def _transcript(item: HistoryItem) -> list[TranscriptMessage]:
    """One history item as OpenAI-shaped transcript messages."""
    if isinstance(item, UserTurn):
        return [TranscriptMessage(role="user", content=item.text)]
    if isinstance(item, AssistantTurn):
        return [TranscriptMessage(role="assistant", content=item.text)]
    call = ToolCall(
        id=item.tool_call_id,
        function=FunctionCall(name=item.tool_name, arguments=json.dumps(item.arguments)),
    )
    return [
        TranscriptMessage(role="assistant", tool_calls=[call]),
        TranscriptMessage(
            role="tool", name=item.tool_name, tool_call_id=item.tool_call_id, content=item.output
        ),
    ]


def long_history(messages: int, tool_cards: int) -> list[HistoryItem]:
    """A synthetic transcript: alternating user and assistant messages plus tool records."""
    items: list[HistoryItem] = []
    tools_every = max(1, (messages // 2) // max(tool_cards, 1))
    tools_left = tool_cards
    for i in range(messages // 2):
        items.append(UserTurn(f"Question {i}: what is the state of router R{i % 7}?"))
        if tools_left and i % tools_every == 0:
            tools_left -= 1
            items.append(
                ToolRecord(
                    f"call{i}",
                    "list_nodes",
                    {"project": "lab"},
                    "List the nodes",
                    "R1 started\n" * 5,
                    "ok",
                    42,
                )
            )
        items.append(
            AssistantTurn(
                f"## Answer {i}\n\nRouter **R{i % 7}** is `started`.\n\n"
                f"- uptime: {i} min\n- links: 3\n"
            )
        )
    return items


__all__ = [
    "ApprovalRequest",
    "ScriptedBackend",
    "TokenUsage",
    "approval",
    "content",
    "done",
    "error",
    "long_history",
    "tool_end",
    "tool_start",
]
