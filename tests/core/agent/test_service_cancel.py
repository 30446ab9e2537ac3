"""Stop really stops, the session stays usable, and heartbeats cover a stalled stream."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest

from gns3_copilot_desktop.core.agent.history import STOPPED_NOTE
from gns3_copilot_desktop.core.agent.tools import default_registry
from gns3_copilot_desktop.core.protocol import ChatChunk
from tests.helpers.agent import (
    BlockingTool,
    Lab,
    ServiceFactory,
    collect,
    run_context,
    text_of,
    types_of,
)
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


async def _consume(stream: Any, into: list[ChatChunk]) -> None:
    async for chunk in stream:
        into.append(chunk)


async def test_cancel_mid_tool_then_next_turn_works(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    tool = BlockingTool()
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(
            ScriptedToolCall("wait_for_lab", {}, id="call_wait"),
            ScriptedToolCall("list_projects", {}, id="call_list"),
        )
    )
    service = await make_service(tools=default_registry([tool]))
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    seen: list[ChatChunk] = []
    task = asyncio.create_task(_consume(service.stream_chat("Wait", session.id, context=ctx), seen))
    await asyncio.wait_for(tool.started.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
    assert tool.cancelled
    assert "done" not in types_of(seen)

    # The transcript answers both tool calls; the cancelled one says so.
    history = (await service.get_history(session.id)).messages
    assert [m.role for m in history[:2]] == ["user", "assistant"]
    tools = {m.tool_call_id: m for m in history if m.role == "tool"}
    assert set(tools) == {"call_wait", "call_list"}
    assert tools["call_wait"].metadata["status"] == "cancelled"
    assert (await service.pending_approvals(session.id)) == []

    # Next turn: the provider's 400 for dangling tool calls would show as an error here.
    scripted_openai.push(ScriptedTurn.text("Back again."))
    again = await collect(service.stream_chat("Continue", session.id, context=ctx))
    assert "error" not in types_of(again), [c.error for c in again if c.error]
    assert text_of(again) == "Back again."
    request = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    answered = {m["tool_call_id"] for m in request.messages if m["role"] == "tool"}
    assert answered == {"call_wait", "call_list"}
    assert all(r.status != 400 for r in scripted_openai.chat_requests())


async def test_cancel_mid_answer_keeps_the_partial_text(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.stalled("Partial words here", chunks=2, stall_after_chunks=2))
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    seen: list[ChatChunk] = []
    task = asyncio.create_task(_consume(service.stream_chat("Talk", session.id, context=ctx), seen))
    await scripted_openai.wait_until(lambda: scripted_openai.stalled_count == 1, 10)
    await scripted_openai.wait_until(lambda: any(c.type == "content" for c in seen), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
    # The model call was stopped: the server saw the client leave.
    await scripted_openai.wait_until(lambda: scripted_openai.disconnects >= 1, 5)

    history = (await service.get_history(session.id)).messages
    assert [m.role for m in history] == ["user", "assistant"]
    assert history[1].content == text_of(seen) and history[1].content
    assert history[1].metadata["incomplete"] == "cancelled"
    info = await service.store.get_session(session.id)
    assert info.message_count == 2

    scripted_openai.push(ScriptedTurn.text("Fine."))
    again = await collect(service.stream_chat("Go on", session.id, context=ctx))
    assert text_of(again) == "Fine." and "error" not in types_of(again)
    # The model is told its previous answer was stopped; the stored answer is not changed.
    request = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    kept = [m["content"] for m in request.messages if m["role"] == "assistant"]
    assert kept == [f"{history[1].content}\n\n{STOPPED_NOTE}"]
    reopened = (await service.get_history(session.id)).messages
    assert reopened[1].content == history[1].content
    assert reopened[1].metadata["incomplete"] == "cancelled"


async def test_heartbeat_during_a_stalled_stream(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.stalled("Slow answer", chunks=2, stall_after_chunks=2))
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model(), heartbeat_interval_s=0.2)

    seen: list[ChatChunk] = []
    task = asyncio.create_task(_consume(service.stream_chat("Hi", session.id, context=ctx), seen))
    await scripted_openai.wait_until(lambda: scripted_openai.stalled_count == 1, 10)
    mark = len(seen)
    await scripted_openai.wait_until(lambda: types_of(seen[mark:]).count("heartbeat") >= 2, 5)
    scripted_openai.release_stall()
    await asyncio.wait_for(task, 10)

    kinds = types_of(seen)
    assert kinds[-1] == "done" and "error" not in kinds
    assert text_of(seen) == "Slow answer"
    beats = [c for c in seen if c.type == "heartbeat"]
    assert all(b.elapsed_s is not None and b.elapsed_s > 0 for b in beats)
    # Between two heartbeats at least one interval passed (a timer, not a busy loop).
    times = [b.elapsed_s or 0.0 for b in beats]
    assert all(later - earlier >= 0.15 for earlier, later in itertools.pairwise(times))


async def test_closing_the_service_stops_a_running_turn(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory, tmp_path: Path
) -> None:
    tool = BlockingTool()
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.tool("wait_for_lab", {}, id="call_wait"))
    db = tmp_path / "closing.db"
    service = await make_service(db, tools=default_registry([tool]))
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())
    seen: list[ChatChunk] = []
    task = asyncio.create_task(_consume(service.stream_chat("Wait", session.id, context=ctx), seen))
    await asyncio.wait_for(tool.started.wait(), 10)

    await asyncio.wait_for(service.close(), 10)
    await asyncio.wait_for(task, 5)

    assert tool.cancelled and service.closed
    assert types_of(seen)[-2:] == ["error", "done"] and seen[-2].error_kind == "closed"
    late = await collect(service.stream_chat("Hello?", session.id, context=ctx))
    assert types_of(late) == ["error", "done"]
    reopened = await make_service(db)
    history = (await reopened.get_history(session.id)).messages
    assert [m.role for m in history] == ["user", "assistant", "tool"]
    assert history[2].metadata["status"] == "cancelled"
