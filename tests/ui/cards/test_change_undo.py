"""Undo under a finished change's card: the app plans it against the real GNS3 server, lists
every action and what no longer applies, asks, and carries it out; Cancel changes nothing; a
record that is not ours offers no Undo."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QLabel, QMessageBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.core.undo.record import (
    RemoveNode,
    RestoreConfig,
    RestoreLink,
    SavedEnd,
    SavedLink,
    with_undo,
)
from gns3_copilot_desktop.ui.backends.base import ToolRecord
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard
from gns3_copilot_desktop.ui.chat.message_view import MessageView
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring

WAIT_MS = 15_000


def _end(call_id: str, tool: str, structured: dict[str, Any]) -> ChatChunk:
    return ChatChunk(
        type="tool_end",
        tool_call_id=call_id,
        tool_name=tool,
        tool_output="done",
        status="ok",
        structured=structured,
    )


def _record(tool: str, *steps: Any) -> dict[str, Any]:
    return with_undo({"done": True}, tool, list(steps))


def test_cards_offer_undo_only_for_a_record_we_can_read(qtbot: QtBot) -> None:
    view = MessageView()
    qtbot.addWidget(view)
    restore = RestoreConfig(node_id="n1", name="PC1", read_command="show ip", lines=["clear ip"])
    made = view.end_tool(_end("c1", "create_nodes", _record("create_nodes",
                         RemoveNode(node_id="n1", name="PC1"))))  # fmt: skip
    assert made.change_undo is not None and made.change_undo.button.text() == "Undo…"
    pushed = view.end_tool(_end("c2", "configure_devices", _record("configure_devices", restore)))
    assert pushed.change_undo is not None
    assert pushed.change_undo.button.text() == "Restore this configuration…"
    commands = _record("run_device_commands", restore)
    ran = view.end_tool(_end("c6", "run_device_commands", commands))
    assert ran.change_undo is not None
    assert ran.change_undo.button.text() == "Restore this configuration…"
    junk = {"undo": {"version": 1, "tool": "x", "steps": [{"kind": "run", "cmd": "rm -rf /"}]}}
    assert view.end_tool(_end("c3", "create_nodes", junk)).change_undo is None
    assert view.end_tool(_end("c4", "list_projects", {"projects": []})).change_undo is None
    # a reopened session: the history's structured result offers the same Undo
    structured = _record("create_nodes", RemoveNode(node_id="n1", name="PC1"))
    view.load_history([ToolRecord("c5", "create_nodes", {}, "create node PC1", "ok",
                                  structured=structured)])  # fmt: skip
    [card] = [c for c in view.findChildren(ToolCard) if c.tool_call_id == "c5"]
    assert card.change_undo is not None


def test_a_push_card_shows_the_configuration_before_and_after(qtbot: QtBot) -> None:
    view = MessageView()
    qtbot.addWidget(view)
    device = {
        "device": "<b>R1</b>",
        "config_before": {"command": "show running-config", "text": "hostname R1\n<i>x</i>"},
        "config_after": {"command": "show running-config", "text": "hostname CORE"},
    }
    card = view.end_tool(_end("p1", "configure_devices", {"devices": [device, "junk"]}))
    assert card.config_views == []  # built with the body, on first expand
    card.set_expanded(True)
    texts = [v.toPlainText() for v in card.config_views]
    assert texts == ["hostname R1\n<i>x</i>", "hostname CORE"]
    captions = [
        label.text() for label in card.findChildren(QLabel) if label.text().startswith("<b>R1</b> ")
    ]
    assert captions == [
        "<b>R1</b> before (show running-config)",
        "<b>R1</b> after (show running-config)",
    ]
    assert all(
        label.textFormat() == Qt.TextFormat.PlainText
        for label in card.findChildren(QLabel)
        if label.text().startswith("<b>R1</b>")
    )


@pytest.mark.gns3
def test_undo_lists_the_actions_asks_and_brings_a_deleted_link_back(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    project_id = e2e_project["project_id"]
    api = f"{gns3_server.base_url}/v3/projects/{project_id}"
    headers = {"Authorization": f"Bearer {gns3_token}"}

    def add_pc(name: str) -> str:
        body = {"name": name, "node_type": "vpcs", "compute_id": "local", "x": 0, "y": 0}
        response = httpx.post(f"{api}/nodes", json=body, headers=headers)
        response.raise_for_status()
        return str(response.json()["node_id"])

    def links() -> int:
        response = httpx.get(f"{api}/links", headers=headers)
        response.raise_for_status()
        return len(response.json())

    pc1, evil = add_pc("PC1"), add_pc("<b>PC2</b>")
    ends = [
        SavedEnd(node_id=pc1, node_name="PC1", adapter_number=0, port_number=0,
                 port_name="Ethernet0"),
        SavedEnd(node_id=evil, node_name="<b>PC2</b>", adapter_number=0, port_number=0,
                 port_name="Ethernet0"),
    ]  # fmt: skip
    structured = _record(
        "delete_links",
        RestoreLink(link=SavedLink(link_id="gone-1", ends=ends)),
        RestoreLink(link=SavedLink(link_id="gone-2", ends=[ends[0].model_copy(
            update={"node_id": "not-there", "node_name": "PC9"}), ends[1]])),
    )  # fmt: skip

    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, project_id, qtbot)
    card = app.panel.view.end_tool(_end("del1", "delete_links", structured))
    undo = card.change_undo
    assert undo is not None

    def answer(button: QMessageBox.StandardButton) -> None:
        qtbot.waitUntil(lambda: app.header.undo.confirm_box is not None, timeout=WAIT_MS)
        box = app.header.undo.confirm_box
        assert box is not None
        assert box.textFormat() == Qt.TextFormat.PlainText  # a node name is never markup
        view = box.findChild(QPlainTextEdit, "undoQuestion")
        assert view is not None and view.isReadOnly()
        text = view.toPlainText()
        assert "bring back link PC1 Ethernet0 <-> <b>PC2</b> Ethernet0" in text
        assert "PC9 is not in the project" in text  # what no longer applies is said
        box.done(button.value)

    undo.button.click()
    answer(QMessageBox.StandardButton.Cancel)
    qtbot.waitUntil(lambda: app.header.undo.confirm_box is None, timeout=WAIT_MS)
    assert links() == 0 and undo.button.isEnabled()

    undo.button.click()
    answer(QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: undo.state.text().startswith("Undone"), timeout=WAIT_MS)
    assert undo.state.text().startswith("Undone: bring back link PC1")
    assert not undo.button.isEnabled()
    assert links() == 1

    # once more (a second window, a reopened session): nothing left to do, said so
    undo.button.setEnabled(True)
    undo.button.click()
    qtbot.waitUntil(lambda: "Nothing to undo" in undo.state.text(), timeout=WAIT_MS)
    assert app.header.undo.confirm_box is None and links() == 1
