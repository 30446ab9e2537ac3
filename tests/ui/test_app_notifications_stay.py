"""The GNS3 notification streams live through the app's own modal dialogs and its own actions.

With the whole app on the real GNS3 server:
- the practice panel's real export and import dialogs (passphrase, file) are opened and answered
  while the Lab card follows the project: while each dialog is open a node created on the server
  shows up in the card, after them one more does, and the imported project reaches the project
  list through the controller's notifications (a dialog run inside a coroutine once wedged both
  streams: "Cannot enter into task ... workspace-notifications");
- clicking New with the Lab card open (the card goes, and its subscription with it) leaves a
  project created with ``auto_close`` open: the app keeps a listener of its own on it;
- when GNS3 closes the project anyway, the header says so.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6 import sip
from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.practice.package import ExercisePackage, TrainerSigner, seal
from gns3_copilot_desktop.core.practice.store import InjectedFault
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login, run
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.ui.test_app_e2e import logged_in  # noqa: F401 (the fixture)

pytestmark = pytest.mark.gns3

WAIT_MS = 20_000
DIALOG_WAIT_S = 15.0


class DialogAnswerer:
    """Answers the app's real modal dialogs, each only once ``ready()`` holds (checked while the
    dialog's own nested loop runs, so whatever makes it true ran during the dialog)."""

    def __init__(self, answers: list[tuple[str, Callable[[], bool], str | None]]) -> None:
        self.answers = answers
        """(dialog kind "text"/"file", ready, the text or file to give; None cancels)."""
        self.seen: list[str] = []
        self.late: list[str] = []
        self.stuck: list[str] = []
        self._answered: QWidget | None = None
        self._opened_at: float | None = None
        self._timer = QTimer()
        self._timer.setInterval(50)
        self._timer.timeout.connect(self._answer)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _answer(self) -> None:
        widget = QApplication.activeModalWidget()
        if widget is not None and widget is self._answered:
            self.stuck.append(type(widget).__name__)  # it refused the answer: never hang
            widget.reject()
            return
        if widget is None or not self.answers:
            return
        kind, ready, value = self.answers[0]
        if not isinstance(widget, QInputDialog if kind == "text" else QFileDialog):
            return
        if self._opened_at is None:
            self._opened_at = time.monotonic()
            self.seen.append(kind)
        if not ready():
            if time.monotonic() - self._opened_at < DIALOG_WAIT_S:
                return
            self.late.append(kind)  # answered anyway: the test fails on it
        self.answers.pop(0)
        self._opened_at = None
        self._answered = widget
        if value is None:
            widget.reject()
        elif isinstance(widget, QInputDialog):
            widget.setTextValue(value)
            widget.accept()
        else:
            assert isinstance(widget, QFileDialog)
            name = widget.findChild(QLineEdit, "fileNameEdit")
            assert name is not None
            name.setText(value)  # as typed by the user, then its Open button
            box = widget.findChild(QDialogButtonBox)
            assert box is not None
            [accept] = [
                b
                for b in box.buttons()
                if box.buttonRole(b) == QDialogButtonBox.ButtonRole.AcceptRole
            ]
            accept.click()


def _create_node(server: Gns3Server, token: str, project_id: str, name: str, x: int) -> None:
    body = {"name": name, "node_type": "vpcs", "compute_id": "local", "x": x, "y": 0}
    httpx.post(
        f"{server.base_url}/v3/projects/{project_id}/nodes",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
    ).raise_for_status()


def test_the_export_and_import_dialogs_keep_the_notification_streams(
    logged_in: CopilotApp,  # noqa: F811
    e2e_project: dict[str, Any],
    gns3_server: Gns3Server,
    gns3_token: str,
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    app = logged_in
    project_id = e2e_project["project_id"]
    panel = app.panel
    [action] = [a for a in panel.sessions.mode_menu.actions() if a.data() == "practice"]
    action.trigger()
    practice = panel.practice
    qtbot.waitUntil(
        lambda: practice.import_button.isEnabled() and not practice._busy, timeout=WAIT_MS
    )
    card = app.header.labs.show_lab()  # in the practice session's conversation
    assert card is not None
    qtbot.waitUntil(lambda: card.following and card.isVisible(), timeout=WAIT_MS)

    def node_shows(name: str, x: int) -> Callable[[], bool]:
        """Create ``name`` on the server once; then: is it in the Lab card's drawing?"""
        created: list[bool] = []

        def ready() -> bool:
            if not created:
                created.append(True)
                _create_node(gns3_server, gns3_token, project_id, name, x)
            return name in {n.name for n in card.drawing.picture.nodes}

        return ready

    # Export for students: passphrase twice, then the file dialog (cancelled: nothing written)
    practice.exercise_id = "an exercise"
    answerer = DialogAnswerer(
        [
            ("text", node_shows("PC1", -300), "a passphrase!"),
            ("text", node_shows("PC2", -100), "a passphrase!"),
            ("file", node_shows("PC3", 100), None),
        ]
    )
    try:
        practice.export_button.click()
        qtbot.waitUntil(lambda: not answerer.answers, timeout=60_000)
        assert answerer.seen == ["text", "text", "file"] and answerer.late == answerer.stuck == []
        assert practice.exercise_id == "an exercise"  # nothing ran past the cancelled dialog

        # Import an exercise: the file, then the passphrase; the lab becomes a new project
        client = app.header.workspace.require_client()
        archive = run(qtbot, client.export_project(project_id))
        name = f"class lab {uuid.uuid4().hex[:6]}"
        fault = InjectedFault(fault_id="vpcs-wrong-address", title="t", platform="vpcs", node="PC1")
        file = tmp_path / "week1.gns3exercise"
        trainer = TrainerSigner.generate(f"Trainer {uuid.uuid4().hex[:6]}")
        file.write_bytes(
            seal(
                archive,
                ExercisePackage(project_name=name, difficulty="beginner", faults=[fault]),
                "a passphrase!",
                trainer,
            )
        )
        practice.exercise_id = None
        answerer.answers += [
            ("file", node_shows("PC4", 300), str(file)),
            ("text", node_shows("PC5", 500), "a passphrase!"),
        ]
        practice.import_button.click()
        qtbot.waitUntil(lambda: not answerer.answers, timeout=60_000)
        assert answerer.seen[3:] == ["file", "text"] and answerer.late == answerer.stuck == []
        # the first file of this trainer: trusting the key is asked in a non-modal box
        qtbot.waitUntil(
            lambda: practice.trust_box is not None and practice.trust_box.isVisible(),
            timeout=WAIT_MS,
        )
        box = practice.trust_box
        assert box is not None
        [trust] = [
            b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole
        ]
        trust.click()
    finally:
        answerer.stop()
    qtbot.waitUntil(
        lambda: "was imported as the project" in practice.status_label.text(), timeout=60_000
    )
    imported = f"{name} (exercise)"
    [project] = [p for p in run(qtbot, client.list_projects()) if p.name == imported]
    try:
        # the controller's stream told the header of the new project
        qtbot.waitUntil(
            lambda: app.header.project_combo.findData(project.project_id) >= 0, timeout=WAIT_MS
        )
        # and the project's stream still brings node changes to the card
        _create_node(gns3_server, gns3_token, project_id, "PC6", 700)
        qtbot.waitUntil(
            lambda: "PC6" in {n.name for n in card.drawing.picture.nodes}, timeout=WAIT_MS
        )
        assert card.following
    finally:
        run(qtbot, client.delete_project(project.project_id))


@pytest.fixture
def auto_close_project(gns3_server: Gns3Server, gns3_token: str) -> Any:
    """A project as GNS3 creates it by default: closed when its last listener leaves."""
    headers = {"Authorization": f"Bearer {gns3_token}"}
    url = f"{gns3_server.base_url}/v3/projects"
    response = httpx.post(
        url, json={"name": f"auto-{secrets.token_hex(4)}", "auto_close": True}, headers=headers
    )
    response.raise_for_status()
    project: dict[str, Any] = response.json()
    try:
        yield project
    finally:
        httpx.delete(f"{url}/{project['project_id']}", headers=headers)


def _status(server: Gns3Server, token: str, project_id: str) -> str:
    response = httpx.get(
        f"{server.base_url}/v3/projects/{project_id}",
        headers={"Authorization": f"Bearer {token}"},
    )
    response.raise_for_status()
    return str(response.json()["status"])


def test_new_with_the_lab_card_open_keeps_an_auto_close_project_open(
    auto_close_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    project_id = auto_close_project["project_id"]
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, project_id, qtbot)
    workspace = app.header.workspace
    qtbot.waitUntil(lambda: workspace.listening_to == project_id, timeout=WAIT_MS)
    card = app.header.labs.show_lab()
    assert card is not None
    qtbot.waitUntil(lambda: card.following, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: app.header.watch.task is not None, timeout=WAIT_MS)
    watcher = app.header.watch.task

    app.panel.sessions.new_session()  # "New": the conversation (and the card) go
    qtbot.waitUntil(lambda: app.panel.session_id is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: sip.isdeleted(card), timeout=WAIT_MS)
    # GNS3 closes an auto_close project ~5 s after its last listener left: wait past that
    deadline = time.monotonic() + 8.0
    qtbot.waitUntil(lambda: time.monotonic() > deadline, timeout=10_000)
    assert _status(gns3_server, gns3_token, project_id) == "opened"
    assert app.header.backend.project_id == project_id
    assert workspace.listening_to == project_id
    assert watcher is not None and not watcher.done() and app.header.watch.task is watcher

    # closed in GNS3 all the same: the header says what happened, not just "No project open"
    httpx.post(
        f"{gns3_server.base_url}/v3/projects/{project_id}/close",
        headers={"Authorization": f"Bearer {gns3_token}"},
    ).raise_for_status()
    label = app.header.message_label
    qtbot.waitUntil(lambda: "GNS3 closed the project" in label.text(), timeout=WAIT_MS)
    assert auto_close_project["name"] in label.text() and label.isVisible()
