"""Writing a task from a working lab ("Save this lab as a task…"): the checks the lab passes now,
proposed for the trainer to pick, and the task file written from the trainer's choices.

Proposals come from what the running devices say and do now, never from a guess: each started
VPCS host's address (``show ip``), the pings that succeed now (to the other hosts of its
subnet and to its gateway), and on each started router whose console the user saved a login
for, the routing it shows: the routes a protocol or a static route
brought, the OSPF neighbours Full, the BGP sessions Established. A proposal the lab fails now
is not offered. The file is written in
TOML that `task.parse_task` reads back into the same task (the editor proves it before saving).
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices, target_for_node
from gns3_copilot_desktop.core.devices.console_data import ConsoleOptions
from gns3_copilot_desktop.core.devices.ping import ping_loss
from gns3_copilot_desktop.core.devices.routing import (
    established_bgp_neighbors,
    full_ospf_neighbors,
    learned_routes,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.practice.lab_facts import Logins, vpcs_address
from gns3_copilot_desktop.core.practice.task import TaskCheck, TaskFault

MAX_PINGS = 8
"""Proposed pings at most: a class lab of many hosts gets a sample, not every pair."""
MAX_ROUTING = 6
"""Proposed routing checks per router at most."""
ADDRESS_POINTS = 10
PING_POINTS = 20
ROUTING_POINTS = 20
ROUTING_WAIT_S, ROUTING_RETRIES = 5.0, 4
"""A routing check is read again for 20 s: a protocol converges after a fix."""
ROUTER_TYPES = frozenset({"qemu", "dynamips", "iou"})
"""Node types whose console is a router's CLI (vtysh or IOS): a Docker image's is a shell,
where ``vtysh -c`` is not a plain read a check may run."""
ROUTER_READS = ("show ip route", "show ip ospf neighbor", "show ip bgp summary")


@dataclass(frozen=True)
class Host:
    """A running VPCS host of the lab and what it says of itself."""

    name: str
    address: ipaddress.IPv4Interface
    gateway: str


@dataclass
class TaskDraft:
    """What the trainer chose, before it is a file."""

    title: str
    ticket: str
    level: str = "beginner"
    time_limit_min: int = 20
    hints: list[str] = field(default_factory=list)
    lab: str = "lab.gns3project"
    faults: list[TaskFault] = field(default_factory=list)
    checks: list[TaskCheck] = field(default_factory=list)


async def lab_hosts(
    client: Gns3Client, project_id: str, options: ConsoleOptions | None = None
) -> list[Host]:
    """The lab's started VPCS hosts with an address, by name."""
    nodes = sorted(
        (
            n
            for n in await client.list_nodes(project_id)
            if n.node_type == "vpcs" and n.status == "started"
        ),
        key=lambda n: n.name,
    )
    jobs = [DeviceJob(target_for_node(n, client.base_url), ("show ip",)) for n in nodes]
    hosts = []
    for node, outcome in zip(nodes, await run_on_devices(jobs, options), strict=True):
        if not outcome.ok or not outcome.results:
            continue
        address, gateway = vpcs_address(outcome.results[0].output)
        if address is not None:
            hosts.append(Host(node.name, address, gateway))
    return hosts


async def propose_checks(
    client: Gns3Client,
    project_id: str,
    options: ConsoleOptions | None = None,
    logins: Logins | None = None,
) -> list[TaskCheck]:
    """The checks this lab passes now: each host keeps its address, the pings that work
    (host to host in a subnet, host to its gateway), at most `MAX_PINGS` of them, and each
    router's routing (`router_checks`)."""
    checks = await _host_checks(client, project_id, options)
    return checks + await router_checks(client, project_id, options, logins)


async def router_checks(
    client: Gns3Client,
    project_id: str,
    options: ConsoleOptions | None = None,
    logins: Logins | None = None,
) -> list[TaskCheck]:
    """On each started router: the learned routes, OSPF neighbours Full and BGP sessions
    Established it shows now, at most `MAX_ROUTING` each. A router that asks for a login the
    user never saved is not typed at (``logins`` None or answering None: skipped)."""
    routers = sorted(
        (
            n
            for n in await client.list_nodes(project_id)
            if n.node_type in ROUTER_TYPES and n.status == "started"
        ),
        key=lambda n: n.name,
    )
    jobs: list[DeviceJob] = []
    names: list[str] = []
    for node in routers:
        login = await logins(node) if logins is not None else None
        if login is None:
            continue
        jobs.append(
            DeviceJob(target_for_node(node, client.base_url), ROUTER_READS, credentials=login)
        )
        names.append(node.name)
    checks: list[TaskCheck] = []
    for name, outcome in zip(names, await run_on_devices(jobs, options), strict=True):
        if not outcome.ok or len(outcome.results) != len(ROUTER_READS):
            continue
        routes, neighbors, bgp = (r.output for r in outcome.results)
        found = [
            (f"{name} has a route to {p}", ROUTER_READS[0], {"route": p})
            for p in learned_routes(routes)[:MAX_ROUTING]
        ]
        found += [
            (f"{name}'s OSPF neighbour {n} is Full", ROUTER_READS[1], {"ospf_full": n})
            for n in full_ospf_neighbors(neighbors)[:MAX_ROUTING]
        ]
        found += [
            (
                f"{name}'s BGP session with {n} is Established",
                ROUTER_READS[2],
                {"bgp_established": n},
            )
            for n in established_bgp_neighbors(bgp)[:MAX_ROUTING]
        ]
        checks += [
            TaskCheck.model_validate(
                {
                    "title": title,
                    "device": name,
                    "command": command,
                    "pass": passes,
                    "points": ROUTING_POINTS,
                    "wait_s": ROUTING_WAIT_S,
                    "retries": ROUTING_RETRIES,
                }
            )
            for title, command, passes in found
        ]
    return checks


async def _host_checks(
    client: Gns3Client, project_id: str, options: ConsoleOptions | None
) -> list[TaskCheck]:
    hosts = await lab_hosts(client, project_id, options)
    checks = [
        _check(
            f"{h.name} has the address {h.address}",
            h.name,
            "show ip",
            {"contains": str(h.address)},
            ADDRESS_POINTS,
        )
        for h in hosts
    ]
    wanted: list[tuple[Host, str, str]] = []
    for number, host in enumerate(hosts):
        for other in hosts[number + 1 :]:
            if other.address.ip in host.address.network:
                wanted.append((host, str(other.address.ip), other.name))
        if host.gateway:
            wanted.append((host, host.gateway, f"its gateway {host.gateway}"))
    wanted = wanted[:MAX_PINGS]
    by_name = {n.name: n for n in await client.list_nodes(project_id)}
    jobs = [
        DeviceJob(target_for_node(by_name[h.name], client.base_url), (f"ping {to} -c 2",))
        for h, to, _what in wanted
    ]
    for (host, to, what), outcome in zip(wanted, await run_on_devices(jobs, options), strict=True):
        loss = ping_loss(outcome.results[0].output) if outcome.ok and outcome.results else None
        if loss is not None and loss <= 50:  # it works now: worth checking
            checks.append(
                _check(
                    f"{host.name} reaches {what}",
                    host.name,
                    f"ping {to} -c 2",
                    {"ping_max_loss": 50},
                    PING_POINTS,
                )
            )
    return checks


def _check(
    title: str, device: str, command: str, passes: dict[str, object], points: int
) -> TaskCheck:
    return TaskCheck.model_validate(
        {"title": title, "device": device, "command": command, "pass": passes, "points": points}
    )


def _toml(value: object) -> str:
    """A TOML value: strings as basic strings (JSON's escapes are TOML's), numbers, lists,
    inline tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {type(value).__name__}")


def _table(name: str, fields: dict[str, object]) -> list[str]:
    return ["", f"[[{name}]]", *(f"{k} = {_toml(v)}" for k, v in fields.items())]


def render_task(draft: TaskDraft) -> str:
    """The task file of the draft (TOML)."""
    lines = [
        "format = 1",
        f"title = {_toml(draft.title)}",
        f"ticket = {_toml(draft.ticket)}",
        f"level = {_toml(draft.level)}",
        f"time_limit_min = {draft.time_limit_min}",
    ]
    if draft.hints:
        lines.append(f"hints = {_toml(draft.hints)}")
    lines += ["", "[lab]", f"project = {_toml(draft.lab)}"]
    for fault in draft.faults:
        lines += _table(
            "faults", {"device": fault.device, "inject": fault.inject, "undo": fault.undo}
        )
    for check in draft.checks:
        passes = check.passes.model_dump(exclude_none=True)
        fields: dict[str, object] = {
            "title": check.title,
            "device": check.device,
            "command": check.command,
            "pass": passes,
            "points": check.points,
        }
        for name in ("on_pass", "on_fail"):
            if getattr(check, name):
                fields[name] = getattr(check, name)
        lines += _table("checks", fields)
    return "\n".join(lines) + "\n"


def total_points(checks: Sequence[TaskCheck]) -> int:
    return sum(c.points for c in checks)
