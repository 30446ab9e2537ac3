"""The service's own state: who owns each session, "Always allow" grants, and turn claims.

Sessions live in the project's checkpoint DB like the dock's; the service adds who created each
one (another user asking for it gets 404, as if it did not exist), the tools each user allowed
without asking in each project, and which service process runs a turn in a session.

Two homes, one interface (`ServiceState`): with ``--database sqlite`` a file ``owners.db`` in the
service's data folder (one process; its claims are kept in memory); with a PostgreSQL URL, tables
of that database (`core.sessions.pg_service`), so any number of service processes on it serve
any request.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

import aiosqlite

from gns3_copilot_desktop.core.platform import detect_platform

_SCHEMA = """
CREATE TABLE IF NOT EXISTS session_owners (
    project_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    PRIMARY KEY (project_id, session_id)
);
CREATE TABLE IF NOT EXISTS grants (
    user_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    tool_name TEXT NOT NULL,
    PRIMARY KEY (user_id, project_id, tool_name)
)
"""


class ServiceState(Protocol):
    """What the routes need of the service's state (see the module docstring)."""

    async def close(self) -> None: ...
    async def add(self, project_id: str, session_id: str, user_id: str) -> None: ...
    async def owns(self, project_id: str, session_id: str, user_id: str) -> bool: ...
    async def sessions_of(self, project_id: str, user_id: str) -> set[str]: ...
    async def remove(self, project_id: str, session_id: str) -> None: ...
    async def grants(self, user_id: str, project_id: str) -> frozenset[str]: ...
    async def grant(self, user_id: str, project_id: str, tools: Iterable[str]) -> None: ...
    async def revoke(self, user_id: str, project_id: str, tool: str) -> bool: ...
    async def claim(self, project_id: str, session_id: str, holder: str) -> str | None: ...
    async def renew(self, project_id: str, session_id: str, holder: str) -> bool: ...
    async def release(self, project_id: str, session_id: str, holder: str) -> None: ...
    async def request_stop(self, project_id: str, session_id: str) -> bool: ...
    async def running(self, project_id: str, session_id: str) -> bool: ...


def _prepare(path: Path) -> None:
    """The folder private to the user, the file readable by its owner only."""
    detect_platform().private_file(path)


class SessionOwners:
    """`ServiceState` in ``owners.db`` of the service's data folder (one service process)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._claims: dict[tuple[str, str], tuple[str, bool]] = {}

    @classmethod
    async def open(cls, data_dir: Path) -> SessionOwners:
        path = data_dir / "owners.db"
        await asyncio.to_thread(_prepare, path)
        conn = await aiosqlite.connect(path)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.executescript(_SCHEMA)
        await conn.commit()
        return cls(conn)

    async def close(self) -> None:
        await self._conn.close()

    async def add(self, project_id: str, session_id: str, user_id: str) -> None:
        await self._conn.execute(
            "INSERT OR REPLACE INTO session_owners VALUES (?, ?, ?)",
            (project_id, session_id, user_id),
        )
        await self._conn.commit()

    async def owns(self, project_id: str, session_id: str, user_id: str) -> bool:
        async with self._conn.execute(
            "SELECT 1 FROM session_owners WHERE project_id=? AND session_id=? AND user_id=?",
            (project_id, session_id, user_id),
        ) as cursor:
            return await cursor.fetchone() is not None

    async def sessions_of(self, project_id: str, user_id: str) -> set[str]:
        async with self._conn.execute(
            "SELECT session_id FROM session_owners WHERE project_id=? AND user_id=?",
            (project_id, user_id),
        ) as cursor:
            return {row[0] for row in await cursor.fetchall()}

    async def remove(self, project_id: str, session_id: str) -> None:
        await self._conn.execute(
            "DELETE FROM session_owners WHERE project_id=? AND session_id=?",
            (project_id, session_id),
        )
        await self._conn.commit()

    async def grants(self, user_id: str, project_id: str) -> frozenset[str]:
        async with self._conn.execute(
            "SELECT tool_name FROM grants WHERE user_id=? AND project_id=?",
            (user_id, project_id),
        ) as cursor:
            return frozenset(row[0] for row in await cursor.fetchall())

    async def grant(self, user_id: str, project_id: str, tools: Iterable[str]) -> None:
        await self._conn.executemany(
            "INSERT OR IGNORE INTO grants VALUES (?, ?, ?)",
            [(user_id, project_id, tool) for tool in sorted(set(tools))],
        )
        await self._conn.commit()

    async def revoke(self, user_id: str, project_id: str, tool: str) -> bool:
        cursor = await self._conn.execute(
            "DELETE FROM grants WHERE user_id=? AND project_id=? AND tool_name=?",
            (user_id, project_id, tool),
        )
        await self._conn.commit()
        return cursor.rowcount > 0

    # one process: its turn claims are its own, in memory

    async def claim(self, project_id: str, session_id: str, holder: str) -> str | None:
        current = self._claims.get((project_id, session_id))
        if current is not None and current[0] != holder:
            return f"{socket.gethostname()} (process {os.getpid()})"
        self._claims[(project_id, session_id)] = (holder, False)
        return None

    async def renew(self, project_id: str, session_id: str, holder: str) -> bool:
        current = self._claims.get((project_id, session_id))
        return current is not None and current[0] == holder and current[1]

    async def release(self, project_id: str, session_id: str, holder: str) -> None:
        current = self._claims.get((project_id, session_id))
        if current is not None and current[0] == holder:
            del self._claims[(project_id, session_id)]

    async def request_stop(self, project_id: str, session_id: str) -> bool:
        current = self._claims.get((project_id, session_id))
        if current is None:
            return False
        self._claims[(project_id, session_id)] = (current[0], True)
        return True

    async def running(self, project_id: str, session_id: str) -> bool:
        return (project_id, session_id) in self._claims
