"""A conversation database replaced by an older copy (a restored backup) while the app was closed:
the reopened session offers no live Approve for the call decided since, no click in it runs the
call, and a change already undone offers no live Undo — the decision log outlives the copy."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtWidgets import QAbstractButton, QMessageBox
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.sessions.location import DB_NAME, DECISIONS_DB_NAME
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard
from gns3_copilot_desktop.ui.qt_async import pending_tasks
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login, run
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

WAIT_MS = 20_000
SIDECARS = ("-wal", "-shm")


def _copy_db(source: Path, target: Path) -> None:
    """Copy a closed SQLite database over another one, its -wal/-shm with it."""
    for suffix in SIDECARS:
        Path(f"{target}{suffix}").unlink(missing_ok=True)
        if Path(f"{source}{suffix}").exists():
            shutil.copy2(f"{source}{suffix}", f"{target}{suffix}")
    shutil.copy2(source, target)


def _live_approvals(app: CopilotApp) -> list[ApprovalCard]:
    return [c for c in app.panel.view.findChildren(ApprovalCard) if not c.done]


def _card(app: CopilotApp, call_id: str) -> ToolCard | None:
    found = [c for c in app.panel.view.findChildren(ToolCard) if c.tool_call_id == call_id]
    return found[-1] if found else None


def _reopen(copilot_app: Callable[..., CopilotApp], project_id: str, qtbot: QtBot) -> CopilotApp:
    """Start the app again and wait until the newest session is shown."""
    app = copilot_app()
    open_project(app, project_id, qtbot)
    qtbot.waitUntil(lambda: app.panel.session_id is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not pending_tasks(), timeout=WAIT_MS)
    return app


@pytest.mark.gns3
def test_a_rewound_conversation_offers_no_approve_and_no_undo_for_what_was_decided(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    pid = e2e_project["project_id"]
    headers = {"Authorization": f"Bearer {gns3_token}"}

    def node_names() -> list[str]:
        nodes = httpx.get(f"{gns3_server.base_url}/v3/projects/{pid}/nodes", headers=headers)
        return sorted(n["name"] for n in nodes.json())

    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, pid, qtbot)
    scripted_openai.push(
        ScriptedTurn.tool(
            "create_nodes", {"nodes": [{"template": "VPCS", "name": "PC-r"}]}, id="call_make"
        ),
        ScriptedTurn.text("PC-r is on the canvas.", chunks=2),
    )
    app.panel.send("Add PC-r")
    qtbot.waitUntil(lambda: len(_live_approvals(app)) == 1, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not app.panel.controller.running, timeout=WAIT_MS)
    session_id = app.panel.session_id
    run(qtbot, app.handle.aclose())
    [db] = list((tmp_path / "home").rglob(DB_NAME))
    waiting_copy = tmp_path / "waiting-copy.db"
    _copy_db(db, waiting_copy)  # the conversation while the change waited

    # the app again: the waiting call is live; approve it, then undo the change
    app = _reopen(copilot_app, pid, qtbot)
    assert app.panel.session_id == session_id
    qtbot.waitUntil(lambda: len(_live_approvals(app)) == 1, timeout=WAIT_MS)
    _live_approvals(app)[0].items[0].approve.click()
    qtbot.waitUntil(lambda: "PC-r is on the canvas." in app.assistant_texts(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not app.panel.controller.running, timeout=WAIT_MS)
    assert node_names() == ["PC-r"]
    card = _card(app, "call_make")
    assert card is not None and card.change_undo is not None
    undo = card.change_undo
    undo.button.click()
    qtbot.waitUntil(lambda: app.header.undo.confirm_box is not None, timeout=WAIT_MS)
    app.header.undo.confirm_box.done(QMessageBox.StandardButton.Ok.value)
    qtbot.waitUntil(lambda: undo.state.text().startswith("Undone"), timeout=WAIT_MS)
    assert node_names() == []
    run(qtbot, app.handle.aclose())

    # reopened as it is: the change already undone offers no live Undo
    app = _reopen(copilot_app, pid, qtbot)
    card = _card(app, "call_make")
    assert card is not None and card.change_undo is not None
    reopened_undo = card.change_undo
    qtbot.waitUntil(lambda: reopened_undo.state.text() == "Already undone.", timeout=WAIT_MS)
    assert not reopened_undo.button.isEnabled()
    run(qtbot, app.handle.aclose())

    # the older copy restored over the conversation database, the decision log kept
    assert (db.parent / DECISIONS_DB_NAME).exists()
    _copy_db(waiting_copy, db)
    requests_before = len(scripted_openai.chat_requests())
    app = _reopen(copilot_app, pid, qtbot)
    assert app.panel.session_id == session_id
    assert _live_approvals(app) == []
    card = _card(app, "call_make")
    assert card is not None
    assert card.summary == "Already decided"
    assert card.output.startswith("Already decided: approved. It will not run again")
    assert card.change_undo is None
    # click every button the conversation shows: none makes the call run
    for button in app.panel.view.findChildren(QAbstractButton):
        if button.isVisible() and button.isEnabled():
            button.click()
    qtbot.waitUntil(lambda: not pending_tasks(), timeout=WAIT_MS)
    assert _live_approvals(app) == []
    assert not app.panel.controller.running
    assert node_names() == []
    assert len(scripted_openai.chat_requests()) == requests_before
