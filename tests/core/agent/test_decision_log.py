"""A decided call is never executable again, whatever happens to the checkpoint database: the
decision log beside it (append-only, a file of its own) is asked before anything runs."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.tools import default_registry
from gns3_copilot_desktop.core.sessions.decisions import SqliteDecisionLog
from gns3_copilot_desktop.core.sessions.location import DECISIONS_DB_NAME
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

SIDECARS = ("-wal", "-shm")


def _copy_db(source: Path, target: Path) -> None:
    """Copy a closed database file over another one (its -wal/-shm go with it)."""
    for suffix in SIDECARS:
        Path(f"{target}{suffix}").unlink(missing_ok=True)
        if Path(f"{source}{suffix}").exists():
            shutil.copy2(f"{source}{suffix}", f"{target}{suffix}")
    shutil.copy2(source, target)


@pytest.mark.gns3
@pytest.mark.asyncio
@pytest.mark.parametrize("action", ["approve", "reject", "edit"])
async def test_a_restored_old_checkpoint_cannot_make_a_decided_call_run(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    tmp_path: Path,
    action: str,
) -> None:
    tool = RecordingChangeTool()
    tools = default_registry([tool])
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(ScriptedToolCall("set_lab_note", {"text": "hello"}, id="call_note")),
        ScriptedTurn.text("Noted."),
    )
    db = tmp_path / "project" / "copilot.db"
    db.parent.mkdir()
    service = await make_service(db, tools=tools)
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())
    await collect(service.stream_chat("Set a note", session.id, context=ctx))
    assert [a.tool_call_id for a in await service.pending_approvals(session.id)] == ["call_note"]
    await service.close()
    old = tmp_path / "old-copy.db"
    _copy_db(db, old)  # the database as it was while the call waited

    service = await make_service(db, tools=tools)
    arguments = {"text": "edited"} if action == "edit" else None
    decision = ApprovalDecision(tool_call_id="call_note", action=action, arguments=arguments)  # type: ignore[arg-type]
    chunks = await collect(service.resume(session.id, [decision], context=ctx))
    assert text_of(chunks) == "Noted."
    ran = {"approve": ["hello"], "reject": [], "edit": ["edited"]}[action]
    assert tool.runs == ran
    await service.close()

    _copy_db(old, db)  # a restored backup, an old snapshot: the checkpoint rewinds
    service = await make_service(db, tools=tools)
    # the rewound file itself still says the call waits...
    info = await service.store.get_session(session.id)
    assert [a.tool_call_id for a in info.pending_approvals] == ["call_note"]
    snapshot = await service._graph.aget_state({"configurable": {"thread_id": session.id}})
    assert snapshot.interrupts
    # ...but it is not offered, and deciding it (again, any way) runs nothing
    assert await service.pending_approvals(session.id) == []
    for again in ("approve", "edit"):
        retry = ApprovalDecision(
            tool_call_id="call_note",
            action=again,  # type: ignore[arg-type]
            arguments={"text": "twice"} if again == "edit" else None,
        )
        late = await collect(service.resume(session.id, [retry], context=ctx))
        assert types_of(late) == ["error", "done"], late
    assert tool.runs == ran
    assert await service.decided_calls(session.id, ["call_note"]) == {"call_note": action}


@pytest.mark.asyncio
async def test_the_log_is_append_only_and_kept_out_of_the_conversation_database(
    tmp_path: Path,
) -> None:
    log = SqliteDecisionLog(tmp_path / DECISIONS_DB_NAME)
    await log.record("s1", [("c1", "approve", None), ("c2", "reject", None)])
    await log.record("s1", [("c1", "result", None), ("c3", "undo", None)])
    assert await log.decided("s1", ["c1", "c2", "c3", "c4"]) == {"c1": "approve", "c2": "reject"}
    assert await log.decided("s2", ["c1"]) == {}
    assert await log.undone("s1") == {"c3"}
    conn = sqlite3.connect(tmp_path / DECISIONS_DB_NAME)
    try:
        for statement in (
            "DELETE FROM copilot_decisions",
            "UPDATE copilot_decisions SET kind = 'x'",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(statement)
    finally:
        conn.close()
    assert await log.decided("s1", ["c1"]) == {"c1": "approve"}


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_undo_is_recorded_per_call_and_results_mark_calls_decided(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory, tmp_path: Path
) -> None:
    tool = RecordingChangeTool()
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(ScriptedToolCall("list_projects", {}, id="call_list")),
        ScriptedTurn.text("Listed."),
    )
    service = await make_service(tmp_path / "c.db", tools=default_registry([tool]))
    assert service.store.db_path.parent / DECISIONS_DB_NAME == tmp_path / DECISIONS_DB_NAME
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())
    await collect(service.stream_chat("List", session.id, context=ctx))
    # a call that ran without approval is decided by its result
    assert await service.decided_calls(session.id, ["call_list"]) == {"call_list": "result"}
    assert await service.undone_changes(session.id) == set()
    await service.record_undo(session.id, "call_list")
    assert await service.undone_changes(session.id) == {"call_list"}
