"""A damaged database is moved aside (never overwritten) and a fresh one is created."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.sessions import SessionStore

from .support import turn_messages

pytestmark = pytest.mark.asyncio

GARBAGE = b"this is not a database at all " * 200


def _moved_files(folder: Path, name: str) -> list[Path]:
    moved = folder.glob(f"{name}.corrupt-*")
    return sorted(p for p in moved if not p.name.endswith(("-wal", "-shm")))


def _write_files(db: Path, main: bytes, wal: bytes, shm: bytes) -> None:
    db.write_bytes(main)
    Path(f"{db}-wal").write_bytes(wal)
    Path(f"{db}-shm").write_bytes(shm)


def _read_files(db: Path) -> tuple[bytes, bytes, bytes]:
    return db.read_bytes(), Path(f"{db}-wal").read_bytes(), Path(f"{db}-shm").read_bytes()


async def _assert_fresh_and_usable(store: SessionStore) -> None:
    assert await store.list_sessions() == []
    info = await store.create_session("new start")
    assert [s.id for s in await store.list_sessions()] == [info.id]


async def test_not_a_database_is_moved_aside_with_its_wal_and_shm(tmp_path: Path) -> None:
    db = tmp_path / "copilot_checkpoints.db"
    _write_files(db, GARBAGE, b"wal bytes", b"shm bytes")

    async with await SessionStore.open(db) as store:
        moved = store.recovered_from
        assert moved is not None and moved.parent == tmp_path
        assert moved.name.startswith("copilot_checkpoints.db.corrupt-")
        # kept as they were, for a later rescue
        assert _read_files(moved) == (GARBAGE, b"wal bytes", b"shm bytes")
        assert store.recovery_message is not None
        assert str(moved) in store.recovery_message
        await _assert_fresh_and_usable(store)


async def test_malformed_pages_fail_quick_check_and_are_moved_aside(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    async with await SessionStore.open(db) as store:
        info = await store.create_session("will be damaged")
        for turn in range(20):
            await store.append_messages(info.id, turn_messages(turn))
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 8 * page
    for start in range(2 * page, len(data) - page, 3 * page):  # leave the header page intact
        data[start : start + page] = b"\xa5" * page
    db.write_bytes(bytes(data))

    async with await SessionStore.open(db) as store:
        assert store.recovered_from is not None
        assert len(_moved_files(tmp_path, "p.db")) == 1
        await _assert_fresh_and_usable(store)


async def test_healthy_and_empty_files_are_kept(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    async with await SessionStore.open(empty) as store:
        assert store.recovered_from is None
        await store.create_session("x")
    async with await SessionStore.open(empty) as store:
        assert store.recovered_from is None
        assert len(await store.list_sessions()) == 1
    assert _moved_files(tmp_path, "empty.db") == []


async def test_a_database_of_another_app_is_adopted_not_replaced(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE notes (x TEXT)")
    raw.execute("INSERT INTO notes VALUES ('keep me')")
    raw.commit()
    raw.close()
    async with await SessionStore.open(db) as store:
        assert store.recovered_from is None
        rows = await store.checkpointer.conn.execute_fetchall("SELECT x FROM notes")
        assert list(rows) == [("keep me",)]
        auto_vacuum = await store.checkpointer.conn.execute_fetchall("PRAGMA auto_vacuum")
        assert list(auto_vacuum) == [(2,)]  # converted once with VACUUM
