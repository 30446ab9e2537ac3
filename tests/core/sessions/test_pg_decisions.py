"""The decision log in a real PostgreSQL: rows are only ever added; an UPDATE or DELETE changes
nothing, whoever sends it."""

from __future__ import annotations

import uuid

import pytest

from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore
from tests.helpers.postgres import PostgresServer


@pytest.mark.asyncio
async def test_the_postgres_decision_log_only_grows(postgres_server: PostgresServer) -> None:
    store = await PostgresSessionStore.open(postgres_server.dsn, project_id=str(uuid.uuid4()))
    sid = f"s-{uuid.uuid4()}"
    try:
        log = store.decision_log()
        await log.record(sid, [("c1", "approve", None), ("c2", "reject", None)])
        await log.record(sid, [("c1", "result", None), ("c3", "undo", None), ("c4", "edit", "h")])
        assert await log.decided(sid, ["c1", "c2", "c3", "c4", "c5"]) == {
            "c1": "approve",
            "c2": "reject",
            "c4": "edit",
        }
        assert await log.undone(sid) == {"c3"}
        assert await log.decided("another", ["c1"]) == {}
        async with store._pool.connection() as conn:
            for statement in (
                "UPDATE copilot_decisions SET kind = 'x', tool_call_id = 'other'"
                " WHERE session_id = %s",
                "DELETE FROM copilot_decisions WHERE session_id = %s",
            ):
                cur = await conn.execute(statement, (sid,))
                assert cur.rowcount == 0, statement
            await conn.commit()
            rows = await (
                await conn.execute(
                    "SELECT tool_call_id, kind FROM copilot_decisions WHERE session_id = %s"
                    " ORDER BY id",
                    (sid,),
                )
            ).fetchall()
        assert [(r["tool_call_id"], r["kind"]) for r in rows] == [
            ("c1", "approve"),
            ("c2", "reject"),
            ("c1", "result"),
            ("c3", "undo"),
            ("c4", "edit"),
        ]
        # deleting the whole conversation keeps its decisions
        info = await store.create_session("x")
        await log.record(info.id, [("d1", "approve", None)])
        await store.delete_session(info.id)
        assert await log.decided(info.id, ["d1"]) == {"d1": "approve"}
    finally:
        await store.close()
