"""The whole app on the real GNS3 server: a plan's Undo after the project was closed and reopened
and a GNS3 snapshot restored in between (every node has a new id): the question lists the plan's
actions, each saying it matched its node by name, in English and Simplified Chinese, in a 360 px
window too; Cancel changes nothing and OK removes what the plan made. "Take a GNS3 snapshot…" asks
first.

Set GNS3_COPILOT_SCREENSHOTS=<dir> to save the states (docs/screenshots/plan-undo-after-reload*,
plan-take-snapshot-question).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtCore import QCoreApplication, QTranslator
from PyQt6.QtWidgets import QMessageBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.paths import resource_path
from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.core.undo.record import RemoveNode, with_undo
from gns3_copilot_desktop.ui.lab.plan_view import PlanOutcome
from tests.helpers.copilot_app import SCREENSHOTS_ENV, CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000


def _shot(name: str, widget: Any) -> None:
    folder = os.environ.get(SCREENSHOTS_ENV)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(folder) / f"{name}.png"))


def _ask(app: CopilotApp, qtbot: QtBot, click: Callable[[], None], name: str) -> QMessageBox:
    click()
    qtbot.waitUntil(lambda: app.header.undo.confirm_box is not None, timeout=WAIT_MS)
    box = app.header.undo.confirm_box
    assert box is not None
    qtbot.waitUntil(box.isVisible, timeout=WAIT_MS)
    _shot(name, box)
    _shot(f"{name}-window", app.window)
    return box


def _question(box: QMessageBox) -> str:
    """All the question says: its heading, and the actions in the scrolling box when it has one."""
    view = box.findChild(QPlainTextEdit, "undoQuestion")
    return box.text() + box.informativeText() + (view.toPlainText() if view is not None else "")


def _close(app: CopilotApp, qtbot: QtBot, box: QMessageBox, button: Any) -> None:
    box.done(button.value)
    qtbot.waitUntil(lambda: app.header.undo.confirm_box is None, timeout=WAIT_MS)


def test_plan_undo_after_close_reopen_and_restore_matches_by_name(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    pid = e2e_project["project_id"]
    url = f"{gns3_server.base_url}/v3/projects/{pid}"
    headers = {"Authorization": f"Bearer {gns3_token}"}

    def post(path: str, body: dict[str, Any] | None = None) -> Any:
        response = httpx.post(f"{url}{path}", json=body or {}, headers=headers, timeout=60)
        response.raise_for_status()
        return response.json() if response.content else None

    def names() -> list[str]:
        response = httpx.get(f"{url}/nodes", headers=headers)
        response.raise_for_status()
        return sorted(n["name"] for n in response.json())

    made = [
        post("/nodes", {"name": n, "node_type": "vpcs", "compute_id": "local", "x": x, "y": 0})
        for n, x in (("PC1", -150), ("PC3", 0), ("PC4", 150))
    ]
    # what a plan that created PC3 and PC4 recorded, with the ids of that moment
    record = [RemoveNode(node_id=n["node_id"], name=n["name"], node_type="vpcs") for n in made[1:]]
    structured = with_undo(
        {
            "done": ["create PC3 (VPCS)", "create PC4 (VPCS)"],
            "added_nodes": ["PC3", "PC4"],
            "checks": [{"check": "PC3 started", "passed": True}],
        },
        "plan_lab",
        record,
    )
    # the user takes a snapshot, closes and reopens the project, and restores the snapshot:
    # GNS3 gives every node a new id
    post("/snapshots", {"name": "before my changes"})
    post("/close")
    post("/open")
    # GNS3 renews snapshot ids on every load: the snapshot is found by its name, as a user does
    snapshots = httpx.get(f"{url}/snapshots", headers=headers).json()
    [snapshot] = [s for s in snapshots if s["name"] == "before my changes"]
    post(f"/snapshots/{snapshot['snapshot_id']}/restore")
    old_ids = {n["node_id"] for n in made}
    now = httpx.get(f"{url}/nodes", headers=headers).json()
    assert not old_ids & {n["node_id"] for n in now}, "the restore kept the old ids"

    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, pid, qtbot)
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
    outcome = card.plan_outcome
    assert isinstance(outcome, PlanOutcome)

    box = _ask(app, qtbot, outcome.undo_button.click, "plan-undo-after-reload")
    text = _question(box)
    assert "remove node PC3 (matched by name: PC3)" in text, text
    assert "remove node PC4 (matched by name: PC4)" in text, text
    _close(app, qtbot, box, QMessageBox.StandardButton.Cancel)
    assert names() == ["PC1", "PC3", "PC4"]  # Cancel changed nothing

    translator = QTranslator()
    assert translator.load(str(resource_path("translations", "gns3_copilot_zh_CN.qm")))
    QCoreApplication.installTranslator(translator)
    try:
        box = _ask(app, qtbot, outcome.undo_button.click, "zh-CN-plan-undo-after-reload")
        text = _question(box)
        assert "PC3" in text and "matched by name" not in text, text  # translated, names kept
        _close(app, qtbot, box, QMessageBox.StandardButton.Cancel)
    finally:
        QCoreApplication.removeTranslator(translator)

    box = _ask(app, qtbot, outcome.snapshot_button.click, "plan-take-snapshot-question")
    assert "running nodes stop" in _question(box)
    _close(app, qtbot, box, QMessageBox.StandardButton.Cancel)

    app.window.resize(360, 720)
    qtbot.waitUntil(lambda: app.window.width() <= 400, timeout=WAIT_MS)
    box = _ask(app, qtbot, outcome.undo_button.click, "plan-undo-after-reload-narrow")
    _close(app, qtbot, box, QMessageBox.StandardButton.Ok)
    qtbot.waitUntil(lambda: "Undone" in outcome.state.text(), timeout=4 * WAIT_MS)
    assert names() == ["PC1"]
