"""The user is told about a project's conversation database: one that came from another computer
(with an imported project), one that was damaged and replaced. Real GNS3 server, real app."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.sessions.store import SessionStore
from tests.helpers.copilot_app import CopilotApp
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.ui.test_app_e2e import WAIT_MS, _ready, _seed_login

pytestmark = pytest.mark.gns3


def _project_db(server: Gns3Server, token: str, project_id: str) -> Path:
    project = httpx.get(
        f"{server.base_url}/v3/projects/{project_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    folder = Path(project["path"]) / ".gns3-copilot"
    folder.mkdir(exist_ok=True)
    return folder / "copilot_checkpoints.db"


def _make_foreign(db: Path) -> None:
    async def make() -> None:
        store = await SessionStore.open(db, owner_key=secrets.token_bytes(32))
        await store.create_session("From a classmate")
        await store.close()

    # in a thread of its own: the test's Qt loop is already running
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, make()).result()


@pytest.mark.parametrize(
    ("plant", "expected"),
    [
        (_make_foreign, "another computer"),
        (lambda db: db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000), "could not be read"),
    ],
    ids=["foreign", "damaged"],
)
def test_the_header_tells_what_happened_to_the_projects_conversations(
    plant: Callable[[Path], object],
    expected: str,
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    db = _project_db(gns3_server, gns3_token, e2e_project["project_id"])
    plant(db)
    _seed_login(tmp_path / "home", app_keyring, gns3_server, gns3_token)
    app = copilot_app()
    _ready(app, qtbot, e2e_project["project_id"])
    label = app.header.message_label
    qtbot.waitUntil(lambda: expected in label.text(), timeout=WAIT_MS)
    assert label.isVisible()
    # the chat works: the sessions list is this computer's (empty), not the foreign one's
    assert [e.title for e in app.panel.sessions.entries] == []
