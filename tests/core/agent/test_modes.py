"""Session modes on the real GNS3 server with the scripted model: the stored mode reaches the
agent, a learner session (Tutor, Practice) is offered no tool that changes the lab, and a call to
one anyway is refused as a tool error, never an approval card."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.modes import parse_mode, stored_mode
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.errors import CopilotError
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, types_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn

CHANGE_TOOLS = {
    "create_nodes",
    "update_nodes",
    "delete_nodes",
    "create_links",
    "delete_links",
    "configure_devices",
    "start_nodes",
    "stop_nodes",
    "restore_snapshot",
    "create_snapshot",
}


def _model_requests(server: ScriptedOpenAIServer) -> list:  # type: ignore[type-arg]
    return [r for r in server.chat_requests() if r.turn_label != "title"]


def test_mode_names() -> None:
    assert parse_mode(None) == "assistant"
    assert parse_mode("tutor") == "tutor"
    assert parse_mode("teaching") == "tutor"  # stored by earlier versions
    with pytest.raises(ValueError):
        parse_mode("root")
    assert stored_mode("something new") == "tutor"  # unknown stored values are read-only


@pytest.mark.gns3
@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["tutor", "practice"])
async def test_a_learner_session_is_offered_no_change_tool(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory, mode: str
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.text("What do you see with `show ip`?"))
    service = await make_service(tools=network_registry())
    session = await service.create_session(None, mode)
    # The caller's context says assistant: the session's stored mode must win.
    ctx = run_context(lab, scripted_openai.chat_model())
    assert ctx.mode == "assistant"

    chunks = await collect(service.stream_chat("PC1 cannot ping PC2", session.id, context=ctx))

    assert types_of(chunks)[-1] == "done"
    [request] = _model_requests(scripted_openai)
    offered = set(request.tool_names)
    assert offered & CHANGE_TOOLS == set()
    assert {"get_topology", "run_device_commands", "get_links"} <= offered
    assert f"Mode: {mode}." in request.system_prompt
    assert "do not give the fix" in request.system_prompt or "never give the fix" in (
        request.system_prompt
    )


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_an_assistant_session_keeps_every_tool(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.text("Sure."))
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    await collect(
        service.stream_chat(
            "Hi", session.id, context=run_context(lab, scripted_openai.chat_model())
        )
    )
    [request] = _model_requests(scripted_openai)
    assert set(request.tool_names) >= CHANGE_TOOLS
    assert "Mode: assistant." in request.system_prompt


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_a_forced_change_call_in_tutor_is_refused_without_a_card(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(
            ScriptedToolCall("delete_nodes", {"nodes": ["PC1"]}, "c_del"),
            ScriptedToolCall(
                "configure_devices",
                {"devices": [{"node": "PC1", "lines": ["ip 1.1.1.1/24"]}]},
                "c_cfg",
            ),
            ScriptedToolCall(
                "run_device_commands",
                {"devices": [{"node": "PC1", "commands": ["ip 10.9.9.9/24"]}]},
                "c_cmd",
            ),
            ScriptedToolCall("get_topology", {}, "c_read"),
        ),
        ScriptedTurn.text("Try `show ip` on PC1."),
    )
    service = await make_service(tools=network_registry())
    session = await service.create_session(None, "tutor")
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("Fix it for me", session.id, context=ctx))

    assert "approval_request" not in types_of(chunks)
    assert await service.pending_approvals(session.id) == []
    ends = {c.tool_call_id: c.status for c in chunks if c.type == "tool_end"}
    assert ends == {"c_del": "error", "c_cfg": "error", "c_cmd": "error", "c_read": "ok"}
    names = {n.name for n in await lab.client.list_nodes(lab.project.project_id)}
    assert names == {"PC1", "PC2"}
    follow_up = _model_requests(scripted_openai)[-1]
    told = {m["tool_call_id"]: m["content"] for m in follow_up.messages if m["role"] == "tool"}
    for call_id in ("c_del", "c_cfg", "c_cmd"):
        assert "cannot run in Tutor mode" in told[call_id], told[call_id]


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_an_unknown_mode_is_refused(make_service: ServiceFactory) -> None:
    service = await make_service(tools=network_registry())
    with pytest.raises(CopilotError):
        await service.create_session(None, "root")
    assert await service.list_sessions() == []
