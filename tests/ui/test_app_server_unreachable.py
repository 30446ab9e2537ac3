"""The GNS3 server stops answering: the dock's header says so, and clears by itself once the server
is back. Real app, real GNS3 server behind a loopback proxy that can refuse connections."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.gns3 import Backoff
from gns3_copilot_desktop.core.workspace import following as workspace_following
from gns3_copilot_desktop.ui.header import server_watch
from gns3_copilot_desktop.ui.header.server_watch import reconnected_text, unreachable_text
from tests.helpers.copilot_app import CopilotApp, run
from tests.helpers.gns3_server import DroppingProxy, Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.ui.test_app_e2e import _ready, _seed_login

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000
DEFAULT_LIMIT = Backoff().max_failures


@pytest.fixture
def proxy(gns3_server: Gns3Server, qtbot: QtBot, qasync_loop: Any) -> Iterator[DroppingProxy]:
    """A proxy in front of the server, on the app's loop; the app logs in through it."""
    port = urlsplit(gns3_server.base_url).port
    assert port is not None
    proxy = DroppingProxy(port)
    run(qtbot, proxy.come_back())
    try:
        yield proxy
    finally:
        run(qtbot, proxy.go_down())


def test_the_header_shows_an_unreachable_server_and_recovers_by_itself(
    proxy: DroppingProxy,
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The product's retry policy, only faster, so the test can outlast a default stream's limit.
    fast = dataclasses.replace(workspace_following.WATCH_BACKOFF, initial=0.02, maximum=0.05)
    monkeypatch.setattr(workspace_following, "WATCH_BACKOFF", fast)
    monkeypatch.setattr(server_watch, "RECONNECTED_NOTICE_MS", 500)  # the 'reconnected' moment
    behind_proxy = dataclasses.replace(gns3_server, base_url=proxy.base_url)
    _seed_login(tmp_path / "home", app_keyring, behind_proxy, gns3_token)
    app = copilot_app(server_url=proxy.base_url)
    _ready(app, qtbot, e2e_project["project_id"])
    header, label = app.header, app.header.message_label
    qtbot.waitUntil(lambda: proxy.accepted > 0 and header.watch.task is not None, timeout=WAIT_MS)
    assert label.text() != unreachable_text()

    run(qtbot, proxy.go_down())  # the server stops answering
    qtbot.waitUntil(lambda: label.text() == unreachable_text(), timeout=WAIT_MS)
    assert label.isVisible()
    assert label.toolTip()  # why, for whoever wants to know
    # Down for more attempts than a stream with the default limit makes: still retrying.
    beyond = f"retry {DEFAULT_LIMIT + 2}"
    qtbot.waitUntil(lambda: beyond in caplog.text, timeout=WAIT_MS)
    assert not header.watch.task.done()
    assert label.text() == unreachable_text()

    run(qtbot, proxy.come_back())
    # Back: the header says so for a moment (the projects were read again), then clears.
    qtbot.waitUntil(lambda: label.text() != unreachable_text(), timeout=WAIT_MS)
    assert label.text() == reconnected_text() and not label.toolTip()
    qtbot.waitUntil(lambda: not label.isVisible(), timeout=WAIT_MS)

    # The server's events reach the app again: a project created now appears in the list.
    name = f"back-{secrets.token_hex(3)}"
    headers = {"Authorization": f"Bearer {gns3_token}"}
    created = httpx.post(
        f"{gns3_server.base_url}/v3/projects", json={"name": name}, headers=headers
    )
    created.raise_for_status()
    project_id = created.json()["project_id"]
    try:
        combo = header.project_combo
        qtbot.waitUntil(lambda: combo.findData(project_id) >= 0, timeout=WAIT_MS)
    finally:
        httpx.delete(f"{gns3_server.base_url}/v3/projects/{project_id}", headers=headers)
