"""AgentService: the chat API of one GNS3 project (no Qt; the UI drives it through iterators).

One service per project owns the project's `SessionStore` (checkpoints, sessions index,
transcript) and one compiled graph. ``stream_chat`` is the design's chat endpoint as an async
iterator of `ChatChunk`s. Secrets arrive with each call's `RunContext` and are never stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable
from pathlib import Path
from typing import cast

from langchain_core.messages import AnyMessage, HumanMessage, RemoveMessage
from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.graph import build_graph
from gns3_copilot_desktop.core.agent.history import dangling_tool_calls, working_state_trim
from gns3_copilot_desktop.core.agent.modes import stored_mode
from gns3_copilot_desktop.core.agent.service_sessions import SessionsApi
from gns3_copilot_desktop.core.agent.state import AgentState
from gns3_copilot_desktop.core.agent.tools import ToolRegistry, default_registry
from gns3_copilot_desktop.core.agent.transcript import ConversationHistory
from gns3_copilot_desktop.core.agent.turn import GraphInput, Turn
from gns3_copilot_desktop.core.agent.turn_end import (
    CANCELLED_TEXT,
    cancelled_tool_message,
    commit_finished_steps,
)
from gns3_copilot_desktop.core.errors import (
    CopilotError,
    SessionNotFoundError,
    StaleDecisionError,
    TurnBusyError,
)
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk
from gns3_copilot_desktop.core.sessions.base import LEASE_S
from gns3_copilot_desktop.core.sessions.decisions import (
    DecisionKind,
    DecisionLog,
    SqliteDecisionLog,
    arguments_hash,
)
from gns3_copilot_desktop.core.sessions.importer import (
    transcript_context,
)
from gns3_copilot_desktop.core.sessions.location import DECISIONS_DB_NAME
from gns3_copilot_desktop.core.sessions.models import (
    SessionInfo,
)
from gns3_copilot_desktop.core.sessions.pg_store import AnyStore
from gns3_copilot_desktop.core.sessions.serde import UnreadableCheckpointError
from gns3_copilot_desktop.core.sessions.store import SessionStore

log = logging.getLogger(__name__)

CLOSED_TEXT = "The copilot of this project was closed (the project was closed or deleted)."
SUPERSEDED_TEXT = "Not run: the user sent a new message instead of deciding on this call."


class AgentService(SessionsApi):
    """Chat, history and sessions of one project."""

    def __init__(
        self,
        store: AnyStore,
        *,
        project_id: str = "",
        tools: ToolRegistry | None = None,
        decisions: DecisionLog | None = None,
        claims_turns: bool = True,
    ) -> None:
        """``decisions``: the project's decision log (default: `default_decision_log`).
        ``claims_turns=False``: the caller claims each turn itself, in state every process on
        the database shares (the Chat API service does, see `ChatService.claim`), so this
        service's own claim would be a second lease on the same turn."""
        self.project_id = project_id
        self._claims_turns = claims_turns
        self._store = store
        self._decisions = decisions or default_decision_log(store)
        self._graph = build_graph(tools or default_registry(), store.checkpointer)
        self._locks: dict[str, asyncio.Lock] = {}
        self._active: set[Turn] = set()
        self._closed = False
        self._owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        """Who claims this service's turns in the database (see `_claim`)."""
        self._claimed: set[str] = set()

    @classmethod
    async def open(
        cls,
        db_path: Path,
        *,
        project_id: str = "",
        tools: ToolRegistry | None = None,
        owner_key: bytes | None = None,
        trust_unsigned: bool = False,
        claims_turns: bool = True,
    ) -> AgentService:
        """Open the project's database and build the service on it (``owner_key`` and
        ``trust_unsigned``: see `SessionStore.open`)."""
        store = await SessionStore.open(db_path, owner_key=owner_key, trust_unsigned=trust_unsigned)
        return cls(store, project_id=project_id, tools=tools, claims_turns=claims_turns)

    @property
    def store(self) -> AnyStore:
        """The project's session store."""
        return self._store

    @property
    def decisions(self) -> DecisionLog:
        """The project's append-only log of decided calls."""
        return self._decisions

    @property
    def closed(self) -> bool:
        """Whether `close` was called."""
        return self._closed

    async def close(self, *, timeout_s: float = 10.0) -> None:
        """Stop running turns (their streams end with an error), then close the database.

        Idempotent. Each stopped turn is left consistent (see `Turn`) before the file closes.
        """
        if self._closed:
            return
        self._closed = True
        for turn in list(self._active):
            turn.abort(CLOSED_TEXT)
        try:
            async with asyncio.timeout(timeout_s):
                for lock in list(self._locks.values()):
                    async with lock:
                        pass
        except TimeoutError:
            log.warning("closing the agent service while a turn still runs")
        await self._store.close()

    # --- chat -------------------------------------------------------------------------------

    async def stream_chat(
        self, message: str, session_id: str, *, context: RunContext
    ) -> AsyncGenerator[ChatChunk, None]:
        """Send a user message and stream the answer (ends with ``done``)."""
        async with self._lock(session_id):
            info = await self._session_or_none(session_id)
            title_from = message if info is not None and info.title is None else None
            turn = Turn(self._graph, self._store, session_id, context, title_from=title_from)

            async def prepare(turn: Turn) -> GraphInput:
                self._check_open()
                await self._claim(session_id)
                return await self._new_message_input(turn, session_id, message, info, context)

            async with contextlib.aclosing(self._tracked(turn, prepare)) as chunks:
                async for chunk in chunks:
                    yield chunk

    async def resume(
        self, session_id: str, decisions: list[ApprovalDecision], *, context: RunContext
    ) -> AsyncGenerator[ChatChunk, None]:
        """Continue a turn paused for approval with the user's decisions."""
        async with self._lock(session_id):
            turn = Turn(self._graph, self._store, session_id, context)

            async def prepare(turn: Turn) -> GraphInput:
                self._check_open()
                await self._store.get_session(session_id)
                await self._claim(session_id)
                waiting = {a.tool_call_id for a in await self.pending_approvals(session_id)}
                if not waiting:
                    raise StaleDecisionError(
                        "Nothing in this conversation is waiting for a decision any more (a new "
                        "message was sent or the turn ended): nothing was run."
                    )
                await self._refuse_decided(session_id, [d.tool_call_id for d in decisions])
                unknown = sorted({d.tool_call_id for d in decisions} - waiting)
                if unknown:
                    raise StaleDecisionError(
                        f"The decision for {', '.join(unknown)} is for a call that is not "
                        "waiting: nothing was run. Decide on the calls shown now."
                    )
                # In the log before anything runs: whatever happens to the checkpoint later,
                # these calls are decided.
                await self._decisions.record(session_id, _decision_rows(decisions))
                return Command(resume=[d.model_dump(mode="json") for d in decisions])

            async with contextlib.aclosing(self._tracked(turn, prepare)) as chunks:
                async for chunk in chunks:
                    yield chunk

    async def pending_approvals(self, session_id: str) -> list[ApprovalRequest]:
        """The tool calls a paused turn of this session waits on (none when its saved state
        cannot be read: nothing from it is trusted)."""
        try:
            snapshot = await self._graph.aget_state(_config(session_id))
        except UnreadableCheckpointError as exc:
            log.warning("session %s: %s", session_id, exc.user_message)
            return []
        approvals: list[ApprovalRequest] = []
        for item in snapshot.interrupts:
            if isinstance(item.value, dict):
                approvals += [
                    ApprovalRequest.model_validate(a) for a in item.value.get("approvals", [])
                ]
        # A checkpoint older than the log (a restored copy) may show decided calls as waiting.
        decided = await self._decisions.decided(session_id, [a.tool_call_id for a in approvals])
        return [a for a in approvals if a.tool_call_id not in decided]

    async def decided_calls(self, session_id: str, tool_call_ids: list[str]) -> dict[str, str]:
        """Which of these calls the decision log holds as decided: call id -> ``approve``,
        ``reject``, ``edit`` or ``result`` (the first recorded)."""
        return await self._decisions.decided(session_id, tool_call_ids)

    async def undone_changes(self, session_id: str) -> set[str]:
        """The tool call ids of the session whose change was undone (never offered again)."""
        return await self._decisions.undone(session_id)

    async def record_undo(self, session_id: str, tool_call_id: str) -> None:
        """Record that the change of ``tool_call_id`` was undone."""
        await self._decisions.record(session_id, [(tool_call_id, "undo", None)])

    async def _refuse_decided(self, session_id: str, call_ids: list[str]) -> None:
        decided = await self._decisions.decided(session_id, call_ids)
        if decided:
            raise StaleDecisionError(
                f"The call {', '.join(sorted(decided))} was already decided in this "
                "conversation: nothing was run. A decided call never runs again."
            )

    async def get_history(self, session_id: str, limit: int | None = None) -> ConversationHistory:
        """The session's messages (the last ``limit``), OpenAI-shaped, from the transcript."""
        messages = await self._store.read_transcript(session_id, limit=limit)
        return ConversationHistory(session_id=session_id, messages=messages)

    # --- internals --------------------------------------------------------------------------

    async def _claim(self, session_id: str) -> None:
        """Claim the session in the database for this turn, or refuse: another process (a
        second app instance on the project) runs a turn in it, and the checkpoint written last
        would silently drop the other turn."""
        if not self._claims_turns:
            return
        holder = await self._store.claim_turn(session_id, self._owner)
        if holder is not None:
            raise TurnBusyError(
                "Another GNS3 Copilot (on "
                f"{holder}) is answering in this conversation right now. Wait for it to "
                "finish, or start a new conversation; nothing was sent."
            )
        self._claimed.add(session_id)

    async def _tracked(
        self, turn: Turn, prepare: Callable[[Turn], Awaitable[GraphInput]]
    ) -> AsyncGenerator[ChatChunk, None]:
        self._active.add(turn)
        sid = turn.sid
        keeper = asyncio.create_task(self._keep_claim(sid), name=f"keep-turn-{sid[:8]}")
        try:
            # Closed here, not left to the garbage collector: a Stop that lands while a result
            # is logged below would otherwise leave the turn's run going, unread, asking the
            # model again and holding that request open.
            async with contextlib.aclosing(turn.stream(prepare)) as chunks:
                async for chunk in chunks:
                    if chunk.type == "tool_end" and chunk.tool_call_id:
                        await self._decisions.record(sid, [(chunk.tool_call_id, "result", None)])
                    yield chunk
        finally:
            self._active.discard(turn)
            keeper.cancel()
            if sid in self._claimed:
                self._claimed.discard(sid)
                with contextlib.suppress(CopilotError):
                    await self._store.release_turn(sid, self._owner)

    async def _keep_claim(self, session_id: str) -> None:
        while True:
            await asyncio.sleep(LEASE_S / 3)
            if session_id in self._claimed:
                with contextlib.suppress(CopilotError):
                    await self._store.renew_turn(session_id, self._owner)

    def _check_open(self) -> None:
        if self._closed:
            raise CopilotError(CLOSED_TEXT)

    def _lock(self, session_id: str) -> asyncio.Lock:
        return self._locks.setdefault(session_id, asyncio.Lock())

    async def _session_or_none(self, session_id: str) -> SessionInfo | None:
        if self._closed:
            return None  # the turn's prepare step reports it
        try:
            return await self._store.get_session(session_id)
        except SessionNotFoundError:
            return None

    async def _imported_start(self, session_id: str) -> list[AnyMessage]:
        """The working context a continued imported session starts from (the transcript as one
        quoted plain-text message, never calls); refuses while it is not continued."""
        state = await self._imported_state(session_id)
        if state is None:
            return []
        continued, transcript = state
        if not continued:
            raise CopilotError(IMPORTED_READ_ONLY_TEXT)
        context = HumanMessage(
            content=transcript_context(transcript), id=f"imported-{uuid.uuid4()}"
        )
        return [context]

    async def _new_message_input(
        self,
        turn: Turn,
        session_id: str,
        message: str,
        info: SessionInfo | None,
        context: RunContext,
    ) -> AgentState:
        """The graph input of a new user message: repairs, trimming, then the message.

        The user's message is in the transcript before the model is called, so it stays in the
        session whatever happens next.
        """
        if info is None:
            await self._store.get_session(session_id)  # raises SessionNotFoundError
        snapshot = await commit_finished_steps(self._graph, turn.config)
        messages: list[AnyMessage] = list(snapshot.values.get("messages") or [])
        why = SUPERSEDED_TEXT if snapshot.interrupts else CANCELLED_TEXT
        repairs = [
            cancelled_tool_message(call_id, name, why)
            for call_id, name in dangling_tool_calls(messages)
        ]
        start = [] if messages else await self._imported_start(session_id)
        drop = working_state_trim([*messages, *repairs], context.limits)
        human = HumanMessage(content=message, id=f"user-{uuid.uuid4()}")
        await turn.record([*repairs, human])
        # RemoveMessage is not in AnyMessage's union, but add_messages accepts it.
        removals = cast(list[AnyMessage], [RemoveMessage(id=m.id) for m in drop if m.id])
        graph_input: AgentState = {
            "messages": [*removals, *repairs, *start, human],
            # The session's stored mode, never the caller's: a Tutor session stays read-only.
            "mode": stored_mode(info.mode) if info is not None else context.mode,
            "dropped_messages": snapshot.values.get("dropped_messages", 0) + len(drop),
        }
        if info is not None and info.title:
            graph_input["title"] = info.title
        return graph_input


IMPORTED_READ_ONLY_TEXT = (
    'This conversation was imported: it is a read-only transcript. Choose "Continue this '
    'conversation" above the message box to talk about it (the copilot then reads it as plain '
    "text); nothing was sent."
)


def default_decision_log(store: AnyStore) -> DecisionLog:
    """The log beside a SQLite store's file, or in the PostgreSQL store's database."""
    if isinstance(store, SessionStore):
        return SqliteDecisionLog(store.db_path.parent / DECISIONS_DB_NAME)
    return store.decision_log()


def _decision_rows(
    decisions: list[ApprovalDecision],
) -> list[tuple[str, DecisionKind, str | None]]:
    rows: list[tuple[str, DecisionKind, str | None]] = []
    for d in decisions:
        kind: DecisionKind = "reject" if d.action == "reject" else "approve"
        if d.action == "edit":
            kind = "edit"
        rows.append((d.tool_call_id, kind, arguments_hash(d.arguments)))
    return rows


def _config(session_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": session_id}}
