"""The classroom on a lab as a class builds it, and across a restart of the GNS3 server mid-exam.

Each student's project has a real dynamips Ethernet switch and three running VPCS hosts with
addresses and a gateway; the task's fault is the trainer's own (PC1 moved off the subnet, saved)
and its checks ping across the switch. The GNS3 server here is this module's own (the session's
is shared with other tests), so that it can be stopped by PID and started again on the same port
with the same data dirs while an exam runs. The service restarted mid-exam is
`test_classroom_live.py`'s.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtGui import QImage

from gns3_copilot_desktop.core.gns3 import Gns3Client
from tests.gns3_gui.test_gns3_gui import (
    REPO,
    events_named,
    run_driver,
    write_copilot_settings,
    write_gui_config,
)
from tests.helpers.classroom import (
    GATEWAY,
    SWITCHED,
    SWITCHED_TASK,
    Account,
    Serve,
    admin_account,
    console,
    make_account,
    make_group,
    open_exam,
    start_serve,
    switched_student_lab,
    upload_task,
    wait_started,
)
from tests.helpers.gns3_server import find_dynamips
from tests.helpers.vpcs_lab import lab_unavailable, vpcs_binary
from tests.helpers.vpcs_lab.gns3_lab import (
    Gns3VpcsLab,
    restart_gns3,
    server_generation,
    start_gns3_vpcs_lab,
    stop_lab,
)

pytestmark = [pytest.mark.gns3, pytest.mark.slow]

FIX = f"ip {SWITCHED['PC1']}/24 {GATEWAY}"
WRONG = "198.51.100.1/24"


@dataclass
class SwitchedClass:
    lab: Gns3VpcsLab
    process: subprocess.Popen[str]
    serve: Serve
    trainer: Account
    alice: Account
    bob: Account
    group: str
    task_id: str

    def call(self, who: Account, method: str, path: str, **kwargs: Any) -> httpx.Response:
        url = f"{self.serve.url}{path}"
        return httpx.request(method, url, headers=who.headers, timeout=120, **kwargs)

    def start(self, who: Account, exam_id: str) -> httpx.Response:
        path = f"/v3/classroom/exams/{exam_id}/tasks/{self.task_id}/start"
        return self.call(who, "POST", path, json={"project_id": who.project_id})

    def submit(self, who: Account, exam_id: str) -> httpx.Response:
        return self.call(who, "POST", f"/v3/classroom/exams/{exam_id}/tasks/{self.task_id}/submit")

    def both(self, act: Callable[[Account], httpx.Response]) -> dict[str, httpx.Response]:
        """Alice and Bob do the same at the same time (as a class does); by student name."""
        with ThreadPoolExecutor(2) as pool:
            done = dict(
                zip(
                    (self.alice.name, self.bob.name),
                    pool.map(act, (self.alice, self.bob)),
                    strict=True,
                )
            )
        return done

    def results(self, exam_id: str) -> dict[str, dict[str, Any]]:
        data = self.call(self.trainer, "GET", f"/v3/classroom/exams/{exam_id}/results").json()
        return {r["student"]: r for r in data["rows"]}

    def type_on(self, who: Account, name: str, *commands: str) -> str:
        """Commands on a host of the student's lab, typed with the student's own login."""

        async def go() -> str:
            async with Gns3Client(self.lab.base_url, token=who.token) as client:
                return await console(client, who.project_id, name, *commands)

        return str(asyncio.run(go()))


@pytest.fixture(scope="module")
def klass(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SwitchedClass]:
    dynamips, why = find_dynamips()
    if dynamips is None:
        pytest.skip(why)
    reason = lab_unavailable()
    if reason is not None:
        pytest.skip(reason)
    real_vpcs = vpcs_binary()
    assert isinstance(real_vpcs, Path)
    process, lab = start_gns3_vpcs_lab(tmp_path_factory.mktemp("switched-class"), real_vpcs)
    serve: Serve | None = None
    try:
        base = lab.base_url
        trainer = admin_account(lab)
        alice, bob = make_account(base, trainer), make_account(base, trainer)
        group = make_group(base, trainer, [alice, bob])

        for student in (alice, bob):  # one after the other: two at once once failed to start
            # ("bridge start ... Address already in use" from the ubridge test double)
            asyncio.run(switched_student_lab(base, trainer, student))
        serve = start_serve(base, tmp_path_factory.mktemp("switched-serve"))
        task = upload_task(serve, trainer, SWITCHED_TASK)
        assert task["points"] == 100
        yield SwitchedClass(lab, process, serve, trainer, alice, bob, group, task["task_id"])
    finally:
        if serve is not None:
            serve.stop()
        stop_lab(process)  # the server, its hosts and switches, and its data go with the lab


def test_an_exam_on_a_switched_lab_scores_the_fix_and_withholds_what_still_fails(
    klass: SwitchedClass,
) -> None:
    exam = open_exam(klass.serve, klass.trainer, klass.task_id, klass.group)
    eid = exam["exam_id"]
    started = klass.both(lambda s: klass.start(s, eid))
    assert [r.status_code for r in started.values()] == [200, 200], [
        r.text for r in started.values()
    ]
    for student in (klass.alice, klass.bob):  # injected: PC1 is off the subnet
        assert WRONG in klass.type_on(student, "PC1", "show ip")
    # and proved failing: PC1 reaches nobody across SW1
    assert "icmp_seq=" not in klass.type_on(klass.alice, "PC1", f"ping {SWITCHED['PC3']} -c 1")

    # Alice fixes it on PC1's console; PC1 reaches PC3 through the switch again
    klass.type_on(klass.alice, "PC1", FIX)
    assert "icmp_seq=" in klass.type_on(klass.alice, "PC1", f"ping {SWITCHED['PC3']} -c 2")
    submitted = klass.both(lambda s: klass.submit(s, eid))
    alice, bob = submitted[klass.alice.name], submitted[klass.bob.name]
    assert alice.status_code == 200, alice.text
    assert alice.json()["score"] == 100
    assert [c["state"] for c in alice.json()["checks"]] == ["pass", "pass", "pass"]

    # Bob left it: the checks that fail give nothing, the one that passes its points
    assert bob.status_code == 200, bob.text
    assert [c["state"] for c in bob.json()["checks"]] == ["fail", "fail", "pass"]
    assert bob.json()["score"] == 20
    assert [c["message"] for c in bob.json()["checks"][:2]] == [
        "PC1 gets no answer from PC3.",
        "PC1 gets no answer from PC2.",
    ]
    rows = klass.results(eid)
    assert {name: (r["status"], r["score"]) for name, r in rows.items()} == {
        klass.alice.name: ("submitted", 100),
        klass.bob.name: ("submitted", 20),
    }
    klass.type_on(klass.bob, "PC1", FIX, "save")  # his lab as the next test wants it


def test_a_gns3_restart_mid_exam_scores_nothing_it_cannot_read_and_keeps_the_attempt(
    klass: SwitchedClass,
) -> None:
    exam = open_exam(klass.serve, klass.trainer, klass.task_id, klass.group, title="Restart")
    eid = exam["exam_id"]
    started = klass.both(lambda s: klass.start(s, eid))
    assert [r.status_code for r in started.values()] == [200, 200], started
    before, old_pid = server_generation(klass.lab)

    restart_gns3(klass.process, klass.lab)  # stopped by PID, the same port and data dirs

    generation, pid = server_generation(klass.lab)
    assert generation == before + 1 and pid != old_pid

    async def lab_state(who: Account) -> tuple[str, set[str]]:
        async with Gns3Client(klass.lab.base_url, token=who.token) as client:
            project = await client.get_project(who.project_id)
            nodes = await client.list_nodes(who.project_id)
        return project.status, {n.status for n in nodes}

    assert asyncio.run(lab_state(klass.alice)) == ("closed", {"stopped"})
    # a submit on the stopped lab: no check passes, nothing is recorded, the attempt runs on
    for student in (klass.alice, klass.bob):
        refused = klass.submit(student, eid)
        assert refused.status_code == 409, refused.text
        said = refused.json()["message"]
        assert said.startswith("Nothing was recorded: 3 of 3 checks cannot read your lab")
        assert "PC1 is stopped" in said and "Start your lab and submit again" in said
    rows = klass.results(eid)
    assert {name: (r["status"], r["score"]) for name, r in rows.items()} == {
        klass.alice.name: ("running", None),
        klass.bob.name: ("running", None),
    }
    # the service kept the attempt as it was: the same clock, no second injection
    again = klass.start(klass.alice, eid)
    assert again.status_code == 200 and again.json() == started[klass.alice.name].json()

    async def start_lab(who: Account) -> None:
        async with Gns3Client(klass.lab.base_url, token=who.token) as client:
            await client.open_project(who.project_id)
            await client.start_all_nodes(who.project_id)
            await wait_started(client, who.project_id)

    asyncio.run(start_lab(klass.alice))  # Alice starts her lab again, with her own login
    assert WRONG in klass.type_on(klass.alice, "PC1", "show ip"), "the saved fault is still in"
    klass.type_on(klass.alice, "PC1", FIX)
    done = klass.submit(klass.alice, eid)
    assert done.status_code == 200, done.text
    assert done.json()["score"] == 100 and not done.json()["late"]
    assert done.json()["started_at"] == started[klass.alice.name].json()["started_at"]
    later = klass.submit(klass.alice, eid)
    assert later.status_code == 409 and "cannot change" in later.json()["message"]
    rows = klass.results(eid)
    assert len(rows) == 2
    assert (rows[klass.alice.name]["status"], rows[klass.alice.name]["score"]) == ("submitted", 100)
    assert rows[klass.bob.name]["status"] == "running", "Bob's lab is still down: no result yet"


CLASSROOM_SHOT = REPO / "docs" / "screenshots" / "classroom-docked.png"


@dataclass(frozen=True)
class _GuiLogin:
    base_url: str
    username: str
    password: str


@pytest.mark.asyncio
async def test_a_students_exam_in_the_class_panel_docked_in_the_gns3_gui(
    klass: SwitchedClass, tmp_path: Path
) -> None:
    """The real GNS3 GUI 3.0.6 logged in as Alice, her switched lab open in it, the Copilot
    docked with the class's service: she chooses the exam, starts it (the service injects the
    fault into her lab), takes a hint. The README's picture of the docked Class panel."""
    exam = open_exam(
        klass.serve, klass.trainer, klass.task_id, klass.group, title="Week 5 lab exam",
        assist="hints",
    )  # fmt: skip
    alice = klass.alice
    write_gui_config(tmp_path / "config", _GuiLogin(klass.lab.base_url, alice.name, alice.password))
    write_copilot_settings(tmp_path / "copilot-home", "http://127.0.0.1:9/v1", klass.serve.url)
    async with Gns3Client(klass.lab.base_url, token=alice.token) as client:
        project = await client.get_project(alice.project_id)
    screenshot = tmp_path / "classroom-docked.png"
    config = {
        "results": str(tmp_path / "results.jsonl"),
        "home": str(tmp_path / "copilot-home"),
        "screenshot": str(screenshot),
        "classroom": {
            "project_id": alice.project_id,
            "project_name": project.name,
            "exam_title": exam["title"],
        },
    }
    events, output = await run_driver(config, tmp_path)

    context = f"driver events: {json.dumps(events, indent=1)}\ndriver output:\n{output[-4000:]}"
    assert events_named(events, "error") == [], context
    (exit_event,) = events_named(events, "exit")
    assert exit_event["code"] == 0, context
    (followed,) = events_named(events, "followed")
    assert followed["gui_project_name"] == project.name, context
    (shown,) = events_named(events, "classroom")
    assert shown["title"] == "PC1 off the subnet · 100 points · 20 min", shown
    assert shown["ticket"] == "PC1 reaches nobody since the weekend; PC2 and PC3 are fine."
    assert "left" in shown["time_left"] and shown["error"] == "", shown
    assert "Compare PC1's address and gateway" in shown["hints"], shown
    assert shown["buttons"] == ["Submit"], shown  # its only hint taken: no Hint left
    assert not any("198.51.100" in text for text in shown["texts"]), "the answer in the dock"
    # started from the GUI: the service injected the fault into her lab, with her login
    rows = klass.results(exam["exam_id"])
    assert rows[alice.name]["status"] == "running", rows
    assert WRONG in await asyncio.to_thread(klass.type_on, alice, "PC1", "show ip")
    (shot,) = events_named(events, "screenshot")
    assert shot["saved"] and QImage(str(screenshot)).width() == shot["width"] >= 1200
    if os.environ.get("GNS3_COPILOT_UPDATE_SCREENSHOTS") == "1":
        CLASSROOM_SHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(screenshot, CLASSROOM_SHOT)
