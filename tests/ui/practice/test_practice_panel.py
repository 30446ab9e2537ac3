"""The Practice panel on REAL VPCS nodes of the real GNS3 server, driven like a learner would.

PC1 (192.0.2.1/24) and PC2 (192.0.2.2/24) are linked and started. In a Practice session the panel
prepares a wrong-address exercise, shows its sealed approval, injects after Approve, the check
fails, a hint, the learner fixes PC1 over the console, the check passes and the score is shown and
listed. Until the exercise ends, no widget of the chat shows what was injected. The injection
shows its step with the elapsed time, the exercise opens with its ticket, a hint does not move
the buttons, the panel leaves the chat at least half of the height; a second exercise is given
up (after the question), its faults undone by approval with no error, and both stay listed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PyQt6.QtWidgets import QAbstractButton
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.practice.catalog import load_catalog
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.store import ExerciseStore
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.practice.panel import PracticePanel
from tests.core.practice.test_practice_live import ADDRESSES, PracticeLab
from tests.helpers.fake_backend import ScriptedBackend
from tests.helpers.practice_standin import assert_sealed
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = [pytest.mark.gns3, pytest.mark.slow]

T = TypeVar("T")


def drive(qtbot: QtBot, coro: Coroutine[Any, Any, T], timeout_s: float = 60.0) -> T:
    """Run `coro` on the qasync loop while Qt spins; its result (or its exception)."""
    task = asyncio.get_event_loop().create_task(coro)
    qtbot.waitUntil(task.done, timeout=int(timeout_s * 1000))
    return task.result()


@pytest.fixture
def live_lab(
    qtbot: QtBot,
    qasync_loop: asyncio.AbstractEventLoop,
    gns3_vpcs_lab: Gns3VpcsLab,
    tmp_path: Path,
) -> Iterator[PracticeLab]:
    """Two linked, started, addressed VPCS nodes and a practice engine on them."""
    stack = contextlib.AsyncExitStack()

    async def setup() -> PracticeLab:
        client, pid, pc1, pc2 = await stack.enter_async_context(
            two_linked_pcs(gns3_vpcs_lab, "practice-ui")
        )
        engine = PracticeEngine(
            client, pid, ExerciseStore(tmp_path / "practice.db", os.urandom(32))
        )
        await engine._power([pc1.name, pc2.name], "started")  # bounded wait on the server
        lab = PracticeLab(client, pid, engine)
        for name, address in ADDRESSES.items():
            await lab.run(name, f"ip {address}", "save")
        assert await lab.pings("PC1", ADDRESSES["PC2"])
        return lab

    try:
        yield drive(qtbot, setup(), 90)
    finally:
        drive(qtbot, stack.aclose(), 60)


def sealed_texts(fault_id: str, undo: list[str]) -> list[str]:
    """What must not show before the exercise ends: id, title, symptoms, hints, undo steps."""
    fault = load_catalog().get(fault_id)
    return [fault.id, fault.title, fault.symptoms, *fault.hints, *undo]


def click_when_enabled(qtbot: QtBot, button: QAbstractButton) -> None:
    """Click once the panel is idle again (its buttons are off while the engine works)."""
    qtbot.waitUntil(button.isEnabled, timeout=30000)
    button.click()


def the_card(practice: PracticePanel) -> ApprovalCard:
    card = practice._card
    assert card is not None
    return card


def test_an_exercise_injected_checked_hinted_fixed_and_scored(
    qtbot: QtBot, live_lab: PracticeLab
) -> None:
    lab = live_lab
    backend = ScriptedBackend()
    backend.practice_engine = lab.engine
    backend.add_session("Assistant chat")
    panel = ChatPanel(backend)
    qtbot.addWidget(panel)
    panel.resize(520, 900)
    panel.show()
    practice = panel.practice
    assert not practice.isVisible()

    # A new Practice session from the picker opens with the panel and the badge.
    [practice_action] = [a for a in panel.sessions.mode_menu.actions() if a.data() == "practice"]
    practice_action.trigger()
    qtbot.waitUntil(
        lambda: practice.isVisible() and practice.topic_combo.count() > 1, timeout=30000
    )
    assert backend.created_modes == ["practice"]
    assert panel.mode_badge.isVisible() and panel.mode_badge.text() == "Practice"
    assert "addressing" in [
        practice.topic_combo.itemText(i) for i in range(practice.topic_combo.count())
    ]

    # Wrong address: the check fails, a hint, the fix over the console, the check passes.
    practice.fault_ids = ["vpcs-wrong-address"]
    sealed = sealed_texts("vpcs-wrong-address", ["ip 192.0.2.1/24"])
    practice.start_button.click()
    qtbot.waitUntil(lambda: practice._card is not None, timeout=30000)
    card = the_card(practice)
    assert card.items[0].summary == "inject 1 beginner fault on 1 device"
    assert not card.items[0].always.isVisible()
    assert drive(qtbot, lab.pings("PC1", ADDRESSES["PC2"]))  # nothing changed yet
    card.items[0].approve.click()
    qtbot.waitUntil(lambda: "Injecting the faults" in practice.status_label.text(), timeout=5000)
    assert not practice.check_button.isEnabled()
    qtbot.waitUntil(  # the step under way, with its elapsed time
        lambda: (
            re.search(r"on its device… \d+ s$", practice.status_label.text()) is not None
            or practice.active_row.isVisible()
        ),
        timeout=60000,
    )
    qtbot.waitUntil(lambda: practice.active_row.isVisible(), timeout=60000)
    assert "every fault confirmed" in practice.status_label.text()
    ticket = practice.ticket_label.text()
    assert practice.ticket_label.isVisible() and ticket.startswith("Ticket: PC1 cannot reach PC2")
    assert "{" not in ticket
    exercise_id = practice.exercise_id
    assert exercise_id is not None
    item = panel.view.card(f"practice-inject-{exercise_id}")
    assert item is not None and item.summary == "Injected (sealed)"
    assert practice.elapsed_label.text().startswith("Exercise running: ")
    assert_sealed(panel, sealed)

    click_when_enabled(qtbot, practice.check_button)
    qtbot.waitUntil(lambda: practice.checks_label.isVisible(), timeout=30000)
    qtbot.waitUntil(lambda: practice.check_button.isEnabled(), timeout=30000)
    assert "failed" in practice.checks_label.text()
    assert "Not fixed yet" in practice.status_label.text()
    buttons_at = practice.check_button.mapTo(panel, practice.check_button.rect().topLeft())
    click_when_enabled(qtbot, practice.hint_button)
    qtbot.waitUntil(lambda: practice.hints_label.isVisible(), timeout=10000)
    qtbot.wait(50)  # the layout settles
    assert practice.check_button.mapTo(panel, practice.check_button.rect().topLeft()) == buttons_at
    assert practice.height() <= panel.height() // 2
    assert practice.hints_label.text().startswith("Hint 1 of 3: ")
    hint = load_catalog().get("vpcs-wrong-address").hints[0]
    assert hint in practice.hints_label.text()
    assert_sealed(panel, [t for t in sealed if t != hint])

    drive(qtbot, lab.run("PC1", "ip 192.0.2.1/24"))
    click_when_enabled(qtbot, practice.check_button)
    qtbot.waitUntil(lambda: practice.answer_label.isVisible(), timeout=30000)
    answer = practice.answer_label.text()
    headline = practice.headline_label.text()
    assert headline.startswith("Solved in ") and headline.endswith("with 1 hint(s). Score: 85/100.")
    assert "A host in the wrong subnet (on PC1)" in answer and "ip 192.0.2.1/24" in answer
    assert "failed" not in practice.checks_label.text()
    assert practice.setup_row.isVisible() and not practice.active_row.isVisible()
    assert item.summary == "Injected: A host in the wrong subnet (PC1)"
    qtbot.waitUntil(  # the list is read again once the exercise ended
        lambda: practice.past_list.count() == 1 and "solved" in practice.past_list.item(0).text(),  # type: ignore[union-attr]
        timeout=10000,
    )
    practice.past_toggle.click()
    assert practice.past_list.isVisible()

    # Give up asks first; the faults are undone by approval, cleanly; history stays.
    practice.fault_ids = ["link-suspended"]
    click_when_enabled(qtbot, practice.start_button)
    qtbot.waitUntil(lambda: practice._card is not None, timeout=30000)
    the_card(practice).items[0].approve.click()
    qtbot.waitUntil(lambda: practice.active_row.isVisible(), timeout=60000)
    click_when_enabled(qtbot, practice.give_up_button)
    qtbot.waitUntil(lambda: practice.give_up_box is not None, timeout=5000)
    assert not practice.answer_label.isVisible()  # nothing revealed before the answer
    box = practice.give_up_box
    assert box is not None
    [give_up] = [b for b in box.buttons() if b.text() == "Give up and show the answer"]
    give_up.click()
    qtbot.waitUntil(lambda: practice._card is not None, timeout=30000)
    assert "A link that carries nothing (on PC1 <-> PC2)" in practice.answer_label.text()
    undo = the_card(practice).items[0]
    assert undo.summary == "undo the exercise's faults on PC1, PC2"
    undo.approve.click()
    qtbot.waitUntil(lambda: "faults were undone" in practice.status_label.text(), timeout=60000)
    assert not practice.error_label.isVisible() and practice._card is None
    assert drive(qtbot, lab.pings("PC1", ADDRESSES["PC2"]))
    qtbot.waitUntil(lambda: practice.past_list.count() == 2, timeout=10000)
    rows = [practice.past_list.item(i).text() for i in range(2)]  # type: ignore[union-attr]
    assert "given up" in rows[0] and "solved" in rows[1]
    row = practice.past_list.item(1)  # the solved one kept its history
    assert row is not None and "Beginner" in row.text() and "solved" in row.text()
    assert "score 85" in row.text()
