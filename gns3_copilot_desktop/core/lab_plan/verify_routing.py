"""A plan's routing, verified on the routers themselves: beyond ping.

For each router the plan runs OSPF on (and made or configured), what it should show once OSPF
has converged: every other OSPF router of the plan on a subnet they share is a neighbour in the
Full state (``show ip ospf neighbor``, matched by its address on that subnet: a plan does not
choose router ids), and every subnet of the plan that an OSPF router is attached to is a route
(``show ip route``). OSPF takes its time (the election waits a dead interval on a broadcast
link), so the routers are read again every few seconds until all holds or the wait ends; a check
still failing then is reported as failed, with what the router showed. Reads only: the commands
are ``show`` commands in vtysh (``vtysh -c`` where the console is a Linux shell) or on IOS.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceJob,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.devices.console_data import DeviceCredentials
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.devices.routing import ospf_neighbor_full, route_present
from gns3_copilot_desktop.core.devices.targets import kind_for_node_type
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.lab_plan.diff import LabDiff

ROUTING_WAIT_S = 90.0
"""How long OSPF gets to converge after the push: a broadcast link waits its dead interval (40 s
by default) before electing, then the databases are exchanged."""
ROUTING_POLL_S = 3.0

NEIGHBORS = "show ip ospf neighbor"
ROUTES = "show ip route"

Logins = Callable[[Node], Awaitable[DeviceCredentials | None]]


@dataclass(frozen=True)
class RoutingCheck:
    """What one OSPF router should show: neighbours Full (by address) and routes present."""

    router: str
    neighbors: tuple[str, ...]
    routes: tuple[str, ...]


def routing_expectations(diff: LabDiff) -> list[RoutingCheck]:
    """The routers the plan runs OSPF on (made or configured by it) and what each should show."""
    plan = diff.plan
    if plan is None:
        return []
    touched = {p.node.name for p in diff.new_nodes} | set(diff.configs)
    ospf = [p.node.name for p in plan.nodes if p.spec.ospf and p.platform in ("frr", "ios")]
    nets = {
        name: {a.address.network: a.address.ip for a in plan.addresses.get(name, [])}
        for name in ospf
    }
    every = sorted({net for own in nets.values() for net in own}, key=str)
    checks: list[RoutingCheck] = []
    for name in ospf:
        if name not in touched or not nets[name]:
            continue
        neighbors = [
            str(address)
            for other in ospf
            if other != name
            for net, address in nets[other].items()
            if net in nets[name]
        ]
        routes = [str(net) for net in every if net not in nets[name]]
        checks.append(RoutingCheck(name, tuple(dict.fromkeys(neighbors)), tuple(routes)))
    return [c for c in checks if c.neighbors or c.routes]


def _command(node: Node, show: str) -> str:
    if kind_for_node_type(node.node_type) is DeviceKind.LINUX:
        return f'vtysh -c "{show}"'  # a Docker FRR image: its console is a shell
    return show


def _results(check: RoutingCheck, neighbors: str, routes: str) -> list[tuple[str, bool]]:
    name = check.router
    return [
        *(
            (f"{name} has OSPF neighbour {a} Full", ospf_neighbor_full(neighbors, address=a))
            for a in check.neighbors
        ),
        *((f"{name} has a route to {p}", route_present(routes, p)) for p in check.routes),
    ]


async def verify_routing(
    nodes: dict[str, Node],
    diff: LabDiff,
    *,
    server_url: str,
    options: ConsoleOptions,
    logins: Logins | None = None,
    wait_s: float = ROUTING_WAIT_S,
) -> list[tuple[str, bool]]:
    """``(check, passed)`` for every OSPF router of the plan, read until all pass or `wait_s`."""
    expected = [c for c in routing_expectations(diff) if c.router in nodes]
    if not expected:
        return []
    logins_of = {
        c.router: await logins(nodes[c.router]) if logins is not None else None for c in expected
    }
    jobs = [
        DeviceJob(
            target_for_node(nodes[c.router], server_url),
            (_command(nodes[c.router], NEIGHBORS), _command(nodes[c.router], ROUTES)),
            credentials=logins_of[c.router],
        )
        for c in expected
    ]
    deadline = time.monotonic() + wait_s
    while True:
        outcomes = await run_on_devices(jobs, options)
        results: list[tuple[str, bool]] = []
        for check, outcome in zip(expected, outcomes, strict=True):
            texts = [r.output for r in outcome.results] + ["", ""]
            results += _results(check, texts[0], texts[1])
        if all(passed for _, passed in results) or time.monotonic() >= deadline:
            return results
        await asyncio.sleep(ROUTING_POLL_S)  # the next read: the loop ends when all holds
