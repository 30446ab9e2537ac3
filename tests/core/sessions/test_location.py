"""resolve_db_path: beside the project when the server is local and the folder writable."""

from __future__ import annotations

from pathlib import Path

import pytest

from gns3_copilot_desktop.core.sessions import SessionStore, resolve_db_path
from gns3_copilot_desktop.core.sessions.location import (
    DB_NAME,
    PROJECT_SUBDIR,
    is_local_server,
    server_key,
)

PID = "5f2c9a53-6b4e-4a56-a0a4-3c0c5d1c1e0b"


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


def test_local_server_and_writable_project_folder(tmp_path: Path) -> None:
    project = tmp_path / "projects" / "lab1"
    project.mkdir(parents=True)
    path = resolve_db_path("http://127.0.0.1:3080", PID, str(project), tmp_path / "data")
    assert path == project / PROJECT_SUBDIR / DB_NAME
    assert path.parent.is_dir()
    assert list(path.parent.iterdir()) == []  # the write probe was removed
    assert not (tmp_path / "data").exists()


def test_remote_server_uses_the_data_dir(tmp_path: Path) -> None:
    project = tmp_path / "lab1"
    project.mkdir()
    data = tmp_path / "data"
    path = resolve_db_path("http://192.168.1.10:3080", PID, str(project), data)
    assert path == data / "projects" / server_key("http://192.168.1.10:3080") / PID / DB_NAME
    assert path.parent.is_dir()
    assert not (project / PROJECT_SUBDIR).exists()


@pytest.mark.parametrize("project_path", [None, "", "missing-folder", "a-file"])
def test_unusable_project_folder_falls_back(tmp_path: Path, project_path: str | None) -> None:
    (tmp_path / "a-file").write_text("x")
    folder = str(tmp_path / project_path) if project_path else project_path
    path = resolve_db_path("http://localhost:3080", PID, folder, tmp_path / "data")
    assert path.is_relative_to(tmp_path / "data")


def test_an_existing_database_wins(tmp_path: Path) -> None:
    project = tmp_path / "lab1"
    project.mkdir()
    data = tmp_path / "data"
    remote_first = resolve_db_path("http://localhost:3080", PID, None, data)
    remote_first.write_bytes(b"")  # sessions were created while the folder was unknown
    assert resolve_db_path("http://localhost:3080", PID, str(project), data) == remote_first


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
    path = resolve_db_path("http://10.0.0.1", "../../evil", None, tmp_path / "data")
    assert path.resolve().is_relative_to((tmp_path / "data").resolve())


@pytest.mark.asyncio
async def test_session_list_is_the_same_from_both_locations(tmp_path: Path) -> None:
    project = tmp_path / "lab1"
    project.mkdir()
    data = tmp_path / "data"
    beside = resolve_db_path("http://127.0.0.1:3080", PID, str(project), data)
    remote = resolve_db_path("http://10.1.1.1:3080", PID, str(project), data)
    assert beside != remote
    listings = []
    for path in (beside, remote):
        async with await SessionStore.open(path) as store:
            first = await store.create_session("first")
            await store.create_session("second")
            await store.set_pinned(first.id, True)
        async with await SessionStore.open(path) as store:
            listings.append([(s.title, s.pinned) for s in await store.list_sessions()])
    assert listings[0] == listings[1] == [("first", True), ("second", False)]
