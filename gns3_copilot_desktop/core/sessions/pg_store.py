"""PostgresSessionStore: the sessions of many projects (and users) in one PostgreSQL database.

For `gns3-copilot serve --database postgresql://...`: a trainer's one GNS3 server for a class
outgrows a SQLite file per project on the service's disk. The interface is `SessionStore`'s (the
same test suite runs against both); what differs is inside:

- one database for every project: each store is one project's view (``project_id`` on every
  session row), over a small connection pool of its own;
- checkpoints through LangGraph's own `AsyncPostgresSaver`, with our `StrictSerializer` (nothing
  a row holds can import or call code), so the agent works unchanged;
- search with PostgreSQL's full-text search (``simple`` configuration: no stemming, like FTS5's
  tokenizer; every word must match, the last one as a prefix; user input is never parsed as
  query syntax) and ``ts_headline`` snippets;
- deleting a session removes its rows in one transaction, checkpoints and blobs included.

Optional: needs the ``postgres`` extra (psycopg, psycopg-pool, langgraph-checkpoint-postgres).
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from gns3_copilot_desktop.core.errors import SessionNotFoundError, SessionStoreError
from gns3_copilot_desktop.core.sessions.base import LEASE_S, SessionStoreBase, lease_is_free
from gns3_copilot_desktop.core.sessions.base import not_found as _not_found
from gns3_copilot_desktop.core.sessions.models import (
    SessionInfo,
)
from gns3_copilot_desktop.core.sessions.pg_transcript import (
    LAST_SEQ_MIGRATION,
    PostgresTranscript,
    pg_error,
)
from gns3_copilot_desktop.core.sessions.serde import StrictSerializer
from gns3_copilot_desktop.core.sessions.store import SessionStore, StoreNotice
from gns3_copilot_desktop.core.tasks import to_the_end

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS copilot_pg_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS copilot_sessions (
    id BIGSERIAL PRIMARY KEY,
    project_id TEXT NOT NULL,
    thread_id TEXT NOT NULL UNIQUE,
    title TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    input_tokens BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    pinned BOOLEAN NOT NULL DEFAULT FALSE,
    mode TEXT NOT NULL DEFAULT 'assistant',
    pending_approval JSONB,
    title_tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', coalesce(title, ''))) STORED
);
CREATE INDEX IF NOT EXISTS copilot_sessions_order
    ON copilot_sessions (project_id, pinned DESC, updated_at DESC);
CREATE INDEX IF NOT EXISTS copilot_sessions_title_tsv ON copilot_sessions USING GIN (title_tsv);
CREATE TABLE IF NOT EXISTS copilot_transcript (
    id BIGSERIAL PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES copilot_sessions (thread_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    name TEXT,
    tool_call_id TEXT,
    tool_calls JSONB,
    metadata JSONB,
    created_at TEXT NOT NULL,
    tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED,
    UNIQUE (thread_id, seq)
);
CREATE INDEX IF NOT EXISTS copilot_transcript_tsv ON copilot_transcript USING GIN (tsv);
CREATE TABLE IF NOT EXISTS copilot_turn_leases (
    thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS copilot_decisions (
    id BIGSERIAL PRIMARY KEY, session_id TEXT NOT NULL, tool_call_id TEXT NOT NULL,
    kind TEXT NOT NULL, args_hash TEXT, at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS copilot_decisions_by_call
    ON copilot_decisions (session_id, tool_call_id);
CREATE OR REPLACE RULE copilot_decisions_no_update AS ON UPDATE TO copilot_decisions
    DO INSTEAD NOTHING;
CREATE OR REPLACE RULE copilot_decisions_no_delete AS ON DELETE TO copilot_decisions
    DO INSTEAD NOTHING
"""
_SESSION_COLUMNS = (
    "thread_id AS id, title, to_timestamp(created_at) AS created_at,"
    " to_timestamp(updated_at) AS updated_at, message_count, input_tokens, output_tokens,"
    " pinned, mode, coalesce(pending_approval, '[]'::jsonb) AS pending_approvals"
)
_HAS_LAST_SEQ = (
    "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
    " AND table_name = 'copilot_sessions' AND column_name = 'last_seq'"
)
_LOCK_ID = 0x6E53  # pg_advisory_xact_lock: one schema set-up at a time


def is_postgres_url(url: str) -> bool:
    """Whether ``--database`` names a PostgreSQL server."""
    return url.startswith(("postgresql://", "postgres://"))


class PostgresSessionStore(PostgresTranscript, SessionStoreBase):
    """One project's sessions in a shared PostgreSQL database (see the module docstring)."""

    PLACEHOLDER = "%s"
    JSON_PARAM = "%s::jsonb"

    def __init__(self, pool: Any, checkpointer: Any, project_id: str, dsn_label: str) -> None:
        """Use `PostgresSessionStore.open`."""
        self._pool = pool
        self.checkpointer = checkpointer
        self.project_id = project_id
        self.db_path = Path(dsn_label)
        """Where the conversations are (the server and database, never the password)."""
        self.notices: list[StoreNotice] = []
        self.foreign_db: Path | None = None
        self._closed = False

    @classmethod
    async def open(
        cls, dsn: str, project_id: str, *, min_size: int = 1, max_size: int = 4
    ) -> PostgresSessionStore:
        """Connect, set up the tables (LangGraph's and ours) once, and return the project's
        store."""
        try:
            from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
            from psycopg import AsyncConnection
            from psycopg.conninfo import conninfo_to_dict
            from psycopg.rows import DictRow, dict_row
            from psycopg_pool import AsyncConnectionPool
        except ImportError as exc:  # pragma: no cover - the extra is not installed
            raise SessionStoreError(
                "PostgreSQL needs the 'postgres' extra: "
                "pip install 'gns3-copilot-desktop[postgres]'."
            ) from exc
        info = conninfo_to_dict(dsn)
        host, port = info.get("host", "localhost"), info.get("port", 5432)
        label = f"postgresql://{host}:{port}/{info.get('dbname', '')}"
        pool: AsyncConnectionPool[AsyncConnection[DictRow]] = AsyncConnectionPool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            open=False,
            kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        )
        try:
            await pool.open(wait=True, timeout=15)
            async with pool.connection() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_ID,))
                checkpointer = AsyncPostgresSaver(pool, serde=StrictSerializer())
                for statement in filter(str.strip, SCHEMA.split(";")):
                    await conn.execute(statement)
                if not await (await conn.execute(_HAS_LAST_SEQ)).fetchone():
                    for statement in LAST_SEQ_MIGRATION:
                        await conn.execute(statement)
                row = await (
                    await conn.execute("SELECT max(version) AS v FROM copilot_pg_schema")
                ).fetchone()
                version = row["v"] if row is not None else None
                if version is not None and version > SCHEMA_VERSION:
                    raise SessionStoreError(
                        "The conversation database was created by a newer GNS3 Copilot; "
                        "please update."
                    )
                if version is None:
                    await conn.execute(
                        "INSERT INTO copilot_pg_schema VALUES (%s)", (SCHEMA_VERSION,)
                    )
            await checkpointer.setup()
        except SessionStoreError:
            await pool.close()
            raise
        except Exception as exc:
            await pool.close()
            raise SessionStoreError(
                f"Could not open the conversation database {label}: {exc}"
            ) from exc
        return cls(pool, checkpointer, project_id, label)

    async def close(self) -> None:
        """Close the pool (idempotent)."""
        if self._closed:
            return
        self._closed = True
        await to_the_end(self._pool.close())

    # --- sessions ----------------------------------------------------------------------------

    async def create_session(
        self, title: str | None = None, mode: str = "assistant"
    ) -> SessionInfo:
        """Add a new, empty session of this project."""
        sid = str(uuid.uuid4())
        now = time.time()
        await self._execute(
            "create a conversation",
            "INSERT INTO copilot_sessions (project_id, thread_id, title, created_at, updated_at,"
            " mode) VALUES (%s, %s, %s, %s, %s, %s)",
            (self.project_id, sid, title, now, now, mode),
        )
        return await self.get_session(sid)

    async def get_session(self, sid: str) -> SessionInfo:
        """One session of this project; `SessionNotFoundError` otherwise."""
        rows = await self._select(
            "read the conversations",
            f"SELECT {_SESSION_COLUMNS} FROM copilot_sessions"
            " WHERE project_id = %s AND thread_id = %s",
            (self.project_id, sid),
        )
        if not rows:
            raise _not_found(sid)
        return SessionInfo.model_validate(rows[0])

    async def list_sessions(self, limit: int | None = None) -> list[SessionInfo]:
        """Pinned first, then most recently updated."""
        rows = await self._select(
            "read the conversations",
            f"SELECT {_SESSION_COLUMNS} FROM copilot_sessions WHERE project_id = %s"
            " ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT %s",
            (self.project_id, limit),
        )
        return [SessionInfo.model_validate(r) for r in rows]

    async def delete_session(self, sid: str) -> None:
        """Remove every row of the session (index, transcript, checkpoints, blobs, writes) in one
        transaction; `SessionNotFoundError` when this project has no such session."""
        try:
            async with self._pool.connection() as conn, conn.transaction():
                cur = await conn.execute(
                    "DELETE FROM copilot_sessions WHERE project_id = %s AND thread_id = %s",
                    (self.project_id, sid),
                )
                if cur.rowcount == 0:
                    raise _not_found(sid)
                for table in ("checkpoint_writes", "checkpoint_blobs", "checkpoints"):
                    await conn.execute(f"DELETE FROM {table} WHERE thread_id = %s", (sid,))
        except SessionNotFoundError:
            raise
        except Exception as exc:
            raise pg_error("delete the conversation", exc) from exc

    # --- turns of other processes ---------------------------------------------------------

    async def claim_turn(self, sid: str, owner: str) -> str | None:
        """See `SessionStore.claim_turn` (here the service instances may be on other hosts)."""
        now = time.time()
        try:
            async with self._pool.connection() as conn, conn.transaction():
                row = await (
                    await conn.execute(
                        "SELECT owner, host, pid, expires FROM copilot_turn_leases"
                        " WHERE thread_id = %s FOR UPDATE",
                        (sid,),
                    )
                ).fetchone()
                if row is not None:
                    values = (row["owner"], row["host"], row["pid"], row["expires"])
                    if not lease_is_free(values, owner, now):
                        return f"{row['host']} (process {row['pid']})"
                await conn.execute(
                    "INSERT INTO copilot_turn_leases VALUES (%s, %s, %s, %s, %s)"
                    " ON CONFLICT (thread_id) DO UPDATE SET owner = EXCLUDED.owner,"
                    " host = EXCLUDED.host, pid = EXCLUDED.pid, expires = EXCLUDED.expires",
                    (sid, owner, socket.gethostname(), os.getpid(), now + LEASE_S),
                )
        except Exception as exc:
            raise pg_error("start the turn", exc) from exc
        return None

    # --- checkpoints -------------------------------------------------------------------------

    async def prune_checkpoints(self, sid: str, keep_latest: int = 1) -> int:
        """Delete the thread's superseded checkpoints, their writes and the blobs no kept
        checkpoint refers to; returns how many checkpoints went."""
        if keep_latest < 1:
            raise ValueError("keep_latest must be at least 1")
        try:
            async with self._pool.connection() as conn:
                row = await (
                    await conn.execute(_PRUNE, {"sid": sid, "keep": keep_latest})
                ).fetchone()
        except Exception as exc:
            raise pg_error("compact the conversation's checkpoints", exc) from exc
        return int(row["deleted"]) if row is not None else 0

    def decision_log(self) -> PostgresDecisionLog:
        """The append-only log of decided calls, in a table of this database (the service's
        database is not in a project folder: no snapshot rewinds it)."""
        return PostgresDecisionLog(self)

    # --- internals ---------------------------------------------------------------------------

    async def _execute(self, action: str, sql: str, params: Sequence[Any]) -> int:
        self._check_open()
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return int(cur.rowcount)
        except Exception as exc:
            raise pg_error(action, exc) from exc

    async def _select(self, action: str, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        self._check_open()
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return list(await cur.fetchall())
        except Exception as exc:
            raise pg_error(action, exc) from exc

    async def _update_session(
        self, sid: str, assignments: str, params: Iterable[Any], action: str
    ) -> None:
        changed = await self._execute(
            action,
            f"UPDATE copilot_sessions SET {assignments} WHERE project_id = %s AND thread_id = %s",
            (*params, self.project_id, sid),
        )
        if changed == 0:
            raise _not_found(sid)

    def _check_open(self) -> None:
        if self._closed:
            raise SessionStoreError("The conversation database is closed.")


class PostgresDecisionLog:
    """`core.sessions.decisions.DecisionLog` in the ``copilot_decisions`` table (rules turn an
    update or delete into nothing: rows are only ever inserted)."""

    def __init__(self, store: PostgresSessionStore) -> None:
        self._store = store

    async def record(self, session_id: str, entries: Iterable[tuple[str, str, str | None]]) -> None:
        """Append rows in one statement."""
        now = time.time()
        rows = [(session_id, call_id, kind, digest, now) for call_id, kind, digest in entries]
        if not rows:
            return
        values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows))
        await self._store._execute(
            "record a decision",
            "INSERT INTO copilot_decisions (session_id, tool_call_id, kind, args_hash, at)"
            f" VALUES {values}",
            [v for row in rows for v in row],
        )

    async def decided(self, session_id: str, tool_call_ids: Iterable[str]) -> dict[str, str]:
        """Call id -> the first deciding kind recorded."""
        ids = list(dict.fromkeys(tool_call_ids))
        if not ids:
            return {}
        rows = await self._store._select(
            "read the decisions",
            "SELECT tool_call_id, kind FROM copilot_decisions WHERE session_id = %s AND "
            "tool_call_id = ANY(%s) AND kind <> 'undo' ORDER BY id",
            (session_id, ids),
        )
        found: dict[str, str] = {}
        for row in rows:
            found.setdefault(str(row["tool_call_id"]), str(row["kind"]))
        return found

    async def undone(self, session_id: str) -> set[str]:
        """The calls of the session whose change was undone."""
        rows = await self._store._select(
            "read the decisions",
            "SELECT tool_call_id FROM copilot_decisions WHERE session_id = %s AND kind = 'undo'",
            (session_id,),
        )
        return {str(row["tool_call_id"]) for row in rows}


_PRUNE = """
WITH ranked AS (
    SELECT checkpoint_ns, checkpoint_id, checkpoint,
        row_number() OVER (PARTITION BY checkpoint_ns ORDER BY checkpoint_id DESC) AS n
    FROM checkpoints WHERE thread_id = %(sid)s
), kept AS (
    SELECT checkpoint_ns, checkpoint_id, checkpoint FROM ranked WHERE n <= %(keep)s
), oldest AS (
    SELECT checkpoint_ns, min(checkpoint_id) AS checkpoint_id FROM kept GROUP BY checkpoint_ns
), writes AS (
    DELETE FROM checkpoint_writes w USING oldest o
    WHERE w.thread_id = %(sid)s AND w.checkpoint_ns = o.checkpoint_ns
    AND w.checkpoint_id < o.checkpoint_id
), gone AS (
    DELETE FROM checkpoints c USING oldest o
    WHERE c.thread_id = %(sid)s AND c.checkpoint_ns = o.checkpoint_ns
    AND c.checkpoint_id < o.checkpoint_id
    RETURNING c.checkpoint_ns
), blobs AS (
    DELETE FROM checkpoint_blobs b
    WHERE b.thread_id = %(sid)s AND b.checkpoint_ns IN (SELECT checkpoint_ns FROM gone)
    AND NOT EXISTS (
        SELECT 1 FROM kept k WHERE k.checkpoint_ns = b.checkpoint_ns
        AND k.checkpoint -> 'channel_versions' ->> b.channel = b.version
    )
)
SELECT count(*) AS deleted FROM gone
"""
"""A thread's superseded checkpoints, their writes, and the blobs no kept checkpoint names, in
one statement (atomic as one; its parts share one snapshot, so the blobs are judged against the
checkpoints kept, not against those it deletes). Per namespace, the ``keep`` latest stay."""


AnyStore = SessionStore | PostgresSessionStore
"""What the agent works on: a project's SQLite file, or its view of a PostgreSQL database."""
