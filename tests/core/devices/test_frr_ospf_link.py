"""The router lab of the suite: two REAL FRR routers and a VPCS host behind each, built by
``plan_lab`` on the real GNS3 server, and practice on it.

``plan_lab`` makes the nodes and links, pushes the addresses and OSPF into vtysh with the router
template's saved console login, and verifies beyond ping: each router's OSPF neighbour Full and
the other router's subnet a route, then the hosts reaching each other across both routers. GNS3
carries a QEMU node's link through ubridge (a UDP tunnel per adapter); here the clearly named
ubridge test double relays it. From the routers' shells (root, ``vtysh -c``, through the product's
console code) the lab then gets what the practice faults need: point-to-point OSPF with short
timers, loopbacks, a static route, eBGP, a kernel default route on R1.

On it the practice engine, logged in as root with the console logins, takes the catalog's FRR
routing faults, the Linux faults of a router's shell and a host's wrong gateway through inject,
failing, the learner's fix, passing, given up and restored. One lab for the module: a router's
boot under emulation is most of a test's time here.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.plan_tools import PlanLabTool
from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceJob,
    DeviceOutcome,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.devices.ping import ping_answered
from gns3_copilot_desktop.core.devices.routing import (
    bgp_established,
    ospf_neighbor_full,
    route_present,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.core.practice.catalog import load_catalog
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.lab_facts import _fill
from gns3_copilot_desktop.core.practice.store import ExerciseStore, InjectedFault, PracticeError
from gns3_copilot_desktop.core.practice.task import PassCondition, Task
from gns3_copilot_desktop.core.practice.task_author import router_checks
from gns3_copilot_desktop.core.practice.task_checks import TaskRunner, condition_holds
from gns3_copilot_desktop.service.console_logins import load_console_logins
from tests.helpers.frr_router import (
    _FACTS,
    BOOT_TIMEOUT_S,
    ROUTER_PASSWORD,
    ROUTER_USER,
    SHELL_USER,
    TEMPLATE_NAME,
    FrrRouter,
    FrrTemplate,
    log_out,
    logged_in_client,
    template_login_access,
)
from tests.helpers.node_console import run_on_node

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]

ROUND_TRIP = [
    "frr-ospf-network-removed",
    "frr-ospf-area-mismatch",
    "frr-ospf-passive",
    "frr-ospf-hello-mismatch",
    "frr-ospf-mtu-mismatch",
    "frr-static-route-missing",
    "frr-bgp-remote-as",
]
"""The routing faults this lab takes through inject, failing, fixed, passing, given up and
restored."""
ACROSS_THE_ROUTERS = ["vpcs-wrong-gateway"]
"""The host faults this lab takes through the same round trip."""
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
        f"ip address 10.255.0.{index}/32",
        "exit",
        f"ip route 198.51.100.0/24 10.0.12.{3 - index}",
        "router ospf",
        f"ospf router-id {index}.{index}.{index}.{index}",
        "network 10.0.12.0/24 area 0",
        f"network 10.255.0.{index}/32 area 0",
        "exit",
        f"router bgp 6500{index}",
        f"neighbor 10.0.12.{3 - index} remote-as 6500{3 - index}",
        f"neighbor 10.0.12.{3 - index} timers connect 5",
    )
    return "vtysh " + " ".join(f"-c '{line}'" for line in lines)


R1_DEFAULT_ROUTE = "ip route replace default via 192.0.2.2"
"""A kernel default route on R1 for the shell faults to remove (zebra would put back one it
configured itself). Not through eth0, where the faults bind (a link set down takes its routes
along), and to an address nobody holds: a VPCS answers an echo for any address sent to its MAC,
so a default route through PC1 would make R2's address answer while eth0 is down."""
HOSTS = {"PC1": ("192.0.2.1/24", "192.0.2.254"), "PC2": ("203.0.113.1/24", "203.0.113.254")}


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
    url: str

    async def run(self, name: str, *commands: str) -> str:
        """Commands on a host's console."""
        return await run_on_node(self.client, self.project_id, name, commands, _options())

    async def reaches(self, name: str, address: str) -> bool:
        return ping_answered(await self.run(name, f"ping {address} -c 2"), address)


ASKED: list[str] = []
"""The node types the practice engine asked a console login for."""


async def _logins(node: Node) -> DeviceCredentials | None:
    """The console logins a user saved: root for the router template, none for the hosts."""
    ASKED.append(node.node_type)
    return ROOT if node.node_type == "qemu" else None


PLAN: dict[str, Any] = {
    "nodes": [
        {
            "name": "R1",
            "template": TEMPLATE_NAME,
            "platform": "frr",
            "ospf": True,
            "x": -100,
            "y": 0,
        },
        {
            "name": "R2",
            "template": TEMPLATE_NAME,
            "platform": "frr",
            "ospf": True,
            "x": 100,
            "y": 0,
        },
        {"name": "PC1", "template": "VPCS", "x": -250, "y": 100},
        {"name": "PC2", "template": "VPCS", "x": 250, "y": 100},
    ],
    "links": [
        {"a": {"node": "R1", "port": "eth0"}, "b": {"node": "R2", "port": "eth0"}, "subnet": "co"},
        {"a": {"node": "PC1"}, "b": {"node": "R1", "port": "eth1"}, "subnet": "lan1"},
        {"a": {"node": "PC2"}, "b": {"node": "R2", "port": "eth1"}, "subnet": "lan2"},
    ],
    "subnets": [
        {"name": "co", "prefix": "10.0.12.0/24"},
        {"name": "lan1", "prefix": "192.0.2.0/24", "gateway": "192.0.2.254"},
        {"name": "lan2", "prefix": "203.0.113.0/24", "gateway": "203.0.113.254"},
    ],
    "addresses": [
        {"node": "R1", "interface": "eth0", "address": "10.0.12.1/24"},
        {"node": "R2", "interface": "eth0", "address": "10.0.12.2/24"},
        {"node": "R1", "interface": "eth1", "address": "192.0.2.254/24"},
        {"node": "R2", "interface": "eth1", "address": "203.0.113.254/24"},
        {"node": "PC1", "interface": "Ethernet0", "address": "192.0.2.1/24"},
        {"node": "PC2", "interface": "Ethernet0", "address": "203.0.113.1/24"},
    ],
    "reach": [["PC1", "PC2"], ["PC2", "PC1"]],
}
"""Two routers and a host behind each, as a user asks ``plan_lab`` for them: the links, the
subnets, OSPF on the routers."""
planned: dict[str, bool] = {}
"""The checks ``plan_lab`` reported for the module's lab."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def ospf_lab(
    frr_template: FrrTemplate, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[OspfLab]:
    """The lab ``plan_lab`` builds and verifies (OSPF neighbours Full, routes present, hosts
    reaching each other across the routers); then, from the routers' shells, what the practice
    faults need besides: point-to-point OSPF with short timers, a loopback, a static route and
    eBGP."""
    async with await logged_in_client(frr_template.lab) as client:
        project = await client.create_project("frr-ospf-link")
        pid = project.project_id
        try:
            access = await template_login_access()
            ctx = RunContext(
                client=client,
                project_id=pid,
                model=FakeListChatModel(responses=[""]),
                server_url=frr_template.lab.base_url,
            )
            started = time.monotonic()
            applied = await PlanLabTool(access).run(LabSpec.model_validate(PLAN), ctx)  # approved
            _FACTS["2-router OSPF plan, approved to verified"] = (
                f"{time.monotonic() - started:.0f} s"
            )
            assert not applied.is_error, applied.text
            planned.update({c["check"]: c["passed"] for c in applied.structured["checks"]})
            nodes = {n.name: n for n in await client.list_nodes(pid)}
            ra, rb = nodes["R1"], nodes["R2"]
            url = frr_template.lab.base_url
            ta, tb = target_for_node(ra, url), target_for_node(rb, url)
            # the plan left the consoles in vtysh (admin): the shell setup logs in as root
            await asyncio.gather(
                log_out(FrrRouter(frr_template, pid, ra, 0.0)),
                log_out(FrrRouter(frr_template, pid, rb, 0.0)),
            )
            pushed = await asyncio.gather(
                _run(ta, _config(1), R1_DEFAULT_ROUTE), _run(tb, _config(2))
            )
            assert all(r.error is None for o in pushed for r in o.results), pushed
            store = ExerciseStore(tmp_path_factory.mktemp("ospf") / "p.db", os.urandom(32))
            engine = PracticeEngine(client, pid, store, console_options=_options(), logins=_logins)
            engine.recheck_delay_s = 1.0
            yield OspfLab(client, pid, ta, tb, engine, url)
        finally:
            await client.delete_project(pid)


async def test_plan_lab_builds_two_ospf_routers_and_verifies_beyond_ping(
    ospf_lab: OspfLab,
) -> None:
    """What ``plan_lab`` said of the lab it built: every check passed, and the checks read the
    routers (neighbours Full by their address, routes to the other router's subnets)."""
    expected = {
        **{f"{n} started": True for n in ("R1", "R2", "PC1", "PC2")},
        "R1 has OSPF neighbour 10.0.12.2 Full": True,
        "R1 has a route to 203.0.113.0/24": True,
        "R2 has OSPF neighbour 10.0.12.1 Full": True,
        "R2 has a route to 192.0.2.0/24": True,
        "PC1 pings 192.0.2.254": True,
        "PC1 pings 203.0.113.1": True,
        "PC2 pings 203.0.113.254": True,
        "PC2 pings 192.0.2.1": True,
    }
    assert planned == expected, planned


async def _until_full(target: ConsoleTarget) -> str:
    started = time.monotonic()
    neighbours = ""
    while time.monotonic() - started < OSPF_FULL_TIMEOUT_S:
        neighbours = await _vtysh(target, "show ip ospf neighbor")
        if "Full" in neighbours:
            return neighbours
        await asyncio.sleep(2)  # the next read, not a guess: the loop ends on Full
    raise AssertionError(f"no Full OSPF neighbour in {OSPF_FULL_TIMEOUT_S:.0f} s: {neighbours}")


async def test_two_routers_over_a_qemu_link_reach_ospf_full_and_bgp_established(
    ospf_lab: OspfLab,
) -> None:
    ta = ospf_lab.r1
    started = time.monotonic()
    neighbours = await _until_full(ta)
    assert "2.2.2.2" in neighbours and "Full" in neighbours, neighbours
    routes = ""
    while time.monotonic() - started < OSPF_FULL_TIMEOUT_S:
        routes = await _vtysh(ta, "show ip route 10.255.0.2/32")
        if 'Known via "ospf"' in routes:
            break
        await asyncio.sleep(2)  # SPF runs after the adjacency: read again until it has
    assert 'Known via "ospf"' in routes and "10.0.12.2" in routes, routes
    # a trainer's checks read the same real output through the task's parsed conditions
    assert ospf_neighbor_full(neighbours, "2.2.2.2"), neighbours
    assert not ospf_neighbor_full(neighbours, "3.3.3.3"), neighbours
    table = await _vtysh(ta, "show ip route")
    assert route_present(table, "10.255.0.2/32"), table
    assert route_present(table, "10.0.12.0/24"), table  # connected
    assert not route_present(table, "10.255.0.0/24"), table  # a shorter prefix is another
    assert route_present(routes, "10.255.0.2/32"), routes  # the detail of one route
    assert condition_holds(PassCondition(ospf_full="any"), neighbours)
    assert condition_holds(PassCondition(route="10.255.0.2/32"), table)
    # the eBGP session between the routers, as a trainer's check reads it
    summary, started = "", time.monotonic()
    while time.monotonic() - started < OSPF_FULL_TIMEOUT_S:
        summary = await _vtysh(ta, "show ip bgp summary")
        if bgp_established(summary, "10.0.12.2"):
            break
        await asyncio.sleep(2)  # the session comes up after its first connect: read again
    assert bgp_established(summary, "10.0.12.2"), summary
    assert not bgp_established(summary, "10.0.12.3"), summary  # no such neighbour
    assert condition_holds(PassCondition(bgp_established="10.0.12.2"), summary)


async def _vtysh_login(node: Node) -> DeviceCredentials | None:
    """The login a trainer saved for the router template: ``admin``, which lands in vtysh."""
    return DeviceCredentials(ROUTER_USER, ROUTER_PASSWORD) if node.node_type == "qemu" else None


async def test_the_task_editor_proposes_the_routing_the_working_routers_show(
    ospf_lab: OspfLab, frr_template: FrrTemplate, tmp_path: Path
) -> None:
    """ "Save this lab as a task…" on the router lab: the checks it proposes are the routing
    each router shows now (learned routes, OSPF neighbours Full, the eBGP session), never a
    connected subnet, and each passes when the task runner reads it with the same login. No
    saved login: the routers are not typed at. The service's logins file reaches them too."""
    lab = ospf_lab
    nodes = {n.name: n for n in await lab.client.list_nodes(lab.project_id)}
    routers = [FrrRouter(frr_template, lab.project_id, nodes[n], 0.0) for n in ("R1", "R2")]
    await asyncio.gather(*(log_out(r) for r in routers))  # the shell setup's root session
    try:
        wanted = (
            "R1 has a route to 10.255.0.2/32",
            "R1 has a route to 198.51.100.0/24",
            "R1's OSPF neighbour 2.2.2.2 is Full",
            "R2's OSPF neighbour 1.1.1.1 is Full",
            "R1's BGP session with 10.0.12.2 is Established",
            "R2's BGP session with 10.0.12.1 is Established",
        )
        titles: list[str] = []
        deadline = time.monotonic() + OSPF_FULL_TIMEOUT_S
        # the eBGP session comes up on its own timer, and one side of an adjacency may be Full
        # a moment before the other (after the tests before, which broke and restored it)
        while time.monotonic() < deadline:
            checks = await router_checks(lab.client, lab.project_id, _options(), _vtysh_login)
            titles = [c.title for c in checks]
            if all(w in titles for w in wanted):
                break
            await asyncio.sleep(2)  # the routers' state, read again
        for title in wanted:
            assert title in titles, titles
        assert not any("10.0.12.0/24" in t for t in titles), titles  # connected: never
        assert {c.device for c in checks} == {"R1", "R2"}
        runner = TaskRunner(
            lab.client, lab.project_id, lab.url, options=_options(), logins=_vtysh_login
        )
        task = Task.model_validate(
            {
                "format": 1,
                "title": "Routing",
                "ticket": "Nothing reaches the far side since this morning.",
                "level": "intermediate",
                "time_limit_min": 20,
                "lab": {"project": "lab.gns3project"},
                "faults": [{"device": "R1", "inject": ["shutdown"], "undo": ["no shutdown"]}],
                "checks": [
                    *(c.model_dump(by_alias=True) for c in checks),
                    {
                        "title": "R1's eth0 is up",
                        "device": "R1",
                        "command": "show interface brief",
                        "pass": {"interface_up": "eth0"},
                    },
                ],
            }
        )
        results = await runner.check(task)
        assert [r.state for r in results] == ["pass"] * len(task.checks), results
        assert await router_checks(lab.client, lab.project_id, _options(), None) == []
        # the trainer's service, given the class's logins as a file: matched by the template
        # name the real GNS3 server lists, they reach the same CLI
        path = tmp_path / "logins.toml"
        path.write_text(
            f'[[login]]\napplies_to = "template:{TEMPLATE_NAME}"\nusername = "{ROUTER_USER}"\n'
            f'password = "{ROUTER_PASSWORD}"\n'
        )
        path.chmod(0o600)
        served = load_console_logins(path).for_client(lab.client)
        asked: list[str] = []

        async def counted(node: Node) -> DeviceCredentials | None:
            asked.append(node.name)
            return await served(node)

        runner = TaskRunner(lab.client, lab.project_id, lab.url, options=_options(), logins=counted)
        assert [r.state for r in await runner.check(task)] == ["pass"] * len(task.checks)
        assert sorted(asked) == ["R1", "R2"], asked  # once per router, not once per check
    finally:  # the next tests log in as root: leave both consoles at their login prompt
        await asyncio.gather(*(log_out(r) for r in routers))


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


async def _round_trip(
    lab: OspfLab, fault_id: str, tag: str, *, one_check: bool = False, again: bool = False
) -> InjectedFault:
    """One catalog fault on a router: injected, its checks failing (``one_check``: its only
    check), the learner's fix typed on the router's shell, passing; then restored over the fix
    (the fault's own undo lines, run by the engine, find the lab fixed and keep it working).
    ``again``: then injected once more, given up and restored while broken: the engine's undo
    is what repairs it. Returns the fault as the engine bound it."""
    engine = lab.engine
    plan = await engine.prepare(f"fix-{tag}", difficulty="advanced", fault_ids=[fault_id])
    await engine.approve(plan.exercise_id)
    record = await engine._store.get(plan.exercise_id)  # the sealed answer, to play the learner
    [fault] = record.sealed
    assert fault.platform == "linux" and fault.node in ("R1", "R2"), fault
    report = await engine.check(plan.exercise_id)
    states = [c.state for c in report.checks]
    assert states == ["failed"] if one_check else "failed" in states, (fault_id, report.checks)

    undo = load_catalog().get(fault_id).undo["linux"].console
    target = lab.r1 if fault.node == "R1" else lab.r2
    await _run(target, *(_fill(line, fault.params) for line in undo))  # the learner's fix
    await _until_solved(lab, plan.exercise_id)

    assert await engine.restore(plan.exercise_id) == [], fault_id
    if again:
        broken = await engine.prepare(f"up-{tag}", difficulty="advanced", fault_ids=[fault_id])
        await engine.approve(broken.exercise_id)
        assert not (await engine.check(broken.exercise_id)).solved, fault_id
        await engine.give_up(broken.exercise_id)
        assert await engine.restore(broken.exercise_id) == [], fault_id
    return fault


async def test_each_ospf_fault_breaks_the_adjacency_and_the_learners_fix_brings_it_back(
    ospf_lab: OspfLab,
) -> None:
    lab = ospf_lab
    await _until_full(lab.r1)
    for number, fault_id in enumerate(ROUND_TRIP):
        bgp = {"asn": "65001", "neighbor": "10.0.12.2"}
        await _until_working(lab.r1, fault_id, {"node": "R1", "route": "198.51.100.0/24", **bgp})
        again = fault_id == "frr-ospf-network-removed"  # vtysh's undo repairs a router
        fault = await _round_trip(lab, fault_id, f"ospf-{number}", one_check=True, again=again)
        assert fault.params["interface"] == "eth0", fault
        target = lab.r1 if fault.node == "R1" else lab.r2
        await _until_working(target, fault_id, fault.params)


async def _until(condition: Callable[[], Awaitable[bool]], within: float) -> None:
    async with asyncio.timeout(within):
        while not await condition():  # noqa: ASYNC110 - the lab, polled
            await asyncio.sleep(1)


async def _hosts_reach_each_other(lab: OspfLab, within: float = 120) -> None:
    """PC1 and PC2 ping each other across both routers (OSPF back after a fault's restore: a
    dead interval of 40 s, the wait of a broadcast link, then the exchange, on emulated routers
    that share two cores with the rest of the suite)."""
    pc1, pc2 = (HOSTS[n][0].split("/")[0] for n in ("PC1", "PC2"))
    await _until(lambda: lab.reaches("PC1", pc2), within)
    await _until(lambda: lab.reaches("PC2", pc1), within)


async def test_a_wrong_gateway_is_found_beyond_the_routers_and_fixed(ospf_lab: OspfLab) -> None:
    """A host's fault binds where a host has another beyond its gateway: across both routers."""
    lab, engine = ospf_lab, ospf_lab.engine
    [fault_id] = ACROSS_THE_ROUTERS
    await _hosts_reach_each_other(lab)
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
    await _hosts_reach_each_other(lab, 30)


async def test_every_shell_fault_injected_failing_fixed_passing_given_up_and_restored(
    ospf_lab: OspfLab,
) -> None:
    """The catalog's ``linux`` faults on R1's shell, bound from what it shows (its OSPF link to
    R2 first): each injected, failing, fixed by the learner on the shell, passing; injected
    again, given up and restored, and the hosts reach each other across the routers again."""
    lab, engine = ospf_lab, ospf_lab.engine
    # without the router's login the engine does not type at its console (any QEMU appliance
    # could be behind it): no Linux fault applies to the same lab
    bare = PracticeEngine(lab.client, lab.project_id, engine._store, console_options=_options())
    with pytest.raises(PracticeError, match="does not apply to this lab"):
        await bare.prepare("s", difficulty="beginner", fault_ids=["linux-interface-down"])
    await _hosts_reach_each_other(lab)
    for number, fault_id in enumerate(SHELL_ROUND_TRIP):
        # the next fault is bound once this one's checks pass again (`_round_trip`); the hosts'
        # pings across the routers, which wait for OSPF, are read once at the end
        # one of them is also given up while broken: the engine's own undo repairs it
        await _round_trip(lab, fault_id, f"shell-{number}", again=fault_id == "linux-wrong-address")
    await _hosts_reach_each_other(lab)
    # a host's console never asks for a login: the keyring and GNS3's templates are not read
    # for it at every check
    assert ASKED and set(ASKED) == {"qemu"}, ASKED
