"""The whole app (real workspace, AgentService, GNS3 server): a Practice session chosen on New is
stored in Practice mode, and its panel gets the project's practice engine, whose exercises are kept
in their own file beside the conversation database. On an empty project no fault applies: the
panel says so and stays usable."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.service_backend import PRACTICE_DB_NAME
from tests.helpers.copilot_app import CopilotApp, run
from tests.ui.test_app_e2e import logged_in  # noqa: F401 (the fixture)

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000


def test_a_practice_session_reaches_the_core_and_its_panel_the_engine(
    logged_in: CopilotApp,  # noqa: F811
    e2e_project: dict[str, Any],
    qtbot: QtBot,
) -> None:
    app = logged_in
    panel = app.panel
    [action] = [a for a in panel.sessions.mode_menu.actions() if a.data() == "practice"]
    action.trigger()
    qtbot.waitUntil(lambda: panel.session_id is not None, timeout=WAIT_MS)
    backend = app.header.backend
    service = run(qtbot, app.header.workspace.service(e2e_project["project_id"]))
    info = run(qtbot, service.store.get_session(panel.session_id))
    assert info.mode == "practice"
    assert panel.mode_badge.text() == "Practice" and panel.practice.isVisible()

    practice = panel.practice
    qtbot.waitUntil(lambda: practice.start_button.isEnabled(), timeout=WAIT_MS)
    engine = run(qtbot, backend.practice())
    assert engine is practice.engine and engine is run(qtbot, backend.practice())
    assert (service.store.db_path.parent / PRACTICE_DB_NAME).exists()
    assert practice.topic_combo.count() == 1  # "Any": nothing in the empty project

    practice.start_button.click()
    qtbot.waitUntil(lambda: practice.error_label.isVisible(), timeout=WAIT_MS)
    assert "No fault of this level and topic applies to this lab" in practice.error_label.text()
    assert practice.start_button.isEnabled() and practice._card is None
