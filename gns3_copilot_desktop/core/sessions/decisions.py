"""The append-only log of decided calls: a decided call is never executable again.

Each decision on a change (approve, reject, approve with edited arguments and the hash of those
arguments), each tool result and each Undo carried out is recorded here, keyed by session id and
tool call id, *before* anything runs. The log is a file of its own beside the conversation
database (`location.DECISIONS_DB_NAME`), never inside it: a checkpoint database replaced by an
older copy (a restored backup or snapshot) can show a call as pending again, and the log still
says it was decided. Rows are only ever inserted; triggers refuse updates and deletes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from gns3_copilot_desktop.core.errors import SessionStoreError
from gns3_copilot_desktop.core.platform import detect_platform

DecisionKind = Literal["approve", "reject", "edit", "result", "undo"]
DECIDING_KINDS: tuple[DecisionKind, ...] = ("approve", "reject", "edit", "result")
"""What makes a call decided (an Undo does not: it is about the change's own record)."""
_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS copilot_decisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    args_hash TEXT,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS copilot_decisions_by_call
    ON copilot_decisions (session_id, tool_call_id);
CREATE TRIGGER IF NOT EXISTS copilot_decisions_no_update BEFORE UPDATE ON copilot_decisions
    BEGIN SELECT RAISE(ABORT, 'the decision log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS copilot_decisions_no_delete BEFORE DELETE ON copilot_decisions
    BEGIN SELECT RAISE(ABORT, 'the decision log is append-only'); END;
"""


def arguments_hash(arguments: dict[str, Any] | None) -> str | None:
    """A stable hash of edited arguments (what was approved, without keeping the values)."""
    if arguments is None:
        return None
    text = json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class DecisionLog(Protocol):
    """What the agent service asks of a decision log (SQLite file or a PostgreSQL table)."""

    async def record(
        self,
        session_id: str,
        entries: Iterable[tuple[str, DecisionKind, str | None]],
    ) -> None:
        """Append (tool call id, kind, arguments hash) rows, durably, in one transaction."""
        ...

    async def decided(self, session_id: str, tool_call_ids: Iterable[str]) -> dict[str, str]:
        """Which of the calls were decided or have a result: call id -> first such kind."""
        ...

    async def undone(self, session_id: str) -> set[str]:
        """The calls of the session whose change was undone."""
        ...


class SqliteDecisionLog:
    """The log in a small SQLite file of its own (synchronous writes, INSERT only)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = asyncio.Lock()
        self._ready = False

    async def record(
        self,
        session_id: str,
        entries: Iterable[tuple[str, DecisionKind, str | None]],
    ) -> None:
        """Append rows (see `DecisionLog.record`)."""
        now = time.time()
        rows = [(session_id, call_id, kind, digest, now) for call_id, kind, digest in entries]
        if not rows:
            return

        def write(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT INTO copilot_decisions (session_id, tool_call_id, kind, args_hash, at)"
                " VALUES (?, ?, ?, ?, ?)",
                rows,
            )

        await self._run(write)

    async def decided(self, session_id: str, tool_call_ids: Iterable[str]) -> dict[str, str]:
        """See `DecisionLog.decided`."""
        ids = list(dict.fromkeys(tool_call_ids))
        if not ids:
            return {}

        def read(conn: sqlite3.Connection) -> dict[str, str]:
            found: dict[str, str] = {}
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(
                    "SELECT tool_call_id, kind FROM copilot_decisions WHERE session_id = ? AND "
                    f"tool_call_id IN ({marks}) AND kind IN ({','.join('?' * 4)}) ORDER BY id",
                    (session_id, *chunk, *DECIDING_KINDS),
                ).fetchall()
                for call_id, kind in rows:
                    found.setdefault(str(call_id), str(kind))
            return found

        return await self._run(read)

    async def undone(self, session_id: str) -> set[str]:
        """See `DecisionLog.undone`."""

        def read(conn: sqlite3.Connection) -> set[str]:
            rows = conn.execute(
                "SELECT tool_call_id FROM copilot_decisions WHERE session_id = ? AND kind = 'undo'",
                (session_id,),
            ).fetchall()
            return {str(row[0]) for row in rows}

        return await self._run(read)

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        async with self._lock:
            try:
                return await asyncio.to_thread(self._in_thread, work)
            except (OSError, sqlite3.Error) as exc:
                raise SessionStoreError(
                    f"Could not use the decision log {self.path}: {exc}"
                ) from exc

    def _in_thread(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        if not self._ready:
            detect_platform().private_file(self.path)
        conn = sqlite3.connect(self.path, timeout=10)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            if not self._ready:
                conn.executescript(_SCHEMA)
                self._ready = True
            with conn:
                return work(conn)
        finally:
            conn.close()
