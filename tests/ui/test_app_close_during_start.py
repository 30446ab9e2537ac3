"""Closing the app or logging out while a start-up step is still running ends quietly.

Each test holds one start-up step (login restore, project list, opening the project's sessions,
the model check) at a gate, closes the app or logs out while it waits, then lets the step go on.
Nothing may reach the excepthook (pytest-qt fails the test on any exception in the Qt loop) and no
error may be logged. The real GNS3 server answers everything else.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.workspace import Workspace
from gns3_copilot_desktop.ui.qt_async import pending_tasks
from tests.helpers.copilot_app import CopilotApp, run
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.ui.test_app_e2e import WAIT_MS, _seed_login

pytestmark = pytest.mark.gns3


class Gate:
    """Holds the first call of a coroutine function until `release`."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.released = asyncio.Event()
        self.calls = 0

    def wrap(self, func: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(func)
        async def gated(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls == 1:
                self.entered.set()
                await self.released.wait()
            return await func(*args, **kwargs)

        return gated


STEPS: dict[str, tuple[Any, str, bool]] = {
    # step: (owner, attribute, is a classmethod)
    "login restore": (Workspace, "restore_login", False),
    "project list": (Workspace, "list_projects", False),
    "sessions load": (AgentService, "open", True),
    "model check": (Workspace, "model_problem", False),
}


def _gate_step(monkeypatch: pytest.MonkeyPatch, step: str) -> Gate:
    owner, name, is_classmethod = STEPS[step]
    gate = Gate()
    original = getattr(owner, name)
    if is_classmethod:
        monkeypatch.setattr(owner, name, classmethod(gate.wrap(original.__func__)))
    else:
        monkeypatch.setattr(owner, name, gate.wrap(original))
    return gate


def _start_and_hold(
    step: str,
    monkeypatch: pytest.MonkeyPatch,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> tuple[CopilotApp, Gate]:
    _seed_login(tmp_path / "home", app_keyring, gns3_server, gns3_token)
    gate = _gate_step(monkeypatch, step)
    app = copilot_app()
    qtbot.waitUntil(gate.entered.is_set, timeout=WAIT_MS)
    return app, gate


def _settle(qtbot: QtBot, gate: Gate) -> None:
    gate.released.set()
    qtbot.waitUntil(lambda: not pending_tasks(), timeout=WAIT_MS)


@pytest.mark.parametrize("step", list(STEPS))
def test_closing_during_a_start_up_step_ends_quietly(
    step: str,
    e2e_project: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app, gate = _start_and_hold(
        step, monkeypatch, copilot_app, app_keyring, gns3_server, gns3_token, tmp_path, qtbot
    )
    closing = asyncio.ensure_future(app.handle.aclose())
    _settle(qtbot, gate)
    qtbot.waitUntil(closing.done, timeout=WAIT_MS)
    closing.result()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.parametrize("step", ["project list", "sessions load", "model check"])
def test_logging_out_during_a_start_up_step_ends_quietly(
    step: str,
    e2e_project: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app, gate = _start_and_hold(
        step, monkeypatch, copilot_app, app_keyring, gns3_server, gns3_token, tmp_path, qtbot
    )
    shown_errors: list[str | None] = []
    show = app.header.show_message

    def record(text: str | None, *, error: bool = False) -> None:
        if error:
            shown_errors.append(text)
        show(text, error=error)

    monkeypatch.setattr(app.header, "show_message", record)
    qtbot.waitUntil(lambda: app.header.workspace.logged_in, timeout=WAIT_MS)
    run(qtbot, app.header.login.logout())
    _settle(qtbot, gate)
    assert not app.header.workspace.logged_in
    # the app asks for a login again, and shows no error from the abandoned step
    qtbot.waitUntil(lambda: app.panel.composer.disabled_reason is not None, timeout=WAIT_MS)
    assert "Log in" in (app.panel.composer.disabled_reason or "")
    assert shown_errors == []
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
