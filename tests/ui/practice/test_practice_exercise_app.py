"""A whole Practice exercise as a learner lives it, in the real app against the real lab.

The app is the one users run (`create_copilot`: the real workspace, login from the keyring,
`AgentService`, the practice engine and its sealed store); the server is the real GNS3 3.0.6 with a
real dynamips Ethernet switch and three running VPCS hosts (`gns3_vpcs_lab`); only the model is the
scripted OpenAI-compatible server, and no turn asks it anything. The learner starts an exercise,
approves the sealed card, reads the ticket, checks, takes a hint, fixes the host on its console,
checks again and is scored; then starts a link fault and gives up. The screenshots of the README's
practice section are taken here (with GNS3_COPILOT_SCREENSHOTS set), in English at the dock's
usual width and in Chinese at 360 px.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtGui import QPainter
from PyQt6.QtWidgets import QApplication, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices, target_for_node
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.practice.store import ExerciseRecord
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login, run
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, switched_pcs

pytestmark = pytest.mark.gns3

WAIT_MS = 60_000
ADDRESSES = {"PC1": "192.0.2.1", "PC2": "192.0.2.10", "PC3": "192.0.2.20"}


@dataclass
class Lab:
    """The project the learner practises on: a switch and three addressed, running hosts."""

    client: Gns3Client
    project_id: str
    token: str


async def _address_hosts(client: Gns3Client, pid: str, pcs: list[Node]) -> None:
    for pc in pcs:
        await client.start_node(pid, pc.node_id)
    async with asyncio.timeout(60):
        while any(n.status != "started" for n in await client.list_nodes(pid)):  # noqa: ASYNC110 - the server's state, polled
            await asyncio.sleep(0.5)
    nodes = {n.name: n for n in await client.list_nodes(pid)}
    jobs = [
        DeviceJob(target_for_node(nodes[name], client.base_url), (f"ip {address}/24", "save"))
        for name, address in ADDRESSES.items()
    ]
    for outcome in await run_on_devices(jobs):
        assert outcome.ok, outcome.error


@pytest.fixture
def lab(gns3_vpcs_lab: Gns3VpcsLab, qtbot: QtBot, qasync_loop: Any) -> Iterator[Lab]:
    """A fresh switched lab on the real server, its hosts addressed and running; deleted after."""
    project = switched_pcs(gns3_vpcs_lab, f"Broken LAN {uuid.uuid4().hex[:6]}")
    client, pid, pcs, _switch = run(qtbot, project.__aenter__(), WAIT_MS)
    try:
        run(qtbot, _address_hosts(client, pid, pcs), 120_000)
        assert client.token is not None
        yield Lab(client, pid, client.token)
    finally:
        run(qtbot, project.__aexit__(None, None, None), WAIT_MS)


def _app_on_lab(
    lab: Lab,
    gns3_vpcs_lab: Gns3VpcsLab,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    tmp_path: Path,
    qtbot: QtBot,
    width: int,
) -> CopilotApp:
    """The app restored from a remembered login to the lab's server, the lab open, and a new
    Practice session chosen from New's menu, as the learner does."""
    remember_login(tmp_path, gns3_vpcs_lab, lab.token, app_keyring)
    app = copilot_app(server_url=gns3_vpcs_lab.base_url)
    app.window.resize(width, 820)
    qtbot.waitUntil(lambda: app.header.workspace.logged_in, timeout=WAIT_MS)
    open_project(app, lab.project_id, qtbot)
    panel = app.panel
    [action] = [a for a in panel.sessions.mode_menu.actions() if a.data() == "practice"]
    action.trigger()
    practice = panel.practice
    qtbot.waitUntil(lambda: practice.topic_combo.count() > 1, timeout=WAIT_MS)
    qtbot.waitUntil(practice.start_button.isEnabled, timeout=WAIT_MS)
    return app


def _start(app: CopilotApp, qtbot: QtBot, fault_id: str, difficulty: int) -> ExerciseRecord:
    """Start the named fault through the sealed card; the exercise as the engine keeps it."""
    practice = app.panel.practice
    practice.fault_ids = [fault_id]
    practice.difficulty_combo.setCurrentIndex(difficulty)
    practice.start_button.click()
    qtbot.waitUntil(lambda: practice._card is not None, timeout=WAIT_MS)
    card = practice._card
    assert card is not None
    # the card is sealed: neither the fault nor its node is written on it
    card_text = " ".join(label.text() for label in card.findChildren(type(practice.status_label)))
    assert fault_id not in card_text
    app.shot("practice-approval" if difficulty else "practice-approval-link")
    card.items[0].approve.click()
    qtbot.waitUntil(lambda: practice.active_row.isVisible(), timeout=WAIT_MS)
    store = practice.engine._store  # the test opens the sealed answer to play the learner's fix
    records = run(qtbot, store.list_for_project(app.header.backend.project_id))
    [active] = [r for r in records if r.status == "active"]
    assert [f.fault_id for f in active.sealed] == [fault_id]
    return active


def _question_over(app: CopilotApp, box: QMessageBox, name: str) -> None:
    """Offscreen the question is a window of its own: drawn over the app for the screenshot."""
    picture = app.window.grab()
    drawn = box.grab()
    painter = QPainter(picture)
    x = (picture.width() - drawn.width()) // 2
    painter.drawPixmap(x, (picture.height() - drawn.height()) // 2, drawn)
    painter.end()
    app.shot(name, picture)


def test_a_whole_exercise_solved_then_one_given_up(
    lab: Lab,
    gns3_vpcs_lab: Gns3VpcsLab,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    app = _app_on_lab(lab, gns3_vpcs_lab, copilot_app, app_keyring, tmp_path, qtbot, 1000)
    practice = app.panel.practice
    chat = app.panel.view

    active = _start(app, qtbot, "vpcs-wrong-mask", 1)
    [fault] = active.sealed
    assert fault.node in ADDRESSES
    # the ticket is what the learner hears: the symptom, not the fault
    qtbot.waitUntil(lambda: practice.ticket_label.text() != "", timeout=WAIT_MS)
    ticket = practice.ticket_label.text()
    assert "mask" not in ticket.lower() and active.ticket and active.ticket in ticket
    assert chat.height() >= practice.height()  # the chat keeps at least half of the dock
    app.shot("practice-started")

    qtbot.waitUntil(practice.check_button.isEnabled, timeout=WAIT_MS)
    buttons_at = practice.check_button.mapTo(app.window, practice.check_button.rect().topLeft())
    practice.check_button.click()
    qtbot.waitUntil(lambda: practice.checks_label.isVisible(), timeout=WAIT_MS)
    qtbot.waitUntil(practice.hint_button.isEnabled, timeout=WAIT_MS)
    assert "Solved" not in practice.headline_label.text()
    practice.hint_button.click()
    qtbot.waitUntil(lambda: practice.hints_label.text() != "", timeout=WAIT_MS)
    # a hint appends below: the buttons stay where the learner's pointer is
    assert practice.check_button.mapTo(app.window, practice.check_button.rect().topLeft()) == (
        buttons_at
    )
    app.shot("practice-checks")

    nodes = {n.name: n for n in run(qtbot, lab.client.list_nodes(lab.project_id))}
    fix = DeviceJob(
        target_for_node(nodes[fault.node], lab.client.base_url),
        (f"ip {ADDRESSES[fault.node]}/24",),
    )  # the learner's fix, typed on the host's console
    [fixed] = run(qtbot, run_on_devices([fix]), WAIT_MS)
    assert fixed.ok, fixed.error
    qtbot.waitUntil(practice.check_button.isEnabled, timeout=WAIT_MS)
    practice.check_button.click()
    qtbot.waitUntil(lambda: practice.answer_label.isVisible(), timeout=WAIT_MS)
    assert "Solved" in practice.headline_label.text()
    assert fault.node in practice.answer_label.text()  # the answer is shown once it is earned
    app.shot("practice-solved")

    qtbot.waitUntil(practice.start_button.isEnabled, timeout=WAIT_MS)
    _start(app, qtbot, "link-suspended", 0)
    qtbot.waitUntil(practice.give_up_button.isEnabled, timeout=WAIT_MS)
    practice.give_up_button.click()
    qtbot.waitUntil(lambda: practice.give_up_box is not None, timeout=WAIT_MS)
    box = practice.give_up_box
    assert box is not None
    _question_over(app, box, "practice-give-up")
    [yes] = [b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole]
    yes.click()
    qtbot.waitUntil(lambda: practice._card is not None, timeout=WAIT_MS)
    assert practice._card is not None
    practice._card.items[0].approve.click()
    qtbot.waitUntil(lambda: "faults were undone" in practice.status_label.text(), timeout=WAIT_MS)
    assert not practice.error_label.isVisible()
    links = run(qtbot, lab.client.list_links(lab.project_id))
    assert links and not any(link.suspend for link in links)  # the lab is whole again
    if not practice.past_list.isVisible():
        practice.past_toggle.click()
    qtbot.waitUntil(lambda: practice.past_list.count() == 2, timeout=WAIT_MS)
    app.shot("practice-undone")


def test_in_chinese_at_360_px_the_ticket_and_buttons_fit(
    lab: Lab,
    gns3_vpcs_lab: Gns3VpcsLab,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    """The narrowest dock in the app's second language: the panel is in Chinese, every button
    of the running exercise lies inside the dock, and giving up asks in Chinese."""
    from gns3_copilot_desktop.app import install_translator, remove_translator

    qapp = QApplication.instance()
    assert isinstance(qapp, QApplication)
    translator = install_translator(qapp, "zh_CN")
    assert translator is not None
    try:
        app = _app_on_lab(lab, gns3_vpcs_lab, copilot_app, app_keyring, tmp_path, qtbot, 360)
        practice = app.panel.practice
        _start(app, qtbot, "link-suspended", 0)
        qtbot.waitUntil(practice.give_up_button.isEnabled, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: practice.ticket_label.text() != "", timeout=WAIT_MS)
        # the ticket comes from the catalog's Chinese text, the lab's names filled in
        ticket = practice.ticket_label.text()
        assert "从今天早上起" in ticket and "cannot" not in ticket, ticket
        assert "放弃" in practice.give_up_button.text()
        for button in practice.findChildren(QPushButton):
            if button.isVisible():  # every button inside the dock and wide enough for its words
                right = button.mapTo(practice, button.rect().topRight()).x()
                assert 0 <= right <= practice.width(), (button.text(), right, practice.width())
                assert button.width() >= button.sizeHint().width(), button.text()
        elapsed = practice.elapsed_label  # the time is not cut off by the buttons beside it
        assert elapsed.width() >= elapsed.sizeHint().width(), elapsed.text()
        assert "秒" in elapsed.text()
        app.shot("practice-zh-CN-started-360")
        practice.give_up_button.click()
        qtbot.waitUntil(lambda: practice.give_up_box is not None, timeout=WAIT_MS)
        box = practice.give_up_box
        assert box is not None and "放弃" in box.text() + " ".join(b.text() for b in box.buttons())
        [no] = [b for b in box.buttons() if box.buttonRole(b) != QMessageBox.ButtonRole.AcceptRole]
        no.click()  # not now: the exercise goes on
        qtbot.waitUntil(lambda: practice.give_up_box is None, timeout=WAIT_MS)
        assert practice.give_up_button.isEnabled() and practice.active_row.isVisible()
    finally:
        remove_translator(qapp, translator)
