"""The classroom under a class: N students (30 by default) start the same exam task at once, then
all submit at once.

Run: ``.venv/bin/python -m bench classroom [--students 30]`` (needs the GNS3 server venv the
tests use, ``GNS3_SERVER_VENV``; see tests/tools). Everything is real and on loopback: the GNS3
3.0.6 server of the tests' VPCS lab (Debian's vpcs behind the labelled ubridge and version test
doubles), one GNS3 account per student in one GNS3 group, one project per student with one
running VPCS host in a resource pool the student has GNS3's User role on, and `gns3-copilot
serve` with its SQLite records. Each student starts the task with their own GNS3 login: the
service injects the fault on their host's console and checks that it shows before answering.
Reported: the time to "injected and verified" and to "checked and recorded", p50/p99, and how
many results the service holds afterwards (0 lost or doubled).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.helpers.classroom import (
    Account,
    admin_account,
    make_account,
    make_group,
    open_exam,
    start_serve,
    student_lab,
    upload_task,
)
from tests.helpers.vpcs_lab import lab_unavailable, vpcs_binary
from tests.helpers.vpcs_lab.gns3_lab import start_gns3_vpcs_lab, stop_lab

TASK = """\
format = 1
title = "PC1 moved"
ticket = "PC1 is not where it should be since this morning."
level = "beginner"
time_limit_min = 30

[lab]
project = "one-pc.gns3project"

[[faults]]
device = "PC1"
inject = ["ip 198.51.100.77/24"]
undo = ["ip 192.0.2.1/24"]

[[checks]]
title = "PC1 has its address back"
device = "PC1"
command = "show ip"
pass = { contains = "192.0.2.1/24" }
points = 100
"""


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _timed(method: str, url: str, who: Account, body: dict[str, str] | None) -> tuple[int, float]:
    started = time.perf_counter()
    response = httpx.request(method, url, json=body, headers=who.headers, timeout=600)
    return response.status_code, time.perf_counter() - started


def _bench(run_dir: Path, students: int) -> None:
    binary = vpcs_binary()
    assert isinstance(binary, Path)
    process, lab = start_gns3_vpcs_lab(run_dir / "lab", binary, consoles=3 * students + 10)
    serve = None
    try:
        base = lab.base_url
        trainer = admin_account(lab)
        made = time.perf_counter()
        accounts = [make_account(base, trainer) for _ in range(students)]
        group = make_group(base, trainer, accounts)

        async def labs() -> None:
            for account in accounts:
                await student_lab(base, trainer, account, hosts=1)

        asyncio.run(labs())
        print(f"class of {students} made in {time.perf_counter() - made:.0f} s", file=sys.stderr)
        (run_dir / "serve").mkdir()
        serve = start_serve(base, run_dir / "serve")
        task = upload_task(serve, trainer, TASK)
        exam = open_exam(serve, trainer, task["task_id"], group, title="Bench", duration_min=60)
        path = f"{serve.url}/v3/classroom/exams/{exam['exam_id']}/tasks/{task['task_id']}"
        with ThreadPoolExecutor(students) as pool:
            starts = list(
                pool.map(
                    lambda a: _timed("POST", f"{path}/start", a, {"project_id": a.project_id}),
                    accounts,
                )
            )
            submits = list(pool.map(lambda a: _timed("POST", f"{path}/submit", a, None), accounts))
        results = httpx.get(
            f"{serve.url}/v3/classroom/exams/{exam['exam_id']}/results", headers=trainer.headers
        ).json()["rows"]
        submitted = sum(r["status"] == "submitted" for r in results)
        for name, timings in (("start (injected, verified)", starts), ("submit", submits)):
            seconds = [t for _status, t in timings]
            failed = sum(status != 200 for status, _t in timings)
            print(
                f"{students} students, {name}: p50 {statistics.median(seconds):.2f} s, "
                f"p99 {_percentile(seconds, 0.99):.2f} s, errors {failed}"
            )
        print(
            f"results recorded: {submitted} of {students} (rows {len(results)}); lost "
            f"{students - submitted}"
        )
    finally:
        if serve is not None:
            serve.stop()
        stop_lab(process)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench classroom")
    parser.add_argument("--students", type=int, default=30)
    args = parser.parse_args(sys.argv[2:])
    reason = lab_unavailable()
    if reason is not None:
        print(f"classroom bench skipped: {reason}", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory(prefix="bench-classroom-") as tmp:
        _bench(Path(tmp), args.students)
