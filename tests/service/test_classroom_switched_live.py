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
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from gns3_copilot_desktop.core.gns3 import Gns3Client
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
)
from tests.helpers.gns3_server import find_dynamips
from tests.helpers.vpcs_lab import lab_unavailable, vpcs_binary
from tests.helpers.vpcs_lab.gns3_lab import (
    Gns3VpcsLab,
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

        async def build() -> None:
            await asyncio.gather(*(switched_student_lab(base, trainer, s) for s in (alice, bob)))

        asyncio.run(build())
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
    for student in (klass.alice, klass.bob):
        started = klass.start(student, eid)
        assert started.status_code == 200, started.text
        # injected, and proved failing: PC1 is off the subnet and reaches nobody across SW1
        assert WRONG in klass.type_on(student, "PC1", "show ip")
        assert "icmp_seq=" not in klass.type_on(student, "PC1", f"ping {SWITCHED['PC3']} -c 1")

    # Alice fixes it on PC1's console; PC1 reaches PC3 through the switch again
    klass.type_on(klass.alice, "PC1", FIX)
    assert "icmp_seq=" in klass.type_on(klass.alice, "PC1", f"ping {SWITCHED['PC3']} -c 2")
    alice = klass.submit(klass.alice, eid)
    assert alice.status_code == 200, alice.text
    assert alice.json()["score"] == 100
    assert [c["state"] for c in alice.json()["checks"]] == ["pass", "pass", "pass"]

    # Bob leaves it: the checks that fail give nothing, the one that passes its points
    bob = klass.submit(klass.bob, eid)
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
