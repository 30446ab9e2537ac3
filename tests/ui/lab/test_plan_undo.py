"""Under a finished plan_lab card, on the real GNS3 server: "Undo this plan…" plans the undo from
the plan's record against the project as it is now and asks with the same question as every Undo
(Cancel changes nothing); a result of an older version that holds only a snapshot id offers no
failing undo but says how to restore it in GNS3; "Take a GNS3 snapshot…" asks, saying that the
running nodes stop, then takes one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtWidgets import QMessageBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.core.undo.record import RemoveNode, with_undo
from gns3_copilot_desktop.ui.lab.plan_view import PlanOutcome
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000


class _Api:
    def __init__(self, server: Gns3Server, token: str, project_id: str) -> None:
        self.url = f"{server.base_url}/v3/projects/{project_id}"
        self.headers = {"Authorization": f"Bearer {token}"}

    def add_pc(self, name: str) -> dict[str, Any]:
        body = {"name": name, "node_type": "vpcs", "compute_id": "local", "x": 0, "y": 0}
        response = httpx.post(f"{self.url}/nodes", json=body, headers=self.headers)
        response.raise_for_status()
        return dict(response.json())

    def names(self) -> list[str]:
        response = httpx.get(f"{self.url}/nodes", headers=self.headers)
        response.raise_for_status()
        return sorted(n["name"] for n in response.json())

    def snapshots(self) -> list[str]:
        response = httpx.get(f"{self.url}/snapshots", headers=self.headers)
        response.raise_for_status()
        return [s["name"] for s in response.json()]


def _outcome(app: CopilotApp, structured: dict[str, Any]) -> PlanOutcome:
    card = app.panel.view.end_tool(
        ChatChunk(
            type="tool_end",
            tool_call_id="plan1",
            tool_name="plan_lab",
            tool_output="Applied",
            status="ok",
            structured=structured,
        )
    )
    assert card.plan_outcome is not None
    return card.plan_outcome


def _answer(app: CopilotApp, qtbot: QtBot, button: QMessageBox.StandardButton) -> str:
    qtbot.waitUntil(lambda: app.header.undo.confirm_box is not None, timeout=WAIT_MS)
    box = app.header.undo.confirm_box
    assert box is not None
    view = box.findChild(QPlainTextEdit, "undoQuestion")  # the actions, in a scrolling box
    text = box.text() + (view.toPlainText() if view is not None else "")
    box.done(button.value)
    qtbot.waitUntil(lambda: app.header.undo.confirm_box is None, timeout=WAIT_MS)
    return text


@pytest.fixture
def started(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> tuple[CopilotApp, _Api]:
    project_id = e2e_project["project_id"]
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, project_id, qtbot)
    return app, _Api(gns3_server, gns3_token, project_id)


def test_undo_asks_with_the_plans_actions_and_removes_what_it_created(
    started: tuple[CopilotApp, _Api], qtbot: QtBot
) -> None:
    app, api = started
    api.add_pc("PC1")
    pc3 = api.add_pc("PC3")  # what the plan created
    structured = with_undo(
        {
            "done": ["create PC3 (VPCS)"],
            "added_nodes": ["PC3"],
            "checks": [{"check": "PC3 started", "passed": True}, {"check": "x", "passed": False}],
        },
        "plan_lab",
        [RemoveNode(node_id=pc3["node_id"], name="PC3", node_type="vpcs")],
    )
    outcome = _outcome(app, structured)
    assert not outcome.undo_button.isHidden() and not outcome.snapshot_button.isHidden()
    assert "✓" in outcome.checks.text() and "✗" in outcome.checks.text()

    outcome.undo_button.click()
    assert "remove node PC3" in _answer(app, qtbot, QMessageBox.StandardButton.Cancel)
    assert api.names() == ["PC1", "PC3"]  # nothing happened

    outcome.undo_button.click()
    _answer(app, qtbot, QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: "Undone" in outcome.state.text(), timeout=WAIT_MS)
    assert not outcome.undo_button.isEnabled()
    assert api.names() == ["PC1"]
    assert api.snapshots() == []  # the undo is no snapshot restore


def test_an_older_plan_with_only_a_snapshot_says_how_to_restore_it(
    started: tuple[CopilotApp, _Api],
) -> None:
    app, api = started
    api.add_pc("PC1")
    outcome = _outcome(
        app,
        {"snapshot_id": "gone-since-the-reload", "snapshot_name": "before lab plan", "done": []},
    )
    assert outcome.undo_button.isHidden()
    text = outcome.state.text()
    assert "older version" in text and "'before lab plan'" in text and "restore in GNS3" in text


def test_taking_a_snapshot_asks_saying_that_nodes_stop(
    started: tuple[CopilotApp, _Api], qtbot: QtBot
) -> None:
    app, api = started
    api.add_pc("PC1")
    outcome = _outcome(app, with_undo({"done": ["create PC1 (VPCS)"]}, "plan_lab", []))
    assert outcome.undo_button.isHidden()  # nothing recorded, nothing to undo

    outcome.snapshot_button.click()
    text = _answer(app, qtbot, QMessageBox.StandardButton.Cancel)
    assert "running nodes stop" in text and "saved first" in text
    assert api.snapshots() == []

    outcome.snapshot_button.click()
    _answer(app, qtbot, QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(  # the snapshot zips the project: given time, as on a loaded machine
        lambda: outcome.snapshot_button.isEnabled() and outcome.state.text() != "",
        timeout=4 * WAIT_MS,
    )
    assert "taken" in outcome.state.text(), outcome.state.text()
    [name] = api.snapshots()
    assert name.startswith("copilot ") and f"'{name}'" in outcome.state.text()
