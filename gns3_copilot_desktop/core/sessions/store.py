"""SessionStore: one SQLite database per GNS3 project.

The file holds LangGraph's checkpoints (``checkpoints`` and ``writes``, through the
`AsyncSqliteSaver` that shares the store's one connection), an index of sessions, the append-only
transcript of every conversation and a full-text index over both. The agent keeps only a bounded
working context in its checkpoints and calls `SessionStore.prune_checkpoints` after each turn, so
the file grows linearly with the conversation; the history view reads the transcript.

Everything goes through one aiosqlite connection (its own thread), so no SQLite call blocks the
event loop. Multi-statement writes hold the checkpointer's lock, so they never interleave with a
checkpoint write on the same connection. A second app instance on the same file waits up to the
busy timeout instead of failing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sqlite3
import time
import uuid
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import aiosqlite
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from pydantic import TypeAdapter

from gns3_copilot_desktop.core.errors import SessionStoreError
from gns3_copilot_desktop.core.platform import detect_platform
from gns3_copilot_desktop.core.sessions import schema
from gns3_copilot_desktop.core.sessions.base import LEASE_S, SessionStoreBase, lease_is_free
from gns3_copilot_desktop.core.sessions.base import not_found as _not_found
from gns3_copilot_desktop.core.sessions.location import resolve_db_path
from gns3_copilot_desktop.core.sessions.models import (
    SessionInfo,
)
from gns3_copilot_desktop.core.sessions.ownership import (
    OWNER_TABLE,
    Ownership,
    own_path_beside,
    ownership,
    sign_sql,
)
from gns3_copilot_desktop.core.sessions.recovery import Recovery, corruption_reason, move_aside
from gns3_copilot_desktop.core.sessions.serde import StrictSerializer
from gns3_copilot_desktop.core.sessions.sqlite_transcript import SqliteTranscript, db_errors
from gns3_copilot_desktop.core.tasks import to_the_end

__all__ = ["SessionStore", "resolve_db_path"]

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_S = 10.0
_SESSION_JSON = """json_object(
    'id', thread_id, 'title', title, 'created_at', created_at, 'updated_at', updated_at,
    'message_count', message_count, 'input_tokens', input_tokens,
    'output_tokens', output_tokens, 'pinned', pinned, 'mode', mode,
    'pending_approvals', json(coalesce(pending_approval, '[]')))"""
_SESSIONS = TypeAdapter(list[SessionInfo])


class SessionStore(SqliteTranscript, SessionStoreBase):
    """Sessions, transcripts, search and checkpoints of one project (see the module docstring)."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        checkpointer: AsyncSqliteSaver,
        db_path: Path,
        recovery: Recovery | None,
    ) -> None:
        """Use `SessionStore.open`; this only wires already-prepared parts together."""
        self._conn = conn
        self.checkpointer = checkpointer
        self.db_path = db_path
        self._recovery = recovery
        self._closed = False
        self.notices: list[StoreNotice] = []
        """What the user must be told about this database (a foreign one beside it, a repair)."""
        self.foreign_db: Path | None = None
        """A database that came from elsewhere, left untouched beside this one."""

    # --- lifecycle ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        db_path: Path,
        *,
        busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S,
        owner_key: bytes | None = None,
        trust_unsigned: bool = False,
    ) -> SessionStore:
        """Open (or create) the project's database; a corrupt file is moved aside first.

        With ``owner_key`` a database this installation did not make (`ownership`) is left as it
        is and a database of our own is opened beside it; ``trust_unsigned`` adopts an unmarked
        file instead (one in the app's private data folder, from before databases were marked).
        What the user must be told is in `notices`.
        """
        db_path = Path(db_path)
        notices: list[StoreNotice] = []
        foreign: Path | None = None
        if owner_key is not None:
            db_path, foreign = await asyncio.to_thread(
                _own_database, db_path, owner_key, trust_unsigned
            )
            if foreign is not None:
                notices.append(StoreNotice("foreign", FOREIGN_TEXT, foreign))
        try:
            recovery = await asyncio.to_thread(_recover_if_corrupt, db_path, busy_timeout_s)
            conn = await aiosqlite.connect(db_path, timeout=busy_timeout_s)
        except (OSError, sqlite3.Error) as exc:
            raise SessionStoreError(
                f"Could not open the conversation database {db_path}: {exc}"
            ) from exc
        try:
            await _configure(conn, busy_timeout_s)
            checkpointer = AsyncSqliteSaver(conn, serde=StrictSerializer())
            await checkpointer.setup()
            await _migrate(conn)
            await conn.commit()
            if owner_key is not None:
                await _sign(conn, owner_key)
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, sqlite3.Error):
                raise SessionStoreError(
                    f"Could not prepare the conversation database {db_path}: {exc}"
                ) from exc
            raise
        if recovery is not None:
            log.warning(
                "Session database was corrupt, moved to %s: %s", recovery.moved_to, recovery.reason
            )
            notices.append(StoreNotice("recovered", recovered_text(recovery), recovery.moved_to))
        store = cls(conn, checkpointer, db_path, recovery)
        store.notices = notices
        store.foreign_db = foreign
        return store

    async def close(self) -> None:
        """Close the connection (idempotent). The checkpointer is unusable afterwards."""
        if self._closed:
            return
        self._closed = True
        await to_the_end(self._close_connection())

    async def _close_connection(self) -> None:
        async with self.checkpointer.lock:
            with contextlib.suppress(sqlite3.Error):
                await self._conn.execute("PRAGMA optimize")
            await self._conn.close()

    @property
    def recovered_from(self) -> Path | None:
        """Where a corrupt database found at open was moved to, if it was."""
        return self._recovery.moved_to if self._recovery else None

    @property
    def recovery_message(self) -> str | None:
        """A sentence for the UI when a corrupt database was replaced at open, else None."""
        return self._recovery.message if self._recovery else None

    # --- sessions ----------------------------------------------------------------------------

    async def create_session(
        self, title: str | None = None, mode: str = "assistant"
    ) -> SessionInfo:
        """Add a new, empty session with a fresh uuid4 thread id."""
        sid = str(uuid.uuid4())
        now = time.time()
        with db_errors("create a conversation"):
            async with self._write() as conn:
                await conn.execute(
                    "INSERT INTO copilot_sessions (thread_id, title, created_at, updated_at, mode)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (sid, title, now, now, mode),
                )
        return await self.get_session(sid)  # read back: exactly what later reads will give

    async def get_session(self, sid: str) -> SessionInfo:
        """One session; `SessionNotFoundError` when the project has none with that id."""
        sessions = await self._select_sessions("WHERE thread_id = ?", (sid,))
        if not sessions:
            raise _not_found(sid)
        return sessions[0]

    async def list_sessions(self, limit: int | None = None) -> list[SessionInfo]:
        """All sessions (or the first ``limit``): pinned first, then most recently updated."""
        order = "ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?"
        return await self._select_sessions(order, (-1 if limit is None else limit,))

    async def _select_sessions(self, clause: str, params: Sequence[Any]) -> list[SessionInfo]:
        sql = (
            f"SELECT json_group_array({_SESSION_JSON})"
            f" FROM (SELECT * FROM copilot_sessions {clause})"
        )
        with db_errors("read the conversations"):
            rows = await self._conn.execute_fetchall(sql, params)
        sessions = _SESSIONS.validate_json(next(iter(rows))[0])
        # The aggregate keeps the subquery's order in practice; a stable sort makes it certain.
        sessions.sort(key=lambda s: (not s.pinned, -s.updated_at.timestamp()))
        return sessions

    async def delete_session(self, sid: str) -> None:
        """Remove everything of a session and reclaim its space.

        Checkpoints, writes, transcript, search index and index row go in one transaction; then the
        search index is rewritten without the deleted words, free pages are released and the WAL is
        checkpointed and truncated, so nothing of the conversation stays readable in the files.
        Raises `SessionNotFoundError` when there was nothing to delete.
        """
        with db_errors("delete the conversation"):
            async with self._write() as conn:
                removed = 0
                for table in ("copilot_sessions", "copilot_transcript", "writes", "checkpoints"):
                    cur = await conn.execute(f"DELETE FROM {table} WHERE thread_id = ?", (sid,))
                    removed += max(cur.rowcount, 0)
            # The saver's own delete as well, in case a later version keeps more per-thread tables.
            await self.checkpointer.adelete_thread(sid)
            await self._verify_thread_gone(sid)
            await self._scrub()
        if removed == 0:
            raise _not_found(sid)

    async def _verify_thread_gone(self, sid: str) -> None:
        for table in ("checkpoints", "writes"):
            rows = await self._conn.execute_fetchall(
                f"SELECT count(*) FROM {table} WHERE thread_id = ?", (sid,)
            )
            left = next(iter(rows))[0]
            if left:
                raise SessionStoreError(
                    f"Deleting the conversation left {left} rows in the '{table}' table."
                )

    async def _scrub(self) -> None:
        """Purge deleted words from the FTS indexes, free pages, and empty the WAL."""
        async with self.checkpointer.lock:
            await self._conn.execute(
                "INSERT INTO copilot_transcript_fts (copilot_transcript_fts) VALUES ('optimize')"
            )
            await self._conn.execute(
                "INSERT INTO copilot_title_fts (copilot_title_fts) VALUES ('optimize')"
            )
            await self._conn.commit()
            # executescript steps the pragma to completion; execute() would free a single page.
            await self._conn.executescript("PRAGMA incremental_vacuum;")
            rows = await self._conn.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        busy = next(iter(rows))[0]
        if busy:
            # Another app instance is reading: the rest is checkpointed by whoever closes last.
            log.info("WAL checkpoint after delete was partial (database busy)")

    async def _update_session(
        self, sid: str, assignments: str, params: Iterable[Any], action: str
    ) -> None:
        with db_errors(action):
            async with self._write() as conn:
                cur = await conn.execute(
                    f"UPDATE copilot_sessions SET {assignments} WHERE thread_id = ?",
                    (*params, sid),
                )
                if cur.rowcount == 0:
                    raise _not_found(sid)

    async def _execute(self, action: str, sql: str, params: Sequence[Any]) -> int:
        with db_errors(action):
            async with self._write() as conn:
                cur = await conn.execute(sql, params)
                return int(cur.rowcount)

    def _flag(self, value: bool) -> Any:
        return int(value)

    # --- turns of other processes ---------------------------------------------------------

    async def claim_turn(self, sid: str, owner: str) -> str | None:
        """Claim the session for a turn of ``owner``; None when claimed, else what holds it.

        A claim of another process (another app instance on this project) holds until it is
        released, expires (`LEASE_S` without renewal) or its process is gone (same computer)."""
        now = time.time()
        with db_errors("start the turn"):
            async with self._write() as conn:
                rows = list(
                    await conn.execute_fetchall(
                        "SELECT owner, host, pid, expires FROM copilot_turn_leases"
                        " WHERE thread_id = ?",
                        (sid,),
                    )
                )
                if rows and not lease_is_free(rows[0], owner, now):
                    return f"{rows[0][1]} (process {rows[0][2]})"
                await conn.execute(
                    "INSERT OR REPLACE INTO copilot_turn_leases VALUES (?, ?, ?, ?, ?)",
                    (sid, owner, socket.gethostname(), os.getpid(), now + LEASE_S),
                )
        return None

    # --- checkpoints -------------------------------------------------------------------------

    async def prune_checkpoints(self, sid: str, keep_latest: int = 1) -> int:
        """Delete the thread's superseded checkpoints and their writes; returns how many went.

        In every checkpoint namespace the newest ``keep_latest`` checkpoints stay, with all their
        pending writes, so a graph paused by ``interrupt()`` resumes as before. Only for graphs
        whose state does not need its ancestors (not for LangGraph's DeltaChannel).
        """
        if keep_latest < 1:
            raise ValueError("keep_latest must be at least 1")
        deleted = 0
        with db_errors("compact the conversation's checkpoints"):
            async with self._write() as conn:
                namespaces = await conn.execute_fetchall(
                    "SELECT DISTINCT checkpoint_ns FROM checkpoints WHERE thread_id = ?", (sid,)
                )
                for (ns,) in namespaces:
                    deleted += await _prune_namespace(conn, sid, ns, keep_latest)
        return deleted

    # --- internals ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction, serialized with the checkpointer's own use of the connection."""
        if self._closed:
            raise SessionStoreError("The conversation database is closed.")
        async with self.checkpointer.lock:
            # A write cancelled while its statement ran in the connection's thread (a client
            # that left mid-turn) goes on there and leaves its transaction open, this store's
            # or the checkpointer's: roll it back, so it is neither committed with this one nor
            # makes every later write fail with "cannot start a transaction within a
            # transaction". A no-op when none is open.
            await to_the_end(self._conn.rollback())
            try:
                # IMMEDIATE takes the write lock now, so another instance makes us wait (busy
                # timeout) instead of failing later with SQLITE_BUSY.
                await self._conn.execute("BEGIN IMMEDIATE")
                yield self._conn
            except BaseException:
                await to_the_end(self._conn.rollback())
                raise
            await to_the_end(self._conn.commit())


async def _configure(conn: aiosqlite.Connection, busy_timeout_s: float) -> None:
    for pragma in schema.FILE_PRAGMAS:
        await conn.execute(pragma)
    for pragma in schema.CONNECTION_PRAGMAS:
        await conn.execute(pragma.format(busy_ms=int(busy_timeout_s * 1000)))
    rows = await conn.execute_fetchall("PRAGMA auto_vacuum")
    if next(iter(rows))[0] != 2:
        # A file created without incremental auto-vacuum (by another tool): convert it once.
        await conn.execute("VACUUM")


async def _migrate(conn: aiosqlite.Connection) -> None:
    rows = await conn.execute_fetchall("PRAGMA user_version")
    version = int(next(iter(rows))[0])
    if version > schema.SCHEMA_VERSION:
        raise SessionStoreError(
            "The conversation database was created by a newer GNS3 Copilot; please update."
        )
    for current in range(version, schema.SCHEMA_VERSION):
        await conn.executescript(
            "BEGIN IMMEDIATE;"
            + schema.MIGRATIONS[current]
            + f"PRAGMA user_version = {current + 1}; COMMIT;"
        )


async def _prune_namespace(conn: aiosqlite.Connection, sid: str, ns: str, keep: int) -> int:
    rows = await conn.execute_fetchall(
        "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ?"
        " ORDER BY checkpoint_id DESC LIMIT 1 OFFSET ?",
        (sid, ns, keep - 1),
    )
    cutoff = next(iter(rows), None)
    if cutoff is None:
        return 0
    # Checkpoint ids sort by time (uuid6); only what is older than the oldest kept one goes, so
    # writes of a step still running (on the newest checkpoint) are never touched.
    params = (sid, ns, cutoff[0])
    await conn.execute(
        "DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id < ?",
        params,
    )
    cur = await conn.execute(
        "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id < ?",
        params,
    )
    return max(cur.rowcount, 0)


FOREIGN_TEXT = (
    "This project came with conversations from another computer. They are not opened as "
    "conversations of yours (a shared file could make the app run something); this computer "
    "keeps its own beside them."
)


def recovered_text(recovery: Recovery) -> str:
    """The sentence that tells the user a damaged database was replaced."""
    return (
        "The conversations of this project could not be read; the file was kept as "
        f"{recovery.moved_to} and a new one started."
    )


@dataclass(frozen=True)
class StoreNotice:
    """Something about the project's database the user must be told."""

    kind: Literal["foreign", "recovered", "migration_failed", "kept_both", "foreign_in_project"]
    text: str
    path: Path
    reason: str = ""


def _own_database(path: Path, key: bytes, trust_unsigned: bool) -> tuple[Path, Path | None]:
    """The database to open for ``path``, and the foreign one found there (if any)."""
    foreign: Path | None = None
    for _ in range(3):  # the file beside a foreign one may be foreign too
        state = ownership(path, key)
        if state is not Ownership.FOREIGN or (trust_unsigned and not _has_mark(path)):
            break
        foreign = foreign or path
        path = own_path_beside(path)
    else:
        raise SessionStoreError(f"No database of this computer can be made beside {foreign}.")
    detect_platform().private_file(path)
    return path, foreign


def _has_mark(path: Path) -> bool:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            found = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (OWNER_TABLE,)
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return True  # unreadable: never adopt it
    return found is not None


async def _sign(conn: aiosqlite.Connection, key: bytes) -> None:
    """Mark a database of ours that has no mark yet."""
    create, insert, values = sign_sql(key)
    await conn.execute(create)
    async with conn.execute(f"SELECT 1 FROM {OWNER_TABLE} WHERE id = 1") as cursor:
        if await cursor.fetchone() is None:
            await conn.execute(insert, values)
    await conn.commit()


def _recover_if_corrupt(db_path: Path, busy_timeout_s: float) -> Recovery | None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    reason = corruption_reason(db_path, busy_timeout_s)
    return move_aside(db_path, reason) if reason else None
