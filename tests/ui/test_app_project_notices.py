"""The user is told about a conversation database found in the project folder (where older versions
kept it): one that came from another computer (with an imported project), one that could not be
moved to the app's data folder. Real GNS3 server, real app."""

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
from tests.helpers.copilot_app import CopilotApp, run
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
        (lambda db: db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000), "could not be moved"),
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


def test_a_database_that_cannot_be_moved_is_left_and_the_user_is_told_where(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    db = _project_db(gns3_server, gns3_token, e2e_project["project_id"])
    garbage = b"not a database at all\n" * 500
    db.write_bytes(garbage)
    _seed_login(tmp_path / "home", app_keyring, gns3_server, gns3_token)
    app = copilot_app()
    _ready(app, qtbot, e2e_project["project_id"])
    label = app.header.message_label
    qtbot.waitUntil(lambda: "could not be moved" in label.text(), timeout=WAIT_MS)
    assert str(db) in label.text() and "left there unchanged" in label.text()
    assert label.isVisible()
    assert db.read_bytes() == garbage  # the original, exactly as it was
    # The project's conversations are in the app's data folder, and they work.
    service = run(qtbot, app.header.workspace.service(e2e_project["project_id"]))
    assert service.store.db_path.is_relative_to(app.header.workspace.paths.data_dir)
    run(qtbot, service.create_session("After the failed move"))
    assert [s.title for s in run(qtbot, service.list_sessions())] == ["After the failed move"]

    # A later "all clear" under the header (a login, the server back) does not wipe the notice.
    app.header.login.auth_failed()
    dialog = app.header.login.dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible(), timeout=WAIT_MS)
    qtbot.keyClicks(dialog.password_edit, gns3_server.password)
    dialog.login_button.click()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: app.panel.composer.disabled_reason is None, timeout=WAIT_MS)
    assert label.isVisible() and str(db) in label.text()
