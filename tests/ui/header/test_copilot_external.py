"""The Copilot header with an external login (the GNS3 GUI's), over a fake `ExternalAuth`.

The GNS3 servers are `httpx.MockTransport`s (one per URL); the GUI's side is a `FakeGuiAuth`
whose token and URL the tests change the way the GNS3 GUI does: it logs in after the Copilot
started, its token expires, it is pointed at another server.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.app import AppOptions, CopilotHandle, create_copilot
from gns3_copilot_desktop.core.errors import Gns3AuthError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Notification
from gns3_copilot_desktop.core.workspace import login as workspace_login
from tests.helpers.copilot_app import run
from tests.helpers.keyring_backends import MemoryKeyring

SERVER_A = "http://127.0.0.1:3080"
SERVER_B = "http://127.0.0.1:3090"
PROJECTS = {SERVER_A: [("a-1", "Lab on A")], SERVER_B: [("b-1", "Lab on B"), ("b-2", "Other")]}
FAST_CHECK_MS = 50


def jwt(seconds_left: int) -> str:
    """An unsigned JWT whose ``exp`` is `seconds_left` from now (negative: expired)."""

    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    return f"{part({'alg': 'none'})}.{part({'exp': int(time.time()) + seconds_left})}.sig"


class FakeGuiAuth:
    """`ExternalAuth` as the GNS3 GUI's controller connection would answer it."""

    def __init__(self) -> None:
        self.url = SERVER_A
        self.jwt: str | None = None

    def base_url(self) -> str:
        return self.url

    def token(self) -> str | None:
        return self.jwt

    def username(self) -> str | None:
        return "admin"


class FakeServers:
    """What each fake GNS3 server was asked, and which clients were closed."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str]] = []
        self.closed: list[str] = []
        self.valid_tokens: set[str] = set()


class FakeClient(Gns3Client):
    """A `Gns3Client` whose server is a `MockTransport` and whose notifications never come."""

    servers: FakeServers

    def __init__(self, base_url: str, **kwargs: Any) -> None:
        kwargs.pop("ca_cert", None)
        super().__init__(base_url, transport=httpx.MockTransport(self._answer), **kwargs)

    def _answer(self, request: httpx.Request) -> httpx.Response:
        self.servers.requests.append((self.base_url, request.url.path))
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if token not in self.servers.valid_tokens:
            return httpx.Response(401, json={"message": "Authentication was unsuccessful."})
        if request.url.path == "/v3/projects":
            body = [{"project_id": p, "name": n} for p, n in PROJECTS[self.base_url]]
            return httpx.Response(200, json=body)
        return httpx.Response(404, json={"message": "not found"})

    def controller_notifications(self, **_: Any) -> AsyncIterator[Notification]:
        return self._quiet()

    async def _quiet(self) -> AsyncIterator[Notification]:
        if self.token not in self.servers.valid_tokens:
            raise Gns3AuthError("The token was refused.", server=self.base_url, status_code=401)
        await asyncio.Event().wait()
        yield  # pragma: no cover - never reached

    async def aclose(self) -> None:
        self.servers.closed.append(self.base_url)
        await super().aclose()


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> FakeServers:
    fake = FakeServers()
    monkeypatch.setattr(FakeClient, "servers", fake, raising=False)
    monkeypatch.setattr(workspace_login, "Gns3Client", FakeClient)
    return fake


@pytest.fixture
def gui_copilot(
    qtbot: QtBot,
    qasync_loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    app_keyring: MemoryKeyring,
    servers: FakeServers,
) -> Iterator[tuple[CopilotHandle, FakeGuiAuth]]:
    """The Copilot in a window, started before the fake GUI has logged in."""
    auth = FakeGuiAuth()
    window = QMainWindow()
    qtbot.addWidget(window)
    window.show()
    handle = run(qtbot, create_copilot(window, AppOptions(home=tmp_path), external_auth=auth))
    handle.header.login.token_timer.setInterval(FAST_CHECK_MS)
    yield handle, auth
    run(qtbot, handle.aclose())


def _account(handle: CopilotHandle) -> str:
    return str(handle.header.account_label.text())


def _projects(handle: CopilotHandle) -> list[str]:
    combo = handle.header.project_combo
    return [combo.itemData(i) for i in range(combo.count())]


@pytest.mark.allow_error_logs
def test_the_header_recovers_when_the_gui_logs_in_and_drops_when_its_token_expires(
    qtbot: QtBot, gui_copilot: tuple[CopilotHandle, FakeGuiAuth], servers: FakeServers
) -> None:
    handle, auth = gui_copilot
    header = handle.header
    qtbot.waitUntil(lambda: header.message_label.isVisible(), timeout=5_000)
    assert "Not logged in" in _account(handle)
    assert "expired" in header.message_label.text()
    assert handle.dock.panel.composer.reason_label.isVisible()

    token = jwt(3600)
    servers.valid_tokens.add(token)
    auth.jwt = token  # the GUI logged in after the Copilot started
    qtbot.waitUntil(lambda: _projects(handle) == ["a-1"], timeout=5_000)
    assert _account(handle) == f"admin @ {SERVER_A}"
    assert not header.message_label.isVisible()
    assert header.workspace.logged_in

    auth.jwt = jwt(-10)  # the GUI's token expired (it has not re-authenticated yet)
    qtbot.waitUntil(lambda: "Not logged in" in _account(handle), timeout=5_000)
    assert not header.workspace.logged_in
    qtbot.waitUntil(lambda: handle.dock.panel.composer.reason_label.isVisible(), timeout=5_000)

    auth.jwt = token  # re-authenticated
    qtbot.waitUntil(lambda: "Not logged in" not in _account(handle), timeout=5_000)
    auth.jwt = None  # disconnected
    qtbot.waitUntil(lambda: "Not logged in" in _account(handle), timeout=5_000)


def test_the_copilot_follows_the_gui_to_another_server(
    qtbot: QtBot, gui_copilot: tuple[CopilotHandle, FakeGuiAuth], servers: FakeServers
) -> None:
    handle, auth = gui_copilot
    token = jwt(3600)
    servers.valid_tokens.add(token)
    auth.jwt = token
    qtbot.waitUntil(lambda: _projects(handle) == ["a-1"], timeout=5_000)
    workspace = handle.workspace
    old_watcher = handle.header.watch.task
    assert old_watcher is not None and not old_watcher.done()

    auth.url = SERVER_B  # the user pointed the GNS3 GUI at another server
    qtbot.waitUntil(lambda: _projects(handle) == ["b-1", "b-2"], timeout=5_000)
    client = workspace.client
    assert client is not None and client.base_url == SERVER_B
    assert SERVER_A in servers.closed  # the old server's client was closed
    assert old_watcher.done()  # its notifications too
    assert (SERVER_B, "/v3/projects") in servers.requests
    assert _account(handle) == f"admin @ {SERVER_B}"
    qtbot.waitUntil(lambda: handle.header.watch.task is not old_watcher, timeout=5_000)
    assert workspace.follower.pinned  # the GUI still says which project is current
