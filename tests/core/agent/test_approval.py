"""The approval hook every change tool builds on: interrupt, resume, restart."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.tools import default_registry
from tests.helpers.agent import (
    Lab,
    RecordingChangeTool,
    ServiceFactory,
    collect,
    run_context,
    text_of,
    types_of,
)
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


def _note_and_list() -> ScriptedTurn:
    return ScriptedTurn.tools(
        ScriptedToolCall("set_lab_note", {"text": "hello"}, id="call_note"),
        ScriptedToolCall("list_projects", {}, id="call_list"),
    )


def _last_tool_texts(server: ScriptedOpenAIServer) -> dict[str, str]:
    request = [r for r in server.chat_requests() if r.turn_label != "title"][-1]
    return {m["tool_call_id"]: m["content"] for m in request.messages if m["role"] == "tool"}


@pytest.mark.parametrize(
    ("decision", "ran", "status", "model_sees"),
    [
        (ApprovalDecision(tool_call_id="call_note", action="approve"), ["hello"], "ok", "hello"),
        (
            ApprovalDecision(tool_call_id="call_note", action="reject", reason="not now"),
            [],
            "rejected",
            "rejected this call. Reason: not now",
        ),
        (
            ApprovalDecision(tool_call_id="call_note", action="edit", arguments={"text": "hi!"}),
            ["hi!"],
            "ok",
            "hi!",
        ),
        (
            ApprovalDecision(tool_call_id="call_note", action="edit", arguments={"text": ""}),
            [],
            "error",
            "invalid arguments",
        ),
    ],
    ids=["approve", "reject", "edit", "edit-invalid"],
)
async def test_change_tool_waits_for_the_decision(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    decision: ApprovalDecision,
    ran: list[str],
    status: str,
    model_sees: str,
) -> None:
    tool = RecordingChangeTool()
    scripted_openai.set_title_responder()
    scripted_openai.push(_note_and_list(), ScriptedTurn.text("Done."))
    service = await make_service(tools=default_registry([tool]))
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    first = await collect(service.stream_chat("Set a note", session.id, context=ctx))

    assert types_of(first)[-1] == "done" and "tool_start" not in types_of(first)
    request = next(c for c in first if c.type == "approval_request")
    assert request.approvals is not None
    [approval] = request.approvals
    assert (approval.tool_call_id, approval.risk) == ("call_note", "change")
    assert approval.summary == "Set the lab note to 'hello'"
    assert approval.arguments == {"text": "hello"} and approval.arguments_schema
    assert [a.tool_call_id for a in await service.pending_approvals(session.id)] == ["call_note"]
    assert tool.runs == []

    second = await collect(service.resume(session.id, [decision], context=ctx))

    assert types_of(second)[-1] == "done" and "error" not in types_of(second)
    ends = {c.tool_call_id: c for c in second if c.type == "tool_end"}
    assert ends["call_note"].status == status and ends["call_list"].status == "ok"
    assert tool.runs == ran
    assert model_sees in _last_tool_texts(scripted_openai)["call_note"]
    assert text_of(second) == "Done."
    assert await service.pending_approvals(session.id) == []
    roles = [m.role for m in (await service.get_history(session.id)).messages]
    assert roles == ["user", "assistant", "tool", "tool", "assistant"]

    # Deciding again, with nothing waiting, is an error chunk (and the run stays as it was).
    late = await collect(service.resume(session.id, [decision], context=ctx))
    assert types_of(late) == ["error", "done"] and "waiting for a decision" in (late[0].error or "")
    assert tool.runs == ran


async def test_pending_approval_survives_a_restart(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory, tmp_path: Path
) -> None:
    tool = RecordingChangeTool()
    scripted_openai.set_title_responder()
    scripted_openai.push(_note_and_list(), ScriptedTurn.text("Noted."))
    db = tmp_path / "approvals.db"
    service = await make_service(db, tools=default_registry([tool]))
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())
    await collect(service.stream_chat("Set a note", session.id, context=ctx))
    await service.close()

    reopened = await make_service(db, tools=default_registry([tool]))
    info = await reopened.store.get_session(session.id)
    assert [a.tool_call_id for a in info.pending_approvals] == ["call_note"]
    assert [a.tool_call_id for a in await reopened.pending_approvals(session.id)] == ["call_note"]
    decision = ApprovalDecision(tool_call_id="call_note", action="approve")
    chunks = await collect(reopened.resume(session.id, [decision], context=ctx))
    assert text_of(chunks) == "Noted." and tool.runs == ["hello"]
    assert (await reopened.store.get_session(session.id)).pending_approvals == []


async def test_new_message_instead_of_a_decision_answers_the_pending_calls(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    tool = RecordingChangeTool()
    scripted_openai.set_title_responder()
    scripted_openai.push(_note_and_list(), ScriptedTurn.text("OK, no note."))
    service = await make_service(tools=default_registry([tool]))
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())
    await collect(service.stream_chat("Set a note", session.id, context=ctx))

    chunks = await collect(service.stream_chat("Never mind", session.id, context=ctx))

    assert text_of(chunks) == "OK, no note." and "error" not in types_of(chunks)
    assert tool.runs == []
    texts = _last_tool_texts(scripted_openai)
    assert set(texts) == {"call_note", "call_list"}
    assert all("new message" in t for t in texts.values())
    assert await service.pending_approvals(session.id) == []


async def test_always_allowed_change_tool_runs_without_asking(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    tool = RecordingChangeTool()
    scripted_openai.set_title_responder()
    scripted_openai.push(_note_and_list(), ScriptedTurn.text("Set."))
    service = await make_service(tools=default_registry([tool]))
    session = await service.create_session()
    ctx = replace(
        run_context(lab, scripted_openai.chat_model()), always_allow=frozenset({"set_lab_note"})
    )

    chunks = await collect(service.stream_chat("Set a note", session.id, context=ctx))

    assert "approval_request" not in types_of(chunks) and tool.runs == ["hello"]
    assert text_of(chunks) == "Set."
