"""Pytest plugin: the whole Copilot app (real widgets, workspace and agent) for end-to-end tests.

`CopilotApp` builds the app with `app.create_copilot` in a `QMainWindow`, with its settings and
data under ``tmp_path``, the process keyring swapped for an in-memory one (`app_keyring`), the real
GNS3 server of the session and the scripted OpenAI-compatible model server. Tests drive it the way
a user does (clicks, typing) and wait on conditions; `run` awaits a coroutine on the qasync loop.

Fixtures: ``app_keyring``, ``copilot_app`` (a factory: call it again for a "restart"),
``e2e_project`` (a project created over plain HTTP, deleted after the test).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx
import keyring
import pytest
from PyQt6 import sip
from PyQt6.QtGui import QPixmap
from PyQt6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.app import AppOptions, CopilotHandle, create_copilot
from gns3_copilot_desktop.core.logs import clear_registered_secrets
from gns3_copilot_desktop.core.settings import normalize_server_url
from gns3_copilot_desktop.ui.chat.messages import AssistantMessage, UserBubble
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import ScriptedOpenAIServer

T = TypeVar("T")
SCREENSHOTS_ENV = "GNS3_COPILOT_SCREENSHOTS"


def run(qtbot: QtBot, coro: Coroutine[Any, Any, T], timeout_ms: int = 15_000) -> T:
    """Await `coro` on the qasync loop by spinning Qt until it is done."""
    task = asyncio.ensure_future(coro)
    qtbot.waitUntil(task.done, timeout=timeout_ms)
    return task.result()


class Login(Protocol):
    """A GNS3 server's address and the user the test logs in as."""

    @property
    def base_url(self) -> str: ...

    @property
    def username(self) -> str: ...


@dataclass
class CopilotApp:
    """One running instance of the app."""

    window: QMainWindow
    handle: CopilotHandle

    @property
    def header(self) -> Any:
        """The dock's header (login, project, settings)."""
        return self.handle.header

    @property
    def panel(self) -> Any:
        """The chat panel."""
        return self.handle.dock.panel

    def assistant_texts(self) -> list[str]:
        """The text of every assistant turn the view shows (buffered text painted first)."""
        self.panel.view.flush()
        return [
            w.text for w in self.panel.view.message_widgets() if isinstance(w, AssistantMessage)
        ]

    def user_texts(self) -> list[str]:
        """The user's messages the view shows."""
        return [w.text for w in self.panel.view.message_widgets() if isinstance(w, UserBubble)]

    def shot(self, name: str, widget: Any = None) -> None:
        """Save a screenshot (of a widget, the window, or a picture already drawn) into
        $GNS3_COPILOT_SCREENSHOTS (only when it is set)."""
        folder = os.environ.get(SCREENSHOTS_ENV)
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            picture = widget if isinstance(widget, QPixmap) else (widget or self.window).grab()
            picture.save(str(Path(folder) / f"{name}.png"))


@pytest.fixture
def app_keyring() -> Iterator[MemoryKeyring]:
    """The process keyring replaced by an in-memory one for the app under test."""
    previous = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    try:
        yield memory
    finally:
        keyring.set_keyring(previous)
        clear_registered_secrets()


@pytest.fixture
def copilot_app(
    qtbot: QtBot,
    qasync_loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    app_keyring: MemoryKeyring,
    request: pytest.FixtureRequest,
    scripted_openai: ScriptedOpenAIServer,
) -> Iterator[Callable[..., CopilotApp]]:
    """Start the app (again, for a restart); every instance is closed at the end.

    The app talks to the session's GNS3 server unless ``server_url`` is given (the VPCS lab's
    server, for one); that server is only started when it is the one used."""
    started: list[CopilotApp] = []
    scripted_openai.set_title_responder("E2E conversation")

    def start(**overrides: Any) -> CopilotApp:
        if "server_url" not in overrides:
            overrides["server_url"] = request.getfixturevalue("gns3_server").base_url
        options = AppOptions(
            server_url=overrides.pop("server_url"),
            model_base_url=scripted_openai.base_url,
            model_name="gpt-4o-mini",
            home=tmp_path / "home",
        )
        for key, value in overrides.items():
            setattr(options, key, value)
        # Not qtbot.addWidget: pytest-qt would delete the window before this fixture closes the
        # app, and the app must shut down (services, client) with its widgets still alive.
        window = QMainWindow()
        window.resize(1000, 720)
        window.show()
        handle = run(qtbot, create_copilot(window, options))
        # The SDK's own retries would hide the provider errors the tests provoke.
        if handle.workspace.explicit_llm is not None:
            handle.workspace.explicit_llm["max_retries"] = 0
        app = CopilotApp(window, handle)
        started.append(app)
        return app

    yield start
    for app in started:
        run(qtbot, app.handle.aclose())
        if not sip.isdeleted(app.window):
            app.window.close()
            app.window.deleteLater()


@pytest.fixture
def e2e_project(gns3_server: Gns3Server, gns3_token: str) -> Iterator[dict[str, Any]]:
    """An opened project (auto_close off) created over plain HTTP; deleted after the test."""
    headers = {"Authorization": f"Bearer {gns3_token}"}
    url = f"{gns3_server.base_url}/v3/projects"
    response = httpx.post(
        url, json={"name": f"e2e-{secrets.token_hex(4)}", "auto_close": False}, headers=headers
    )
    response.raise_for_status()
    project: dict[str, Any] = response.json()
    try:
        yield project
    finally:
        httpx.delete(f"{url}/{project['project_id']}", headers=headers)


def remember_login(
    tmp_path: Path,
    gns3_server: Login,
    token: str,
    keyring: MemoryKeyring,
    extra: dict[str, Any] | None = None,
) -> None:
    """Settings with a remembered login to the test server (and ``extra`` settings)."""
    url = normalize_server_url(gns3_server.base_url)
    config = tmp_path / "home" / "config"
    config.mkdir(parents=True)
    settings = {"servers": [{"url": url, "username": gns3_server.username}], "current_server": url}
    (config / "settings.json").write_text(json.dumps({**settings, **(extra or {})}))
    keyring.items[(f"gns3-copilot:gns3-jwt:{url}", gns3_server.username)] = token


def open_project(app: CopilotApp, project_id: str, qtbot: QtBot) -> None:
    """Choose the project in the header, as the user does, and wait until it is the current one."""
    header = app.header
    qtbot.waitUntil(lambda: header.project_combo.findData(project_id) >= 0, timeout=OPEN_WAIT_MS)
    header.project_combo.setCurrentIndex(header.project_combo.findData(project_id))
    header.project_combo.activated.emit(header.project_combo.currentIndex())
    qtbot.waitUntil(lambda: header.backend.project_id == project_id, timeout=OPEN_WAIT_MS)


OPEN_WAIT_MS = 15_000
