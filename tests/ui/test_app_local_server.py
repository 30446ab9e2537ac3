"""The login dialog of the app offers to start a local GNS3 server when nothing answers, and the
button starts the real ``gns3server`` (found on PATH), which the app stops when it closes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from pytestqt.qtbot import QtBot

from tests.helpers.copilot_app import CopilotApp, run
from tests.helpers.gns3_server import Gns3Server, free_port
from tests.helpers.local_server import local_server_env

pytestmark = pytest.mark.gns3

WAIT_MS = 60_000


def test_refused_login_offers_a_local_server_that_starts_and_stops_with_the_app(
    copilot_app: Callable[..., CopilotApp],
    gns3_server: Gns3Server,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    local_server_env(monkeypatch, tmp_path)
    url = f"http://127.0.0.1:{free_port()}"
    app = copilot_app(server_url=url)
    qtbot.waitUntil(lambda: app.header.login.dialog is not None, timeout=WAIT_MS)
    dialog = app.header.login.dialog
    assert dialog.url_edit.text() == url
    assert not dialog.start_server_button.isVisible()

    # nothing answers: the error is shown and the button offered
    dialog.user_edit.setText(gns3_server.username)
    qtbot.keyClicks(dialog.password_edit, gns3_server.password)
    dialog.login_button.click()
    qtbot.waitUntil(dialog.start_server_button.isVisible, timeout=WAIT_MS)
    assert not app.header.workspace.logged_in
    assert app.header.login.local_server is None

    # the button starts gns3server on that port; then the login goes through
    dialog.start_server_button.click()
    qtbot.waitUntil(lambda: "running" in dialog.status_label.text(), timeout=WAIT_MS)
    server = app.header.login.local_server
    assert server is not None and server.running
    assert server.url == url
    assert httpx.get(f"{url}/v3/version", timeout=5.0).json()["local"] is True
    assert not dialog.start_server_button.isVisible()
    assert dialog.password_edit.text() == gns3_server.password  # kept while the dialog is open
    dialog.login_button.click()
    qtbot.waitUntil(lambda: app.header.workspace.logged_in, timeout=WAIT_MS)
    assert app.header.workspace.server_url == url

    # closing the app stops the server it started
    run(qtbot, app.handle.aclose(), timeout_ms=WAIT_MS)
    assert not server.running
    assert app.header.login.local_server is None
    with pytest.raises(ProcessLookupError):
        os.kill(server.pid, 0)
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/v3/version", timeout=2.0)
