"""Real turns against a real local model: llama-cpp-python's server running SmolLM2-135M-Instruct
(tests/helpers/llama_server.py), through the real AgentService, langchain-openai client and GNS3
server.

The scripted server pins exact behaviour; these prove the wire format against software we did not
write. The tiny model's answers and tool calls are often wrong: what is asserted is that a turn
always ends cleanly (no crash, no 400/500 loop), that nothing changes in the lab without approval,
and what the model was sent (read through the tap in front of the server).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from gns3_copilot_desktop.core.agent.context import RunContext, limits_for
from gns3_copilot_desktop.core.agent.model_factory import LlmConfig, create_base_model
from gns3_copilot_desktop.core.agent.tools import ToolRegistry
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.protocol import ChatChunk
from tests.helpers.agent import Lab, ServiceFactory, collect, types_of
from tests.helpers.llama_server import (
    CONTEXT_WINDOW,
    MODEL_ALIAS,
    LlamaServer,
    Tap,
    running_llama_server,
)

pytestmark = [pytest.mark.gns3, pytest.mark.slow, pytest.mark.asyncio]

# What a broken wire format looks like to the user: the server refused the request.
WIRE_FAILURES = {"bad_request", "provider", "malformed", "auth"}


def _context(lab: Lab, tap: Tap, *, max_tokens: int, **limits: Any) -> RunContext:
    config = LlmConfig(
        provider="openai_compatible",
        model=MODEL_ALIAS,
        base_url=tap.base_url,
        server="llama_cpp_python",
        max_tokens=max_tokens,
        context_window=CONTEXT_WINDOW,
        timeout_s=180,
        max_retries=0,
    )
    base = limits_for(config, heartbeat_interval_s=0)
    return RunContext(
        client=lab.client,
        project_id=lab.project.project_id,
        model=create_base_model(config),
        server_url=lab.client.base_url,
        limits=base.__class__(**{**base.__dict__, **limits}),
    )


def _wire_failures(chunks: list[ChatChunk]) -> list[str]:
    return [
        f"{c.error_kind}: {c.error}"
        for c in chunks
        if c.type == "error" and c.error_kind in WIRE_FAILURES
    ]


async def test_a_plain_answer_then_a_follow_up_that_carries_the_first_turn(
    lab: Lab, llama_server: LlamaServer, llama_tap: Tap, make_service: ServiceFactory
) -> None:
    service = await make_service(project_id=lab.project.project_id)
    session = await service.create_session()
    ctx = _context(lab, llama_tap, max_tokens=48)

    first = await collect(
        service.stream_chat("Say hello to the network students.", session.id, context=ctx)
    )
    assert types_of(first)[-1] == "done" and not _wire_failures(first)
    assert [c for c in first if c.type == "title"], "a title was made (after the answer)"
    requests = llama_tap.chat_requests()
    # the title is the last request of the turn; the answer's requests carry the tools
    assert not requests[-1].tool_names and all(r.tool_names for r in requests[:-1])
    for request in requests:
        assert "max_completion_tokens" not in request.body  # llama.cpp ignores that name
        assert request.body["max_tokens"] in (48, 32)
    assert all(r.body.get("tool_choice") == "auto" for r in requests[:-1])

    llama_tap.requests.clear()
    second = await collect(service.stream_chat("What did I ask you?", session.id, context=ctx))
    assert types_of(second)[-1] == "done" and not _wire_failures(second)
    follow_up = llama_tap.chat_requests()[0]
    assert "Say hello to the network students." in follow_up.text()


async def test_a_tool_turn_never_changes_the_lab_without_approval(
    lab: Lab, llama_server: LlamaServer, llama_tap: Tap, make_service: ServiceFactory
) -> None:
    service = await make_service(project_id=lab.project.project_id, tools=network_registry())
    session = await service.create_session()
    # Two steps: the tool call and the answer after it (each step re-reads ~5k tokens of tools
    # on two cores: five steps took 80 s of the suite's budget for nothing more)
    ctx = _context(lab, llama_tap, max_tokens=64, max_steps=2)

    chunks = await collect(
        service.stream_chat("Delete the node PC1 from my lab.", session.id, context=ctx)
    )

    assert types_of(chunks)[-1] == "done" and not _wire_failures(chunks)
    nodes = {n.name for n in await lab.client.list_nodes(lab.project.project_id)}
    assert nodes == {"PC1", "PC2"}  # whatever the model asked, nothing ran without approval
    requests = llama_tap.chat_requests()
    assert len(requests) <= 3  # bounded by max_steps (+ the title): no retry loop
    for request in requests:
        for message in request.messages:
            if message.get("role") == "assistant" and message.get("tool_calls"):
                assert message["content"] == ""  # llama-cpp-python answers null with a 500
    approvals = [c for c in chunks if c.type == "approval_request"]
    if approvals:
        pending = await service.pending_approvals(session.id)
        assert pending and pending[0].tool_name == approvals[0].approvals[0].tool_name


async def test_stop_during_generation_closes_the_request(
    lab: Lab, llama_server: LlamaServer, llama_tap: Tap, make_service: ServiceFactory
) -> None:
    service = await make_service(project_id=lab.project.project_id, tools=ToolRegistry([]))
    session = await service.create_session("Stop test")
    ctx = _context(lab, llama_tap, max_tokens=1500)

    # The stop is judged only when it comes while the server still generates: on a loaded
    # machine the small model can write its whole answer (it stops by itself after a few hundred
    # tokens) before this process reads the first chunk, and a stop after the end closes nothing.
    # llama.cpp prints its timing line ("total time") when a generation ends.
    for _attempt in range(3):
        log_before = len(llama_server.log_text())
        stream = service.stream_chat(
            "Write a very long essay about routers.", session.id, context=ctx
        )
        async for chunk in stream:
            if chunk.type == "content" and chunk.content:
                break  # the answer is streaming: the user presses Stop
        still_generating = "total time" not in llama_server.log_text()[log_before:]
        await stream.aclose()
        if still_generating:
            break
    else:
        pytest.fail("the server finished every answer before the first chunk was read")

    # the server noticed the closed connection and stopped generating
    deadline = asyncio.get_running_loop().time() + 30
    while "Disconnected from client" not in llama_server.log_text()[log_before:]:
        assert asyncio.get_running_loop().time() < deadline, "the server went on generating"
        await asyncio.sleep(0.1)
    # and it answers the next turn (one request at a time: it is free again)
    short = _context(lab, llama_tap, max_tokens=8)
    after = await collect(service.stream_chat("Say yes.", session.id, context=short))
    assert types_of(after)[-1] == "done" and not _wire_failures(after)


# --- what the server can compile, and what the user is told when it stops ------------------------

GRAMMAR_CHECK = """
import json, sys
import llama_cpp
from llama_cpp import Llama
from llama_cpp.llama_grammar import LlamaGrammar
llm = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
for tool in json.load(sys.stdin):
    schema = json.dumps(tool["function"]["parameters"])
    grammar = LlamaGrammar.from_json_schema(schema, verbose=False)
    sampler = llama_cpp.llama_sampler_init_grammar(
        llm._model.vocab, grammar._grammar.encode(), grammar._root.encode()
    )
    print(tool["function"]["name"], bool(sampler))
"""


async def test_every_tool_schema_as_sent_leaves_the_real_server_alive(
    llama_server: LlamaServer, llama_tap: Tap
) -> None:
    """Every tool (add_note's 2,000-character text among them) bound as a turn binds them, with
    the tool choice a turn sends; the server is alive afterwards and answers the next request.
    The grammar of each schema as sent is also built and parsed by the server's own code."""
    config = LlmConfig(
        provider="openai_compatible", model=MODEL_ALIAS, base_url=llama_tap.base_url,
        server="llama_cpp_python", max_tokens=24, timeout_s=900, max_retries=0,
    )  # fmt: skip
    model = create_base_model(config)
    registry = network_registry()
    bound = model.bind_tools(registry.openai_schemas())

    await bound.ainvoke([HumanMessage("Add a note to the lab saying hello.")])
    after = await model.ainvoke([HumanMessage("Say yes.")])

    assert isinstance(after.content, str)
    os.kill(llama_server.pid, 0)  # still running
    first = llama_tap.chat_requests()[0]
    assert first.tool_names == registry.names() and first.body.get("tool_choice") == "auto"
    sent = first.body["tools"]
    assert "maxLength" not in json.dumps(sent) and "pattern" not in json.dumps(sent)
    python, gguf = os.environ["GNS3_COPILOT_LLAMA_PYTHON"], os.environ["GNS3_COPILOT_LLAMA_MODEL"]
    checked = await asyncio.to_thread(
        subprocess.run,
        [python, "-c", GRAMMAR_CHECK, gguf], input=json.dumps(sent), capture_output=True,
        text=True, timeout=120, check=True,
    )  # fmt: skip
    compiled = dict(line.split() for line in checked.stdout.splitlines())
    assert compiled == {name: "True" for name in registry.names()}


async def test_a_model_server_that_ended_is_said_to_have_stopped(
    lab: Lab, make_service: ServiceFactory, tmp_path: Path
) -> None:
    """The server's process ends between two turns (this test's own server, ended by its PID):
    the next turn says the model server stopped, with its URL, not that the network failed."""
    service = await make_service(project_id=lab.project.project_id, tools=ToolRegistry([]))
    session = await service.create_session("Stopped server")
    with running_llama_server(tmp_path) as (server, process):
        url = f"http://127.0.0.1:{server.port}/v1"
        config = LlmConfig(
            provider="openai_compatible", model=MODEL_ALIAS, base_url=url,
            server="llama_cpp_python", max_tokens=8, context_window=CONTEXT_WINDOW,
            timeout_s=180, max_retries=0,
        )  # fmt: skip
        base = limits_for(config, heartbeat_interval_s=0)
        ctx = RunContext(
            client=lab.client, project_id=lab.project.project_id, model=create_base_model(config),
            server_url=lab.client.base_url, limits=base,
        )  # fmt: skip
        first = await collect(service.stream_chat("Say yes.", session.id, context=ctx))
        assert types_of(first)[-1] == "done" and not _wire_failures(first)
        process.kill()
        process.wait(10)

        second = await collect(service.stream_chat("Say yes again.", session.id, context=ctx))

    [error] = [c for c in second if c.type == "error"]
    assert error.error_kind == "server_stopped"
    assert (error.error or "").startswith(f"The model server stopped ({url} no longer answers)")
    assert "network" not in (error.error or "")
