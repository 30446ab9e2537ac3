"""Change tools for links: create them by node and port names (free ports chosen), delete them.

Every link of a batch is planned first (names, ports, conflicts with existing links and with the
other links of the batch), so one bad name or a port in use changes nothing.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.base import AgentTool, ToolResult
from gns3_copilot_desktop.core.agent.tools.common import (
    MAX_BATCH,
    StrictArgs,
    error_result,
    join_names,
    partial_failure,
    project_topology,
)
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node, Port
from gns3_copilot_desktop.core.gns3.resolve import (
    NameResolutionError,
    PortKey,
    free_port,
    link_label,
    port_key,
    resolve_link,
    resolve_node,
    resolve_port,
    used_ports,
)
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP
from gns3_copilot_desktop.core.undo.record import (
    RemoveLink,
    RestoreLink,
    SavedEnd,
    SavedLink,
    with_undo,
)

# --- create links -----------------------------------------------------------------------------


class NewLink(StrictArgs):
    """Two node ports to link; a missing port means "the first free port"."""

    node_a: str
    port_a: str | None = Field(default=None, description="e.g. 'Ethernet0', 'e0/0', 'eth1', '3'.")
    node_b: str
    port_b: str | None = None


class CreateLinksArgs(StrictArgs):
    """Arguments of `CreateLinksTool`."""

    links: list[NewLink] = Field(min_length=1, max_length=MAX_BATCH)


def _end_text(node: str, port: str | None) -> str:
    return f"{node} {port}" if port else f"{node} (free port)"


class CreateLinksTool(AgentTool[CreateLinksArgs]):
    """Link node ports by names; free ports are chosen when not given."""

    name = "create_links"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Connect ports")
    description = (
        "Create links between nodes by node name and port name (e.g. 'e0/0', 'Ethernet1', "
        "'port 3'). When a port is omitted, the node's first free port is used."
    )
    args_schema = CreateLinksArgs
    risk = "change"

    def summary(self, args: CreateLinksArgs) -> str:
        """``create link R1 e0/0 <-> SW1 port 3``."""
        parts = [
            f"{_end_text(lk.node_a, lk.port_a)} <-> {_end_text(lk.node_b, lk.port_b)}"
            for lk in args.links
        ]
        return f"create {'link' if len(parts) == 1 else 'links'} {'; '.join(parts)}"

    async def run(self, args: CreateLinksArgs, ctx: RunContext) -> ToolResult:
        """Plan every link (names, ports, conflicts) before creating any."""
        try:
            topology = await project_topology(ctx)
            plan = _plan_links(args.links, topology.nodes, used_ports(topology.links))
        except CopilotError as exc:
            return error_result(exc)
        by_id = {n.node_id: n for n in topology.nodes}
        made: list[Link] = []
        for (a, pa), (b, pb) in plan:
            try:
                made.append(await ctx.client.create_link(ctx.project_id, _end(a, pa), _end(b, pb)))
            except CopilotError as exc:
                label = f"{a.name} {pa.name} <-> {b.name} {pb.name}"
                done = [link_label(lk, by_id) for lk in made]
                return partial_failure("create link", done, label, exc, _made(made, by_id))
        labels = [link_label(lk, by_id) for lk in made]
        return ToolResult(
            text=f"Created {len(made)} link(s):\n" + "\n".join(f"- {x}" for x in labels),
            structured=_made(made, by_id),
        )


def _made(made: list[Link], by_id: dict[str, Node]) -> dict[str, Any]:
    labels = [link_label(lk, by_id) for lk in made]
    steps = [
        RemoveLink(link_id=lk.link_id, label=x, ends=_saved_ends(lk, by_id))
        for lk, x in zip(made, labels, strict=True)
    ]
    created = [{"link_id": lk.link_id, "label": x} for lk, x in zip(made, labels, strict=True)]
    return with_undo({"created": created}, "create_links", steps)


def _saved_ends(link: Link, by_id: dict[str, Node]) -> list[SavedEnd]:
    """The link's ends by node name and port: Undo finds the link by them after an id change."""
    saved = SavedLink.from_link(link, by_id)
    return list(saved.ends) if saved is not None else []


_PlannedEnd = tuple[Node, Port]


def _plan_links(
    links: list[NewLink], nodes: list[Node], used: set[PortKey]
) -> list[tuple[_PlannedEnd, _PlannedEnd]]:
    taken: set[PortKey] = set()
    plan = []
    for link in links:
        a = _plan_end(nodes, link.node_a, link.port_a, used, taken)
        b = _plan_end(nodes, link.node_b, link.port_b, used, taken)
        if a[0].node_id == b[0].node_id and a[1] == b[1]:
            raise NameResolutionError(f"A link cannot join {a[0].name} {a[1].name} to itself.")
        plan.append((a, b))
    return plan


def _plan_end(
    nodes: list[Node], name: str, port: str | None, used: set[PortKey], taken: set[PortKey]
) -> _PlannedEnd:
    node = resolve_node(nodes, name)
    chosen = resolve_port(node, port) if port else free_port(node, used, taken)
    key = port_key(node, chosen)
    if key in used or key in taken:
        raise NameResolutionError(
            f"{node.name} {chosen.name} is already linked; "
            f"free ports of {node.name}: {_free_names(node, used | taken)}."
        )
    taken.add(key)
    return node, chosen


def _free_names(node: Node, busy: set[PortKey]) -> str:
    free = [p.name for p in node.ports if port_key(node, p) not in busy]
    return join_names(free) if free else "none"


def _end(node: Node, port: Port) -> LinkEnd:
    return LinkEnd(
        node_id=node.node_id, adapter_number=port.adapter_number, port_number=port.port_number
    )


# --- delete links -----------------------------------------------------------------------------


class LinkRef(StrictArgs):
    """A link named by its ends: a node (and port), optionally the node at the other end."""

    node_a: str = Field(description="Node at one end (or the link id).")
    port_a: str | None = None
    node_b: str | None = Field(default=None, description="Node at the other end.")
    port_b: str | None = None

    def label(self) -> str:
        """``R1 e0/0 <-> SW1``."""
        a = " ".join(x for x in (self.node_a, self.port_a) if x)
        b = " ".join(x for x in (self.node_b, self.port_b) if x)
        return f"{a} <-> {b}" if b else f"the link at {a}"


class DeleteLinksArgs(StrictArgs):
    """Arguments of `DeleteLinksTool`."""

    links: list[LinkRef] = Field(min_length=1, max_length=MAX_BATCH)


class DeleteLinksTool(AgentTool[DeleteLinksArgs]):
    """Delete links named by their ends."""

    name = "delete_links"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Remove links")
    description = "Delete links, each named by the nodes (and ports) at its ends."
    args_schema = DeleteLinksArgs
    risk = "change"
    destructive = True

    def summary(self, args: DeleteLinksArgs) -> str:
        """``delete link R1 e0/0 <-> SW1``."""
        word = "link" if len(args.links) == 1 else "links"
        return f"delete {word} {'; '.join(r.label() for r in args.links)}"

    async def run(self, args: DeleteLinksArgs, ctx: RunContext) -> ToolResult:
        """Resolve every link first, then delete."""
        try:
            topology = await project_topology(ctx)
            targets = [
                resolve_link(topology.nodes, topology.links, r.node_a, r.port_a, r.node_b, r.port_b)
                for r in args.links
            ]
        except CopilotError as exc:
            return error_result(exc)
        by_id = {n.node_id: n for n in topology.nodes}
        deleted: list[Link] = []
        for link in {lk.link_id: lk for lk in targets}.values():
            try:
                await ctx.client.delete_link(ctx.project_id, link.link_id)
            except CopilotError as exc:
                done = [link_label(lk, by_id) for lk in deleted]
                failed = link_label(link, by_id)
                return partial_failure("delete link", done, failed, exc, _removed(deleted, by_id))
            deleted.append(link)
        labels = [link_label(lk, by_id) for lk in deleted]
        return ToolResult(
            text=f"Deleted {len(deleted)} link(s):\n" + "\n".join(f"- {x}" for x in labels),
            structured=_removed(deleted, by_id),
        )


def _removed(deleted: list[Link], by_id: dict[str, Node]) -> dict[str, Any]:
    saved = [SavedLink.from_link(lk, by_id) for lk in deleted]
    steps = [RestoreLink(link=s) for s in saved if s is not None]
    labels = [link_label(lk, by_id) for lk in deleted]
    return with_undo({"deleted": labels}, "delete_links", steps)


def link_change_tools() -> list[AgentTool[Any]]:
    """The link change tools."""
    return [CreateLinksTool(), DeleteLinksTool()]
