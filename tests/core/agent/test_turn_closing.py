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
    graph: Any = service._graph
    streams: list[AsyncGenerator[Any, None]] = []
    real_astream = graph.astream

    def recording_astream(*args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        stream = real_astream(*args, **kwargs)
        streams.append(stream)
        return stream

    monkeypatch.setattr(graph, "astream", recording_astream)
    saving = asyncio.Event()
    real_append = service.store.append_messages

    async def slow_append(sid: str, messages: Sequence[TranscriptMessage]) -> Any:
        if not saving.is_set() and any(m.role == "assistant" for m in messages):
            saving.set()
            await asyncio.Event().wait()  # until the turn is cancelled
        return await real_append(sid, messages)

    monkeypatch.setattr(service.store, "append_messages", slow_append)
    ctx = run_context(lab, scripted_openai.chat_model())
    consumer = asyncio.create_task(collect(service.stream_chat("Hello", session.id, context=ctx)))
    async with asyncio.timeout(15):
        await saving.wait()
    consumer.cancel()
    await asyncio.gather(consumer, return_exceptions=True)

    [stream] = streams
    assert stream.ag_frame is None, "the graph's stream was left open"
    # and the session is whole: the next turn runs
    scripted_openai.push(ScriptedTurn.text("Next."))
    again = await collect(service.stream_chat("Again", session.id, context=ctx))
    assert again[-1].type == "done" and all(c.type != "error" for c in again)
