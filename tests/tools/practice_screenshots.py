"""Screenshots of a whole Practice exercise, taken against the REAL GNS3 server and REAL VPCS.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.tools.practice_screenshots [out_dir]`
(needs what the live tests need: the GNS3 server venv and dynamips, see /work/wt/runtests.sh).
The lab is the tests' real GNS3 3.0.6 server with a real dynamips switch and three running VPCS
hosts (tests/helpers/vpcs_lab: Debian's vpcs behind the labelled ubridge and version doubles).
The dock's Practice panel drives the real `PracticeEngine` and its encrypted store; only the
chat's session list is the ScriptedBackend double (no model is asked anything). Shots:
practice-approval (the sealed card), practice-started (the ticket), practice-checks (a failed
check and a hint), practice-solved (the score), practice-give-up (the question),
practice-undone (the faults undone, history kept).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PyQt6.QtWidgets import QApplication

from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices, target_for_node
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.store import ExerciseStore
from gns3_copilot_desktop.ui.theme import light_palette
from tests.helpers.fake_backend import ScriptedBackend
from tests.helpers.vpcs_lab import vpcs_binary
from tests.helpers.vpcs_lab.gns3_lab import start_gns3_vpcs_lab, stop_lab, switched_pcs
from tests.tools.screenshots import OUT, grab, make_window, seed_sessions, wait_until


async def _lab_ready(client, pid, pcs) -> None:  # type: ignore[no-untyped-def]
    for pc in pcs:
        await client.start_node(pid, pc.node_id)
    await wait_until_async(lambda: _all_started(client, pid), 60)
    nodes = {n.name: n for n in await client.list_nodes(pid)}
    jobs = [
        DeviceJob(target_for_node(nodes[pc.name], client.base_url),
                  (f"ip 192.0.2.{[1, 10, 20][n]}/24", "save"))
        for n, pc in enumerate(pcs)
    ]  # fmt: skip
    for outcome in await run_on_devices(jobs):
        assert outcome.ok, outcome.error


async def _all_started(client, pid) -> bool:  # type: ignore[no-untyped-def]
    return all(n.status == "started" for n in await client.list_nodes(pid))


async def wait_until_async(condition, limit_s: float) -> None:  # type: ignore[no-untyped-def]
    async with asyncio.timeout(limit_s):
        while not await condition():  # noqa: ASYNC110 - the server's state, polled
            await asyncio.sleep(0.5)


async def shoot(out: Path, work: Path) -> None:
    binary = vpcs_binary()
    assert isinstance(binary, Path), binary
    process, lab = start_gns3_vpcs_lab(work, binary)
    try:
        async with switched_pcs(lab, "Broken LAN") as (client, pid, pcs, _switch):
            await _lab_ready(client, pid, pcs)
            engine = PracticeEngine(
                client, pid, ExerciseStore(work / "practice.db", os.urandom(32))
            )
            backend = ScriptedBackend()
            seed_sessions(backend)
            backend.practice_engine = engine
            window, dock = make_window(backend, 1000, 820, 500)
            panel = dock.panel
            await panel.start()
            entry = await backend.create_session("practice")
            await backend.rename_session(entry.session_id, "Broken LAN exercise")
            await panel.sessions.refresh()
            await panel.open_session(entry.session_id)
            practice = panel.practice
            await wait_until(lambda: practice.topic_combo.count() > 1, 60)
            practice.fault_ids = ["vpcs-wrong-mask"]
            practice.difficulty_combo.setCurrentIndex(1)
            practice.start_button.click()
            await wait_until(lambda: practice._card is not None, 60)
            await grab(window, "practice-approval", out)
            assert practice._card is not None
            practice._card.items[0].approve.click()
            await wait_until(lambda: practice.active_row.isVisible(), 60)
            await grab(window, "practice-started", out)
            await wait_until(practice.check_button.isEnabled, 30)
            practice.check_button.click()
            await wait_until(lambda: practice.checks_label.isVisible(), 60)
            await wait_until(practice.hint_button.isEnabled, 60)
            practice.hint_button.click()
            await wait_until(lambda: practice.hints_label.isVisible(), 30)
            await grab(window, "practice-checks", out)
            nodes = {n.name: n for n in await client.list_nodes(pid)}
            [fixed] = await run_on_devices(  # the learner's fix, on PC1's console
                [DeviceJob(target_for_node(nodes["PC1"], client.base_url), ("ip 192.0.2.1/24",))]
            )
            assert fixed.ok, fixed.error
            await wait_until(practice.check_button.isEnabled, 30)
            practice.check_button.click()
            await wait_until(lambda: practice.answer_label.isVisible(), 60)
            await grab(window, "practice-solved", out)

            practice.fault_ids = ["link-suspended"]
            practice.difficulty_combo.setCurrentIndex(0)
            await wait_until(practice.start_button.isEnabled, 30)
            practice.start_button.click()
            await wait_until(lambda: practice._card is not None, 60)
            practice._card.items[0].approve.click()
            await wait_until(lambda: practice.active_row.isVisible(), 60)
            await wait_until(practice.give_up_button.isEnabled, 30)
            practice.give_up_button.click()
            await wait_until(lambda: practice.give_up_box is not None, 10)
            await grab_with_box(window, practice, out)
            box = practice.give_up_box
            assert box is not None
            [yes] = [b for b in box.buttons() if b.text() == "Give up and show the answer"]
            yes.click()
            await wait_until(lambda: practice._card is not None, 60)
            practice._card.items[0].approve.click()
            await wait_until(lambda: "faults were undone" in practice.status_label.text(), 60)
            if not practice.past_list.isVisible():
                practice.past_toggle.click()
            await wait_until(lambda: practice.past_list.count() == 2, 30)
            await grab(window, "practice-undone", out)
            window.close()
    finally:
        stop_lab(process)


async def grab_with_box(window, practice, out: Path) -> None:  # type: ignore[no-untyped-def]
    """The window with the question drawn over it (offscreen, the box is its own window)."""
    from PyQt6.QtGui import QPainter

    await asyncio.sleep(0.2)
    picture = window.grab()
    box = practice.give_up_box
    box_picture = box.grab()
    painter = QPainter(picture)
    x = (picture.width() - box_picture.width()) // 2
    y = (picture.height() - box_picture.height()) // 2
    painter.drawPixmap(x, y, box_picture)
    painter.end()
    path = out / "practice-give-up.png"
    picture.save(str(path))
    print(path)


async def main(out: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    app.setStyle("Fusion")
    app.setPalette(light_palette())
    with tempfile.TemporaryDirectory(prefix="practice-shots-") as work:
        await shoot(out, Path(work))


def run(out: Path) -> None:
    QApplication.instance() or QApplication(sys.argv)
    qasync.run(main(out))


if __name__ == "__main__":
    run(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
