"""Two REAL FRR routers linked by GNS3 form an OSPF adjacency over the QEMU link, and practice
breaks it and checks the learner's fix.

GNS3 carries a QEMU node's link through ubridge (a UDP tunnel per adapter); here the clearly named
ubridge test double relays it. The routers are configured from their shells (root, ``vtysh -c``)
through the product's console code (`run_on_devices`), and the check goes beyond ping: the
neighbour is Full in ``show ip ospf neighbor`` and the other router's loopback is an OSPF route in
``show ip route``. The module shares one lab: the practice engine, logged in as root with the
console logins, binds the catalog's FRR OSPF faults to the routers from what their shells show.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceJob,
    DeviceOutcome,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.devices.routing import ospf_neighbor_full, route_present
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import LinkEnd, Node
from gns3_copilot_desktop.core.practice.catalog import load_catalog
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.lab_facts import _fill
from gns3_copilot_desktop.core.practice.store import ExerciseStore
from gns3_copilot_desktop.core.practice.task import PassCondition
from gns3_copilot_desktop.core.practice.task_checks import condition_holds
from tests.helpers.frr_router import (
    BOOT_TIMEOUT_S,
    ROUTER_PASSWORD,
    SHELL_USER,
    FrrTemplate,
    logged_in_client,
    wait_for_login_prompt,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]

ROUND_TRIP = [
    "frr-ospf-network-removed",
    "frr-ospf-area-mismatch",
    "frr-ospf-passive",
    "frr-static-route-missing",
    "frr-bgp-remote-as",
]
"""The routing faults this lab takes through inject, failing, fixed, passing, given up and
restored."""
ROOT = DeviceCredentials(SHELL_USER, ROUTER_PASSWORD)
OSPF_FULL_TIMEOUT_S = 90.0


def _config(index: int) -> str:
    """Router ``index``'s setup, from its shell (the serial console keeps whoever logged in last:
    the engine's root login must find a shell, not vtysh): OSPF point-to-point with short timers
    (Full in seconds, with no election to wait for), a static route, and eBGP with the other
    router retrying its connection every 5 s."""
    lines = (
        "configure terminal",
        "interface eth0",
        f"ip address 10.0.12.{index}/24",
        "ip ospf network point-to-point",
        "ip ospf hello-interval 2",
        "ip ospf dead-interval 8",
        "exit",
        "interface lo",
        f"ip address 192.0.2.{index}/32",
        "exit",
        f"ip route 198.51.100.0/24 10.0.12.{3 - index}",
        "router ospf",
        f"ospf router-id {index}.{index}.{index}.{index}",
        "network 10.0.12.0/24 area 0",
        f"network 192.0.2.{index}/32 area 0",
        "exit",
        f"router bgp 6500{index}",
        f"neighbor 10.0.12.{3 - index} remote-as 6500{3 - index}",
        f"neighbor 10.0.12.{3 - index} timers connect 5",
    )
    return "vtysh " + " ".join(f"-c '{line}'" for line in lines)


def _options() -> ConsoleOptions:
    options = ConsoleOptions(connect_timeout=10, login_timeout=30, command_timeout=60)
    return replace(options, boot_timeout=BOOT_TIMEOUT_S)


async def _run(target: ConsoleTarget, *commands: str) -> DeviceOutcome:
    [outcome] = await run_on_devices([DeviceJob(target, commands, (), ROOT)], _options())
    assert outcome.ok, outcome.error
    return outcome


async def _vtysh(target: ConsoleTarget, command: str) -> str:
    return (await _run(target, f"vtysh -c '{command}'")).results[0].output


@dataclass
class OspfLab:
    client: Gns3Client
    project_id: str
    r1: ConsoleTarget
    r2: ConsoleTarget
    engine: PracticeEngine


async def _logins(node: Node) -> DeviceCredentials | None:
    return ROOT  # the console login a user saved for the router template


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def ospf_lab(
    frr_template: FrrTemplate, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[OspfLab]:
    async with await logged_in_client(frr_template.lab) as client:
        project = await client.create_project("frr-ospf-link")
        pid = project.project_id
        try:
            ra, rb = [
                await client.create_node_from_template(
                    pid, frr_template.template_id, x=x, y=0, name=name
                )
                for name, x in (("R1", -100), ("R2", 100))
            ]
            await client.create_link(
                pid,
                LinkEnd(node_id=ra.node_id, adapter_number=0, port_number=0),
                LinkEnd(node_id=rb.node_id, adapter_number=0, port_number=0),
            )
            await client.start_node(pid, ra.node_id)
            await client.start_node(pid, rb.node_id)
            ra, rb = [await client.get_node(pid, n.node_id) for n in (ra, rb)]
            assert ra.console is not None and rb.console is not None
            url = frr_template.lab.base_url
            ta, tb = target_for_node(ra, url), target_for_node(rb, url)
            await asyncio.gather(
                asyncio.to_thread(wait_for_login_prompt, ra.console, BOOT_TIMEOUT_S),
                asyncio.to_thread(wait_for_login_prompt, rb.console, BOOT_TIMEOUT_S),
            )
            pushed = await asyncio.gather(_run(ta, _config(1)), _run(tb, _config(2)))
            assert all(r.error is None for o in pushed for r in o.results), pushed
            store = ExerciseStore(tmp_path_factory.mktemp("ospf") / "p.db", os.urandom(32))
            engine = PracticeEngine(client, pid, store, console_options=_options(), logins=_logins)
            engine.recheck_delay_s = 1.0
            yield OspfLab(client, pid, ta, tb, engine)
        finally:
            await client.delete_project(pid)


async def _until_full(target: ConsoleTarget) -> str:
    started = time.monotonic()
    neighbours = ""
    while time.monotonic() - started < OSPF_FULL_TIMEOUT_S:
        neighbours = await _vtysh(target, "show ip ospf neighbor")
        if "Full" in neighbours:
            return neighbours
        await asyncio.sleep(2)  # the next read, not a guess: the loop ends on Full
    raise AssertionError(f"no Full OSPF neighbour in {OSPF_FULL_TIMEOUT_S:.0f} s: {neighbours}")


async def test_two_routers_over_a_qemu_link_reach_ospf_full(ospf_lab: OspfLab) -> None:
    ta = ospf_lab.r1
    started = time.monotonic()
    neighbours = await _until_full(ta)
    assert "2.2.2.2" in neighbours and "Full" in neighbours, neighbours
    routes = ""
    while time.monotonic() - started < OSPF_FULL_TIMEOUT_S:
        routes = await _vtysh(ta, "show ip route 192.0.2.2/32")
        if 'Known via "ospf"' in routes:
            break
        await asyncio.sleep(2)  # SPF runs after the adjacency: read again until it has
    assert 'Known via "ospf"' in routes and "10.0.12.2" in routes, routes
    # a trainer's checks read the same real output through the task's parsed conditions
    assert ospf_neighbor_full(neighbours, "2.2.2.2"), neighbours
    assert not ospf_neighbor_full(neighbours, "3.3.3.3"), neighbours
    table = await _vtysh(ta, "show ip route")
    assert route_present(table, "192.0.2.2/32"), table
    assert route_present(table, "10.0.12.0/24"), table  # connected
    assert not route_present(table, "192.0.2.0/24"), table  # a shorter prefix is another
    assert route_present(routes, "192.0.2.2/32"), routes  # the detail of one route
    assert condition_holds(PassCondition(ospf_full="any"), neighbours)
    assert condition_holds(PassCondition(route="192.0.2.2/32"), table)


async def _until_working(target: ConsoleTarget, fault_id: str, params: dict[str, str]) -> None:
    """Until the fault's own checks pass on the router (a protocol comes back after its
    timers)."""
    checks = load_catalog().get(fault_id).checks
    async with asyncio.timeout(OSPF_FULL_TIMEOUT_S):
        while True:
            outputs = [(await _run(target, _fill(c.command or "", params))).results for c in checks]
            texts = ["\n".join(r.output for r in results) for results in outputs]
            expects = [_fill(c.expect or "", params) for c in checks]
            if all(re.search(e, t) for e, t in zip(expects, texts, strict=True)):
                return
            await asyncio.sleep(2)  # read again: the loop ends when they pass


async def _until_solved(lab: OspfLab, exercise_id: str) -> None:
    """Check my fix until it passes: the adjacency comes back a few hellos after the fix."""
    async with asyncio.timeout(OSPF_FULL_TIMEOUT_S):
        while not (await lab.engine.check(exercise_id)).solved:  # noqa: ASYNC110 - the lab
            await asyncio.sleep(2)


async def test_each_ospf_fault_breaks_the_adjacency_and_the_learners_fix_brings_it_back(
    ospf_lab: OspfLab,
) -> None:
    lab, engine = ospf_lab, ospf_lab.engine
    catalog = load_catalog()
    await _until_full(lab.r1)
    for number, fault_id in enumerate(ROUND_TRIP):
        bgp = {"asn": "65001", "neighbor": "10.0.12.2"}
        await _until_working(lab.r1, fault_id, {"node": "R1", "route": "198.51.100.0/24", **bgp})
        plan = await engine.prepare(f"fix-{number}", difficulty="advanced", fault_ids=[fault_id])
        await engine.approve(plan.exercise_id)
        record = await engine._store.get(plan.exercise_id)  # the sealed answer, to play the learner
        [fault] = record.sealed
        assert fault.platform == "linux" and fault.params["interface"] == "eth0", fault
        target = lab.r1 if fault.node == "R1" else lab.r2
        report = await engine.check(plan.exercise_id)
        assert [c.state for c in report.checks] == ["failed"], (fault_id, report.checks)

        undo = catalog.get(fault_id).undo["linux"].console
        await _run(target, *(_fill(line, fault.params) for line in undo))  # the learner's fix
        await _until_solved(lab, plan.exercise_id)

        again = await engine.prepare(f"up-{number}", difficulty="advanced", fault_ids=[fault_id])
        await engine.approve(again.exercise_id)
        assert not (await engine.check(again.exercise_id)).solved, fault_id
        await engine.give_up(again.exercise_id)
        assert await engine.restore(again.exercise_id) == [], fault_id
        await _until_working(target, fault_id, fault.params)
