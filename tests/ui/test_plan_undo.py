"""Undo under a finished plan_lab card: the app lists what will disappear, asks, and restores the
snapshot taken before the plan on the real GNS3 server; Cancel changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import ChatChunk
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000


def test_undo_lists_what_disappears_and_restores_the_snapshot(
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

    def add_pc(name: str) -> None:
        body = {"name": name, "node_type": "vpcs", "compute_id": "local", "x": 0, "y": 0}
        httpx.post(f"{api}/nodes", json=body, headers=headers).raise_for_status()

    def names() -> list[str]:
        response = httpx.get(f"{api}/nodes", headers=headers)
        response.raise_for_status()
        return sorted(n["name"] for n in response.json())

    add_pc("PC1")
    snapshot = httpx.post(f"{api}/snapshots", json={"name": "before plan"}, headers=headers)
    snapshot.raise_for_status()
    add_pc("PC3")  # what the plan added
    structured = {
        "snapshot_id": snapshot.json()["snapshot_id"],
        "snapshot_name": "before plan",
        "added_nodes": ["PC3", "<b>gone</b>"],
        "added_links": [],
        "checks": [{"check": "PC3 is started", "passed": True}, {"check": "x", "passed": False}],
    }

    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, project_id, qtbot)
    view = app.panel.view
    card = view.end_tool(
        ChatChunk(
            type="tool_end",
            tool_call_id="plan1",
            tool_name="plan_lab",
            tool_output="Applied",
            status="ok",
            structured=structured,
        )
    )
    outcome = card.plan_outcome
    assert outcome is not None and not outcome.undo_button.isHidden()
    assert "✓" in outcome.checks.text() and "✗" in outcome.checks.text()

    def answer(button: QMessageBox.StandardButton) -> None:
        qtbot.waitUntil(lambda: app.header.confirm_box is not None, timeout=WAIT_MS)
        box = app.header.confirm_box
        assert box is not None
        assert "PC3" in box.text() and "before plan" in box.text()
        assert "gone" not in box.text()  # not in the project: not said to disappear
        box.done(button.value)

    outcome.undo_button.click()
    answer(QMessageBox.StandardButton.Cancel)
    qtbot.waitUntil(lambda: app.header.confirm_box is None, timeout=WAIT_MS)
    assert names() == ["PC1", "PC3"]  # nothing happened

    outcome.undo_button.click()
    answer(QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: not outcome.undo_button.isEnabled(), timeout=WAIT_MS)
    assert "Undone" in outcome.state.text()
    assert names() == ["PC1"]
