"""The scripted OpenAI server, driven through the real ``langchain-openai`` client.

These tests prove the server is faithful enough that ChatOpenAI parses what it sends exactly as it
parses OpenAI's answers: streamed content, tool-call deltas assembled into parsed tool calls,
parallel calls, usage, and the errors as the openai SDK's own exception classes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from typing import Any

import httpx
import openai
import pytest
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn


async def collect(model: Any, messages: list[Any]) -> tuple[AIMessageChunk, list[AIMessageChunk]]:
    """Stream ``messages`` through ``model``; return the merged message and the pieces."""
    pieces: list[AIMessageChunk] = []
    async for piece in model.astream(messages):
        pieces.append(piece)
    merged = pieces[0]
    for piece in pieces[1:]:
        merged = merged + piece
    return merged, pieces


@pytest.mark.asyncio
async def test_content_streams_in_the_scripted_pieces(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.text("Hello from the scripted model", chunks=4))
    model = scripted_openai.chat_model()

    merged, pieces = await collect(model, [SystemMessage("sys prompt"), HumanMessage("hi")])

    texts = [p.content for p in pieces if p.content]
    assert texts == ["Hello fr", "om the ", "scripte", "d model"]
    assert merged.content == "Hello from the scripted model"
    assert merged.response_metadata["finish_reason"] == "stop"
    request = scripted_openai.chat_requests()[0]
    assert request.api_key == scripted_openai.client_api_key
    assert request.headers["authorization"] == f"Bearer {scripted_openai.client_api_key}"
    assert request.system_prompt == "sys prompt"
    assert request.body["stream_options"] == {"include_usage": True}


@pytest.mark.asyncio
async def test_usage_reaches_the_message(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.text("ok", usage=(123, 7)))
    merged, _ = await collect(scripted_openai.chat_model(), [HumanMessage("hi")])
    assert merged.usage_metadata is not None
    assert merged.usage_metadata["input_tokens"] == 123
    assert merged.usage_metadata["output_tokens"] == 7
    assert merged.usage_metadata["total_tokens"] == 130


@pytest.mark.asyncio
async def test_usage_is_estimated_when_not_scripted(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.text("x" * 400))
    merged, _ = await collect(scripted_openai.chat_model(), [HumanMessage("y" * 800)])
    assert merged.usage_metadata is not None
    assert merged.usage_metadata["output_tokens"] == 100
    assert merged.usage_metadata["input_tokens"] >= 200


@pytest.mark.asyncio
async def test_tool_call_arguments_split_over_chunks_are_assembled(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    args = {"project_id": "p-1", "names": ["R1", "R2"]}
    scripted_openai.push(ScriptedTurn.tool("list_nodes", args, id="call_abc", argument_chunks=4))
    model = scripted_openai.chat_model().bind_tools([_tool_schema("list_nodes")])

    merged, pieces = await collect(model, [HumanMessage("nodes?")])

    arg_pieces = [c["args"] for p in pieces for c in p.tool_call_chunks if c.get("args")]
    assert len(arg_pieces) == 4
    assert "".join(arg_pieces) == json.dumps(args)
    first = next(p for p in pieces if p.tool_call_chunks)
    assert first.tool_call_chunks[0]["name"] == "list_nodes"
    assert first.tool_call_chunks[0]["id"] == "call_abc"
    assert merged.tool_calls == [
        {"name": "list_nodes", "args": args, "id": "call_abc", "type": "tool_call"}
    ]
    assert merged.response_metadata["finish_reason"] == "tool_calls"
    assert scripted_openai.chat_requests()[0].tool_names == ["list_nodes"]


@pytest.mark.asyncio
async def test_parallel_tool_calls_keep_distinct_indexes(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(
        ScriptedTurn.tools(
            ScriptedToolCall("list_nodes", {"project_id": "a"}),
            ScriptedToolCall("list_links", {"project_id": "b"}),
        )
    )
    model = scripted_openai.chat_model().bind_tools(
        [_tool_schema("list_nodes"), _tool_schema("list_links")]
    )
    merged, pieces = await collect(model, [HumanMessage("both")])

    indexes = {c["index"] for p in pieces for c in p.tool_call_chunks}
    assert indexes == {0, 1}
    assert [(c["name"], c["args"]) for c in merged.tool_calls] == [
        ("list_nodes", {"project_id": "a"}),
        ("list_links", {"project_id": "b"}),
    ]
    ids = [c["id"] for c in merged.tool_calls]
    assert len(set(ids)) == 2 and all(i and i.startswith("call_") for i in ids)


@pytest.mark.asyncio
async def test_non_streaming_invoke(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(
        ScriptedTurn(
            content="Both.", tool_calls=(ScriptedToolCall("t", {"a": 1}, "call_1"),), usage=(5, 3)
        )
    )
    model = scripted_openai.chat_model(streaming=False).bind_tools([_tool_schema("t")])
    message = await model.ainvoke([HumanMessage("hi")])
    assert isinstance(message, AIMessage)
    assert message.content == "Both."
    assert message.tool_calls[0]["args"] == {"a": 1}
    assert message.usage_metadata is not None and message.usage_metadata["input_tokens"] == 5
    assert scripted_openai.chat_requests()[0].stream is False


@pytest.mark.asyncio
async def test_models_endpoint_lists_models(scripted_openai: ScriptedOpenAIServer) -> None:
    client = openai.AsyncOpenAI(
        base_url=scripted_openai.base_url, api_key="sk-test-x", max_retries=0
    )
    page = await client.models.list()
    assert [m.id for m in page.data] == scripted_openai.models
    await client.close()


@pytest.mark.parametrize(
    ("turn", "exc_type", "status"),
    [
        (ScriptedTurn.rate_limited(retry_after_s=7), openai.RateLimitError, 429),
        (ScriptedTurn.server_error(), openai.InternalServerError, 500),
        (ScriptedTurn.invalid_api_key(), openai.AuthenticationError, 401),
    ],
)
@pytest.mark.asyncio
async def test_http_errors_surface_as_openai_exceptions(
    scripted_openai: ScriptedOpenAIServer, turn: ScriptedTurn, exc_type: type, status: int
) -> None:
    scripted_openai.push(turn)
    with pytest.raises(exc_type) as info:
        await collect(scripted_openai.chat_model(), [HumanMessage("hi")])
    assert info.value.status_code == status
    assert info.value.body["message"]  # OpenAI's error JSON was parsed
    if status == 429:
        assert info.value.response.headers["retry-after"] == "7"
        assert info.value.code == "rate_limit_exceeded"


@pytest.mark.asyncio
async def test_wrong_api_key_is_rejected_like_openai() -> None:
    server = ScriptedOpenAIServer(api_key="sk-test-right").start()
    try:
        server.default_turn = ScriptedTurn.text("ok")
        with pytest.raises(openai.AuthenticationError) as info:
            await collect(server.chat_model(api_key="sk-test-wrong-key"), [HumanMessage("hi")])
        assert info.value.code == "invalid_api_key"
        assert "sk-test-wrong-key" not in str(info.value)  # masked like OpenAI does
        merged, _ = await collect(server.chat_model(), [HumanMessage("hi")])
        assert merged.content == "ok"
    finally:
        server.stop()
    assert not server.errors


@pytest.mark.asyncio
async def test_malformed_chunk_raises(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.malformed("partial"))
    with pytest.raises(json.JSONDecodeError):
        await collect(scripted_openai.chat_model(), [HumanMessage("hi")])


@pytest.mark.asyncio
async def test_error_event_mid_stream_raises_api_error(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn(content="abc", stream_error_after_chunks=2))
    with pytest.raises(openai.APIError, match="invalid content"):
        await collect(scripted_openai.chat_model(), [HumanMessage("hi")])


@pytest.mark.asyncio
async def test_cut_off_stream_drops_the_connection(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.cut_off("The answer was", chunks=2))
    pieces: list[AIMessageChunk] = []
    with pytest.raises(openai.APIConnectionError) as info:
        async for piece in scripted_openai.chat_model().astream([HumanMessage("hi")]):
            pieces.append(piece)
    # the openai SDK wraps the transport's RemoteProtocolError (httpx or httpx2)
    causes = []
    exc: BaseException | None = info.value
    while exc is not None:
        causes.append(exc)
        exc = exc.__cause__ or exc.__context__
    protocol_errors = [c for c in causes if type(c).__name__ == "RemoteProtocolError"]
    assert protocol_errors and "incomplete chunked read" in str(protocol_errors[0])
    assert "".join(str(p.content) for p in pieces) == "The answer was"


@pytest.mark.asyncio
async def test_clean_cut_off_has_no_finish_reason(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.cut_off("The answer was", clean=True))
    merged, _ = await collect(scripted_openai.chat_model(), [HumanMessage("hi")])
    assert merged.content == "The answer was"
    assert "finish_reason" not in merged.response_metadata
    assert merged.usage_metadata is None


@pytest.mark.asyncio
async def test_dangling_tool_call_gets_openais_400(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.default_turn = ScriptedTurn.text("fine")
    call = {"name": "list_nodes", "args": {}, "id": "call_dangling", "type": "tool_call"}
    history = [HumanMessage("hi"), AIMessage("", tool_calls=[call]), HumanMessage("again")]
    with pytest.raises(openai.BadRequestError) as info:
        await collect(scripted_openai.chat_model(), history)
    assert "must be followed by tool messages" in info.value.body["message"]
    assert "call_dangling" in info.value.body["message"]
    assert info.value.body["type"] == "invalid_request_error"

    answered = [*history[:2], ToolMessage("[]", tool_call_id="call_dangling"), history[2]]
    merged, _ = await collect(scripted_openai.chat_model(), answered)
    assert merged.content == "fine"
    assert [r.status for r in scripted_openai.chat_requests()] == [400, 200]


@pytest.mark.asyncio
async def test_orphan_tool_message_gets_400(scripted_openai: ScriptedOpenAIServer) -> None:
    with pytest.raises(openai.BadRequestError, match="must be a response to a preceeding"):
        await collect(
            scripted_openai.chat_model(), [HumanMessage("hi"), ToolMessage("x", tool_call_id="c9")]
        )
    assert scripted_openai.remaining == 0


@pytest.mark.asyncio
async def test_stalled_stream_waits_for_release(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.stalled("Thinking hard", chunks=2, stall_after_chunks=2))
    seen: list[str] = []

    async def consume() -> None:
        async for piece in scripted_openai.chat_model().astream([HumanMessage("hi")]):
            seen.append(str(piece.content))

    task = asyncio.create_task(consume())
    await scripted_openai.wait_until(lambda: scripted_openai.stalled_count == 1)
    await scripted_openai.wait_until(lambda: "".join(seen) == "Thinkin")
    assert not task.done()
    scripted_openai.release_stall()
    await asyncio.wait_for(task, 5)
    assert "".join(seen) == "Thinking hard"
    assert scripted_openai.disconnects == 0


@pytest.mark.asyncio
async def test_cancelled_client_is_seen_as_a_disconnect(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.stalled())

    async def consume() -> None:
        async for _ in scripted_openai.chat_model().astream([HumanMessage("hi")]):
            pass

    task = asyncio.create_task(consume())
    await scripted_openai.wait_until(lambda: scripted_openai.stalled_count == 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await scripted_openai.wait_until(lambda: scripted_openai.disconnects == 1)
    assert scripted_openai.stalled_count == 0


@pytest.mark.asyncio
async def test_chunk_delay_paces_the_stream(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.text("abcd", chunks=4, chunk_delay_s=0.05))
    loop = asyncio.get_running_loop()
    stamps: list[float] = []
    asked = loop.time()
    async for piece in scripted_openai.chat_model().astream([HumanMessage("hi")]):
        if piece.content:
            stamps.append(loop.time())
    assert len(stamps) == 4  # one piece a chunk
    # the server waits before each chunk: the pieces cannot all have come sooner. (Gaps between
    # two arrivals say nothing on a busy machine: a late piece shortens the gap after it.)
    assert stamps[-1] - asked >= 4 * 0.05 * 0.9  # a timer may fire a tick early
    assert stamps[0] - asked >= 0.05 * 0.9


@pytest.mark.asyncio
async def test_title_responder_answers_title_calls_in_parallel(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.set_title_responder("Router lab")
    scripted_openai.push(ScriptedTurn.text("normal answer"))
    normal = scripted_openai.chat_model().bind_tools([_tool_schema("t")])
    titler = scripted_openai.chat_model()
    title_prompt = [SystemMessage("Write a short title for this conversation."), HumanMessage("x")]

    (answer, _), (title, _) = await asyncio.gather(
        collect(normal, [HumanMessage("hi")]), collect(titler, title_prompt)
    )
    assert answer.content == "normal answer"
    assert title.content == "Router lab"
    assert sorted(r.turn_label for r in scripted_openai.chat_requests()) == ["", "title"]


@pytest.mark.asyncio
async def test_matcher_picks_a_turn_by_request(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(
        ScriptedTurn.text("for B", match=lambda r: r.last_user_text == "B"),
        ScriptedTurn.text("for anyone"),
    )
    first, _ = await collect(scripted_openai.chat_model(), [HumanMessage("A")])
    second, _ = await collect(scripted_openai.chat_model(), [HumanMessage("B")])
    assert (first.content, second.content) == ("for anyone", "for B")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"messages": [{"role": "user", "content": "x"}]}, "model parameter"),
        ({"model": "m", "messages": []}, "too short"),
        ({"model": "m", "messages": [{"role": "robot", "content": "x"}]}, "Invalid value"),
    ],
)
@pytest.mark.asyncio
async def test_invalid_bodies_are_rejected(
    scripted_openai: ScriptedOpenAIServer, body: dict[str, Any], fragment: str
) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.post(
            f"{scripted_openai.base_url}/chat/completions",
            json=body,
            headers={"authorization": "Bearer sk-test-x"},
        )
    assert response.status_code == 400
    assert fragment in response.json()["error"]["message"]


@pytest.mark.asyncio
async def test_missing_key_is_401_and_unscripted_request_is_recorded(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    async with httpx.AsyncClient() as client:
        no_key = await client.get(f"{scripted_openai.base_url}/models")
        assert no_key.status_code == 401
        body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
        unscripted = await client.post(
            f"{scripted_openai.base_url}/chat/completions",
            json=body,
            headers={"authorization": "Bearer sk-test-x"},
        )
    assert unscripted.status_code == 500
    assert len(scripted_openai.take_errors()) == 1


def test_works_without_an_event_loop(scripted_openai: ScriptedOpenAIServer) -> None:
    """Qt tests call the server from plain sync code: the server has its own thread and loop."""
    scripted_openai.push(ScriptedTurn.text("sync ok"))
    message = scripted_openai.chat_model().invoke([HumanMessage("hi")])
    assert message.content == "sync ok"


def _tool_schema(name: str) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": f"The {name} tool.",
            "parameters": {"type": "object", "properties": {}, "additionalProperties": True},
        },
    }


def test_works_on_a_qasync_loop(
    qtbot: Any, qasync_loop: asyncio.AbstractEventLoop, scripted_openai: ScriptedOpenAIServer
) -> None:
    """UI tests stream on the qasync loop; the stall/release cycle must work there too."""
    scripted_openai.push(ScriptedTurn.stalled("qasync ok", chunks=1, stall_after_chunks=2))
    seen: list[str] = []

    async def consume() -> None:
        async for piece in scripted_openai.chat_model().astream([HumanMessage("hi")]):
            seen.append(str(piece.content))

    task = qasync_loop.create_task(consume())
    qtbot.waitUntil(lambda: scripted_openai.stalled_count == 1 and "".join(seen) == "qasync ok")
    assert not task.done()
    scripted_openai.release_stall()
    qtbot.waitUntil(task.done, timeout=5000)
    assert task.exception() is None


@pytest.mark.asyncio
async def test_release_frees_only_the_streams_stalled_now(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.stalled("one"), ScriptedTurn.stalled("two"))
    model = scripted_openai.chat_model()
    first = asyncio.create_task(model.ainvoke([HumanMessage("1")]))
    await scripted_openai.wait_until(lambda: scripted_openai.stalled_count == 1)
    scripted_openai.release_stall()
    assert (await asyncio.wait_for(first, 5)).content == "one"

    second = asyncio.create_task(model.ainvoke([HumanMessage("2")]))
    await scripted_openai.wait_until(lambda: scripted_openai.stalled_count == 1)
    assert not second.done()
    scripted_openai.release_stall()
    assert (await asyncio.wait_for(second, 5)).content == "two"


def test_stop_ends_a_stream_left_stalled() -> None:
    server = ScriptedOpenAIServer().start()
    server.push(ScriptedTurn.stalled())
    thread = threading.Thread(target=_invoke_ignoring_errors, args=(server,), daemon=True)
    thread.start()
    deadline = time.monotonic() + 5
    while server.stalled_count == 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert server.stalled_count == 1
    server.stop()
    thread.join(5)
    assert not thread.is_alive()
    assert not server.errors


def _invoke_ignoring_errors(server: ScriptedOpenAIServer) -> None:
    with contextlib.suppress(Exception):
        server.chat_model().invoke([HumanMessage("hi")])


@pytest.mark.asyncio
async def test_stall_with_a_timeout_goes_on_by_itself(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.stalled("late but whole", timeout_s=0.2))
    loop = asyncio.get_running_loop()
    started = loop.time()
    merged, _ = await collect(scripted_openai.chat_model(), [HumanMessage("hi")])
    assert merged.content == "late but whole"
    assert merged.response_metadata["finish_reason"] == "stop"
    assert loop.time() - started >= 0.19


@pytest.mark.asyncio
async def test_tool_names_are_checked_like_openai(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.default_turn = ScriptedTurn.text("ok")
    bad = scripted_openai.chat_model().bind_tools([_tool_schema("gns3.list_nodes")])
    with pytest.raises(openai.BadRequestError, match="does not match pattern"):
        await bad.ainvoke([HumanMessage("hi")])
    good = scripted_openai.chat_model().bind_tools([_tool_schema("gns3_list-nodes")])
    assert (await good.ainvoke([HumanMessage("hi")])).content == "ok"
