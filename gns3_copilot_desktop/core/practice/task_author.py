"""Writing a task from a working lab ("Save this lab as a task…"): the checks the lab passes now,
proposed for the trainer to pick, and the task file written from the trainer's choices.

Proposals come from what the running hosts say and do now, never from a guess: each started
VPCS host's address (``show ip``), and the pings that succeed now (to the other hosts of its
subnet and to its gateway). A proposal the lab fails now is not offered. The file is written in
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
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.practice.lab_facts import vpcs_address
from gns3_copilot_desktop.core.practice.task import TaskCheck, TaskFault

MAX_PINGS = 8
"""Proposed pings at most: a class lab of many hosts gets a sample, not every pair."""
ADDRESS_POINTS = 10
PING_POINTS = 20


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
    client: Gns3Client, project_id: str, options: ConsoleOptions | None = None
) -> list[TaskCheck]:
    """The checks this lab passes now: each host keeps its address, and the pings that work
    (host to host in a subnet, host to its gateway), at most `MAX_PINGS` of them."""
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
