"""One streamed turn of a session: run the graph, translate its events, keep the session whole.

The graph runs in a producer task that puts `ChatChunk`s on a queue; the caller's iterator drains
the queue and races it against a heartbeat timer. Every message the graph adds is appended to the
session's transcript as soon as its node finishes. When the turn ends — normally, on an error, or
because the caller cancelled — the working state and the transcript are made consistent (every
tool call answered, a partial answer kept and marked), the session stats are updated and the
superseded checkpoints are pruned. Each of these steps touches a bounded amount of data.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, AnyMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.fragments import FragmentGuard
from gns3_copilot_desktop.core.agent.state import AgentState
from gns3_copilot_desktop.core.agent.transcript import to_transcript
from gns3_copilot_desktop.core.agent.turn_end import TurnEnding, _Tally
from gns3_copilot_desktop.core.errors import (
    CopilotError,
    Gns3AuthError,
    StaleDecisionError,
    TurnBusyError,
)
from gns3_copilot_desktop.core.protocol import GNS3_AUTH_ERROR_KIND, ApprovalRequest, ChatChunk
from gns3_copilot_desktop.core.sessions.pg_store import AnyStore
from gns3_copilot_desktop.core.tasks import to_the_end

log = logging.getLogger(__name__)

Graph = CompiledStateGraph[AgentState, RunContext, AgentState, AgentState]
GraphInput = AgentState | Command[Any]

INTERNAL_ERROR = "Something went wrong in the copilot; the details are in the log file."
_END = object()


class Turn(TurnEnding):
    """One run of the graph for one session (built and driven by `AgentService`)."""

    def __init__(
        self,
        graph: Graph,
        store: AnyStore,
        session_id: str,
        context: RunContext,
        *,
        title_from: str | None = None,
    ) -> None:
        self._graph = graph
        self._store = store
        self._sid = session_id
        self.sid = session_id
        self._ctx = context
        self._config: RunnableConfig = {
            "configurable": {"thread_id": session_id},
            "recursion_limit": context.limits.max_steps,
        }
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._tally = _Tally()
        self._partial: list[str] = []
        self._fragments = FragmentGuard()
        self._partial_id: str | None = None
        self._errored = False
        self._error_chunk: ChatChunk | None = None
        self._approvals: list[ApprovalRequest] = []
        self._started = time.monotonic()
        self._title_from = title_from
        self._title_task: asyncio.Task[str] | None = None
        self._producer: asyncio.Task[None] | None = None
        self._abort_reason: str | None = None

    @property
    def config(self) -> RunnableConfig:
        """The run's config: the thread id and limits only, nothing secret."""
        return self._config

    async def record(self, messages: list[AnyMessage]) -> None:
        """Append messages to the transcript and count them."""
        if not messages:
            return
        await self._store.append_messages(self._sid, [to_transcript(m) for m in messages])
        self._tally.recorded.extend(messages)
        self._tally.messages += len(messages)

    async def stream(
        self, prepare: Callable[[Turn], Awaitable[GraphInput]]
    ) -> AsyncGenerator[ChatChunk, None]:
        """Run the turn; the stream ends with one ``done`` (after at most one ``error``)."""
        finished = False
        try:
            try:
                graph_input = await prepare(self)
            except CopilotError as exc:
                kind = (
                    "stale_decision"
                    if isinstance(exc, StaleDecisionError)
                    else "busy"
                    if isinstance(exc, TurnBusyError)
                    else "store"
                )
                yield self._chunk(ChatChunk(type="error", error=exc.user_message, error_kind=kind))
                yield self._chunk(ChatChunk(type="done"))
                finished = True
                return
            self._producer = asyncio.create_task(self._produce(graph_input))
            async for chunk in self._drain():
                yield self._chunk(chunk)
            await self._producer
            async for chunk in self._finish():
                yield self._chunk(chunk)
            finished = True
        finally:
            if not finished:
                await to_the_end(self._abandon(self._producer))

    # --- producing --------------------------------------------------------------------------

    async def _produce(self, graph_input: GraphInput) -> None:
        stream = self._graph.astream(
            graph_input,
            self._config,
            context=self._ctx,
            stream_mode=["messages", "updates", "custom"],
        )
        try:
            # Closed here, also when cancelled while handling an event: left to the garbage
            # collector, the graph's generator is finalized later, outside any task, and
            # complains on stderr ("async generator ignored GeneratorExit").
            try:
                async for mode, payload in stream:
                    await self._on_event(mode, payload)
            finally:
                await _aclose(stream)
        except asyncio.CancelledError:
            if self._abort_reason is None:
                raise
            self._put_error(self._abort_reason, "closed")
        except CopilotError as exc:
            log.warning("turn failed: %s", exc.user_message)
            kind = GNS3_AUTH_ERROR_KIND if isinstance(exc, Gns3AuthError) else "copilot"
            self._put_error(exc.user_message, kind)
        except Exception:
            log.exception("turn failed unexpectedly")
            self._put_error(INTERNAL_ERROR, "internal")
        finally:
            self._queue.put_nowait(_END)

    async def _on_event(self, mode: str, payload: Any) -> None:
        if mode == "messages":
            piece, meta = payload
            if isinstance(piece, AIMessageChunk) and meta.get("langgraph_node") == "llm_call":
                text = piece.text
                if text:
                    self._partial.append(text)
                    self._partial_id = self._partial_id or piece.id
                    shown = self._fragments.feed(piece.id or "", text)
                    if shown:
                        self._queue.put_nowait(
                            ChatChunk(type="content", content=shown, message_id=piece.id)
                        )
        elif mode == "custom" and isinstance(payload, ChatChunk):
            self._on_graph_chunk(payload)
        elif mode == "updates" and isinstance(payload, dict):
            for node, update in payload.items():
                if node == "__interrupt__":
                    self._on_interrupt(update)
                elif isinstance(update, dict) and update.get("messages"):
                    if node == "llm_call":
                        self._release_held(self._partial_id, update["messages"])
                        self._partial, self._partial_id = [], None
                    await self.record(list(update["messages"]))

    def _release_held(self, message_id: str | None, messages: list[Any]) -> None:
        """An answer held back as a possible ``functions.`` fragment is shown as the model step
        stored it (the fragment replaced by a sentence, a real answer as it was)."""
        if self._fragments.finish(message_id) is None:
            return
        answer = next((m for m in messages if isinstance(m, AIMessage)), None)
        text = answer.text if answer is not None else ""
        if text:
            self._queue.put_nowait(ChatChunk(type="content", content=text, message_id=message_id))

    def _on_graph_chunk(self, chunk: ChatChunk) -> None:
        if chunk.type == "usage" and chunk.usage is not None:
            self._tally.input_tokens += chunk.usage.input_tokens
            self._tally.output_tokens += chunk.usage.output_tokens
        if chunk.type == "error":
            if self._errored:
                return
            self._errored = True
        self._queue.put_nowait(chunk)

    def _on_interrupt(self, interrupts: Any) -> None:
        for item in interrupts or ():
            value = getattr(item, "value", None)
            if isinstance(value, dict):
                self._approvals += [
                    ApprovalRequest.model_validate(a) for a in value.get("approvals", [])
                ]
        if self._approvals:
            self._queue.put_nowait(ChatChunk(type="approval_request", approvals=self._approvals))

    def _put_error(self, text: str, kind: str) -> None:
        if not self._errored:
            self._errored = True
            self._queue.put_nowait(ChatChunk(type="error", error=text, error_kind=kind))

    # --- draining, with heartbeats -----------------------------------------------------------

    async def _drain(self) -> AsyncIterator[ChatChunk]:
        interval = self._ctx.limits.heartbeat_interval_s
        loop = asyncio.get_running_loop()
        last_sent = loop.time()
        while True:
            if interval > 0:
                wait = max(0.0, last_sent + interval - loop.time())
                try:
                    async with asyncio.timeout(wait):
                        item = await self._queue.get()
                except TimeoutError:
                    last_sent = loop.time()
                    yield ChatChunk(type="heartbeat", elapsed_s=round(self._elapsed(), 3))
                    continue
            else:
                item = await self._queue.get()
            if item is _END:
                return
            assert isinstance(item, ChatChunk)
            if item.type == "error":
                # Held back: the protocol puts the one error right before ``done``.
                self._error_chunk = self._error_chunk or item
                continue
            last_sent = loop.time()
            yield item

    # --- ending ---------------------------------------------------------------------------------

    def abort(self, reason: str) -> None:
        """Stop the run from outside (the service is closing); the stream ends with ``reason``."""
        if self._producer is None or self._producer.done():
            return
        self._abort_reason = reason
        if self._title_task is not None:
            self._title_task.cancel()
        self._producer.cancel()

    async def _finish(self) -> AsyncIterator[ChatChunk]:
        if self._abort_reason is not None:
            try:
                await self._repair_after_cancel()
            except CopilotError as exc:
                log.warning("could not save the stopped turn: %s", exc.user_message)
        title = await self._title()
        if title:
            yield ChatChunk(type="title", title=title)
        await self._close_books(title)
        if self._error_chunk is not None:
            yield self._error_chunk
        yield ChatChunk(type="done", elapsed_s=round(self._elapsed(), 3))

    async def _abandon(self, producer: asyncio.Task[None] | None) -> None:
        """The caller left mid-turn: stop everything and leave the session consistent."""
        if self._title_task is not None:
            self._title_task.cancel()
        if producer is not None and not producer.done():
            producer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await producer
        try:
            await self._repair_after_cancel()
        except CopilotError as exc:
            log.warning("could not save the cancelled turn: %s", exc.user_message)
        await self._close_books()

    # --- helpers ----------------------------------------------------------------------------

    def _chunk(self, chunk: ChatChunk) -> ChatChunk:
        chunk.session_id = self._sid
        return chunk

    def _elapsed(self) -> float:
        return time.monotonic() - self._started


async def _aclose(stream: AsyncIterator[Any]) -> None:
    """Close an async generator now (an iterator without ``aclose`` has nothing to close)."""
    aclose = getattr(stream, "aclose", None)
    if aclose is not None:
        await aclose()
