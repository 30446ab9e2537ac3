"""The approval state machine's table, each row checked on the real GNS3 server.

One step of the scripted model asks for a batch of mixed calls on the lab (PC1, PC2 linked):
two node creations, one deletion and one read. Each row decides the batch in one way and checks
which nodes the server holds afterwards: the only truth that matters to the user.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.tool_node import DUPLICATE_ID_TEXT
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, types_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


def _batch() -> ScriptedTurn:
    return ScriptedTurn.tools(
        ScriptedToolCall("create_nodes", {"nodes": [{"template": "VPCS", "name": "A1"}]}, "c_a"),
        ScriptedToolCall("create_nodes", {"nodes": [{"template": "VPCS", "name": "B1"}]}, "c_b"),
        ScriptedToolCall("delete_nodes", {"nodes": ["PC1"]}, "c_del"),
        ScriptedToolCall("get_topology", {}, "c_read"),
    )


async def _names(lab: Lab) -> set[str]:
    return {n.name for n in await lab.client.list_nodes(lab.project.project_id)}


def _approve(call_id: str) -> ApprovalDecision:
    return ApprovalDecision(tool_call_id=call_id, action="approve")


def _reject(call_id: str) -> ApprovalDecision:
    return ApprovalDecision(tool_call_id=call_id, action="reject", reason="not this one")


ROWS = {
    "all approved": ([_approve("c_a"), _approve("c_b"), _approve("c_del")], {"A1", "B1", "PC2"}),
    "all rejected": ([_reject("c_a"), _reject("c_b"), _reject("c_del")], {"PC1", "PC2"}),
    "approve, reject, edit": (
        [
            _approve("c_a"),
            _reject("c_b"),
            ApprovalDecision(tool_call_id="c_del", action="edit", arguments={"nodes": ["PC2"]}),
        ],
        {"A1", "PC1"},
    ),
    "edit to invalid arguments runs nothing of it": (
        [
            ApprovalDecision(tool_call_id="c_a", action="edit", arguments={"nodes": []}),
            _reject("c_b"),
            _reject("c_del"),
        ],
        {"PC1", "PC2"},
    ),
    "missing decisions are rejections": ([_approve("c_a")], {"A1", "PC1", "PC2"}),
    "no decision at all": ([], {"PC1", "PC2"}),
}


@pytest.mark.parametrize("row", list(ROWS), ids=list(ROWS))
@pytest.mark.parametrize("always_allow_first", [False, True], ids=["plain", "always-allow"])
async def test_a_batch_runs_exactly_what_was_decided(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    row: str,
    always_allow_first: bool,
) -> None:
    decisions, expected = ROWS[row]
    scripted_openai.set_title_responder()
    scripted_openai.push(_batch(), ScriptedTurn.text("Done."))
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    first = await collect(service.stream_chat("Build it", session.id, context=ctx))
    asked = next(c for c in first if c.type == "approval_request").approvals or []
    assert [a.tool_call_id for a in asked] == ["c_a", "c_b", "c_del"]
    assert await _names(lab) == {"PC1", "PC2"}  # nothing ran before the decision

    if always_allow_first:
        # The user ticked "Always allow" on a create call: the grant is saved before the step
        # resumes. It must not turn the sibling create call (or anything else) into an approval.
        ctx = replace(ctx, always_allow=frozenset({"create_nodes", "delete_nodes"}))
    second = await collect(service.resume(session.id, decisions, context=ctx))

    assert types_of(second)[-1] == "done" and "error" not in types_of(second)
    assert await _names(lab) == expected
    ends = {c.tool_call_id: c.status for c in second if c.type == "tool_end"}
    assert ends["c_read"] == "ok"
    decided = {d.tool_call_id: d.action for d in decisions}
    for call_id in ("c_a", "c_b", "c_del"):
        if decided.get(call_id) in (None, "reject"):
            assert ends[call_id] == "rejected", call_id
    assert await service.pending_approvals(session.id) == []


async def test_always_allow_applies_to_later_steps(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(
        _batch(),
        ScriptedTurn.tool("create_nodes", {"nodes": [{"template": "VPCS", "name": "C1"}]}),
        ScriptedTurn.text("Done."),
    )
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())
    await collect(service.stream_chat("Build it", session.id, context=ctx))

    granted = replace(ctx, always_allow=frozenset({"create_nodes"}))
    second = await collect(
        service.resume(session.id, [_approve("c_a"), _reject("c_b")], context=granted)
    )

    # The next step's create_nodes ran without asking; this step's decisions held.
    assert "approval_request" not in types_of(second)
    assert await _names(lab) == {"A1", "C1", "PC1", "PC2"}


@pytest.mark.parametrize("ids", [("c_same", "c_same"), ("", "")], ids=["shared", "empty"])
async def test_calls_that_share_an_id_never_run(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    ids: tuple[str, str],
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(
            ScriptedToolCall("delete_nodes", {"nodes": ["PC1"]}, ids[0]),
            ScriptedToolCall("delete_nodes", {"nodes": ["PC2"]}, ids[1]),
        ),
        ScriptedTurn.text("I will call again."),
    )
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("Delete both", session.id, context=ctx))

    assert "approval_request" not in types_of(chunks)
    assert await _names(lab) == {"PC1", "PC2"}
    follow_up = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    told = [m["content"] for m in follow_up.messages if m["role"] == "tool"]
    assert len(told) == 2 and all(DUPLICATE_ID_TEXT in t for t in told)
    assert await service.pending_approvals(session.id) == []


async def test_a_decision_for_a_call_not_waiting_is_refused(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(_batch(), ScriptedTurn.text("OK."), ScriptedTurn.text("Fine."))
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())
    await collect(service.stream_chat("Build it", session.id, context=ctx))

    # A decision naming a call this step never asked about: refused, and the step still waits.
    forged = await collect(
        service.resume(session.id, [_approve("c_a"), _approve("c_other")], context=ctx)
    )
    assert types_of(forged) == ["error", "done"]
    assert forged[0].error_kind == "stale_decision" and "c_other" in (forged[0].error or "")
    assert await _names(lab) == {"PC1", "PC2"}
    assert len(await service.pending_approvals(session.id)) == 3

    # The user sends a new message instead: the old calls are answered "not run"; deciding them
    # afterwards is refused and runs nothing.
    await collect(service.stream_chat("Never mind", session.id, context=ctx))
    late = await collect(service.resume(session.id, [_approve("c_a")], context=ctx))
    assert types_of(late) == ["error", "done"] and late[0].error_kind == "stale_decision"
    assert await _names(lab) == {"PC1", "PC2"}


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("delete_nodes", '{"nodes": ["PC1", "PC'),  # cut off: must not become ["PC1", "PC"]
        ("delete_nodes", '{"nodes": ["PC1"]} trailing'),
        ("delete_nodes", '["PC1"]'),
        ("get_topology", "{not json"),  # a read call with bad JSON does not run with {}
    ],
    ids=["cut-off", "trailing", "not-an-object", "read-call"],
)
async def test_arguments_that_do_not_parse_as_sent_are_an_error_to_the_model(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    name: str,
    raw: str,
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(ScriptedToolCall(name, raw, "c_bad")), ScriptedTurn.text("Retrying.")
    )
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("Go", session.id, context=ctx))

    assert "approval_request" not in types_of(chunks)
    [end] = [c for c in chunks if c.type == "tool_end"]
    assert end.status == "error" and "not valid JSON" in (end.tool_output or "")
    assert await _names(lab) == {"PC1", "PC2"}
    follow_up = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    [told] = [m["content"] for m in follow_up.messages if m["role"] == "tool"]
    assert "not valid JSON" in told and "nothing was run" in told


async def test_the_card_is_told_what_goes_with_a_destructive_call(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(_batch(), ScriptedTurn.text("Done."))
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    first = await collect(service.stream_chat("Build it", session.id, context=ctx))

    asked = {
        a.tool_call_id: a
        for a in next(c for c in first if c.type == "approval_request").approvals or []
    }
    assert not asked["c_a"].destructive and asked["c_a"].consequence is None
    assert asked["c_del"].destructive
    lines = (asked["c_del"].consequence or "").split("\n")
    # the link that goes is named by its ends and ports, as the undo question names it
    assert lines[0] == "PC1 goes with its 1 link:" and len(lines) == 2, lines
    assert lines[1].startswith("  PC1 ") and " <-> " in lines[1], lines
    # The same facts come back with the pending approvals (a reopened session shows them).
    pending = {a.tool_call_id: a for a in await service.pending_approvals(session.id)}
    assert pending["c_del"].consequence == asked["c_del"].consequence


async def test_a_model_repeating_the_same_call_is_told_to_stop(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    loop = [
        ScriptedTurn.tool("delete_nodes", {"nodes": ["PC1"]}, id=f"c_loop{i}") for i in range(5)
    ]
    scripted_openai.push(*loop, ScriptedTurn.text("I stop."))
    service = await make_service(tools=network_registry())
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("Delete PC1", session.id, context=ctx))
    for _ in range(3):  # the user rejects the first three; the 4th identical call never asks
        if "approval_request" not in types_of(chunks):
            break
        [waiting] = await service.pending_approvals(session.id)
        chunks = await collect(
            service.resume(session.id, [_reject(waiting.tool_call_id)], context=ctx)
        )

    ends = [c for c in chunks if c.type == "tool_end" and c.status == "error"]
    assert ends and "already called delete_nodes with these same arguments 3 times" in (
        ends[0].tool_output or ""
    )
    assert await _names(lab) == {"PC1", "PC2"}
