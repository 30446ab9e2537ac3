"""A GNS3 login the real server refuses in the middle of a turn opens the login dialog; after the
login the message is sent again and answered. Real app, real GNS3 server, scripted model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.helpers.copilot_app import CopilotApp
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import (
    RecordedRequest,
    ScriptedOpenAIServer,
    ScriptedTurn,
    is_title_request,
)
from tests.ui.test_app_e2e import WAIT_MS, _ready, _seed_login

pytestmark = pytest.mark.gns3


def _altered(token: str) -> str:
    head, _, signature = token.rpartition(".")
    return f"{head}.{signature[:-4]}{'AAAA' if signature[-4:] != 'AAAA' else 'BBBB'}"


def test_a_token_refused_during_a_turn_opens_the_login_and_the_message_goes_again(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    _seed_login(tmp_path / "home", app_keyring, gns3_server, gns3_token)
    app = copilot_app()
    _ready(app, qtbot, e2e_project["project_id"])
    header = app.header
    header.login.token_timer.stop()  # only the turn may notice the refusal
    client = header.workspace.client
    refused: list[str] = []

    def revoke_then_read(request: RecordedRequest) -> ScriptedTurn:
        # The first model call: the topology was read with the good token; from now on the
        # server refuses it, as after a revoke. The model then asks for the topology.
        refused.append(_altered(client.token))
        client.token = refused[-1]
        return ScriptedTurn.tool("get_topology", {})

    def first_call(request: RecordedRequest) -> bool:
        return not refused and not is_title_request(request)

    scripted_openai.add_rule(first_call, revoke_then_read)
    scripted_openai.push(ScriptedTurn.text("Two PCs, one link.", chunks=2))

    edit = app.panel.composer.edit
    edit.setFocus()
    qtbot.keyClicks(edit, "What is in the lab?")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: header.login.dialog is not None and header.login.dialog.isVisible(),
        timeout=WAIT_MS,
    )
    assert client.token == refused[0]  # the dialog was opened by the turn, not by a timer
    assert "log in again" in header.login.dialog.reason_label.text().lower()

    qtbot.keyClicks(header.login.dialog.password_edit, gns3_server.password)
    header.login.dialog.login_button.click()
    qtbot.waitUntil(lambda: "Two PCs, one link." in app.assistant_texts(), timeout=WAIT_MS)
    task = app.panel.controller.task
    qtbot.waitUntil(lambda: task is not None and task.done(), timeout=WAIT_MS)
    assert header.workspace.client.token != refused[0]
