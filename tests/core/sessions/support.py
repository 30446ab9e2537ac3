"""Helpers of the session store tests: row counts and file lists; turns and graph from the bench.

The benchmark's turn generator and bounded-window graph are reused, so what the tests check is
what `python -m bench sessions` measures.
"""

from __future__ import annotations

from pathlib import Path

from bench.bench_sessions import ANSWER, TOOL_RESULT, build_turn_graph, run_turn, turn_messages
from gns3_copilot_desktop.core.sessions import SessionStore

__all__ = [
    "ANSWER",
    "TOOL_RESULT",
    "build_turn_graph",
    "count_rows",
    "db_files",
    "run_turn",
    "turn_messages",
]


def db_files(db: Path) -> list[Path]:
    """The database and its -wal / -shm, those that exist."""
    return [p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]


async def count_rows(store: SessionStore, table: str, sid: str) -> int:
    """Rows of ``table`` that belong to thread ``sid``."""
    rows = await store.checkpointer.conn.execute_fetchall(
        f"SELECT count(*) FROM {table} WHERE thread_id = ?", (sid,)
    )
    return int(next(iter(rows))[0])
