"""A validated plan compared with the project: what is new, kept and removed, and its picture.

Nodes are matched by name (the validator refused a name taken by another template), links by
their ends, and nothing is removed unless the spec's ``remove`` says so. Only new devices, and
kept devices that gain a link, are configured: re-applying a plan changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gns3_copilot_desktop.core.gns3.layout import place_nodes
from gns3_copilot_desktop.core.gns3.models import Link, Node
from gns3_copilot_desktop.core.lab_plan.picture import (
    LabPicture,
    PictureLink,
    PictureNode,
    picture_to_json,
)
from gns3_copilot_desktop.core.lab_plan.topology import port_name
from gns3_copilot_desktop.core.lab_plan.validate import LinkPlan, NodePlan, ValidatedPlan


@dataclass
class LabDiff:
    """What applying a plan changes."""

    new_nodes: list[NodePlan]
    kept_nodes: list[NodePlan]
    removed_nodes: list[Node]
    new_links: list[LinkPlan]
    kept_links: list[LinkPlan]
    removed_links: list[Link]
    configs: dict[str, tuple[str, ...]]
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    plan: ValidatedPlan | None = None

    @property
    def is_empty(self) -> bool:
        """Whether applying changes nothing."""
        return not (
            self.new_nodes
            or self.new_links
            or self.removed_nodes
            or self.removed_links
            or self.configs
        )

    def summary(self) -> str:
        """``add 3 nodes, 4 links; configure 2 devices`` or ``nothing to change``."""
        parts = []
        added = _counts(len(self.new_nodes), len(self.new_links))
        removed = _counts(len(self.removed_nodes), len(self.removed_links))
        if added:
            parts.append(f"add {added}")
        if removed:
            parts.append(f"remove {removed}")
        if self.configs:
            n = len(self.configs)
            parts.append(f"configure {n} device{'s' if n != 1 else ''}")
        return "; ".join(parts) if parts else "nothing to change"

    def auto_ports(self) -> list[str]:
        """``SW1 Ethernet0 (for PC1)``: ports the plan chose, for the result text."""
        chosen = []
        for link in self.new_links:
            for end, other in ((link.a, link.b), (link.b, link.a)):
                if end.auto:
                    chosen.append(f"{end.node} {end.port} (to {other.node})")
        return chosen

    def to_json(self) -> dict[str, Any]:
        """The plan for an approval card: tables and the picture, JSON-able."""

        def link(lp: LinkPlan, state: str) -> dict[str, Any]:
            return {
                "a": lp.a.node,
                "a_port": lp.a.port,
                "b": lp.b.node,
                "b_port": lp.b.port,
                "subnet": lp.subnet,
                "state": state,
                "auto": [lp.a.auto, lp.b.auto],
            }

        addresses = self.plan.addresses if self.plan else {}
        return {
            "summary": self.summary(),
            "nodes": [
                {"name": p.node.name, "template": p.template.name, "state": "new"}
                for p in self.new_nodes
            ]
            + [
                {"name": p.node.name, "template": p.template.name, "state": "unchanged"}
                for p in self.kept_nodes
            ]
            + [
                {"name": n.name, "template": n.node_type, "state": "removed"}
                for n in self.removed_nodes
            ],
            "links": [link(lp, "new") for lp in self.new_links]
            + [link(lp, "unchanged") for lp in self.kept_links],
            "removed_links": len(self.removed_links),
            "addressing": [
                {
                    "node": name,
                    "interface": a.interface,
                    "address": a.address.with_prefixlen,
                    "gateway": str(a.gateway) if a.gateway else "",
                }
                for name, items in addresses.items()
                for a in items
            ],
            "configs": {name: list(lines) for name, lines in self.configs.items()},
            "positions": {name: list(xy) for name, xy in self.positions.items()},
            "picture": picture_to_json(plan_picture(self)),
        }


def _counts(nodes: int, links: int) -> str:
    parts = []
    if nodes:
        parts.append(f"{nodes} node{'s' if nodes != 1 else ''}")
    if links:
        parts.append(f"{links} link{'s' if links != 1 else ''}")
    return ", ".join(parts)


def diff_plan(plan: ValidatedPlan) -> LabDiff:
    """Compare a validated plan with the project it was validated against."""
    new_nodes = [p for p in plan.nodes if not p.existing]
    new_links = [lp for lp in plan.links if lp.link_id is None]
    fresh = {p.node.name for p in new_nodes}
    touched = fresh | {e.node for lp in new_links for e in (lp.a, lp.b)}
    configs = {name: lines for name, lines in plan.configs.items() if name in touched}
    return LabDiff(
        new_nodes=new_nodes,
        kept_nodes=[p for p in plan.nodes if p.existing],
        removed_nodes=plan.removed_nodes,
        new_links=new_links,
        kept_links=[lp for lp in plan.links if lp.link_id is not None],
        removed_links=plan.removed_links,
        configs=configs,
        positions=_positions(plan),
        plan=plan,
    )


def _positions(plan: ValidatedPlan) -> dict[str, tuple[int, int]]:
    """Every node's position: the spec's, the existing node's, else a free grid cell (in the
    spec's order, so the same plan always lands on the same cells)."""
    removed = {n.node_id for n in plan.removed_nodes}
    placed: dict[str, tuple[int, int]] = {
        n.name: (n.x, n.y) for n in plan.project_nodes if n.node_id not in removed
    }
    waiting = []
    for p in plan.nodes:
        if p.spec.x is not None and p.spec.y is not None:
            placed[p.node.name] = (p.spec.x, p.spec.y)
        elif not p.existing:
            waiting.append(p.node.name)
    spots = place_nodes(list(placed.values()), len(waiting))
    placed.update(zip(waiting, spots, strict=True))
    return placed


def plan_picture(diff: LabDiff, project_nodes: list[Node] | None = None) -> LabPicture:
    """The plan drawn over the project: new in green, removed in red, the rest unchanged."""
    plan = diff.plan
    nodes_of_project = (
        project_nodes if project_nodes is not None else (plan.project_nodes if plan else [])
    )
    addresses = plan.addresses if plan else {}
    removed = {n.node_id for n in diff.removed_nodes}
    nodes: list[PictureNode] = []
    for node in nodes_of_project:
        x, y = diff.positions.get(node.name, (node.x, node.y))
        nodes.append(
            PictureNode(
                name=node.name,
                node_type=node.node_type,
                x=x,
                y=y,
                state="removed" if node.node_id in removed else "unchanged",
                addresses=_addresses(addresses, node.name),
            )
        )
    for p in diff.new_nodes:
        x, y = diff.positions[p.node.name]
        nodes.append(
            PictureNode(
                name=p.node.name,
                node_type=p.node.node_type,
                x=x,
                y=y,
                state="new",
                addresses=_addresses(addresses, p.node.name),
            )
        )
    links = [_picture_link(lp, "new") for lp in diff.new_links]
    links += [_picture_link(lp, "unchanged") for lp in diff.kept_links]
    by_id = {n.node_id: n for n in nodes_of_project}
    removed_ids = {link.link_id for link in diff.removed_links}
    planned = {lp.link_id for lp in diff.kept_links}
    # the project's other links are drawn too: the plan is shown over the lab as it is
    others = [
        lk
        for lk in (plan.project_links if plan else [])
        if lk.link_id not in removed_ids and lk.link_id not in planned
    ]
    for link, state in [(lk, "removed") for lk in diff.removed_links] + [
        (lk, "unchanged") for lk in others
    ]:
        if len(link.nodes) == 2 and all(e.node_id in by_id for e in link.nodes):
            ea, eb = link.nodes
            a, b = by_id[ea.node_id], by_id[eb.node_id]
            links.append(
                PictureLink(
                    a=a.name,
                    a_port=port_name(a, ea.adapter_number, ea.port_number),
                    b=b.name,
                    b_port=port_name(b, eb.adapter_number, eb.port_number),
                    state="removed" if state == "removed" else "unchanged",
                )
            )
    return LabPicture(nodes=tuple(nodes), links=tuple(links))


def _picture_link(lp: LinkPlan, state: str) -> PictureLink:
    return PictureLink(
        a=lp.a.node,
        a_port=lp.a.port,
        b=lp.b.node,
        b_port=lp.b.port,
        state="new" if state == "new" else "unchanged",
        subnet=lp.subnet,
    )


def _addresses(addresses: dict[str, Any], name: str) -> tuple[str, ...]:
    return tuple(a.address.with_prefixlen for a in addresses.get(name, []))
