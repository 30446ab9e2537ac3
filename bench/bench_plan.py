"""Lab plans on the real GNS3 server 3.0.6 with startable VPCS (the tests' VPCS lab: real server,
dynamips switch, real vpcs behind the labelled ubridge/vpcs test doubles; see
tests/helpers/vpcs_lab): apply a 10-node plan (two switches and eight hosts with addresses) from
approval to verified; then, on that running lab, add one PC from approval to verified, watching
the project's notification stream for any running node that leaves "started".

Targets: a 10-node plan applied <= 8 s; one PC added to a running 10-node lab <= 5 s; running
nodes stopped: 0.

    .venv/bin/python -m bench plan
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.plan_tools import PlanLabTool
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.notifications import LinkState
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from tests.helpers.vpcs_lab import lab_unavailable, vpcs_binary
from tests.helpers.vpcs_lab.gns3_lab import start_gns3_vpcs_lab, stop_lab

HOSTS = 8
"""With two switches: a 10-node lab (a switch has 8 ports, so the hosts are split over two)."""


def _spec(hosts: int) -> dict[str, Any]:
    names = [f"PC{i}" for i in range(1, hosts + 1)]
    return {
        "nodes": [
            {"name": "SW1", "template": "Ethernet switch", "x": 0, "y": 0},
            {"name": "SW2", "template": "Ethernet switch", "x": 300, "y": 0},
        ]
        + [{"name": n, "template": "VPCS"} for n in names],
        "links": [
            {"a": {"node": "SW1", "port": "Ethernet7"}, "b": {"node": "SW2", "port": "Ethernet7"}}
        ]
        + [
            {"a": {"node": n}, "b": {"node": "SW1" if i % 2 else "SW2"}, "subnet": "lan"}
            for i, n in enumerate(names, 1)
        ],
        "subnets": [{"name": "lan", "prefix": "10.9.0.0/24"}],
        "addresses": [
            {"node": n, "interface": "e0", "address": f"10.9.0.{i}/24"}
            for i, n in enumerate(names, 1)
        ],
    }


async def _run(base_url: str, username: str, password: str) -> list[tuple[str, str, str, bool]]:
    async with Gns3Client(base_url) as client:
        client.token = (await client.authenticate(username, password)).access_token
        pid = (await client.create_project("bench-plan", auto_close=False)).project_id
        ctx = RunContext(
            client=client,
            project_id=pid,
            model=FakeListChatModel(responses=[""]),
            server_url=base_url,
        )
        tool = PlanLabTool()
        try:
            started = time.perf_counter()
            first = await tool.run(LabSpec.model_validate(_spec(HOSTS)), ctx)
            ten = time.perf_counter() - started
            assert not first.is_error, first.text
            failed = [c for c in first.structured["checks"] if not c["passed"]]  # type: ignore[index]
            running = {n.name for n in await client.list_nodes(pid) if n.status == "started"}

            history: dict[str, list[str]] = {}
            linked = asyncio.Event()

            def on_link(state: LinkState) -> None:
                if state.connected:
                    linked.set()

            async def watch() -> None:
                async for note in client.project_notifications(pid, on_link=on_link):
                    name = note.event.get("name")
                    if note.action == "node.updated" and isinstance(name, str):
                        history.setdefault(name, []).append(str(note.event.get("status")))

            watcher = asyncio.create_task(watch())
            await asyncio.wait_for(linked.wait(), 15)
            started = time.perf_counter()
            second = await tool.run(LabSpec.model_validate(_spec(HOSTS + 1)), ctx)
            one = time.perf_counter() - started
            assert not second.is_error, second.text
            await asyncio.sleep(1.0)  # late notifications of the run
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            stopped = sorted(
                name
                for name, seen in history.items()
                if name in running and any(s != "started" for s in seen)
            )
            checks = second.structured["checks"]  # type: ignore[index]
            failed += [c for c in checks if not c["passed"]]
            pings = sum(1 for c in [*first.structured["checks"], *checks] if "pings" in c["check"])  # type: ignore[index]
        finally:
            with contextlib.suppress(CopilotError):  # the server may be the failure
                await client.delete_project(pid)
    return [
        ("10-node plan, approval to verified", f"{ten:.1f} s", "<= 8 s", ten <= 8),
        ("add 1 PC to running 10-node lab", f"{one:.1f} s", "<= 5 s", one <= 5),
        ("running nodes stopped", f"{len(stopped)} {stopped}", "0", not stopped),
        ("verification pings failed", f"{len(failed)} of {pings}", "0", not failed),
    ]


def main() -> None:
    """Start the VPCS lab, run both plans, print the table."""
    reason = lab_unavailable()
    if reason is not None:
        raise SystemExit(f"the VPCS lab cannot run here: {reason}")
    real_vpcs = vpcs_binary()
    assert isinstance(real_vpcs, Path)
    with tempfile.TemporaryDirectory(prefix="bench-plan-") as folder:
        process, lab = start_gns3_vpcs_lab(Path(folder), real_vpcs)
        try:
            rows = asyncio.run(_run(lab.base_url, lab.username, lab.password))
        finally:
            stop_lab(process)
    print(f"{'measure':40} {'value':>16}  {'target':8} ok")
    for name, value, target, ok in rows:
        print(f"{name:40} {value:>16}  {target:8} {'yes' if ok else 'NO'}")
