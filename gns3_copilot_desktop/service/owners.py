"""Which GNS3 user a session belongs to, on the service.

Sessions live in the project's checkpoint DB like the dock's; the service adds who created each
one, in a table of its own, so another user asking for it gets 404, as if it did not exist.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import aiosqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS session_owners (
    project_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    PRIMARY KEY (project_id, session_id)
)
"""


def _prepare(path: Path) -> None:
    """The folder private to the user, the file readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.touch(mode=0o600, exist_ok=True)
    os.chmod(path, 0o600)


class SessionOwners:
    """(project, session) -> user id, in ``owners.db`` of the service's data folder."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    @classmethod
    async def open(cls, data_dir: Path) -> SessionOwners:
        path = data_dir / "owners.db"
        await asyncio.to_thread(_prepare, path)
        conn = await aiosqlite.connect(path)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute(_SCHEMA)
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
