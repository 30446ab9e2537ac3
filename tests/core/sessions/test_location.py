"""resolve_db_path: always in the app's data folder, owner-only, keyed by server and project."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.practice.store import ExerciseRecord, ExerciseStore, now
from gns3_copilot_desktop.core.sessions import SessionStore, resolve_db_path
from gns3_copilot_desktop.core.sessions.decisions import SqliteDecisionLog
from gns3_copilot_desktop.core.sessions.location import (
    DB_NAME,
    DECISIONS_DB_NAME,
    PRACTICE_DB_NAME,
    is_local_server,
    server_key,
)

PID = "5f2c9a53-6b4e-4a56-a0a4-3c0c5d1c1e0b"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://localhost:3080", True),
        ("http://127.0.0.1:3080", True),
        ("http://127.0.1.1:3080", True),
        ("https://[::1]:3443/", True),
        ("http://LOCALHOST", True),
        ("http://192.168.1.10:3080", False),
        ("http://gns3.example.org", False),
        ("http://localhost.example.org:3080", False),
        ("not a url", False),
    ],
)
def test_is_local_server(url: str, local: bool) -> None:
    assert is_local_server(url) is local


@pytest.mark.parametrize("url", ["http://127.0.0.1:3080", "http://192.168.1.10:3080"])
def test_the_database_is_in_the_data_dir_for_every_server(tmp_path: Path, url: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = resolve_db_path(url, PID, data)
    assert path == data / "projects" / server_key(url) / PID / DB_NAME
    # every folder made on the way is owner-only
    assert _mode(path.parent) == 0o700 and _mode(path.parent.parent) == 0o700
    assert _mode(data / "projects") == 0o700


def test_server_keys_are_safe_and_distinct() -> None:
    keys = {
        server_key(url)
        for url in (
            "http://10.0.0.1:3080",
            "http://10.0.0.1:3081",
            "https://10.0.0.1:3080",
            "http://[fe80::1]:3080",
            "http://a/../../etc:3080",
        )
    }
    assert len(keys) == 5
    assert all("/" not in k and "\\" not in k and ".." not in k for k in keys)
    assert server_key("http://Host:3080/") == server_key("http://host:3080")


def test_hostile_project_id_stays_inside_the_data_dir(tmp_path: Path) -> None:
    path = resolve_db_path("http://10.0.0.1", "../../evil", tmp_path / "data")
    assert path.resolve().is_relative_to((tmp_path / "data").resolve())


@pytest.mark.asyncio
async def test_conversations_exercises_and_decisions_are_owner_only_files(tmp_path: Path) -> None:
    """The three databases of a project, with their -wal/-shm while open: folder 0700, files
    0600, none of them in a project folder."""
    path = resolve_db_path("http://127.0.0.1:3080", PID, tmp_path / "data")
    store = await SessionStore.open(path, owner_key=b"k" * 32, trust_unsigned=True)
    try:
        await store.create_session("first")
        exercises = ExerciseStore(path.parent / PRACTICE_DB_NAME, os.urandom(32))
        await exercises.save(
            ExerciseRecord(
                exercise_id="e1",
                project_id=PID,
                session_id="s",
                difficulty="easy",
                fault_count=1,
                created_at=now(),
            )
        )
        log = SqliteDecisionLog(path.parent / DECISIONS_DB_NAME)
        await log.record("s", [("call-1", "approve", None)])
        files = sorted(p.name for p in path.parent.iterdir())
        assert {DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm"} <= set(files)
        assert {PRACTICE_DB_NAME, DECISIONS_DB_NAME} <= set(files)
        assert _mode(path.parent) == 0o700
        assert {p.name: _mode(p) for p in path.parent.iterdir()} == dict.fromkeys(files, 0o600)
    finally:
        await store.close()
