"""A spec checked against the live project before anything is shown, its ports chosen.

`validate_plan` reads nothing itself: it is given the server's templates and the project's nodes
and links, resolves every name, and either returns a `ValidatedPlan` (every end of every link on
a concrete port, existing links matched) or raises `PlanInvalidError` listing every problem at once.

Automatic ports are deterministic: the spec's links are taken in order and each "any" end gets
the node's lowest free (adapter, port) that no existing link, no kept link and no earlier link of
the plan uses. Nodes not created yet are given the ports their template will give them.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Link, Node, Port, Template
from gns3_copilot_desktop.core.gns3.resolve import (
    NameResolutionError,
    PortKey,
    resolve_port,
    resolve_template,
    used_ports,
)
from gns3_copilot_desktop.core.lab_plan.consistency import subnet_problems, usable_host
from gns3_copilot_desktop.core.lab_plan.render import (
    InterfaceAddress,
    platform_for,
    render_config,
)
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec, PlanLink, PlanNode, Platform

NEW_ID_PREFIX = "new:"
_DEFAULT_SWITCH_PORTS = 8


class PlanInvalidError(CopilotError):
    """The plan cannot be applied; ``problems`` says every reason, one sentence each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(
            "The lab plan was not applied (nothing changed): "
            + " ".join(f"({i}) {p}" for i, p in enumerate(problems, 1))
        )


@dataclass(frozen=True)
class NodePlan:
    """One node of the plan: kept (``existing``) or new (``node`` is then a stand-in whose ports
    are the template's)."""

    spec: PlanNode
    template: Template
    node: Node
    existing: bool
    platform: Platform


@dataclass(frozen=True)
class EndPlan:
    """One end of a planned link on a concrete port."""

    node: str
    port: str
    adapter_number: int
    port_number: int
    auto: bool = False


@dataclass(frozen=True)
class LinkPlan:
    """A link of the plan: kept (``link_id``) or new."""

    a: EndPlan
    b: EndPlan
    subnet: str = ""
    link_id: str | None = None


@dataclass
class ValidatedPlan:
    """A spec resolved against the project."""

    spec: LabSpec
    nodes: list[NodePlan]
    links: list[LinkPlan]
    removed_nodes: list[Node]
    removed_links: list[Link]
    addresses: dict[str, list[InterfaceAddress]] = field(default_factory=dict)
    configs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    project_nodes: list[Node] = field(default_factory=list)
    project_links: list[Link] = field(default_factory=list)


def template_ports(template: Template) -> list[Port] | None:
    """The ports a node made from `template` will have, when the template type tells; None when
    only the created node will know (images with slots, unknown types)."""
    extra: dict[str, Any] = template.model_extra or {}
    kind = template.template_type or ""
    if kind == "vpcs":
        return [Port(name="Ethernet0", short_name="e0", adapter_number=0, port_number=0)]
    if kind in ("ethernet_switch", "ethernet_hub"):
        mapping = extra.get("ports_mapping")
        if isinstance(mapping, list) and mapping:
            return [
                Port(name=str(p.get("name")), adapter_number=0, port_number=int(p["port_number"]))
                for p in mapping
                if isinstance(p, dict) and isinstance(p.get("port_number"), int)
            ]
        return [
            Port(name=f"Ethernet{i}", short_name=f"e{i}", adapter_number=0, port_number=i)
            for i in range(_DEFAULT_SWITCH_PORTS)
        ]
    adapters = extra.get("adapters")
    if kind in ("qemu", "docker", "virtualbox", "vmware") and isinstance(adapters, int):
        default = "eth{0}" if kind == "docker" else "Ethernet{0}"
        fmt = str(extra.get("port_name_format") or default)
        try:
            names = [fmt.format(i, port0=i, port1=i + 1) for i in range(min(adapters, 64))]
        except (IndexError, KeyError, ValueError):
            return None
        return [Port(name=n, adapter_number=i, port_number=0) for i, n in enumerate(names)]
    return None


def _sorted_ports(node: Node) -> list[Port]:
    return sorted(node.ports, key=lambda p: (p.adapter_number, p.port_number))


def _find(nodes: Sequence[Node], name: str) -> Node | None:
    exact = [n for n in nodes if n.name == name]
    if exact:
        return exact[0]
    folded = [n for n in nodes if n.name.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def _same_template(node: Node, template: Template) -> bool:
    if node.template_id:
        return node.template_id == template.template_id
    return node.node_type == (template.template_type or "")


class _Checker:
    def __init__(self, spec: LabSpec, templates: Sequence[Template], nodes: list[Node]) -> None:
        self.spec = spec
        self.templates = templates
        self.project = nodes
        self.problems: list[str] = []
        self.plans: dict[str, NodePlan] = {}
        self.unknown_ports: set[str] = set()

    def problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    # --- nodes ---------------------------------------------------------------------------

    def check_nodes(self) -> None:
        seen: set[str] = set()
        for item in self.spec.nodes:
            key = item.name.casefold()
            if key in seen:
                self.problem(f"The plan names two nodes {item.name}; node names must be unique.")
                continue
            seen.add(key)
            try:
                template = resolve_template(self.templates, item.template)
            except NameResolutionError as exc:
                self.problem(f"Node {item.name}: {exc.user_message}")
                continue
            existing = _find(self.project, item.name)
            if existing is not None and not _same_template(existing, template):
                self.problem(
                    f"Node {item.name} already exists as a {existing.node_type} node, not from "
                    f"the template {template.name}; rename it in the plan or remove it first."
                )
                continue
            if existing is not None:
                node = existing
            else:
                ports = template_ports(template)
                if ports is None:
                    self.unknown_ports.add(item.name)
                node = Node(
                    node_id=NEW_ID_PREFIX + item.name,
                    name=item.name,
                    node_type=template.template_type or "unknown",
                    ports=ports or [],
                )
            platform = platform_for(node.node_type, item.platform)
            if item.ospf and platform not in ("ios", "frr"):
                # said, not dropped: the plan would otherwise come up without its routing
                self.problem(
                    f"{item.name} is to run OSPF, but how to configure it is not known from its "
                    f"template ({node.node_type}): set its platform to ios or frr."
                )
            self.plans[key] = NodePlan(item, template, node, existing is not None, platform)

    def node(self, name: str, what: str) -> Node | None:
        plan = self.plans.get(name.casefold())
        if plan is not None:
            return plan.node
        found = _find(self.project, name)
        if found is None and not any(n.name.casefold() == name.casefold() for n in self.spec.nodes):
            self.problem(
                f"{what} names the node {name}, which is neither in the plan nor in the project."
            )
        return found

    # --- removals ------------------------------------------------------------------------

    def removals(self, links: list[Link]) -> tuple[list[Node], list[Link]]:
        nodes: list[Node] = []
        gone: list[Link] = []
        for item in self.spec.remove:
            node = _find(self.project, item.node)
            if node is None:
                self.problem(f"Cannot remove {item.node}: the project has no such node.")
                continue
            if item.node.casefold() in self.plans:
                self.problem(f"{item.node} is both in the plan's nodes and in its removals.")
                continue
            if item.peer is None:
                nodes.append(node)
                gone += [lk for lk in links if any(e.node_id == node.node_id for e in lk.nodes)]
                continue
            peer = _find(self.project, item.peer)
            between = [
                lk
                for lk in links
                if peer is not None
                and {e.node_id for e in lk.nodes} == {node.node_id, peer.node_id}
            ]
            if not between:
                self.problem(f"Cannot remove the link {item.node} <-> {item.peer}: there is none.")
            gone += between
        unique = {lk.link_id: lk for lk in gone}
        return nodes, list(unique.values())

    # --- links ---------------------------------------------------------------------------

    def links(
        self, existing: list[Link], removed: list[Link], removed_nodes: list[Node]
    ) -> list[LinkPlan]:
        alive = [lk for lk in existing if lk.link_id not in {r.link_id for r in removed}]
        used = used_ports(alive)
        taken: set[PortKey] = set()
        gone_names = {n.name.casefold() for n in removed_nodes}
        ends: list[tuple[PlanLink, Node, Node] | None] = []
        for item in self.spec.links:
            a = self.node(item.a.node, "A link")
            b = self.node(item.b.node, "A link")
            for end in (item.a, item.b):
                if end.node.casefold() in gone_names:
                    self.problem(f"A link of the plan goes to {end.node}, which it also removes.")
            ends.append((item, a, b) if a is not None and b is not None else None)
        matched: dict[int, Link] = {}
        for index, entry in enumerate(ends):
            if entry is not None:
                found = self._kept_link(entry, alive, {lk.link_id for lk in matched.values()})
                if found is not None:
                    matched[index] = found
        plans: list[LinkPlan] = []
        for index, entry in enumerate(ends):
            if entry is None:
                continue
            item, a, b = entry
            subnet = self._subnet_name(item)
            if index in matched:
                plans.append(self._kept_plan(matched[index], a, b, subnet))
                continue
            end_a = self._choose(a, item.a.port, item.a.any_port, used, taken)
            end_b = self._choose(b, item.b.port, item.b.any_port, used, taken)
            if end_a is not None and end_b is not None:
                if a.node_id == b.node_id and end_a.port == end_b.port:
                    self.problem(f"A link cannot join {a.name} {end_a.port} to itself.")
                plans.append(LinkPlan(end_a, end_b, subnet))
        return plans

    def _subnet_name(self, item: PlanLink) -> str:
        if item.subnet is None:
            return ""
        found = [s for s in self.spec.subnets if s.name.casefold() == item.subnet.casefold()]
        if not found:
            self.problem(f"A link names the subnet {item.subnet}, which the plan does not define.")
            return item.subnet
        return f"{found[0].name} {found[0].prefix}"

    def _kept_link(
        self, entry: tuple[PlanLink, Node, Node], alive: list[Link], claimed: set[str]
    ) -> Link | None:
        item, a, b = entry
        if a.node_id.startswith(NEW_ID_PREFIX) or b.node_id.startswith(NEW_ID_PREFIX):
            return None
        for link in alive:
            if link.link_id in claimed or len(link.nodes) != 2:
                continue
            x, y = link.nodes
            for first, second in ((x, y), (y, x)):
                if (
                    first.node_id == a.node_id
                    and second.node_id == b.node_id
                    and self._port_fits(
                        a, item.a.port, item.a.any_port, first.adapter_number, first.port_number
                    )
                    and self._port_fits(
                        b, item.b.port, item.b.any_port, second.adapter_number, second.port_number
                    )
                ):
                    return link
        return None

    @staticmethod
    def _port_fits(node: Node, spec: str, any_port: bool, adapter: int, port: int) -> bool:
        if any_port:
            return True
        try:
            chosen = resolve_port(node, spec)
        except NameResolutionError:
            return False
        return (chosen.adapter_number, chosen.port_number) == (adapter, port)

    @staticmethod
    def _kept_plan(link: Link, a: Node, b: Node, subnet: str) -> LinkPlan:
        x, y = link.nodes
        if x.node_id != a.node_id:
            x, y = y, x

        def end(node: Node, e: Any) -> EndPlan:
            name = next(
                (
                    p.name
                    for p in node.ports
                    if (p.adapter_number, p.port_number) == (e.adapter_number, e.port_number)
                ),
                f"{e.adapter_number}/{e.port_number}",
            )
            return EndPlan(node.name, name, e.adapter_number, e.port_number)

        return LinkPlan(end(a, x), end(b, y), subnet, link.link_id)

    def _choose(
        self, node: Node, spec: str, any_port: bool, used: set[PortKey], taken: set[PortKey]
    ) -> EndPlan | None:
        if node.name in self.unknown_ports:
            self.problem(
                f"The ports of {node.name} are known only once it exists; create it first "
                "(create_nodes), then plan its links."
            )
            return None
        busy = used | taken
        if any_port:
            free = [
                p
                for p in _sorted_ports(node)
                if (node.node_id, p.adapter_number, p.port_number) not in busy
            ]
            if not free:
                self.problem(f"{node.name} has no free port left for the plan's links.")
                return None
            port = free[0]
        else:
            try:
                port = resolve_port(node, spec)
            except NameResolutionError as exc:
                self.problem(exc.user_message)
                return None
            key = (node.node_id, port.adapter_number, port.port_number)
            if key in busy:
                where = "by another link of the plan" if key in taken else "by an existing link"
                self.problem(
                    f"{node.name} {port.name} is already used {where}; pick a free port or 'any'."
                )
                return None
        taken.add((node.node_id, port.adapter_number, port.port_number))
        return EndPlan(node.name, port.name, port.adapter_number, port.port_number, any_port)

    # --- addressing ----------------------------------------------------------------------

    def addressing(self) -> dict[str, list[InterfaceAddress]]:
        subnets = self.spec.subnets
        for text in subnet_problems(subnets):
            self.problem(text)
        result: dict[str, list[InterfaceAddress]] = {}
        seen_ips: dict[ipaddress.IPv4Address, str] = {}
        seen_ifaces: set[tuple[str, str]] = set()
        for item in self.spec.addresses:
            node = self.node(item.node, "An address")
            where = f"{item.address} on {item.node} {item.interface}"
            subnet = next((s for s in subnets if item.address.network == s.prefix), None)
            if subnet is None:
                self.problem(f"The address {where} is not inside any subnet of the plan.")
            elif not usable_host(item.address.ip, subnet.prefix):
                self.problem(
                    f"The address {where} is the network or broadcast address of {subnet.prefix}."
                )
            if item.address.ip in seen_ips:
                self.problem(
                    f"The address {item.address.ip} is given twice "
                    f"({seen_ips[item.address.ip]} and {item.node})."
                )
            seen_ips[item.address.ip] = item.node
            gateway = item.gateway or (subnet.gateway if subnet else None)
            if item.gateway is not None and item.gateway not in item.address.network:
                self.problem(
                    f"The gateway {item.gateway} of {where} is outside {item.address.network}."
                )
            if node is None:
                continue
            interface = item.interface
            if node.ports:
                try:
                    interface = resolve_port(node, item.interface).name
                except NameResolutionError as exc:
                    self.problem(exc.user_message)
                    continue
            key = (node.name.casefold(), interface.casefold())
            if key in seen_ifaces:
                self.problem(f"{node.name} {interface} is given two addresses.")
            seen_ifaces.add(key)
            if gateway == item.address.ip:
                gateway = None
            result.setdefault(node.name, []).append(
                InterfaceAddress(interface, item.address, gateway)
            )
        for name, items in result.items():
            plan = self.plans.get(name.casefold())
            if plan is not None and plan.platform == "vpcs" and len(items) > 1:
                self.problem(
                    f"{name} is a VPCS host: it takes one address, the plan gives {len(items)}."
                )
        for x, y in self.spec.reach:
            for name in (x, y):
                if name not in result and name.casefold() not in {n.casefold() for n in result}:
                    self.problem(
                        f"The plan wants {x} and {y} to reach each other, "
                        f"but {name} gets no address."
                    )
        return result


def validate_plan(
    spec: LabSpec, templates: Sequence[Template], nodes: list[Node], links: list[Link]
) -> ValidatedPlan:
    """Resolve `spec` against the project; raise `PlanInvalidError` with every problem found."""
    checker = _Checker(spec, templates, nodes)
    checker.check_nodes()
    removed_nodes, removed_links = checker.removals(links)
    link_plans = checker.links(links, removed_links, removed_nodes)
    addresses = checker.addressing()
    if checker.problems:
        raise PlanInvalidError(checker.problems)
    configs: dict[str, tuple[str, ...]] = {}
    for plan in checker.plans.values():
        lines = render_config(
            plan.platform,
            addresses.get(plan.node.name, []),
            ospf=plan.spec.ospf,
            node_type=plan.node.node_type,
        )
        if lines:
            configs[plan.node.name] = lines
    return ValidatedPlan(
        spec=spec,
        nodes=list(checker.plans.values()),
        links=link_plans,
        removed_nodes=removed_nodes,
        removed_links=removed_links,
        addresses=addresses,
        configs=configs,
        project_nodes=nodes,
        project_links=links,
    )
