"""AgentService turns through the real langchain-openai client and the real GNS3 server."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.title import TITLE_MAX_TOKENS
from gns3_copilot_desktop.core.agent.transcript import ConversationHistory
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, text_of, types_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


async def test_topology_turn_streams_tool_cards_and_answer(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder("Lab topology")
    scripted_openai.push(
        ScriptedTurn.tool("get_topology", {}, id="call_topo"),
        ScriptedTurn.text("PC1 is linked to PC2 on Ethernet0.", chunks=4),
    )
    service = await make_service(project_id=lab.project.project_id)
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("What is in my lab?", session.id, context=ctx))

    kinds = types_of(chunks)
    assert kinds[-1] == "done" and kinds.count("done") == 1 and "error" not in kinds
    assert kinds.index("tool_call") < kinds.index("tool_start") < kinds.index("tool_end")
    end = next(c for c in chunks if c.type == "tool_end")
    assert end.tool_call_id == "call_topo" and end.status == "ok"
    assert end.duration_ms is not None and end.truncated is False
    assert end.structured is not None and {n["name"] for n in end.structured["nodes"]} == {
        "PC1",
        "PC2",
    }
    assert '"PC1" "Ethernet0" <-> "PC2" "Ethernet0"' in (end.tool_output or "")
    assert text_of(chunks) == "PC1 is linked to PC2 on Ethernet0."
    assert all(c.session_id == session.id for c in chunks)
    assert [c.title for c in chunks if c.type == "title"] == ["Lab topology"]
    assert kinds.index("title") < kinds.index("done")
    usage = [c for c in chunks if c.type == "usage"]
    assert len(usage) == 2 and all(u.usage and u.usage.input_tokens > 0 for u in usage)

    # The title is asked for after the answer (a local server answers one request at a time),
    # streamed (giving up on it closes the connection) and with a small answer limit.
    requests = scripted_openai.chat_requests()
    assert [r.turn_label == "title" for r in requests] == [False, False, True]
    title_body = requests[-1].body
    assert title_body["stream"] is True
    assert title_body.get("max_completion_tokens", title_body.get("max_tokens")) == TITLE_MAX_TOKENS

    # The model saw the topology (refreshed on each call) in its system prompt.
    chat = [r for r in requests if r.turn_label != "title"]
    assert len(chat) == 2
    for request in chat:
        assert "PC1" in request.system_prompt and "PC2" in request.system_prompt
        assert "get_topology" in request.tool_names

    history = await service.get_history(session.id)
    assert isinstance(history, ConversationHistory)
    assert [m.role for m in history.messages] == ["user", "assistant", "tool", "assistant"]
    assert history.messages[1].tool_calls[0].function.name == "get_topology"
    assert history.messages[2].tool_call_id == "call_topo"
    info = await service.store.get_session(session.id)
    assert info.title == "Lab topology" and info.message_count == 4
    assert info.input_tokens > 0 and info.output_tokens > 0


async def test_parallel_tool_calls_each_get_one_result(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(
            ScriptedToolCall("list_projects", {}, id="call_a"),
            ScriptedToolCall("list_templates", {"name_contains": "vpcs"}, id="call_b"),
        ),
        ScriptedTurn.text("Done."),
    )
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("projects and templates?", session.id, context=ctx))

    ends = {c.tool_call_id: c for c in chunks if c.type == "tool_end"}
    assert set(ends) == {"call_a", "call_b"}
    assert lab.project.name in (ends["call_a"].tool_output or "")
    assert "VPCS" in (ends["call_b"].tool_output or "")
    calls = [c.tool_call for c in chunks if c.type == "tool_call"]
    assert [c.function.name for c in calls if c] == ["list_projects", "list_templates"]
    # The follow-up request carried both results right after the assistant message.
    follow_up = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    roles = [m["role"] for m in follow_up.messages]
    assert roles[-3:] == ["assistant", "tool", "tool"]
    assert types_of(chunks)[-1] == "done"
