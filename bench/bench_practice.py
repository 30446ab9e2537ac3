"""Practice: the time from Approve to "exercise started (verified)" on a real 4-node lab.

Run: ``.venv/bin/python -m bench practice [--rounds 3]`` (needs the GNS3 server venv and dynamips
the tests use: ``GNS3_SERVER_VENV``, ``GNS3_DYNAMIPS_PATH``; see tests/tools). The lab is the
tests' REAL GNS3 3.0.6 server with a REAL dynamips Ethernet switch and three running VPCS hosts
(tests/helpers/vpcs_lab: Debian's vpcs behind the labelled ubridge and version test doubles).
For each fault kind the engine prepares an exercise, then `approve` is timed: the faults' own
inject steps, the read-back of the device and the fault's checks failing, as the panel's
Approve runs it. Each exercise is then given up and its faults undone (also timed). Target: the
start within 5 s (it took 84 s when the engine stopped the lab for a GNS3 snapshot).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices, target_for_node
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.store import ExerciseStore
from tests.helpers.vpcs_lab import lab_unavailable, vpcs_binary
from tests.helpers.vpcs_lab.gns3_lab import start_gns3_vpcs_lab, stop_lab, switched_pcs

FAULTS = (
    "vpcs-wrong-mask",
    "vpcs-duplicate-address",
    "link-suspended",
    "link-heavy-loss",
    "link-delay",
)
TARGET_S = 5.0


async def _bench(run_dir: Path, rounds: int) -> list[tuple[str, float, float]]:
    binary = vpcs_binary()
    assert isinstance(binary, Path)
    process, lab = start_gns3_vpcs_lab(run_dir, binary)
    rows: list[tuple[str, float, float]] = []
    try:
        async with switched_pcs(lab, "bench-practice") as (client, pid, pcs, _switch):
            for pc in pcs:
                await client.start_node(pid, pc.node_id)
            async with asyncio.timeout(60):
                while not all(  # noqa: ASYNC110 - the server's state, polled
                    n.status == "started" for n in await client.list_nodes(pid)
                ):
                    await asyncio.sleep(0.5)
            nodes = {n.name: n for n in await client.list_nodes(pid)}
            jobs = [
                DeviceJob(target_for_node(nodes[pc.name], client.base_url),
                          (f"ip 192.0.2.{10 * n + 1}/24", "save"))
                for n, pc in enumerate(pcs)
            ]  # fmt: skip
            for outcome in await run_on_devices(jobs):
                assert outcome.ok, outcome.error
            store = ExerciseStore(run_dir / "practice.db", os.urandom(32))
            engine = PracticeEngine(client, pid, store)
            for fault_id in FAULTS:
                difficulty = engine._catalog.get(fault_id).difficulty
                for _ in range(rounds):
                    plan = await engine.prepare(
                        "bench", difficulty=difficulty, fault_ids=[fault_id]
                    )
                    started = time.perf_counter()
                    await engine.approve(plan.exercise_id)  # returns once verified
                    approve_s = time.perf_counter() - started
                    await engine.give_up(plan.exercise_id)
                    started = time.perf_counter()
                    left = await engine.restore(plan.exercise_id)
                    assert left == [], left
                    rows.append((fault_id, approve_s, time.perf_counter() - started))
    finally:
        stop_lab(process)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench practice")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv if argv is not None else sys.argv[2:])
    reason = lab_unavailable()
    if reason:
        raise SystemExit(reason)
    with tempfile.TemporaryDirectory(prefix="bench-practice-") as work:
        rows = asyncio.run(_bench(Path(work), args.rounds))
    print(f"{'fault':<22} {'Approve -> started (verified)':>30} {'undo after Give up':>20}")
    for fault_id in FAULTS:
        mine = [r for r in rows if r[0] == fault_id]
        starts = [r[1] for r in mine]
        undos = [r[2] for r in mine]
        print(
            f"{fault_id:<22} {statistics.median(starts):>22.2f} s med "
            f"{max(starts):>5.2f} max {statistics.median(undos):>15.2f} s"
        )
    worst = max(r[1] for r in rows)
    verdict = "met" if worst <= TARGET_S else "NOT met"
    print(
        f"slowest start {worst:.2f} s over {len(rows)} exercises: "
        f"target <= {TARGET_S:.0f} s {verdict}"
    )
