"""Settings -> "Copilot runs on: this computer / a copilot service at URL", and the app following
that choice: the whole app (real widgets, workspace, login) sends its chat to the real copilot
service (in this process, on loopback) and back to its own agent when the user says so.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.settings import Settings
from gns3_copilot_desktop.ui.settings.dialog import SettingsActions, SettingsDialog
from tests.helpers.chat_service import InProcessChatService, scripted_llm
from tests.helpers.copilot_app import CopilotApp
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.ui.settings.test_dialogs import _unnamed_controls
from tests.ui.test_app_e2e import _ready, _seed_login, _send, _wait_finished

WAIT_MS = 20_000


def _actions() -> SettingsActions:
    async def test_connection(*_: Any) -> str:
        return ""

    async def list_models(_host: str | None) -> list[str]:
        return []

    async def load_key(_profile_id: str) -> str | None:
        return None

    return SettingsActions(test_connection, list_models, load_key)


def _tab_index(dialog: SettingsDialog) -> int:
    from PyQt6.QtWidgets import QTabWidget

    tabs = dialog.findChild(QTabWidget)
    assert tabs is not None
    names = [tabs.tabText(i) for i in range(tabs.count())]
    assert "Copilot service" in names
    return names.index("Copilot service")


def test_the_settings_keep_the_copilot_services_ca_file(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    ca = tmp_path / "school-ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    dialog = SettingsDialog(Settings(), _actions())
    qtbot.addWidget(dialog)
    dialog.show()
    tab = dialog.service_tab
    assert not tab.ca_edit.isEnabled()  # only for a copilot service
    tab.remote_radio.setChecked(True)
    qtbot.keyClicks(tab.url_edit, "https://copilot.school.example")
    qtbot.keyClicks(tab.ca_edit, str(tmp_path / "missing.pem"))
    assert not tab.problem.isHidden() and "CA file" in tab.problem.text()
    tab.ca_edit.clear()
    qtbot.keyClicks(tab.ca_edit, str(ca))
    assert tab.problem.isHidden()
    dialog._save()
    assert dialog.outcome is not None
    assert dialog.outcome.settings.copilot_service_ca_file == str(ca)
    again = SettingsDialog(dialog.outcome.settings, _actions())
    qtbot.addWidget(again)
    assert again.service_tab.ca_edit.text() == str(ca)


def test_the_settings_choose_where_the_copilot_runs(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    dialog = SettingsDialog(Settings(), _actions())
    qtbot.addWidget(dialog)
    dialog.show()
    _tab_index(dialog)
    tab = dialog.service_tab
    assert tab.local_radio.isChecked() and not tab.url_edit.isEnabled()
    tab.remote_radio.setChecked(True)
    qtbot.keyClicks(tab.url_edit, "ftp://lab")
    assert not tab.problem.isHidden()  # said so; the copilot stays here until it is fixed
    tab.url_edit.clear()
    qtbot.keyClicks(tab.url_edit, "Lab-Machine:3081/")
    assert tab.problem.isHidden()
    assert _unnamed_controls(tab) == []
    dialog._save()
    assert dialog.outcome is not None
    assert dialog.outcome.settings.copilot_service_url == "http://lab-machine:3081"

    again = SettingsDialog(dialog.outcome.settings, _actions())
    qtbot.addWidget(again)
    assert again.service_tab.remote_radio.isChecked()
    assert again.service_tab.url_edit.text() == "http://lab-machine:3081"
    again.service_tab.local_radio.setChecked(True)
    again._save()
    assert again.outcome is not None and again.outcome.settings.copilot_service_url is None


@pytest.fixture
def chat_service(
    gns3_server: Gns3Server, scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> Iterator[InProcessChatService]:
    llm = scripted_llm(scripted_openai.base_url, scripted_openai.client_api_key)
    service = InProcessChatService(gns3_server.base_url, tmp_path / "service", llm).start()
    try:
        yield service
    finally:
        service.stop()


@pytest.mark.gns3
def test_the_app_chats_through_the_service_and_comes_back_to_this_computer(
    e2e_project: dict[str, Any],
    chat_service: InProcessChatService,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    home = tmp_path / "home"
    _seed_login(home, app_keyring, gns3_server, gns3_token)
    settings_file = home / "config" / "settings.json"
    seeded = json.loads(settings_file.read_text())
    seeded["copilot_service_url"] = chat_service.url
    settings_file.write_text(json.dumps(seeded))
    pid = e2e_project["project_id"]

    app = copilot_app()
    _ready(app, qtbot, pid)
    assert app.header.backend.is_remote
    scripted_openai.push(ScriptedTurn.text("Answered by the lab machine.", chunks=3))
    _send(app, qtbot, "Who answers?")
    _wait_finished(app, qtbot)
    assert app.assistant_texts() == ["Answered by the lab machine."]
    session_id = app.panel.session_id
    listed = httpx.get(
        f"{chat_service.url}/v3/chat/sessions",
        params={"project_id": pid},
        headers={"Authorization": f"Bearer {gns3_token}"},
    ).json()
    assert [s["id"] for s in listed] == [session_id]  # the conversation lives on the service
    assert not list((home / "data").rglob("*.db"))

    # Settings -> this computer: the chat now shows this computer's (empty) conversations
    app.header.settings_button.click()
    dialog = app.header.models.settings_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible(), timeout=WAIT_MS)
    dialog.service_tab.local_radio.setChecked(True)
    dialog._save()
    qtbot.waitUntil(lambda: not app.header.backend.is_remote, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: app.panel.sessions.entries == [], timeout=WAIT_MS)
    assert app.panel.session_id is None and app.assistant_texts() == []
    assert json.loads(settings_file.read_text()).get("copilot_service_url") is None
    scripted_openai.push(ScriptedTurn.text("Answered here.", chunks=2))
    _send(app, qtbot, "And now?")
    _wait_finished(app, qtbot)
    assert app.assistant_texts() == ["Answered here."]
    assert [e.session_id for e in app.panel.sessions.entries] != [session_id]


@pytest.mark.gns3
def test_an_undo_with_a_copilot_service_is_recorded_in_the_services_log(
    e2e_project: dict[str, Any],
    chat_service: InProcessChatService,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    from PyQt6.QtWidgets import QMessageBox

    from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard

    home = tmp_path / "home"
    _seed_login(home, app_keyring, gns3_server, gns3_token)
    settings_file = home / "config" / "settings.json"
    seeded = json.loads(settings_file.read_text())
    seeded["copilot_service_url"] = chat_service.url
    settings_file.write_text(json.dumps(seeded))
    pid = e2e_project["project_id"]
    headers = {"Authorization": f"Bearer {gns3_token}"}

    def node_names() -> list[str]:
        nodes = httpx.get(f"{gns3_server.base_url}/v3/projects/{pid}/nodes", headers=headers)
        return sorted(n["name"] for n in nodes.json())

    def service_undone(session_id: str) -> Any:
        return httpx.get(
            f"{chat_service.url}/v3/chat/sessions/{session_id}/undone",
            params={"project_id": pid},
            headers=headers,
        )

    app = copilot_app()
    _ready(app, qtbot, pid)
    assert app.header.backend.is_remote
    scripted_openai.push(
        ScriptedTurn.tool(
            "create_nodes", {"nodes": [{"template": "VPCS", "name": "PC-u"}]}, id="call_make"
        ),
        ScriptedTurn.text("PC-u is on the canvas.", chunks=2),
    )
    _send(app, qtbot, "Add PC-u")
    view = app.panel.view
    qtbot.waitUntil(
        lambda: any(not c.done for c in view.findChildren(ApprovalCard)), timeout=WAIT_MS
    )
    [card] = [c for c in view.findChildren(ApprovalCard) if not c.done]
    card.items[0].approve.click()
    qtbot.waitUntil(lambda: "PC-u is on the canvas." in app.assistant_texts(), timeout=WAIT_MS)
    _wait_finished(app, qtbot)
    assert node_names() == ["PC-u"]
    session_id = app.panel.session_id
    assert service_undone(session_id).json() == {"tool_call_ids": []}

    undo = view.card("call_make").change_undo
    assert undo is not None
    undo.button.click()
    qtbot.waitUntil(lambda: app.header.undo.confirm_box is not None, timeout=WAIT_MS)
    app.header.undo.confirm_box.done(QMessageBox.StandardButton.Ok.value)
    qtbot.waitUntil(lambda: undo.state.text().startswith("Undone"), timeout=WAIT_MS)
    assert node_names() == []
    # the service's decision log holds it (this computer keeps no conversation of it)
    qtbot.waitUntil(
        lambda: service_undone(session_id).json() == {"tool_call_ids": ["call_make"]},
        timeout=WAIT_MS,
    )
    assert not list((home / "data").rglob("*.db"))

    # the conversation reopened: the change offers no Undo again
    app.panel.view.clear()
    task = asyncio.ensure_future(app.panel.open_session(session_id))
    qtbot.waitUntil(task.done, timeout=WAIT_MS)
    from gns3_copilot_desktop.ui.cards.tool_card import ToolCard

    [reopened] = [
        c.change_undo
        for c in view.findChildren(ToolCard)
        if c.tool_call_id == "call_make" and c.change_undo is not undo
    ]
    assert reopened is not None
    qtbot.waitUntil(lambda: reopened.state.text() == "Already undone.", timeout=WAIT_MS)
    assert not reopened.button.isEnabled()

    # the service records only a call that ran in the session, for its owner
    refused = httpx.post(
        f"{chat_service.url}/v3/chat/sessions/{session_id}/undone",
        json={"project_id": pid, "tool_call_id": "call_never_made"},
        headers=headers,
    )
    assert refused.status_code == 409
    assert service_undone(session_id).json() == {"tool_call_ids": ["call_make"]}
