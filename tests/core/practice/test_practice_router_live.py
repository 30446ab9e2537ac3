"""Practice across and on a REAL router: the project's FRR router (a QEMU node of the real GNS3
server) routing between two VPCS hosts in two subnets.

"A host with the wrong default gateway" binds only where a host has another host beyond its
gateway; on this lab it is injected, its check (reaching the host beyond the router) fails, the
learner's fix on the host's console makes it pass, and giving up restores the lab.

The router's serial console is logged in as root through the engine's console logins, so the
catalog's ``linux`` faults (``ip``, ``sysctl``, ``iptables``, FRR's ``vtysh -c``) bind to it from
what its shell shows.

Each fault is injected, its checks fail, the learner's fix typed on the router's shell makes them
pass; then it is injected again, given up and restored, and the lab works again. A QEMU node the
user saved no console login for is never typed at, and a hostile interface name is never filled
into a command (`tests/core/practice/test_linux_facts.py`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

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
from gns3_copilot_desktop.core.practice.catalog import load_catalog
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.lab_facts import _fill
from gns3_copilot_desktop.core.practice.store import ExerciseStore, PracticeError
from tests.helpers.frr_router import (
    BOOT_TIMEOUT_S,
    ROUTER_PASSWORD,
    SHELL_USER,
    FrrTemplate,
    logged_in_client,
    wait_for_login_prompt,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]

ROUND_TRIP = ["vpcs-wrong-gateway"]
"""The host faults this lab takes through inject, failing, fixed, passing, given up and restored."""
SHELL_ROUND_TRIP = [
    "linux-interface-down",
    "linux-wrong-address",
    "linux-default-route-missing",
    "linux-forwarding-off",
    "linux-iptables-icmp",
    "linux-mtu-small",
    "linux-arp-static-wrong",
    "frr-ospf-cost",
]
"""The router's faults taken through the same round trip on its shell."""
HOSTS = {"PC1": ("192.0.2.1/24", "192.0.2.254"), "PC2": ("198.51.100.1/24", "198.51.100.254")}
ROUTER_SETUP = (
    "sysctl -w net.ipv4.ip_forward=1",
    "ip addr add 192.0.2.254/24 dev eth0",
    "ip addr add 198.51.100.254/24 dev eth1",
    "ip route replace default via 198.51.100.2",
    "vtysh -c 'configure terminal' -c 'router ospf' -c 'network 192.0.2.0/24 area 0'",
)
"""R1 set up from its shell, as a Linux router: the addresses, forwarding and the default route
are the kernel's (zebra puts back what it configured itself when the kernel loses it), OSPF is
FRR's. The default route leads to an address nobody holds: a VPCS answers an echo for any
address sent to its MAC, so a default route through PC2 would make every address answer. The
serial console keeps whoever logged in last, so configuring R1 as ``admin`` would
leave it in vtysh for the engine's root login."""
ROOT = DeviceCredentials(SHELL_USER, ROUTER_PASSWORD)


@dataclass
class ShellLab:
    client: Gns3Client
    project_id: str
    engine: PracticeEngine
    options: ConsoleOptions

    async def node(self, name: str) -> Node:
        return next(n for n in await self.client.list_nodes(self.project_id) if n.name == name)

    async def shell(self, *commands: str) -> str:
        """Commands typed on R1's shell, as root (the learner at the router)."""
        target = target_for_node(await self.node("R1"), self.client.base_url)
        [outcome] = await run_on_devices([DeviceJob(target, commands, (), ROOT)], self.options)
        assert outcome.ok, outcome.error
        return "\n".join(r.output for r in outcome.results)

    async def run(self, name: str, *commands: str) -> str:
        """Commands on a host's console."""
        target = target_for_node(await self.node(name), self.client.base_url)
        [outcome] = await run_on_devices([DeviceJob(target, commands)])
        assert outcome.ok, outcome.error
        return "\n".join(r.output for r in outcome.results)

    async def reaches(self, name: str, address: str) -> bool:
        return f"{address} icmp_seq=" in await self.run(name, f"ping {address} -c 2")


async def _until(condition: object, within: float) -> None:
    async with asyncio.timeout(within):
        while not await condition():  # type: ignore[operator]  # noqa: ASYNC110 - the lab, polled
            await asyncio.sleep(1)


ASKED: list[str] = []
"""The nodes the engine asked a console login for."""


async def _root_for_routers(node: Node) -> DeviceCredentials | None:
    """The console logins a user saved: root for the router, none for the hosts."""
    ASKED.append(node.node_type)
    return ROOT if node.name == "R1" else None


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shell_lab(
    frr_template: FrrTemplate, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ShellLab]:
    """One lab for the module's tests (a router boot is most of a test's time here)."""
    client = await logged_in_client(frr_template.lab)
    async with client:
        pid = (await client.create_project("practice-shell")).project_id
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
            url = frr_template.lab.base_url
            jobs = [
                DeviceJob(target_for_node(router, url), ROUTER_SETUP, (), ROOT),
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
                assert all(r.error is None for r in outcome.results), outcome.results
            store = ExerciseStore(
                tmp_path_factory.mktemp("practice") / "practice.db", os.urandom(32)
            )
            engine = PracticeEngine(
                client, pid, store, console_options=options, logins=_root_for_routers
            )
            engine.recheck_delay_s = 1.0
            lab = ShellLab(client, pid, engine, options)
            await _until(lambda: lab.reaches("PC1", HOSTS["PC2"][0].split("/")[0]), 60)
            yield lab
        finally:
            await client.delete_project(pid)


async def test_a_wrong_gateway_is_found_beyond_the_router_and_fixed(shell_lab: ShellLab) -> None:
    lab, engine = shell_lab, shell_lab.engine
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
    await _until(lambda: lab.reaches("PC1", HOSTS["PC2"][0].split("/")[0]), 30)
    await _until(lambda: lab.reaches("PC2", HOSTS["PC1"][0].split("/")[0]), 30)


async def test_every_shell_fault_injected_failing_fixed_passing_given_up_and_restored(
    shell_lab: ShellLab,
) -> None:
    lab, engine = shell_lab, shell_lab.engine
    catalog = load_catalog()
    # without the router's login the engine does not type at its console (any QEMU appliance
    # could be behind it): no Linux fault applies to the same lab
    bare = PracticeEngine(lab.client, lab.project_id, engine._store, console_options=lab.options)
    with pytest.raises(PracticeError, match="does not apply to this lab"):
        await bare.prepare("s", difficulty="beginner", fault_ids=["linux-interface-down"])
    for number, fault_id in enumerate(SHELL_ROUND_TRIP):
        plan = await engine.prepare(f"fix-{number}", difficulty="advanced", fault_ids=[fault_id])
        await engine.approve(plan.exercise_id)
        record = await engine._store.get(plan.exercise_id)  # the sealed answer, to play the learner
        [fault] = record.sealed
        assert fault.platform == "linux" and fault.node == "R1", fault
        report = await engine.check(plan.exercise_id)
        assert not report.solved, (fault_id, report.checks)
        assert "failed" in [c.state for c in report.checks], (fault_id, report.checks)

        undo = catalog.get(fault_id).undo["linux"].console
        await lab.shell(*(_fill(line, fault.params) for line in undo))  # the learner's fix
        report = await engine.check(plan.exercise_id)
        assert report.solved, (fault_id, report.checks)

        again = await engine.prepare(f"up-{number}", difficulty="advanced", fault_ids=[fault_id])
        await engine.approve(again.exercise_id)
        assert not (await engine.check(again.exercise_id)).solved, fault_id
        await engine.give_up(again.exercise_id)
        assert await engine.restore(again.exercise_id) == [], fault_id
        await _until(lambda: lab.reaches("PC1", HOSTS["PC2"][0].split("/")[0]), 30)
    # a host's console never asks for a login: the keyring and GNS3's templates are not read
    # for it at every check
    assert ASKED and set(ASKED) == {"qemu"}, ASKED
