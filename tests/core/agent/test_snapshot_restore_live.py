"""A GNS3 snapshot restored on the real server does not rewind the project's conversations: they
live in the app's data folder, not in the project folder a snapshot zips and unzips."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.manager import project_service_factory
from gns3_copilot_desktop.core.agent.tools import default_registry
from tests.helpers.agent import Lab, RecordingChangeTool, collect, run_context, text_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_restoring_a_snapshot_keeps_the_later_turns_and_brings_nothing_pending_back(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    pid = lab.project.project_id
    tool = RecordingChangeTool()
    # the factory the app's project manager uses: where the app keeps a project's databases
    open_service = project_service_factory(
        lab.client, tmp_path / "app-data", tools=default_registry([tool])
    )
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.text("The lab has two PCs."),
        ScriptedTurn.tools(ScriptedToolCall("set_lab_note", {"text": "hello"}, id="call_note")),
        ScriptedTurn.text("Noted."),
        ScriptedTurn.text("Nothing else changed."),
    )
    ctx = run_context(lab, scripted_openai.chat_model())
    service = await open_service(pid)
    try:
        first = await service.create_session("Lab work")
        await collect(service.stream_chat("What is in the lab?", first.id, context=ctx))
        await collect(service.stream_chat("Set a note", first.id, context=ctx))
        assert [a.tool_call_id for a in await service.pending_approvals(first.id)] == ["call_note"]
        # the snapshot is taken while the change waits for approval
        snapshot = await lab.client.create_snapshot(pid, "while-waiting")

        approve = ApprovalDecision(tool_call_id="call_note", action="approve")
        assert text_of(await collect(service.resume(first.id, [approve], context=ctx))) == "Noted."
        await collect(service.stream_chat("Anything else?", first.id, context=ctx))
        second = await service.create_session("Later conversation")
        sessions = [(s.id, s.title, s.message_count) for s in await service.list_sessions()]
        transcript = [
            (m.role, m.content, m.tool_call_id)
            for m in (await service.get_history(first.id)).messages
        ]
    finally:
        await service.close()
    assert tool.runs == ["hello"]
    assert {s[0] for s in sessions} == {first.id, second.id}
    assert ("assistant", "Nothing else changed.", None) in transcript

    restored = await lab.client.restore_snapshot(pid, snapshot.snapshot_id)
    assert restored.project_id == pid
    # the project folder the snapshot rewound holds no conversation of the copilot
    assert restored.path is not None
    assert not await asyncio.to_thread(lambda: list(Path(str(restored.path)).rglob("*.db")))

    service = await open_service(pid)
    try:
        assert [(s.id, s.title, s.message_count) for s in await service.list_sessions()] == sessions
        after = [
            (m.role, m.content, m.tool_call_id)
            for m in (await service.get_history(first.id)).messages
        ]
        assert after == transcript
        assert await service.pending_approvals(first.id) == []
        assert (await service.store.get_session(first.id)).pending_approvals == []
        # deciding the call once more runs nothing
        late = await collect(service.resume(first.id, [approve], context=ctx))
        assert [c.type for c in late] == ["error", "done"], late
    finally:
        await service.close()
    assert tool.runs == ["hello"]
