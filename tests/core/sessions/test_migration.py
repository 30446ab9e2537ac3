"""Databases an older version kept in the project folder move to the app's data folder on first
open: copied, verified, then removed; a failure leaves the original as it was and says so."""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import stat
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.practice.store import ExerciseRecord, ExerciseStore, now
from gns3_copilot_desktop.core.sessions import SessionStore
from gns3_copilot_desktop.core.sessions.location import DB_NAME, PRACTICE_DB_NAME, PROJECT_SUBDIR
from gns3_copilot_desktop.core.sessions.migration import migrate_project_databases
from gns3_copilot_desktop.core.sessions.models import TranscriptMessage

KEY = b"o" * 32
pytestmark = pytest.mark.asyncio

STORE_KEY = os.urandom(32)  # the installation key that seals the practice store


async def _legacy(project: Path, *, key: bytes = KEY, keep_open: bool = False) -> SessionStore:
    """A project folder with our conversations (two sessions) and an exercise, as older
    versions left it."""
    folder = project / PROJECT_SUBDIR
    folder.mkdir(parents=True)
    store = await SessionStore.open(folder / DB_NAME, owner_key=key)
    for title in ("first", "second"):
        info = await store.create_session(title)
        await store.append_messages(info.id, [TranscriptMessage(role="user", content=title)])
    await ExerciseStore(folder / PRACTICE_DB_NAME, STORE_KEY).save(
        ExerciseRecord(
            exercise_id="e1",
            project_id="p",
            session_id="s",
            difficulty="easy",
            fault_count=1,
            created_at=now(),
        )
    )
    if not keep_open:
        await store.close()
    return store


async def _titles(db: Path) -> list[str]:
    async with await SessionStore.open(db, owner_key=KEY, trust_unsigned=True) as store:
        return sorted(s.title or "" for s in await store.list_sessions())


async def test_databases_are_copied_verified_and_removed(tmp_path: Path) -> None:
    project, target = tmp_path / "project", tmp_path / "data" / "p1"
    store = await _legacy(project, keep_open=True)  # the -wal holds recent rows
    legacy = project / PROJECT_SUBDIR
    assert (legacy / f"{DB_NAME}-wal").exists()
    try:
        notices = await asyncio.to_thread(migrate_project_databases, legacy, target, KEY)
    finally:
        await store.close()
    assert notices == []
    assert not legacy.exists()  # nothing left in the project folder
    assert await _titles(target / DB_NAME) == ["first", "second"]
    assert [
        r.exercise_id
        for r in await ExerciseStore(target / PRACTICE_DB_NAME, STORE_KEY).list_for_project("p")
    ] == ["e1"]
    for path in (target / DB_NAME, target / PRACTICE_DB_NAME):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.stat().st_mode) == 0o700
    assert not list(target.glob(".*moving*"))


@pytest.mark.parametrize("damage", ["garbage", "truncated", "scribbled"])
async def test_a_failing_migration_leaves_the_original_and_says_so(
    tmp_path: Path, damage: str
) -> None:
    project, target = tmp_path / "project", tmp_path / "data" / "p1"
    await _legacy(project)
    db = project / PROJECT_SUBDIR / DB_NAME
    if damage == "garbage":
        db.write_bytes(b"not a database at all\n" * 500)
    elif damage == "truncated":
        db.write_bytes(db.read_bytes()[: 4096 * 3])
    else:  # pages of the b-trees overwritten: the header is fine, the content is not
        data = bytearray(db.read_bytes())
        data[4096:] = bytes([0x5A]) * (len(data) - 4096)
        db.write_bytes(bytes(data))
    before = db.read_bytes()
    notices = await asyncio.to_thread(migrate_project_databases, db.parent, target, KEY)
    assert [(n.kind, n.path) for n in notices] == [("migration_failed", db)]
    assert notices[0].reason
    assert db.read_bytes() == before
    assert (db.parent / PRACTICE_DB_NAME).exists()  # left with the conversations it belongs to
    assert not (target / DB_NAME).exists()  # nothing half-made
    assert not list(target.glob(".*moving*")) if target.exists() else True


async def test_a_database_in_both_places_keeps_the_data_folders_and_says_so(
    tmp_path: Path,
) -> None:
    project, target = tmp_path / "project", tmp_path / "data" / "p1"
    await _legacy(project)
    target.mkdir(parents=True)
    async with await SessionStore.open(target / DB_NAME, owner_key=KEY) as store:
        await store.create_session("already here")
    db = project / PROJECT_SUBDIR / DB_NAME
    before = db.read_bytes()
    notices = await asyncio.to_thread(migrate_project_databases, db.parent, target, KEY)
    assert [(n.kind, n.path) for n in notices[:1]] == [("kept_both", db)]
    assert db.read_bytes() == before
    assert await _titles(target / DB_NAME) == ["already here"]


async def test_a_foreign_database_in_the_project_is_left_and_not_moved(tmp_path: Path) -> None:
    project, target = tmp_path / "project", tmp_path / "data" / "p1"
    await _legacy(project, key=secrets.token_bytes(32))  # made on another computer
    db = project / PROJECT_SUBDIR / DB_NAME
    before = db.read_bytes()
    notices = await asyncio.to_thread(migrate_project_databases, db.parent, target, KEY)
    assert [(n.kind, n.path) for n in notices] == [("foreign_in_project", db)]
    assert db.read_bytes() == before
    assert not (target / DB_NAME).exists() and not (target / PRACTICE_DB_NAME).exists()


async def test_row_counts_are_compared(tmp_path: Path) -> None:
    """A copy with fewer rows than the original is refused (checked on the real comparison)."""
    from gns3_copilot_desktop.core.sessions import migration

    project, target = tmp_path / "project", tmp_path / "data" / "p1"
    await _legacy(project)
    real_copy = migration._copy

    def lossy_copy(source: Path, temporary: Path) -> None:
        real_copy(source, temporary)
        conn = sqlite3.connect(temporary)
        conn.execute(
            "DELETE FROM copilot_transcript"
            " WHERE rowid = (SELECT min(rowid) FROM copilot_transcript)"
        )
        conn.commit()
        conn.close()

    db = project / PROJECT_SUBDIR / DB_NAME
    migration._copy = lossy_copy  # type: ignore[assignment]
    try:
        notices = await asyncio.to_thread(migrate_project_databases, db.parent, target, KEY)
    finally:
        migration._copy = real_copy  # type: ignore[assignment]
    assert [n.kind for n in notices] == ["migration_failed"]
    assert "rows copied" in notices[0].reason
    assert db.exists() and not (target / DB_NAME).exists()
