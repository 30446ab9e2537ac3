"""Databases are marked by the installation that made them; others are foreign and left alone."""

from __future__ import annotations

import os
import secrets
import sqlite3
import stat
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.sessions.ownership import (
    OWNER_TABLE,
    Ownership,
    own_path_beside,
    ownership,
)
from gns3_copilot_desktop.core.sessions.store import SessionStore

pytestmark = pytest.mark.asyncio

KEY = secrets.token_bytes(32)


def _exists(path: str) -> bool:
    return os.path.exists(path)


async def _make(path: Path, key: bytes | None, title: str = "s") -> None:
    store = await SessionStore.open(path, owner_key=key)
    await store.create_session(title)
    await store.close()


async def test_a_new_database_is_marked_private_and_reopened_as_ours(tmp_path: Path) -> None:
    db = tmp_path / "project" / ".gns3-copilot" / "copilot_checkpoints.db"
    await _make(db, KEY)
    assert ownership(db, KEY) is Ownership.OURS
    assert ownership(db, secrets.token_bytes(32)) is Ownership.FOREIGN
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    for sidecar in db.parent.glob("*-wal"):
        assert stat.S_IMODE(sidecar.stat().st_mode) == 0o600
    store = await SessionStore.open(db, owner_key=KEY)
    try:
        assert store.db_path == db and store.notices == []
        assert [s.title for s in await store.list_sessions()] == ["s"]
    finally:
        await store.close()


@pytest.mark.parametrize("how", ["another key", "no mark", "forged mark"])
async def test_a_foreign_database_is_left_as_it_is_and_ours_is_made_beside(
    how: str, tmp_path: Path
) -> None:
    db = tmp_path / "copilot_checkpoints.db"
    await _make(db, secrets.token_bytes(32) if how == "another key" else None, "theirs")
    if how == "forged mark":
        conn = sqlite3.connect(db)
        conn.execute(f"CREATE TABLE {OWNER_TABLE} (id INTEGER PRIMARY KEY, db_id TEXT, mac TEXT)")
        conn.execute(f"INSERT INTO {OWNER_TABLE} VALUES (1, 'x', ?)", ("0" * 64,))
        conn.commit()
        conn.close()
    before = db.read_bytes()
    store = await SessionStore.open(db, owner_key=KEY)
    try:
        assert store.db_path == own_path_beside(db) and store.foreign_db == db
        assert [n.kind for n in store.notices] == ["foreign"]
        assert await store.list_sessions() == []
    finally:
        await store.close()
    assert db.read_bytes() == before
    assert not _exists(f"{db}-wal")  # opened read-only, never written


async def test_an_unmarked_database_in_the_private_data_folder_is_adopted(tmp_path: Path) -> None:
    """Databases made before they were marked, in the app's own 0700 folder, stay the user's."""
    db = tmp_path / "data" / "copilot_checkpoints.db"
    await _make(db, None, "mine from before")
    store = await SessionStore.open(db, owner_key=KEY, trust_unsigned=True)
    try:
        assert store.db_path == db and store.notices == []
        assert [s.title for s in await store.list_sessions()] == ["mine from before"]
    finally:
        await store.close()
    assert ownership(db, KEY) is Ownership.OURS
    # but a database marked by someone else is never adopted
    other = tmp_path / "data2" / "copilot_checkpoints.db"
    await _make(other, secrets.token_bytes(32))
    store = await SessionStore.open(other, owner_key=KEY, trust_unsigned=True)
    try:
        assert store.foreign_db == other
    finally:
        await store.close()
