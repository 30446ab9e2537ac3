"""The project's FRR router (packaging/router) as a real GNS3 QEMU node, on the tests' real GNS3
server 3.0.6 (the VPCS lab of tests/helpers/vpcs_lab, whose labelled ubridge test double carries
QEMU links): one router's boot to its login prompt, the console round trip of a ``show`` command
in vtysh (median of 10), and a 3-router OSPF plan (R1-R2-R3 in a line, a host behind R1 and R3)
from approval to verified: ``plan_lab`` creates, links and starts the nodes, waits for the routers'
boots, logs in with the template's saved console login, pushes the addresses and OSPF, then reads
the routers until every neighbour is Full and every subnet a route, and the hosts ping each other
across the three routers.

QEMU runs under KVM when a probe boot shows KVM can run the router's kernel here, else under
software emulation (TCG); the table says which. Figures, not targets (issue 27 asks for them).

    .venv/bin/python -m bench router
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.plan_tools import PlanLabTool
from gns3_copilot_desktop.core.devices import DeviceConsole, DeviceCredentials, target_for_node
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from tests.helpers.frr_router import (
    BOOT_TIMEOUT_S,
    ROUTER_PASSWORD,
    ROUTER_USER,
    TEMPLATE_NAME,
    _register,
    acceleration,
    router_build,
    template_login_access,
    wait_for_login_prompt,
)
from tests.helpers.vpcs_lab import lab_unavailable, vpcs_binary
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, start_gns3_vpcs_lab, stop_lab

ROUND_TRIPS = 10


def _router(name: str, x: int) -> dict[str, Any]:
    return {"name": name, "template": TEMPLATE_NAME, "platform": "frr", "ospf": True, "x": x}


SPEC: dict[str, Any] = {
    "nodes": [
        _router("R1", -200),
        _router("R2", 0),
        _router("R3", 200),
        {"name": "PC1", "template": "VPCS", "x": -350, "y": 100},
        {"name": "PC3", "template": "VPCS", "x": 350, "y": 100},
    ],
    "links": [
        {"a": {"node": "R1", "port": "eth0"}, "b": {"node": "R2", "port": "eth0"}},
        {"a": {"node": "R2", "port": "eth1"}, "b": {"node": "R3", "port": "eth0"}},
        {"a": {"node": "PC1"}, "b": {"node": "R1", "port": "eth1"}},
        {"a": {"node": "PC3"}, "b": {"node": "R3", "port": "eth1"}},
    ],
    "subnets": [
        {"name": "r1-r2", "prefix": "10.0.12.0/24"},
        {"name": "r2-r3", "prefix": "10.0.23.0/24"},
        {"name": "lan1", "prefix": "192.0.2.0/24", "gateway": "192.0.2.254"},
        {"name": "lan3", "prefix": "203.0.113.0/24", "gateway": "203.0.113.254"},
    ],
    "addresses": [
        {"node": "R1", "interface": "eth0", "address": "10.0.12.1/24"},
        {"node": "R2", "interface": "eth0", "address": "10.0.12.2/24"},
        {"node": "R2", "interface": "eth1", "address": "10.0.23.2/24"},
        {"node": "R3", "interface": "eth0", "address": "10.0.23.3/24"},
        {"node": "R1", "interface": "eth1", "address": "192.0.2.254/24"},
        {"node": "R3", "interface": "eth1", "address": "203.0.113.254/24"},
        {"node": "PC1", "interface": "Ethernet0", "address": "192.0.2.1/24"},
        {"node": "PC3", "interface": "Ethernet0", "address": "203.0.113.1/24"},
    ],
    "reach": [["PC1", "PC3"], ["PC3", "PC1"]],
}


async def _boot_and_round_trip(client: Gns3Client, template_id: str) -> tuple[float, float]:
    """One router: start to login prompt; then the median round trip of ``show version``."""
    pid = (await client.create_project("bench-router-boot")).project_id
    try:
        node = await client.create_node_from_template(pid, template_id, x=0, y=0, name="R1")
        started = time.monotonic()
        await client.start_node(pid, node.node_id)
        node = await client.get_node(pid, node.node_id)
        assert node.console is not None
        await asyncio.to_thread(wait_for_login_prompt, node.console, BOOT_TIMEOUT_S)
        boot = time.monotonic() - started
        target = target_for_node(node, client.base_url)
        async with DeviceConsole(target, DeviceCredentials(ROUTER_USER, ROUTER_PASSWORD)) as con:
            results = await con.run_commands(["show version"] * ROUND_TRIPS)
        assert all("FRRouting" in r.output for r in results), results
        return boot, statistics.median(r.elapsed_s for r in results)
    finally:
        with contextlib.suppress(CopilotError):
            await client.delete_project(pid)


async def _plan(client: Gns3Client) -> tuple[float, list[dict[str, Any]]]:
    pid = (await client.create_project("bench-router-plan")).project_id
    ctx = RunContext(
        client=client,
        project_id=pid,
        model=FakeListChatModel(responses=[""]),
        server_url=client.base_url,
    )
    try:
        started = time.monotonic()
        applied = await PlanLabTool(await template_login_access()).run(
            LabSpec.model_validate(SPEC), ctx
        )
        took = time.monotonic() - started
        assert not applied.is_error, applied.text
        return took, list(applied.structured["checks"])
    finally:
        with contextlib.suppress(CopilotError):
            await client.delete_project(pid)


async def _run(lab: Gns3VpcsLab, template_id: str) -> list[tuple[str, str]]:
    async with Gns3Client(lab.base_url) as client:
        client.token = (await client.authenticate(lab.username, lab.password)).access_token
        boot, round_trip = await _boot_and_round_trip(client, template_id)
        took, checks = await _plan(client)
    failed = [c["check"] for c in checks if not c["passed"]]
    routing = sum(1 for c in checks if "OSPF" in c["check"] or "route" in c["check"])
    return [
        ("one router, start to login prompt", f"{boot:.1f} s"),
        (f"show version round trip (median of {ROUND_TRIPS})", f"{round_trip * 1000:.0f} ms"),
        ("3-router OSPF plan, approval to verified", f"{took:.1f} s"),
        ("its checks (routing ones)", f"{len(checks)} ({routing})"),
        ("checks failed", f"{len(failed)} {failed}"),
    ]


def main() -> None:
    """Start the VPCS lab, register the router, print the table."""
    reason = lab_unavailable()
    if reason is not None:
        raise SystemExit(f"the VPCS lab cannot run here: {reason}")
    built = router_build()
    if isinstance(built, str):
        raise SystemExit(f"no router: {built}")
    real_vpcs = vpcs_binary()
    assert isinstance(real_vpcs, Path)
    accel = acceleration(built)
    with tempfile.TemporaryDirectory(prefix="bench-router-") as folder:
        process, lab = start_gns3_vpcs_lab(Path(folder), real_vpcs)
        try:
            template_id = _register(lab, built, accel)
            rows = asyncio.run(_run(lab, template_id))
        finally:
            stop_lab(process)
    why = f" ({accel.reason})" if accel.reason else ""
    print(f"QEMU acceleration: {accel.mode}{why}")
    print(f"{'measure':45} value")
    for name, value in rows:
        print(f"{name:45} {value}")
