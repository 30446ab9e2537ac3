"""What a local model is offered and sent, seen in the requests the scripted OpenAI-compatible
server received through the real AgentService, langchain-openai client and GNS3 server.

- A local profile's turn is offered the tools that read the lab; the change tools only when the
  user's message asks for a change (English or Chinese). The approval gate is unchanged.
- The tool schemas sent to a llama.cpp-family server carry no limit its grammar builder cannot
  compile; our own parser still refuses an argument over a limit, and nothing runs.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from gns3_copilot_desktop.core.agent.context import RunContext, limits_for
from gns3_copilot_desktop.core.agent.graph import READS_ONLY_PROMPT
from gns3_copilot_desktop.core.agent.intent import asks_for_change
from gns3_copilot_desktop.core.agent.model_factory import LlmConfig, create_base_model
from gns3_copilot_desktop.core.agent.model_quirks import (
    GRAMMAR_LIMIT_KEYWORDS,
    compilable_tools,
    without_grammar_limits,
)
from gns3_copilot_desktop.core.agent.modes import offered_in_learner_modes
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn, is_title_request

REGISTRY = network_registry()
READS = {t.name for t in REGISTRY if offered_in_learner_modes(t)}
CHANGES = {t.name for t in REGISTRY} - READS


def _local_context(lab: Lab, server: ScriptedOpenAIServer, kind: str = "llama_cpp") -> RunContext:
    config = LlmConfig(
        provider="openai_compatible", model="local", base_url=server.base_url,
        api_key=server.client_api_key, server=kind, context_window=128_000, max_retries=0,
    )  # fmt: skip
    limits = limits_for(config, heartbeat_interval_s=0)
    assert limits.tools_on_request
    return RunContext(
        client=lab.client,
        project_id=lab.project.project_id,
        model=create_base_model(config),
        server_url=lab.client.base_url,
        limits=limits,
    )


def _answer_requests(server: ScriptedOpenAIServer) -> list[Any]:
    return [r for r in server.chat_requests() if not is_title_request(r)]


def _keywords(schema: Any) -> set[str]:
    """Every key of every schema object (property names excluded)."""
    found: set[str] = set()
    if isinstance(schema, list):
        for item in schema:
            found |= _keywords(item)
    elif isinstance(schema, dict):
        for key, value in schema.items():
            if key in ("properties", "$defs") and isinstance(value, dict):
                for sub in value.values():
                    found |= _keywords(sub)
            else:
                found.add(key)
                found |= _keywords(value)
    return found


# --- which tools a turn is offered --------------------------------------------------------------


def test_the_change_rule_reads_requests_in_english_and_chinese() -> None:
    for question in (
        "What is in my lab?",
        "Which nodes are running?",
        "Why is R1 stopped?",
        "Is R1 configured for OSPF?",
        "Show me the links",
        "拓扑里有什么？",
        "PC1 能 ping 通 PC2 吗？",
    ):
        assert not asks_for_change(question), question
    for request in (
        "Delete the node PC1 from my lab.",
        "Add a note saying hello",
        "Start all nodes",
        "yes, go ahead",
        "删除 PC1",
        "给 R1 配置 OSPF",
        "把 PC1 改名为 PC5",
        "好的，就这样做",
    ):
        assert asks_for_change(request), request


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_a_local_question_is_offered_the_read_tools_only(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder("Lab")
    scripted_openai.push(ScriptedTurn.text("Two PCs, PC1 and PC2."))
    service = await make_service(project_id=lab.project.project_id, tools=REGISTRY)
    session = await service.create_session()

    ctx = _local_context(lab, scripted_openai)
    chunks = await collect(service.stream_chat("What is in my lab?", session.id, context=ctx))

    assert chunks[-1].type == "done"
    [request] = _answer_requests(scripted_openai)
    assert set(request.tool_names) == READS and not set(request.tool_names) & CHANGES
    assert READS_ONLY_PROMPT in request.system_prompt


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_a_cloud_question_is_offered_every_tool(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder("Lab")
    scripted_openai.push(ScriptedTurn.text("Two PCs."))
    service = await make_service(project_id=lab.project.project_id, tools=REGISTRY)
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())  # tools_on_request off
    await collect(service.stream_chat("What is in my lab?", session.id, context=ctx))
    [request] = _answer_requests(scripted_openai)
    assert set(request.tool_names) == set(REGISTRY.names())
    assert READS_ONLY_PROMPT not in request.system_prompt


@pytest.mark.gns3
@pytest.mark.asyncio
@pytest.mark.parametrize("ask", ["Delete the node PC1 from my lab.", "删除节点 PC1"])
async def test_a_local_change_request_gets_the_change_tools_and_still_waits_for_approval(
    ask: str, lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder("Delete PC1")
    scripted_openai.push(ScriptedTurn.tool("delete_nodes", {"nodes": ["PC1"]}))
    service = await make_service(project_id=lab.project.project_id, tools=REGISTRY)
    session = await service.create_session()

    chunks = await collect(
        service.stream_chat(ask, session.id, context=_local_context(lab, scripted_openai))
    )

    [request] = _answer_requests(scripted_openai)
    assert set(request.tool_names) == set(REGISTRY.names())
    assert READS_ONLY_PROMPT not in request.system_prompt
    # sent as a llama.cpp server can compile them
    assert not _keywords(request.body["tools"]) & GRAMMAR_LIMIT_KEYWORDS
    approvals = [c for c in chunks if c.type == "approval_request"]
    assert approvals and approvals[0].approvals[0].tool_name == "delete_nodes"
    nodes = {n.name for n in await lab.client.list_nodes(lab.project.project_id)}
    assert nodes == {"PC1", "PC2"}  # nothing ran: it waits for the user


# --- schemas a grammar builder can compile; limits enforced on what comes back ------------------


def test_the_schemas_sent_to_llama_cpp_keep_everything_but_the_limits() -> None:
    sent = compilable_tools(REGISTRY.openai_schemas())
    assert [t["function"]["name"] for t in sent] == REGISTRY.names()
    assert not _keywords(sent) & GRAMMAR_LIMIT_KEYWORDS
    note = next(t for t in sent if t["function"]["name"] == "add_note")["function"]
    assert note["parameters"]["properties"]["text"] == {
        "description": "The note's text (may span lines).",
        "type": "string",
    }
    assert note["parameters"]["required"] == ["text"]
    # a property that happens to be named like a keyword stays
    odd = {"type": "object", "properties": {"title": {"type": "string", "maxLength": 5}}}
    assert without_grammar_limits(odd) == {
        "type": "object",
        "properties": {"title": {"type": "string"}},
    }
    # the registry's own schemas are untouched (OpenAI's own API is sent them whole)
    assert "maxLength" in json.dumps(REGISTRY.openai_schemas())


def test_a_schema_is_stripped_once_and_a_changed_one_again() -> None:
    """The graph binds the same schema objects on every model call: each is stripped once,
    and another schema object (a new one, even at a freed one's address) gets its own."""
    schemas = REGISTRY.openai_schemas()
    first, again = compilable_tools(schemas), compilable_tools(schemas)
    assert again == first
    assert all(
        a["function"]["parameters"] is b["function"]["parameters"]
        for a, b in zip(first, again, strict=True)
    )
    fresh = REGISTRY.openai_schemas()  # equal content, other objects: stripped the same
    assert compilable_tools(fresh) == first
    changed = {"type": "object", "properties": {"n": {"type": "string", "pattern": "^a$"}}}
    tool = {"type": "function", "function": {"name": "x", "parameters": changed}}
    assert compilable_tools([tool])[0]["function"]["parameters"]["properties"]["n"] == {
        "type": "string"
    }
    other = {"type": "object", "properties": {"n": {"type": "boolean"}}}
    assert (
        compilable_tools([{**tool, "function": {"name": "x", "parameters": other}}])[0]["function"][
            "parameters"
        ]
        == other
    )


@pytest.mark.asyncio
@pytest.mark.parametrize(("kind", "limited"), [("llama_cpp_python", False), ("ollama", True)])
async def test_each_server_kind_is_sent_the_schemas_it_can_compile(
    kind: str, limited: bool, scripted_openai: ScriptedOpenAIServer
) -> None:
    scripted_openai.push(ScriptedTurn.text("ok"))
    config = LlmConfig(
        provider="openai", model="m", base_url=scripted_openai.base_url, server=kind,
        api_key=scripted_openai.client_api_key, max_retries=0,
    )  # fmt: skip
    model = create_base_model(config).bind_tools(REGISTRY.openai_schemas())
    await model.ainvoke("hello")
    tools = scripted_openai.chat_requests()[-1].body["tools"]
    assert ("maxLength" in json.dumps(tools)) is limited


@pytest.mark.gns3
@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"text": "x" * 2001}, "text: String should have at most 2000 characters"),
        ({"text": "hello", "color": "red"}, "color: String should match pattern"),
        ({"text": ""}, "text: String should have at least 1 character"),
    ],
)
async def test_an_argument_over_a_limit_the_server_was_not_sent_is_refused_not_run(
    arguments: dict[str, Any],
    problem: str,
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> None:
    scripted_openai.set_title_responder("Note")
    scripted_openai.push(
        ScriptedTurn.tool("add_note", arguments), ScriptedTurn.text("The note was refused.")
    )
    service = await make_service(project_id=lab.project.project_id, tools=REGISTRY)
    session = await service.create_session()

    chunks = await collect(
        service.stream_chat(
            "Add a note to the lab.", session.id, context=_local_context(lab, scripted_openai)
        )
    )

    assert not [c for c in chunks if c.type == "approval_request"]  # never shown to approve
    [end] = [c for c in chunks if c.type == "tool_end"]
    assert end.status == "error" and "invalid arguments for add_note" in (end.tool_output or "")
    assert problem in (end.tool_output or "")
    assert await lab.client.list_drawings(lab.project.project_id) == []
    # the model was told why, in the next request
    follow_up = _answer_requests(scripted_openai)[-1]
    assert problem in follow_up.all_text()
