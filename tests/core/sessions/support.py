"""Helpers of the session store tests: row counts and file lists; turns and graph from the bench.

The benchmark's turn generator and bounded-window graph are reused, so what the tests check is
what `python -m bench sessions` measures.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from bench.bench_sessions import ANSWER, TOOL_RESULT, build_turn_graph, run_turn, turn_messages
from gns3_copilot_desktop.core.sessions import SessionStore
from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore

__all__ = [
    "ANSWER",
    "TOOL_RESULT",
    "build_turn_graph",
    "count_rows",
    "db_files",
    "pg_scalar",
    "run_turn",
    "sqlite_or_pg_store",
    "turn_messages",
]


def db_files(db: Path) -> list[Path]:
    """The database and its -wal / -shm, those that exist."""
    return [p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]


async def count_rows(store: SessionStore | PostgresSessionStore, table: str, sid: str) -> int:
    """Rows of ``table`` that belong to thread ``sid`` (PostgreSQL's saver calls ``writes``
    ``checkpoint_writes`` and keeps channel values in ``checkpoint_blobs``)."""
    if isinstance(store, PostgresSessionStore):
        table = {"writes": "checkpoint_writes"}.get(table, table)
        return await pg_scalar(store, f"SELECT count(*) FROM {table} WHERE thread_id = %s", sid)
    rows = await store.checkpointer.conn.execute_fetchall(
        f"SELECT count(*) FROM {table} WHERE thread_id = ?", (sid,)
    )
    return int(next(iter(rows))[0])


async def pg_scalar(store: PostgresSessionStore, sql: str, *params: Any) -> int:
    """One number from the PostgreSQL store's database."""
    async with store._pool.connection() as conn:
        row = await (await conn.execute(sql, params)).fetchone()
    return int(next(iter(row.values())) or 0)


async def sqlite_or_pg_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> SessionStore | PostgresSessionStore:
    """A new store of the kind the test is parametrized with (``sqlite`` or ``postgres``)."""
    if request.param == "sqlite":
        return await SessionStore.open(tmp_path / "project.db")
    server = request.getfixturevalue("postgres_server")
    return await PostgresSessionStore.open(server.dsn, project_id=str(uuid.uuid4()))
