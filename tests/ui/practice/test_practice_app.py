"""The whole app (real workspace, AgentService, GNS3 server): a Practice session chosen on New is
stored in Practice mode, and its panel gets the project's practice engine, whose exercises are kept
in their own file beside the conversation database. On an empty project no fault applies: the
panel says so and stays usable."""

from __future__ import annotations

import base64
import uuid
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.practice.package import ExercisePackage, TrainerSigner, seal
from gns3_copilot_desktop.core.practice.store import InjectedFault
from gns3_copilot_desktop.ui.backends.service import PRACTICE_DB_NAME
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


def test_an_imported_exercise_waits_in_the_new_projects_own_store(
    logged_in: CopilotApp,  # noqa: F811
    e2e_project: dict[str, Any],
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    """Import through the panel with the real backend: the lab becomes a new project on the real
    server and the exercise is kept by that project's engine, beside that project's own
    conversations (not in the importing project's store)."""
    app = logged_in
    panel = app.panel
    [action] = [a for a in panel.sessions.mode_menu.actions() if a.data() == "practice"]
    action.trigger()
    practice = panel.practice
    # the panel has loaded the session (its buttons are off while it reads the lab)
    qtbot.waitUntil(
        lambda: practice.import_button.isEnabled() and not practice._busy, timeout=WAIT_MS
    )
    backend = app.header.backend
    client = app.header.workspace.require_client()
    archive = run(qtbot, client.export_project(e2e_project["project_id"]))
    fault = InjectedFault(fault_id="vpcs-wrong-address", title="t", platform="vpcs", node="PC1")
    name = f"class lab {uuid.uuid4().hex[:6]}"
    exercise = ExercisePackage(project_name=name, difficulty="beginner", faults=[fault])
    file = tmp_path / "week1.gns3exercise"
    trainer = TrainerSigner.generate(f"Trainer {uuid.uuid4().hex[:6]}")
    file.write_bytes(seal(archive, exercise, "a passphrase!", trainer))
    practice.ask_import_path = lambda: file  # type: ignore[method-assign]
    practice.ask_passphrase = lambda confirm: "a passphrase!"  # type: ignore[method-assign]
    practice.import_button.click()
    # the first file of this trainer: the real (non-modal) question shows name and fingerprint
    qtbot.waitUntil(lambda: practice.trust_box is not None and practice.trust_box.isVisible())
    box = practice.trust_box
    assert box is not None
    assert trainer.trainer in box.text() and trainer.public.fingerprint in box.text()
    [trust] = [b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole]
    trust.click()
    qtbot.waitUntil(
        lambda: "was imported as the project" in practice.status_label.text(), timeout=60_000
    )
    [imported] = [p for p in run(qtbot, client.list_projects()) if p.name == f"{name} (exercise)"]
    settings = app.header.workspace.settings_store.load().settings
    assert trainer.public.fingerprint  # pinned in the settings file, by the trainer's name
    assert (
        settings.trusted_trainer_keys[trainer.trainer]
        == base64.b64encode(trainer.public.public_key).decode()
    )
    try:
        here = run(qtbot, backend.practice())
        there = run(qtbot, backend.practice(imported.project_id))
        assert run(qtbot, here.imported_exercise()) is None
        waiting = run(qtbot, there.imported_exercise())
        assert waiting is not None and waiting.sealed == [] and waiting.difficulty == "beginner"
        home = run(qtbot, app.header.workspace.service(e2e_project["project_id"]))
        new = run(qtbot, app.header.workspace.service(imported.project_id))
        assert new.store.db_path != home.store.db_path
        assert (new.store.db_path.parent / PRACTICE_DB_NAME).exists()
    finally:
        run(qtbot, client.delete_project(imported.project_id))
