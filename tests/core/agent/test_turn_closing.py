"""A turn stopped while it saves what the graph sent closes the graph's stream at once.

Left open, LangGraph's ``astream`` generator is finalized later by the garbage collector, outside
any task, and prints "async generator ignored GeneratorExit" on stderr (seen when the app closed
in the middle of an answer).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Sequence
from typing import Any

import pytest

from gns3_copilot_desktop.core.sessions.models import TranscriptMessage
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


async def _stop_when(stream: Any, reached: asyncio.Event) -> None:
    """Read the turn's stream in a task and cancel that task (a Stop) once ``reached`` is set."""
    consumer = asyncio.create_task(collect(stream))
    async with asyncio.timeout(15):
        await reached.wait()
    consumer.cancel()
    await asyncio.gather(consumer, return_exceptions=True)


def _graph_streams(graph: Any, monkeypatch: pytest.MonkeyPatch) -> list[AsyncGenerator[Any, None]]:
    """Every stream the graph's ``astream`` hands out from now on."""
    streams: list[AsyncGenerator[Any, None]] = []
    real_astream = graph.astream

    def recording_astream(*args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        stream = real_astream(*args, **kwargs)
        streams.append(stream)
        return stream

    monkeypatch.setattr(graph, "astream", recording_astream)
    return streams


async def test_a_turn_cancelled_while_saving_an_answer_closes_the_graph_stream(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scripted_openai.set_title_responder("Stopped")
    scripted_openai.push(ScriptedTurn.text("An answer that is being saved.", chunks=2))
    service = await make_service()
    session = await service.create_session()
    streams = _graph_streams(service._graph, monkeypatch)
    saving = asyncio.Event()
    real_append = service.store.append_messages

    async def slow_append(sid: str, messages: Sequence[TranscriptMessage]) -> Any:
        if not saving.is_set() and any(m.role == "assistant" for m in messages):
            saving.set()
            await asyncio.Event().wait()  # until the turn is cancelled
        return await real_append(sid, messages)

    monkeypatch.setattr(service.store, "append_messages", slow_append)
    ctx = run_context(lab, scripted_openai.chat_model())
    await _stop_when(service.stream_chat("Hello", session.id, context=ctx), saving)

    [stream] = streams
    assert stream.ag_frame is None, "the graph's stream was left open"
    # and the session is whole: the next turn runs
    scripted_openai.push(ScriptedTurn.text("Next."))
    again = await collect(service.stream_chat("Again", session.id, context=ctx))
    assert again[-1].type == "done" and all(c.type != "error" for c in again)


async def test_a_turn_stopped_while_a_tool_result_is_logged_stops_its_run_at_once(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Stop (a client gone from the service, an abort) that lands while the service logs a
    read's result used to leave the turn's own stream unclosed: its run went on without anyone
    reading it, asked the model again and held that request open until the garbage collector
    came by (seen once in CI as a model request still open 30 s after twenty aborts)."""
    scripted_openai.set_title_responder("Stopped")
    scripted_openai.push(ScriptedTurn.tool("list_projects", {}, id="call_list"))
    scripted_openai.push(
        ScriptedTurn.stalled(
            "Still thinking",
            chunks=3,
            stall_after_chunks=3,
            match=lambda r: not any(m.get("content") == "Again" for m in r.messages),
        )
    )
    service = await make_service()
    session = await service.create_session()
    streams = _graph_streams(service._graph, monkeypatch)
    logging_result = asyncio.Event()
    decisions: Any = service._decisions
    real_record = decisions.record

    async def slow_record(sid: str, rows: Any) -> Any:
        if any(row[1] == "result" for row in rows):
            logging_result.set()
            await asyncio.Event().wait()  # until the turn is cancelled
        return await real_record(sid, rows)

    monkeypatch.setattr(decisions, "record", slow_record)
    ctx = run_context(lab, scripted_openai.chat_model())
    await _stop_when(service.stream_chat("List", session.id, context=ctx), logging_result)

    [stream] = streams
    assert stream.ag_frame is None, "the turn's run was left going with no one reading it"
    await scripted_openai.wait_until(lambda: scripted_openai.stalled_count == 0, 10)
    # the next message reaches the model with the read's result, which was finished when the
    # Stop came (a call without its result is refused by the provider)
    scripted_openai.push(
        ScriptedTurn.text(
            "Next.", match=lambda r: any(m.get("content") == "Again" for m in r.messages)
        )
    )
    again = await collect(service.stream_chat("Again", session.id, context=ctx))
    assert again[-1].type == "done" and all(c.type != "error" for c in again), [
        c.error for c in again
    ]
    request = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    assert [m["tool_call_id"] for m in request.messages if m["role"] == "tool"] == ["call_list"]
