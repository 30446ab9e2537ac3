"""The copilot service's own state in its PostgreSQL database, so any number of service
processes (replicas behind a proxy) on one database serve any request:

- who owns each session (another user gets 404, whichever replica they reach);
- "Always allow" grants, per GNS3 user and project;
- turn claims: the replica running a turn in a session holds a lease it renews while the turn
  runs; another replica asked for a turn there is refused, and a replica that dies mid-turn leaves
  the session usable once its lease has run out (at once when the dead process was on the same
  computer). A Stop sent to another replica is passed on through the claim row.

Optional: needs the ``postgres`` extra (psycopg, psycopg-pool).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterable
from typing import Any

from gns3_copilot_desktop.core.errors import SessionStoreError
from gns3_copilot_desktop.core.sessions.base import lease_is_free

CLAIM_LEASE_S = 15.0
"""How long a replica's turn claim holds without renewal (a dead replica's sessions are free
again after this)."""
CLAIM_RENEW_S = 2.0
"""How often a running turn renews its claim and looks for a Stop sent to another replica."""
_LOCK_ID = 0x6E54  # pg_advisory_xact_lock: one set-up of these tables at a time
SCHEMA = """
CREATE TABLE IF NOT EXISTS copilot_session_owners (
    project_id TEXT NOT NULL, session_id TEXT NOT NULL, user_id TEXT NOT NULL,
    PRIMARY KEY (project_id, session_id)
);
CREATE INDEX IF NOT EXISTS copilot_session_owners_by_user
    ON copilot_session_owners (project_id, user_id);
CREATE TABLE IF NOT EXISTS copilot_grants (
    user_id TEXT NOT NULL, project_id TEXT NOT NULL, tool_name TEXT NOT NULL,
    PRIMARY KEY (user_id, project_id, tool_name)
);
CREATE TABLE IF NOT EXISTS copilot_service_turns (
    project_id TEXT NOT NULL, session_id TEXT NOT NULL, holder TEXT NOT NULL, host TEXT NOT NULL,
    pid INTEGER NOT NULL, expires DOUBLE PRECISION NOT NULL,
    stop BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (project_id, session_id)
)
"""


def _db_error(action: str, exc: Exception) -> SessionStoreError:
    return SessionStoreError(f"Could not {action}: {exc}.")


class PostgresServiceState:
    """Owners, grants and turn claims of the service, in its PostgreSQL database."""

    def __init__(self, pool: Any) -> None:
        """Use `PostgresServiceState.open`."""
        self._pool = pool

    @classmethod
    async def open(cls, dsn: str, *, max_size: int = 8) -> PostgresServiceState:
        """Connect and set up the tables (once, whichever replica comes first)."""
        try:
            from psycopg import AsyncConnection
            from psycopg.rows import DictRow, dict_row
            from psycopg_pool import AsyncConnectionPool
        except ImportError as exc:  # pragma: no cover - the extra is not installed
            raise SessionStoreError(
                "PostgreSQL needs the 'postgres' extra: "
                "pip install 'gns3-copilot-desktop[postgres]'."
            ) from exc
        pool: AsyncConnectionPool[AsyncConnection[DictRow]] = AsyncConnectionPool(
            dsn,
            min_size=1,
            max_size=max_size,
            open=False,
            kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        )
        try:
            await pool.open(wait=True, timeout=15)
            async with pool.connection() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_ID,))
                for statement in filter(str.strip, SCHEMA.split(";")):
                    await conn.execute(statement)
        except Exception as exc:
            await pool.close()
            raise _db_error("open the service's database", exc) from exc
        return cls(pool)

    async def close(self) -> None:
        await self._pool.close()

    # --- owners ------------------------------------------------------------------------------

    async def add(self, project_id: str, session_id: str, user_id: str) -> None:
        await self._run(
            "record the conversation's owner",
            "INSERT INTO copilot_session_owners VALUES (%s, %s, %s) ON CONFLICT"
            " (project_id, session_id) DO UPDATE SET user_id = EXCLUDED.user_id",
            (project_id, session_id, user_id),
        )

    async def owns(self, project_id: str, session_id: str, user_id: str) -> bool:
        rows = await self._rows(
            "read the conversation's owner",
            "SELECT 1 FROM copilot_session_owners"
            " WHERE project_id = %s AND session_id = %s AND user_id = %s",
            (project_id, session_id, user_id),
        )
        return bool(rows)

    async def sessions_of(self, project_id: str, user_id: str) -> set[str]:
        rows = await self._rows(
            "read the conversations' owners",
            "SELECT session_id FROM copilot_session_owners WHERE project_id = %s AND user_id = %s",
            (project_id, user_id),
        )
        return {str(r["session_id"]) for r in rows}

    async def remove(self, project_id: str, session_id: str) -> None:
        await self._run(
            "forget the conversation's owner",
            "DELETE FROM copilot_session_owners WHERE project_id = %s AND session_id = %s",
            (project_id, session_id),
        )

    # --- "Always allow" ----------------------------------------------------------------------

    async def grants(self, user_id: str, project_id: str) -> frozenset[str]:
        rows = await self._rows(
            "read the always-allowed tools",
            "SELECT tool_name FROM copilot_grants WHERE user_id = %s AND project_id = %s",
            (user_id, project_id),
        )
        return frozenset(str(r["tool_name"]) for r in rows)

    async def grant(self, user_id: str, project_id: str, tools: Iterable[str]) -> None:
        for tool in sorted(set(tools)):
            await self._run(
                "save the always-allowed tool",
                "INSERT INTO copilot_grants VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (user_id, project_id, tool),
            )

    async def revoke(self, user_id: str, project_id: str, tool: str) -> bool:
        return (
            await self._run(
                "remove the always-allowed tool",
                "DELETE FROM copilot_grants"
                " WHERE user_id = %s AND project_id = %s AND tool_name = %s",
                (user_id, project_id, tool),
            )
            > 0
        )

    # --- turn claims -------------------------------------------------------------------------

    async def claim(self, project_id: str, session_id: str, holder: str) -> str | None:
        """Claim the session for a turn of ``holder``; None when claimed, else who holds it."""
        now = time.time()
        values = (project_id, session_id, holder, socket.gethostname(), os.getpid())
        # one round trip when the session is free (no claim, or one whose lease ran out)
        taken = await self._rows(
            "start the turn",
            "INSERT INTO copilot_service_turns AS t VALUES (%s, %s, %s, %s, %s, %s, FALSE)"
            " ON CONFLICT (project_id, session_id) DO UPDATE SET holder = EXCLUDED.holder,"
            " host = EXCLUDED.host, pid = EXCLUDED.pid, expires = EXCLUDED.expires, stop = FALSE"
            " WHERE t.expires < %s RETURNING holder",
            (*values, now + CLAIM_LEASE_S, now),
        )
        if taken:
            return None
        try:
            async with self._pool.connection() as conn, conn.transaction():
                row = await (
                    await conn.execute(
                        "SELECT holder, host, pid, expires FROM copilot_service_turns"
                        " WHERE project_id = %s AND session_id = %s FOR UPDATE",
                        (project_id, session_id),
                    )
                ).fetchone()
                if row is not None:
                    held = (row["holder"], row["host"], row["pid"], row["expires"])
                    if not lease_is_free(held, holder, now):
                        return f"{row['host']} (process {row['pid']})"
                await conn.execute(
                    "INSERT INTO copilot_service_turns VALUES (%s, %s, %s, %s, %s, %s, FALSE)"
                    " ON CONFLICT (project_id, session_id) DO UPDATE SET holder = EXCLUDED.holder,"
                    " host = EXCLUDED.host, pid = EXCLUDED.pid, expires = EXCLUDED.expires,"
                    " stop = FALSE",
                    (*values, now + CLAIM_LEASE_S),
                )
        except Exception as exc:
            raise _db_error("start the turn", exc) from exc
        return None

    async def renew(self, project_id: str, session_id: str, holder: str) -> bool:
        """Keep the claim; True when a Stop was asked for it (through any replica)."""
        rows = await self._rows(
            "keep the turn",
            "UPDATE copilot_service_turns SET expires = %s"
            " WHERE project_id = %s AND session_id = %s AND holder = %s RETURNING stop",
            (time.time() + CLAIM_LEASE_S, project_id, session_id, holder),
        )
        return bool(rows and rows[0]["stop"])

    async def release(self, project_id: str, session_id: str, holder: str) -> None:
        await self._run(
            "end the turn",
            "DELETE FROM copilot_service_turns"
            " WHERE project_id = %s AND session_id = %s AND holder = %s",
            (project_id, session_id, holder),
        )

    async def request_stop(self, project_id: str, session_id: str) -> bool:
        """Ask whichever replica runs the session's turn to stop it; False when none runs."""
        changed = await self._run(
            "stop the turn",
            "UPDATE copilot_service_turns SET stop = TRUE"
            " WHERE project_id = %s AND session_id = %s AND expires > %s",
            (project_id, session_id, time.time()),
        )
        return changed > 0

    async def running(self, project_id: str, session_id: str) -> bool:
        """Whether a live claim holds the session."""
        rows = await self._rows(
            "read the turn",
            "SELECT holder, host, pid, expires FROM copilot_service_turns"
            " WHERE project_id = %s AND session_id = %s",
            (project_id, session_id),
        )
        if not rows:
            return False
        row = rows[0]
        values = (row["holder"], row["host"], row["pid"], row["expires"])
        return not lease_is_free(values, "", time.time())

    # --- internals ---------------------------------------------------------------------------

    async def _run(self, action: str, sql: str, params: tuple[Any, ...]) -> int:
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return int(cur.rowcount)
        except Exception as exc:
            raise _db_error(action, exc) from exc

    async def _rows(self, action: str, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(sql, params)
                return list(await cur.fetchall())
        except Exception as exc:
            raise _db_error(action, exc) from exc
