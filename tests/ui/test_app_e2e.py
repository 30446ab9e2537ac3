"""End to end: the whole app (real widgets, workspace, AgentService) against the real GNS3 server
and the scripted OpenAI-compatible model, driven the way a user drives it.

The keyring is in memory (`app_keyring`); settings and session databases live under tmp_path.
Set GNS3_COPILOT_SCREENSHOTS=<dir> to save screenshots of the states these tests reach.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.settings import normalize_server_url
from gns3_copilot_desktop.ui.cards.tool_card import ToolState
from gns3_copilot_desktop.ui.chat.messages import ErrorBanner
from tests.helpers.copilot_app import CopilotApp, run
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000


def _jwt_service(server: Gns3Server) -> str:
    return f"gns3-copilot:gns3-jwt:{normalize_server_url(server.base_url)}"


def _log_in_with_dialog(app: CopilotApp, qtbot: QtBot, server: Gns3Server, remember: bool) -> None:
    qtbot.waitUntil(lambda: app.header.login.dialog is not None, timeout=WAIT_MS)
    dialog = app.header.login.dialog
    qtbot.waitUntil(dialog.isVisible, timeout=WAIT_MS)
    dialog.user_edit.setText(server.username)
    qtbot.keyClicks(dialog.password_edit, server.password)
    dialog.remember_box.setChecked(remember)
    app.shot("app-login-dialog", dialog)
    dialog.login_button.click()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: app.header.workspace.logged_in, timeout=WAIT_MS)


def _seed_login(home: Path, keyring_: MemoryKeyring, server: Gns3Server, token: str) -> None:
    """A remembered login, as a previous run leaves it (settings + JWT in the keyring)."""
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    url = normalize_server_url(server.base_url)
    profile = {"id": "lab", "name": "Lab model", "provider": "openai", "model": "gpt-4o-mini"}
    settings = {
        "servers": [{"url": url, "username": server.username}],
        "current_server": url,
        "llm_profiles": [profile],
        "active_llm_profile": "lab",
    }
    (config / "settings.json").write_text(json.dumps(settings))
    keyring_.items[(_jwt_service(server), server.username)] = token


def _ready(app: CopilotApp, qtbot: QtBot, project_id: str) -> None:
    """Logged in, the project chosen, the composer enabled."""
    qtbot.waitUntil(lambda: app.header.workspace.logged_in, timeout=WAIT_MS)
    if app.header.backend.project_id != project_id:
        combo = app.header.project_combo
        qtbot.waitUntil(lambda: combo.findData(project_id) >= 0, timeout=WAIT_MS)
        combo.setCurrentIndex(combo.findData(project_id))
        combo.activated.emit(combo.currentIndex())
    qtbot.waitUntil(lambda: app.header.backend.project_id == project_id, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: app.panel.composer.disabled_reason is None, timeout=WAIT_MS)


def _send(app: CopilotApp, qtbot: QtBot, text: str) -> None:
    """Type and press Enter; returns once the new answer's stream has started."""
    before = app.panel.controller.task
    edit = app.panel.composer.edit
    edit.setFocus()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: app.panel.controller.task is not before, timeout=WAIT_MS)


def _wait_finished(app: CopilotApp, qtbot: QtBot) -> None:
    qtbot.waitUntil(
        lambda: app.panel.controller.task is not None and app.panel.controller.task.done(),
        timeout=WAIT_MS,
    )


@pytest.fixture
def logged_in(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> CopilotApp:
    """The app restored from a remembered login, on the test's project.

    The project is set up first, so the app is closed before the project is deleted.
    """
    _seed_login(tmp_path / "home", app_keyring, gns3_server, gns3_token)
    app = copilot_app()
    _ready(app, qtbot, e2e_project["project_id"])
    return app


# --- login ------------------------------------------------------------------------------------


def test_login_remember_restore_and_logout(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    app = copilot_app()
    qtbot.waitUntil(lambda: app.panel.composer.disabled_reason is not None, timeout=WAIT_MS)
    assert "Log in" in app.panel.composer.disabled_reason
    assert app.panel.composer.fix == "login"  # the reason links to the login
    # the empty chat's first-run checklist: the login is the step to do
    qtbot.waitUntil(lambda: app.panel.view.checklist[0] is False, timeout=WAIT_MS)
    assert 'href="login"' in app.panel.view.empty_label.text()
    _log_in_with_dialog(app, qtbot, gns3_server, remember=True)

    # remember me: the JWT is in the keyring, the password nowhere
    saved = app_keyring.items.get((_jwt_service(gns3_server), gns3_server.username))
    assert saved is not None and saved.count(".") == 2
    assert gns3_server.password not in set(app_keyring.items.values()) - {saved}
    settings_text = (tmp_path / "home" / "config" / "settings.json").read_text()
    assert saved not in settings_text
    assert '"username": "admin"' in settings_text
    _ready(app, qtbot, e2e_project["project_id"])
    assert "admin" in app.header.account_label.text()
    qtbot.waitUntil(lambda: app.panel.view.checklist == (True, True, True), timeout=WAIT_MS)
    run(qtbot, app.handle.aclose())

    # restart: restored from the keyring, no dialog
    again = copilot_app()
    qtbot.waitUntil(lambda: again.header.workspace.logged_in, timeout=WAIT_MS)
    assert again.header.login.dialog is None
    _ready(again, qtbot, e2e_project["project_id"])

    # log out: the JWT leaves the keyring and the composer says why it is disabled
    again.header.logout_button.click()
    qtbot.waitUntil(lambda: not again.header.workspace.logged_in, timeout=WAIT_MS)
    assert (_jwt_service(gns3_server), gns3_server.username) not in app_keyring.items
    # (on the way the composer may say "open a project" first: wait for the logged-out state)
    qtbot.waitUntil(
        lambda: "Log in" in (again.panel.composer.disabled_reason or ""), timeout=WAIT_MS
    )
    qtbot.waitUntil(again.header.login_button.isVisible, timeout=WAIT_MS)
    assert again.panel.composer.fix == "login"


def test_wrong_password_keeps_the_dialog_open(
    copilot_app: Callable[..., CopilotApp], gns3_server: Gns3Server, qtbot: QtBot
) -> None:
    app = copilot_app()
    qtbot.waitUntil(lambda: app.header.login.dialog is not None, timeout=WAIT_MS)
    dialog = app.header.login.dialog
    dialog.user_edit.setText(gns3_server.username)
    qtbot.keyClicks(dialog.password_edit, "not-the-password")
    dialog.login_button.click()
    qtbot.waitUntil(lambda: "unsuccessful" in dialog.status_label.text().lower(), timeout=WAIT_MS)
    assert dialog.isVisible()
    assert not app.header.workspace.logged_in


# --- projects ---------------------------------------------------------------------------------


def test_project_selector_follows_the_open_project_and_can_be_pinned(
    logged_in: CopilotApp,
    gns3_server: Gns3Server,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
) -> None:
    app = logged_in
    header = app.header
    first = e2e_project["project_id"]
    assert header.project_combo.findData(first) >= 0
    qtbot.waitUntil(lambda: header.watch.notifications_seen > 0, timeout=WAIT_MS)  # stream is up
    headers = {"Authorization": f"Bearer {gns3_token}"}
    base = f"{gns3_server.base_url}/v3/projects"
    created = httpx.post(base, json={"name": "e2e-second", "auto_close": False}, headers=headers)
    second = created.json()["project_id"]
    try:
        header.follow_button.setChecked(True)
        # a newly opened project becomes current (from the controller's notifications)
        qtbot.waitUntil(lambda: header.backend.project_id == second, timeout=WAIT_MS)
        assert header.project_combo.currentData() == second
        # closing it goes back to the other open project
        httpx.post(f"{base}/{second}/close", headers=headers).raise_for_status()
        qtbot.waitUntil(lambda: header.backend.project_id == first, timeout=WAIT_MS)
        # pinned by hand: opening another project in GNS3 does not take over
        combo = header.project_combo
        combo.setCurrentIndex(combo.findData(first))
        combo.activated.emit(combo.currentIndex())
        assert not header.follow_button.isChecked()
        httpx.post(f"{base}/{second}/open", headers=headers).raise_for_status()
        qtbot.waitUntil(
            lambda: "closed" not in combo.itemText(combo.findData(second)), timeout=WAIT_MS
        )
        assert header.backend.project_id == first
        # following again picks the most recently opened one
        header.follow_button.setChecked(True)
        qtbot.waitUntil(lambda: header.backend.project_id == second, timeout=WAIT_MS)
    finally:
        httpx.delete(f"{base}/{second}", headers=headers)


# --- chat -------------------------------------------------------------------------------------


def test_send_streams_and_a_read_tool_card_goes_running_then_done(
    logged_in: CopilotApp, scripted_openai: ScriptedOpenAIServer, qtbot: QtBot
) -> None:
    app = logged_in
    scripted_openai.push(
        ScriptedTurn.tool("get_topology", {}, id="call_topo"),
        ScriptedTurn.text("The project is empty: no nodes and no links yet.", chunks=6),
    )
    states: list[ToolState] = []
    view = app.panel.view
    app.panel.controller.tool_started.connect(
        lambda chunk: states.append(view.card(chunk.tool_call_id).state)
    )
    _send(app, qtbot, "What is in my lab?")
    qtbot.waitUntil(lambda: view.card("call_topo") is not None, timeout=WAIT_MS)
    _wait_finished(app, qtbot)
    assert states[-1] == ToolState.RUNNING  # queued (tool_call), then running (tool_start)
    card = view.card("call_topo")
    assert card.state == ToolState.DONE
    assert "Nodes" in card.output or "node" in card.output.lower()
    assert app.assistant_texts()[-1].endswith("no nodes and no links yet.")
    assert app.user_texts() == ["What is in my lab?"]
    # the model saw the tool's answer, so the turn is consistent (the title is asked last)
    last = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    assert any(m.get("role") == "tool" for m in last.messages)
    qtbot.waitUntil(lambda: app.panel.title_label.text() == "E2E conversation", timeout=WAIT_MS)
    assert app.panel.composer.model_combo.currentText() == "Lab model"
    app.shot("app-conversation")

    app.header.settings_button.click()
    dialog = app.header.models.settings_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible(), timeout=WAIT_MS)
    assert dialog.models.profile_list.count() == 1
    app.shot("app-settings", dialog)
    dialog.reject()


def test_stop_mid_stream_leaves_the_session_usable(
    logged_in: CopilotApp, scripted_openai: ScriptedOpenAIServer, qtbot: QtBot
) -> None:
    app = logged_in
    scripted_openai.push(ScriptedTurn.stalled("Let me think about", chunks=2))
    _send(app, qtbot, "Plan an OSPF lab")
    qtbot.waitUntil(lambda: scripted_openai.stalled_count == 1, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "Let me" in "".join(app.assistant_texts()), timeout=WAIT_MS)
    stop = app.panel.composer.stop_button
    assert stop.isVisible()
    stop.click()
    _wait_finished(app, qtbot)
    qtbot.waitUntil(lambda: scripted_openai.disconnects >= 1, timeout=WAIT_MS)
    assert not app.panel.composer.running

    scripted_openai.push(ScriptedTurn.text("Here is the plan.", chunks=3))
    _send(app, qtbot, "Go on")
    _wait_finished(app, qtbot)
    assert app.assistant_texts()[-1] == "Here is the plan."
    assert app.user_texts() == ["Plan an OSPF lab", "Go on"]
    assert app.panel.view.findChildren(ErrorBanner) == []


def test_retry_after_a_provider_error_keeps_the_message_and_partial_answer(
    logged_in: CopilotApp, scripted_openai: ScriptedOpenAIServer, qtbot: QtBot
) -> None:
    app = logged_in
    scripted_openai.push(ScriptedTurn.rate_limited(retry_after_s=1))
    _send(app, qtbot, "Start all nodes")
    qtbot.waitUntil(lambda: len(app.panel.view.findChildren(ErrorBanner)) == 1, timeout=WAIT_MS)
    banner = app.panel.view.findChildren(ErrorBanner)[0]
    assert "rate limit" in banner.message.lower()
    assert app.user_texts() == ["Start all nodes"]
    app.shot("app-error")

    scripted_openai.push(ScriptedTurn.cut_off("Starting the nodes", chunks=2))
    _wait_finished(app, qtbot)
    banner.retry_button.click()
    qtbot.waitUntil(lambda: len(app.panel.view.findChildren(ErrorBanner)) == 2, timeout=WAIT_MS)
    _wait_finished(app, qtbot)
    assert "Starting the nodes" in "".join(app.assistant_texts())  # the partial answer stays

    scripted_openai.push(ScriptedTurn.text("All nodes are started.", chunks=2))
    app.panel.view.findChildren(ErrorBanner)[-1].retry_button.click()
    qtbot.waitUntil(
        lambda: "All nodes are started." in "".join(app.assistant_texts()), timeout=WAIT_MS
    )
    _wait_finished(app, qtbot)
    assert app.user_texts() == ["Start all nodes"]
    assert "Starting the nodes" in "".join(app.assistant_texts())
    assert scripted_openai.chat_requests()[-1].last_user_text == "Start all nodes"


# --- sessions ---------------------------------------------------------------------------------


def test_search_and_delete_sessions(
    logged_in: CopilotApp, scripted_openai: ScriptedOpenAIServer, qtbot: QtBot, monkeypatch: Any
) -> None:
    app = logged_in
    sessions = app.panel.sessions
    scripted_openai.push(ScriptedTurn.text("Use OSPF area 0 for the backbone.", chunks=2))
    _send(app, qtbot, "Which OSPF area for the backbone?")
    _wait_finished(app, qtbot)
    sessions.new_button.click()
    qtbot.waitUntil(lambda: len(sessions.entries) == 2, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: app.panel.session_id == sessions.entries[0].session_id, timeout=WAIT_MS)
    scripted_openai.push(ScriptedTurn.text("VLAN 10 is for users.", chunks=2))
    _send(app, qtbot, "What is VLAN 10 for?")
    _wait_finished(app, qtbot)
    qtbot.waitUntil(lambda: len(sessions.entries) == 2, timeout=WAIT_MS)

    # search finds the message text, not only titles
    sessions.search_edit.setText("backbone")
    qtbot.waitUntil(
        lambda: len(sessions.entries) == 1 and sessions.entries[0].snippet is not None,
        timeout=WAIT_MS,
    )
    assert "backbone" in (sessions.entries[0].snippet or "").lower()
    ospf_session = sessions.entries[0].session_id
    sessions.search_edit.clear()
    qtbot.waitUntil(lambda: len(sessions.entries) == 2, timeout=WAIT_MS)

    # delete (confirmed) the OSPF session: gone from the list and from the store
    from PyQt6.QtWidgets import QMessageBox

    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes)
    )
    row = next(i for i, e in enumerate(sessions.entries) if e.session_id == ospf_session)
    sessions.list.setCurrentRow(row)
    sessions.delete_button.click()
    qtbot.waitUntil(lambda: len(sessions.entries) == 1, timeout=WAIT_MS)
    service = run(qtbot, app.header.workspace.service(app.header.backend.project_id))
    remaining = run(qtbot, service.list_sessions())
    assert [s.id for s in remaining] == [sessions.entries[0].session_id]
    assert run(qtbot, service.search_sessions("backbone")) == []


# --- expired login ----------------------------------------------------------------------------


def test_relogin_after_an_expired_token_keeps_text_and_conversation(
    logged_in: CopilotApp,
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    app_keyring: MemoryKeyring,
    qtbot: QtBot,
) -> None:
    app = logged_in
    header = app.header
    scripted_openai.push(ScriptedTurn.text("R1 and R2 are linked.", chunks=2))
    _send(app, qtbot, "How are R1 and R2 connected?")
    _wait_finished(app, qtbot)

    # the token expires while the user types: the login opens, nothing is lost
    qtbot.keyClicks(app.panel.composer.edit, "and R3?")
    expired = gns3_server.craft_token(gns3_server.username, expires_in_s=-60)
    header.workspace.client.token = expired
    qtbot.waitUntil(
        lambda: header.login.dialog is not None and header.login.dialog.isVisible(),
        timeout=WAIT_MS,
    )
    assert "expired" in header.login.dialog.reason_label.text()
    assert app.panel.composer.text == "and R3?"
    assert app.assistant_texts() == ["R1 and R2 are linked."]
    qtbot.keyClicks(header.login.dialog.password_edit, gns3_server.password)
    header.login.dialog.login_button.click()
    qtbot.waitUntil(lambda: app.panel.composer.disabled_reason is None, timeout=WAIT_MS)
    assert app.panel.composer.text == "and R3?"
    new_token = app_keyring.items[(_jwt_service(gns3_server), gns3_server.username)]
    assert new_token != expired

    # a message sent with an expired token is sent again after the login
    header.login.token_timer.stop()
    header.workspace.client.token = expired
    scripted_openai.push(ScriptedTurn.text("R3 is not linked yet.", chunks=2))
    qtbot.keyClick(app.panel.composer.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: header.login.dialog is not None and header.login.dialog.isVisible(),
        timeout=WAIT_MS,
    )
    qtbot.keyClicks(header.login.dialog.password_edit, gns3_server.password)
    header.login.dialog.login_button.click()
    qtbot.waitUntil(
        lambda: "R3 is not linked yet." in "".join(app.assistant_texts()), timeout=WAIT_MS
    )
    _wait_finished(app, qtbot)
    assert app.user_texts() == ["How are R1 and R2 connected?", "and R3?"]
    assert app.assistant_texts()[0] == "R1 and R2 are linked."


# --- approvals --------------------------------------------------------------------------------


def _node_names(server: Gns3Server, token: str, project_id: str) -> list[str]:
    response = httpx.get(
        f"{server.base_url}/v3/projects/{project_id}/nodes",
        headers={"Authorization": f"Bearer {token}"},
    )
    response.raise_for_status()
    return sorted(node["name"] for node in response.json())


def _approval_card(app: CopilotApp, qtbot: QtBot) -> Any:
    from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard

    def pending() -> list[ApprovalCard]:
        return [c for c in app.panel.view.findChildren(ApprovalCard) if not c.done]

    qtbot.waitUntil(lambda: len(pending()) == 1, timeout=WAIT_MS)
    return pending()[0]


def test_approve_a_change_and_see_the_node_on_the_server(
    logged_in: CopilotApp,
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    app = logged_in
    pid = e2e_project["project_id"]
    arguments = {"nodes": [{"template": "VPCS", "name": "PC-approved"}]}
    scripted_openai.push(
        ScriptedTurn.tool("create_nodes", arguments, id="call_create"),
        ScriptedTurn.text("PC-approved is on the canvas.", chunks=2),
    )
    _send(app, qtbot, "Add a VPCS named PC-approved")
    card = _approval_card(app, qtbot)
    assert _node_names(gns3_server, gns3_token, pid) == []  # nothing changes before approval
    item = card.items[0]
    assert item.request.tool_name == "create_nodes"
    app.shot("app-approval")
    item.always.setChecked(True)  # "always allow in this project": persisted per server+project
    _wait_finished(app, qtbot)  # the paused turn's stream has ended (ChatPanel drops earlier ones)
    item.approve.click()
    qtbot.waitUntil(
        lambda: "PC-approved is on the canvas." in "".join(app.assistant_texts()), timeout=WAIT_MS
    )
    _wait_finished(app, qtbot)
    assert _node_names(gns3_server, gns3_token, pid) == ["PC-approved"]
    assert app.panel.view.card("call_create").state == ToolState.DONE
    settings = json.loads((tmp_path / "home" / "config" / "settings.json").read_text())
    grants = settings["always_allow"]
    assert grants == {f"{normalize_server_url(gns3_server.base_url)}|{pid}": ["create_nodes"]}

    # the grant reaches the next turn: the same tool runs without asking
    scripted_openai.push(
        ScriptedTurn.tool("create_nodes", {"nodes": [{"template": "VPCS", "name": "PC-2"}]}),
        ScriptedTurn.text("PC-2 added without asking.", chunks=2),
    )
    _send(app, qtbot, "And one more, PC-2")
    qtbot.waitUntil(
        lambda: "PC-2 added without asking." in "".join(app.assistant_texts()), timeout=WAIT_MS
    )
    _wait_finished(app, qtbot)
    assert _node_names(gns3_server, gns3_token, pid) == ["PC-2", "PC-approved"]


def test_reject_a_change_and_nothing_changes(
    logged_in: CopilotApp,
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
) -> None:
    app = logged_in
    pid = e2e_project["project_id"]
    arguments = {"nodes": [{"template": "VPCS", "name": "PC-rejected"}]}
    scripted_openai.push(
        ScriptedTurn.tool("create_nodes", arguments, id="call_reject"),
        ScriptedTurn.text("Understood, I did not create it.", chunks=2),
    )
    _send(app, qtbot, "Add a VPCS named PC-rejected")
    card = _approval_card(app, qtbot)
    item = card.items[0]
    item.reject.click()
    qtbot.keyClicks(item.reason, "not now")
    _wait_finished(app, qtbot)
    item.confirm_reject_button.click()
    qtbot.waitUntil(
        lambda: "Understood, I did not create it." in "".join(app.assistant_texts()),
        timeout=WAIT_MS,
    )
    _wait_finished(app, qtbot)
    assert _node_names(gns3_server, gns3_token, pid) == []
    assert app.panel.view.card("call_reject").state == ToolState.REJECTED
    tool_message = next(
        m for m in scripted_openai.chat_requests()[-1].messages if m.get("role") == "tool"
    )
    assert "not now" in tool_message["content"]


# --- approval cards that outlive their moment ---------------------------------------


def test_a_pending_approval_comes_back_live_after_a_restart(
    logged_in: CopilotApp,
    copilot_app: Callable[..., CopilotApp],
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
) -> None:
    app = logged_in
    pid = e2e_project["project_id"]
    arguments = {"nodes": [{"template": "VPCS", "name": "PC-later"}]}
    scripted_openai.push(
        ScriptedTurn.tool("create_nodes", arguments, id="call_later"),
        ScriptedTurn.text("PC-later is there now.", chunks=2),
    )
    _send(app, qtbot, "Add PC-later")
    _approval_card(app, qtbot)
    _wait_finished(app, qtbot)
    run(qtbot, app.handle.aclose())  # the user quits without deciding

    again = copilot_app()
    _ready(again, qtbot, pid)
    card = _approval_card(again, qtbot)  # the reopened session shows the card, live
    assert [i.request.tool_call_id for i in card.items] == ["call_later"]
    assert again.panel.view.card("call_later").state == ToolState.AWAITING_APPROVAL
    assert _node_names(gns3_server, gns3_token, pid) == []
    card.items[0].approve.click()
    qtbot.waitUntil(
        lambda: "PC-later is there now." in "".join(again.assistant_texts()), timeout=WAIT_MS
    )
    _wait_finished(again, qtbot)
    assert _node_names(gns3_server, gns3_token, pid) == ["PC-later"]


def test_a_new_message_instead_of_a_decision_locks_the_card(
    logged_in: CopilotApp,
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
) -> None:
    app = logged_in
    pid = e2e_project["project_id"]
    scripted_openai.push(
        ScriptedTurn.tool("create_nodes", {"nodes": [{"template": "VPCS", "name": "PC-no"}]}),
        ScriptedTurn.text("Fine, nothing was created.", chunks=2),
    )
    _send(app, qtbot, "Add PC-no")
    card = _approval_card(app, qtbot)
    _wait_finished(app, qtbot)
    call_id = card.items[0].request.tool_call_id

    _send(app, qtbot, "Actually, do not")
    assert card.locked and "Not run: you sent a new message" in card.result_label.text()
    assert not any(b.isVisible() for b in card.findChildren(type(card.items[0].approve)))
    qtbot.waitUntil(
        lambda: "Fine, nothing was created." in "".join(app.assistant_texts()), timeout=WAIT_MS
    )
    _wait_finished(app, qtbot)
    tool = app.panel.view.card(call_id)
    assert tool.state == ToolState.CANCELLED and "new message" in tool.output
    assert _node_names(gns3_server, gns3_token, pid) == []
    # deciding the locked card is impossible, and the core would refuse it anyway
    card.items[0].approve.click()
    assert _node_names(gns3_server, gns3_token, pid) == []


# --- every error with its fix --------------------------------------------------------


def test_a_refused_api_key_opens_the_model_settings_from_the_banner(
    logged_in: CopilotApp,
    scripted_openai: ScriptedOpenAIServer,
    qtbot: QtBot,
) -> None:
    app = logged_in
    scripted_openai.push(ScriptedTurn.invalid_api_key())
    _send(app, qtbot, "hello")
    qtbot.waitUntil(lambda: bool(app.panel.view.findChildren(ErrorBanner)), timeout=WAIT_MS)
    [banner] = app.panel.view.findChildren(ErrorBanner)
    assert banner.action == "settings" and not banner.retry_button.isVisible()
    assert banner.action_button is not None
    banner.action_button.click()
    qtbot.waitUntil(lambda: app.header.models.settings_dialog is not None, timeout=10_000)
    assert app.header.models.settings_dialog.isVisible()
    app.header.models.settings_dialog.reject()


# --- in Chinese, in a 360 px window -------------------------------------------------------------


def test_in_chinese_at_360_px_a_change_is_read_approved_and_made(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    """The narrowest dock a user keeps beside the canvas, in the app's second language: the card
    is in Chinese, fits the width (no sideways scrolling, every button inside the view), and its
    Approve makes the change on the real server."""
    from PyQt6.QtWidgets import QApplication, QPushButton

    from gns3_copilot_desktop.app import install_translator, remove_translator

    qapp = QApplication.instance()
    assert isinstance(qapp, QApplication)
    translator = install_translator(qapp, "zh_CN")
    assert translator is not None
    try:
        _seed_login(tmp_path / "home", app_keyring, gns3_server, gns3_token)
        app = copilot_app()
        app.window.resize(360, 720)
        pid = e2e_project["project_id"]
        _ready(app, qtbot, pid)
        scripted_openai.push(
            ScriptedTurn.tool("create_nodes", {"nodes": [{"template": "VPCS", "name": "PC1"}]}),
            ScriptedTurn.text("PC1 已添加到画布。", chunks=2),
        )
        # QTest types ASCII keys only: the Chinese words are put in as an input method commits them
        before = app.panel.controller.task
        edit = app.panel.composer.edit
        edit.setFocus()
        edit.insertPlainText("添加一台名为 PC1 的 VPCS")
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: app.panel.controller.task is not before, timeout=WAIT_MS)
        card = _approval_card(app, qtbot)
        item = card.items[0]
        assert "批准" in item.approve.text()
        view = app.panel.view
        qtbot.waitUntil(lambda: view.width() <= 360, timeout=WAIT_MS)
        viewport = view.viewport()
        qtbot.waitUntil(lambda: item.approve.isVisible(), timeout=WAIT_MS)
        for button in card.findChildren(QPushButton):
            if button.isVisible():
                right = button.mapTo(viewport, button.rect().topRight()).x()
                assert 0 <= right <= viewport.width(), (button.text(), right, viewport.width())
        assert view.horizontalScrollBar().maximum() == 0
        app.shot("app-zh-CN-approval-360")
        assert _node_names(gns3_server, gns3_token, pid) == []
        _wait_finished(app, qtbot)
        item.approve.click()
        answer = "PC1 已添加到画布。"
        qtbot.waitUntil(lambda: answer in "".join(app.assistant_texts()), timeout=WAIT_MS)
        _wait_finished(app, qtbot)
        assert _node_names(gns3_server, gns3_token, pid) == ["PC1"]
        app.shot("app-zh-CN-done-360")
    finally:
        remove_translator(qapp, translator)
