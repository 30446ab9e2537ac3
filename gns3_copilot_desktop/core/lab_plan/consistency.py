"""What is wrong inside a lab spec, found without the server.

`validate_plan` checks a spec against the live project (templates, ports, links in place); the
checks here need only the spec itself (and, when given, the names of the project's nodes), so a
plan edited on its approval card can be refused as the user types, before it is sent back. The
server-side validation still runs on whatever is approved.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Collection, Sequence

from gns3_copilot_desktop.core.lab_plan.spec import LabSpec, PlanSubnet


def usable_host(ip: ipaddress.IPv4Address, net: ipaddress.IPv4Network) -> bool:
    """Whether `ip` may be given to an interface of `net` (not its network or broadcast)."""
    if ip not in net:
        return False
    if net.prefixlen >= 31:
        return True
    return ip not in (net.network_address, net.broadcast_address)


def subnet_problems(subnets: Sequence[PlanSubnet]) -> list[str]:
    """Subnets named twice, gateways that are no host of their subnet, subnets that overlap."""
    problems: list[str] = []
    names: set[str] = set()
    for s in subnets:
        if s.name.casefold() in names:
            problems.append(f"The plan defines the subnet {s.name} twice.")
        names.add(s.name.casefold())
        if s.gateway is not None and not usable_host(s.gateway, s.prefix):
            problems.append(
                f"The gateway {s.gateway} of subnet {s.name} is not a host address of {s.prefix}."
            )
    for i, s in enumerate(subnets):
        for t in subnets[i + 1 :]:
            if s.prefix.overlaps(t.prefix):
                problems.append(
                    f"The subnets {s.name} ({s.prefix}) and {t.name} ({t.prefix}) overlap."
                )
    return problems


def spec_problems(spec: LabSpec, project_nodes: Collection[str] | None = None) -> list[str]:
    """Every problem of `spec` that shows without the server, one sentence each.

    ``project_nodes``: the names of the project's nodes; when given, a link, an address or a
    pair to reach that names a node neither in the plan nor in the project is a problem too.
    """
    problems: list[str] = []
    seen: set[str] = set()
    for node in spec.nodes:
        if node.name.casefold() in seen:
            problems.append(f"The plan names two nodes {node.name}; node names must be unique.")
        seen.add(node.name.casefold())
    problems += subnet_problems(spec.subnets)
    subnets = {s.name.casefold() for s in spec.subnets}
    for link in spec.links:
        if link.subnet is not None and link.subnet.casefold() not in subnets:
            problems.append(
                f"A link names the subnet {link.subnet}, which the plan does not define."
            )
    seen_ips: set[ipaddress.IPv4Address] = set()
    for item in spec.addresses:
        where = f"{item.address} on {item.node} {item.interface}"
        if not any(item.address.network == s.prefix for s in spec.subnets):
            problems.append(f"The address {where} is not inside any subnet of the plan.")
        if item.address.ip in seen_ips:
            problems.append(f"The address {item.address.ip} is given twice.")
        seen_ips.add(item.address.ip)
    if project_nodes is not None:
        known = seen | {name.casefold() for name in project_nodes}
        named = [("A link", end.node) for link in spec.links for end in (link.a, link.b)]
        named += [("An address", item.node) for item in spec.addresses]
        named += [("A pair to reach", name) for pair in spec.reach for name in pair]
        for what, name in named:
            if name.casefold() not in known:
                problems.append(
                    f"{what} names the node {name}, which is neither in the plan nor in the "
                    "project."
                )
    return list(dict.fromkeys(problems))
