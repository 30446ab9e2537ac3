"""The wire dialect of each server kind (`SERVER_QUIRKS`), seen in the requests the real
langchain-openai client sends to the scripted OpenAI-compatible server.

The real llama-cpp-python server is exercised by tests/core/agent/test_local_model_live.py; these
tests pin the exact fields, which the real server only shows by misbehaving.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from gns3_copilot_desktop.core.agent.model_factory import LlmConfig, create_base_model
from gns3_copilot_desktop.core.agent.model_quirks import SERVER_QUIRKS, quirks_for
from tests.helpers.scripted_openai import ScriptedError, ScriptedOpenAIServer, ScriptedTurn

TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_topology",
        "description": "Read the lab.",
        "parameters": {"type": "object", "properties": {}},
    },
}
# A conversation whose assistant message carries a tool call (its content is empty).
WITH_TOOL_CALL = [
    HumanMessage("What is in my lab?"),
    AIMessage("", tool_calls=[{"name": "get_topology", "args": {}, "id": "call_1"}]),
    ToolMessage("Nodes: none", tool_call_id="call_1"),
]


def _config(server: ScriptedOpenAIServer, kind: str | None, **fields: Any) -> LlmConfig:
    return LlmConfig(
        provider="openai_compatible",
        model="smollm2",
        base_url=server.base_url,
        api_key=server.client_api_key,
        max_retries=0,
        server=kind,
        **fields,
    )


def test_the_server_kind_is_inferred_from_the_provider() -> None:
    assert quirks_for(LlmConfig(provider="openai", model="gpt-4o-mini")) == SERVER_QUIRKS["openai"]
    compatible = LlmConfig(provider="openai_compatible", model="m", base_url="http://127.0.0.1:1")
    assert quirks_for(compatible) == SERVER_QUIRKS["compatible"]
    # OpenAI's client pointed at someone else's server is not OpenAI's own endpoint
    elsewhere = LlmConfig(provider="openai", model="gpt-4o", base_url="http://127.0.0.1:1/v1")
    assert quirks_for(elsewhere) == SERVER_QUIRKS["compatible"]


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", [k for k in SERVER_QUIRKS if k != "deepseek"])
async def test_each_server_kind_gets_its_own_fields(
    kind: str, scripted_openai: ScriptedOpenAIServer
) -> None:
    quirks = SERVER_QUIRKS[kind]
    scripted_openai.push(ScriptedTurn.text("ok"))
    model = create_base_model(_config(scripted_openai, kind, max_tokens=20))
    [c async for c in model.bind_tools([TOOL]).astream(WITH_TOOL_CALL)]
    body = scripted_openai.chat_requests()[-1].body
    # the answer-length limit under the name the server honours, and only that one
    assert body[quirks.max_tokens_field] == 20
    other = {"max_tokens", "max_completion_tokens"} - {quirks.max_tokens_field}
    assert not other & set(body)
    assistant = next(m for m in body["messages"] if m["role"] == "assistant")
    assert assistant["content"] == ("" if quirks.empty_content_for_tool_calls else None)
    assert body.get("tool_choice") == ("auto" if quirks.tool_choice_auto else None)
    # servers that cannot stream tool calls are asked without streaming when tools are bound
    assert bool(body.get("stream")) is quirks.streams_tool_calls


@pytest.mark.asyncio
async def test_plain_answers_still_stream_where_tool_calls_cannot(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.text("Hello there, engineer", chunks=4))
    model = create_base_model(_config(scripted_openai, "llama_cpp_python"))
    pieces = [p.content async for p in model.astream([HumanMessage("hi")])]
    assert len(pieces) >= 4 and "".join(str(p) for p in pieces) == "Hello there, engineer"
    assert scripted_openai.chat_requests()[-1].stream


@pytest.mark.asyncio
@pytest.mark.parametrize("refusal", ["empty body after 200", "error text"])
async def test_a_server_that_refuses_to_stream_tool_calls_is_asked_again_without_streaming(
    refusal: str, scripted_openai: ScriptedOpenAIServer
) -> None:
    """llama-cpp-python answers 200 and ends the body without one event (its log says
    "Automatic streaming tool choice is not supported"); another server may say it in a 500."""
    if refusal == "error text":
        refused = ScriptedTurn(
            error=ScriptedError(500, "Automatic streaming tool choice is not supported"),
            match=lambda r: r.stream,
        )
    else:
        refused = ScriptedTurn(cut_off_after_chunks=0, cut_off_clean=True, match=lambda r: r.stream)
    scripted_openai.push(refused, ScriptedTurn.tool("get_topology", {}, id="call_9"))
    model = create_base_model(_config(scripted_openai, "compatible"))
    bound = model.bind_tools([TOOL])
    chunks = [c async for c in bound.astream([HumanMessage("What is in my lab?")])]
    merged = chunks[0]
    for chunk in chunks[1:]:
        merged = merged + chunk
    assert [c["name"] for c in merged.tool_calls] == ["get_topology"]
    first, second = scripted_openai.chat_requests()[-2:]
    assert first.stream and not second.stream
    # remembered: the next call with tools goes straight to a non-streamed request
    scripted_openai.push(ScriptedTurn.text("done"))
    [c async for c in bound.astream([HumanMessage("again")])]
    assert not scripted_openai.chat_requests()[-1].stream
