"""Practice across a REAL router: two VPCS hosts in two subnets, the project's FRR router (a QEMU
node of the real GNS3 server) routing between them.

"A host with the wrong default gateway" binds only where a host has another host beyond its
gateway; on this lab it is injected, its check (reaching the host beyond the router) fails, the
learner's fix on the host's console makes it pass, and giving up restores the lab.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceCredentials,
    DeviceJob,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import LinkEnd, Node
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.store import ExerciseStore
from tests.helpers.frr_router import (
    BOOT_TIMEOUT_S,
    ROUTER_PASSWORD,
    ROUTER_USER,
    FrrTemplate,
    logged_in_client,
    wait_for_login_prompt,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

ROUND_TRIP = ["vpcs-wrong-gateway"]
"""The faults this lab takes through inject, failing, fixed, passing, given up and restored."""
HOSTS = {"PC1": ("192.0.2.1/24", "192.0.2.254"), "PC2": ("198.51.100.1/24", "198.51.100.254")}
ROUTER_LINES = (
    "ip forwarding",
    "interface eth0",
    "ip address 192.0.2.254/24",
    "exit",
    "interface eth1",
    "ip address 198.51.100.254/24",
    "exit",
)


@dataclass
class RoutedLab:
    client: Gns3Client
    project_id: str
    engine: PracticeEngine

    async def node(self, name: str) -> Node:
        return next(n for n in await self.client.list_nodes(self.project_id) if n.name == name)

    async def run(self, name: str, *commands: str) -> str:
        target = target_for_node(await self.node(name), self.client.base_url)
        [outcome] = await run_on_devices([DeviceJob(target, commands)])
        assert outcome.ok, outcome.error
        return "\n".join(r.output for r in outcome.results)

    async def reaches(self, name: str, address: str) -> bool:
        return f"{address} icmp_seq=" in await self.run(name, f"ping {address} -c 2")


async def _until_reached(lab: RoutedLab, name: str, address: str, within: float) -> None:
    async with asyncio.timeout(within):  # the first echoes may go before ARP on both sides
        while not await lab.reaches(name, address):  # noqa: ASYNC110 - the lab's state, polled
            await asyncio.sleep(1)


@pytest_asyncio.fixture
async def routed_lab(frr_template: FrrTemplate, tmp_path: Path) -> AsyncIterator[RoutedLab]:
    client = await logged_in_client(frr_template.lab)
    async with client:
        pid = (await client.create_project("practice-routed")).project_id
        try:
            router = await client.create_node_from_template(
                pid, frr_template.template_id, x=0, y=0, name="R1"
            )
            for adapter, name in enumerate(HOSTS):
                pc = await client.create_node(pid, name, "vpcs", x=-200 + 400 * adapter, y=100)
                await client.create_link(
                    pid,
                    LinkEnd(node_id=pc.node_id, adapter_number=0, port_number=0),
                    LinkEnd(node_id=router.node_id, adapter_number=adapter, port_number=0),
                )
            for node in await client.list_nodes(pid):  # every link made before anything starts
                await client.start_node(pid, node.node_id)
            router = await client.get_node(pid, router.node_id)
            assert router.console is not None
            await asyncio.to_thread(wait_for_login_prompt, router.console, BOOT_TIMEOUT_S)
            options = replace(ConsoleOptions(command_timeout=60), boot_timeout=BOOT_TIMEOUT_S)
            credentials = DeviceCredentials(ROUTER_USER, ROUTER_PASSWORD)
            url = frr_template.lab.base_url
            jobs = [
                DeviceJob(target_for_node(router, url), (), ROUTER_LINES, credentials),
                *[
                    DeviceJob(
                        target_for_node(n, url), (f"ip {HOSTS[n.name][0]} {HOSTS[n.name][1]}",)
                    )
                    for n in await client.list_nodes(pid)
                    if n.name in HOSTS
                ],
            ]
            for outcome in await run_on_devices(jobs, options):
                assert outcome.ok, outcome.error
                assert outcome.config is None or outcome.config.ok, outcome.config
            store = ExerciseStore(tmp_path / "practice.db", os.urandom(32))
            lab = RoutedLab(client, pid, PracticeEngine(client, pid, store))
            await _until_reached(lab, "PC1", HOSTS["PC2"][0].split("/")[0], 60)
            yield lab
        finally:
            await client.delete_project(pid)


async def test_a_wrong_gateway_is_found_beyond_the_router_and_fixed(routed_lab: RoutedLab) -> None:
    lab, engine = routed_lab, routed_lab.engine
    [fault_id] = ROUND_TRIP
    plan = await engine.prepare("s1", difficulty="beginner", fault_ids=[fault_id])
    await engine.approve(plan.exercise_id)
    record = await engine._store.get(plan.exercise_id)  # the sealed answer, to play the learner
    [fault] = record.sealed
    address, gateway = HOSTS[fault.node]
    beyond = next(a.split("/")[0] for name, (a, _) in HOSTS.items() if name != fault.node)
    assert fault.params["beyond"] == beyond and fault.params["gateway"] == gateway
    assert beyond in record.ticket  # the ticket names the host that cannot be reached
    # the host still has its address; only the way out is wrong
    shown = await lab.run(fault.node, "show ip")
    assert address.split("/")[0] in shown and gateway not in shown

    report = await engine.check(plan.exercise_id)
    assert not report.solved and [c.state for c in report.checks] == ["failed"], report.checks

    await lab.run(fault.node, f"ip {address} {gateway}")  # the learner's fix, on the console
    report = await engine.check(plan.exercise_id)
    assert report.solved, report.checks

    again = await engine.prepare("s2", difficulty="beginner", fault_ids=[fault_id])
    await engine.approve(again.exercise_id)
    assert not (await engine.check(again.exercise_id)).solved
    await engine.give_up(again.exercise_id)
    assert await engine.restore(again.exercise_id) == []
    await _until_reached(lab, "PC1", HOSTS["PC2"][0].split("/")[0], 30)
    await _until_reached(lab, "PC2", HOSTS["PC1"][0].split("/")[0], 30)
