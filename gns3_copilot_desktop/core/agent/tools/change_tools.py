"""Change tools for nodes and links: create, rename/move, delete; every call needs approval.

Names are resolved with `resolve` (close matches suggested), batches are checked as a whole before
anything is sent (one unknown name: nothing changes), and a failure half-way through a batch says
what was done and what was not.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.base import AgentTool, ToolResult
from gns3_copilot_desktop.core.agent.tools.common import (
    MAX_BATCH,
    StrictArgs,
    console_text,
    error_result,
    join_names,
    node_card,
    project_topology,
)
from gns3_copilot_desktop.core.agent.tools.layout import place_nodes
from gns3_copilot_desktop.core.agent.tools.resolve import (
    NameResolutionError,
    PortKey,
    free_port,
    link_label,
    port_key,
    resolve_link,
    resolve_node,
    resolve_nodes,
    resolve_port,
    resolve_template,
    used_ports,
)
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node, Port

# --- create nodes -----------------------------------------------------------------------------


class NewNode(StrictArgs):
    """One node to create from a template."""

    template: str = Field(description="Template name as listed by list_templates, e.g. 'VPCS'.")
    name: str | None = Field(
        default=None, min_length=1, description="Node name; the template's default when omitted."
    )
    x: int | None = Field(default=None, description="Canvas x; chosen free spot when omitted.")
    y: int | None = Field(default=None, description="Canvas y; chosen free spot when omitted.")


class CreateNodesArgs(StrictArgs):
    """Arguments of `CreateNodesTool`."""

    nodes: list[NewNode] = Field(min_length=1, max_length=MAX_BATCH)

    @model_validator(mode="after")
    def _distinct_names(self) -> CreateNodesArgs:
        names = [n.name.lower() for n in self.nodes if n.name]
        if len(names) != len(set(names)):
            raise ValueError("two new nodes have the same name")
        return self


class CreateNodesTool(AgentTool[CreateNodesArgs]):
    """Create nodes from templates, laid out so they do not overlap existing ones."""

    name = "create_nodes"
    description = (
        "Create one or more nodes from templates (by template name), optionally naming them. "
        "Positions are chosen so new nodes do not overlap existing ones unless x/y are given."
    )
    args_schema = CreateNodesArgs
    risk = "change"

    def summary(self, args: CreateNodesArgs) -> str:
        """``create nodes SW1 (Ethernet switch), PC1 (VPCS)``."""
        parts = [f"{n.name or 'new node'} ({n.template})" for n in args.nodes]
        return f"create {'node' if len(parts) == 1 else 'nodes'} {join_names(parts)}"

    async def run(self, args: CreateNodesArgs, ctx: RunContext) -> ToolResult:
        """Resolve every template and name first, then create the nodes in order."""
        try:
            templates = await ctx.client.list_templates()
            topology = await project_topology(ctx)
            chosen = [resolve_template(templates, n.template) for n in args.nodes]
            _refuse_taken_names([n.name for n in args.nodes if n.name], topology.nodes)
        except CopilotError as exc:
            return error_result(exc)
        spots = iter(
            place_nodes(
                [(n.x, n.y) for n in topology.nodes]
                + [(n.x, n.y) for n in args.nodes if n.x is not None and n.y is not None],
                sum(1 for n in args.nodes if n.x is None or n.y is None),
            )
        )
        created: list[Node] = []
        for new, template in zip(args.nodes, chosen, strict=True):
            x, y = (new.x, new.y) if new.x is not None and new.y is not None else next(spots)
            try:
                node = await _create_one(ctx, template.template_id, x, y, new.name)
            except CopilotError as exc:
                return _partial(
                    "create",
                    [n.name for n in created],
                    new.name or template.name,
                    exc,
                    {"created": [node_card(n) for n in created]},
                )
            created.append(node)
        lines = [
            f"- {n.name} ({n.node_type}, {n.status}, {console_text(n)}) at ({n.x}, {n.y}); "
            f"ports: {', '.join(p.name for p in n.ports) or 'none'}"
            for n in created
        ]
        return ToolResult(
            text=f"Created {len(created)} node(s):\n" + "\n".join(lines),
            structured={"created": [node_card(n) for n in created]},
        )


async def _create_one(ctx: RunContext, template_id: str, x: int, y: int, name: str | None) -> Node:
    node = await ctx.client.create_node_from_template(
        ctx.project_id, template_id, x=x, y=y, name=name
    )
    if name and node.name != name:
        # GNS3 3.0 names a node from the template's name format whatever the request says.
        node = await ctx.client.update_node(ctx.project_id, node.node_id, name=name)
    return node


def _refuse_taken_names(names: list[str], nodes: list[Node]) -> None:
    existing = {n.name.lower() for n in nodes}
    taken = [name for name in names if name.lower() in existing]
    if taken:
        raise NameResolutionError(
            f"The project already has node(s) named {', '.join(taken)}; choose other names."
        )


def _partial(
    verb: str, done: list[str], failed: str, exc: CopilotError, structured: dict[str, Any]
) -> ToolResult:
    before = f"Done before the failure: {', '.join(done)}. " if done else "Nothing was changed. "
    return ToolResult.error(
        f"Error: could not {verb} {failed}: {exc.user_message} {before}"
        "The rest of the batch was not attempted.",
        **structured,
    )


# --- rename / move ----------------------------------------------------------------------------


class NodeChange(StrictArgs):
    """A new name and/or position for one node."""

    node: str = Field(description="Current node name.")
    new_name: str | None = Field(default=None, min_length=1)
    x: int | None = None
    y: int | None = None

    @model_validator(mode="after")
    def _something(self) -> NodeChange:
        if self.new_name is None and self.x is None and self.y is None:
            raise ValueError("give new_name and/or x/y")
        return self


class UpdateNodesArgs(StrictArgs):
    """Arguments of `UpdateNodesTool`."""

    changes: list[NodeChange] = Field(min_length=1, max_length=MAX_BATCH)


class UpdateNodesTool(AgentTool[UpdateNodesArgs]):
    """Rename and/or move nodes."""

    name = "update_nodes"
    description = "Rename nodes and/or move them on the canvas (x, y)."
    args_schema = UpdateNodesArgs
    risk = "change"

    def summary(self, args: UpdateNodesArgs) -> str:
        """``rename PC1 -> Client1; move SW1 to (100, 200)``."""
        parts = []
        for c in args.changes:
            words = []
            if c.new_name:
                words.append(f"rename {c.node} -> {c.new_name}")
            if c.x is not None or c.y is not None:
                words.append(f"move {c.new_name or c.node} to ({_coord(c.x)}, {_coord(c.y)})")
            parts.append(", ".join(words))
        return "; ".join(parts)

    async def run(self, args: UpdateNodesArgs, ctx: RunContext) -> ToolResult:
        """Resolve all names, then send one update per node."""
        try:
            topology = await project_topology(ctx)
            targets = [resolve_node(topology.nodes, c.node) for c in args.changes]
            others = [n for n in topology.nodes if n not in targets]
            _refuse_taken_names([c.new_name for c in args.changes if c.new_name], others)
        except CopilotError as exc:
            return error_result(exc)
        updated: list[Node] = []
        for change, node in zip(args.changes, targets, strict=True):
            fields: dict[str, Any] = {
                k: v
                for k, v in (("name", change.new_name), ("x", change.x), ("y", change.y))
                if v is not None
            }
            try:
                updated.append(await ctx.client.update_node(ctx.project_id, node.node_id, **fields))
            except CopilotError as exc:
                return _partial(
                    "update",
                    [n.name for n in updated],
                    node.name,
                    exc,
                    {"updated": [node_card(n) for n in updated]},
                )
        lines = [
            f"- {before.name} -> {after.name} at ({after.x}, {after.y})"
            for before, after in zip(targets, updated, strict=True)
        ]
        return ToolResult(
            text=f"Updated {len(updated)} node(s):\n" + "\n".join(lines),
            structured={"updated": [node_card(n) for n in updated]},
        )


def _coord(value: int | None) -> str:
    return "same" if value is None else str(value)


# --- delete nodes -----------------------------------------------------------------------------


class DeleteNodesArgs(StrictArgs):
    """Arguments of `DeleteNodesTool`."""

    nodes: list[str] = Field(min_length=1, max_length=MAX_BATCH, description="Node names.")


class DeleteNodesTool(AgentTool[DeleteNodesArgs]):
    """Delete nodes (their links go with them)."""

    name = "delete_nodes"
    description = "Delete nodes by name; their links are deleted with them."
    args_schema = DeleteNodesArgs
    risk = "change"

    def summary(self, args: DeleteNodesArgs) -> str:
        """``delete nodes PC3, PC4 (and their links)``."""
        word = "node" if len(args.nodes) == 1 else "nodes"
        return f"delete {word} {join_names(args.nodes)} (and their links)"

    async def run(self, args: DeleteNodesArgs, ctx: RunContext) -> ToolResult:
        """Resolve every name, then delete."""
        try:
            topology = await project_topology(ctx)
            targets = resolve_nodes(topology.nodes, args.nodes)
        except CopilotError as exc:
            return error_result(exc)
        ids = {n.node_id for n in targets}
        gone_links = [lk for lk in topology.links if any(e.node_id in ids for e in lk.nodes)]
        deleted: list[str] = []
        for node in targets:
            try:
                await ctx.client.delete_node(ctx.project_id, node.node_id)
            except CopilotError as exc:
                return _partial("delete", deleted, node.name, exc, {"deleted": deleted})
            deleted.append(node.name)
        return ToolResult(
            text=f"Deleted {join_names(deleted)} and {len(gone_links)} link(s) attached to them.",
            structured={"deleted": deleted, "links_removed": len(gone_links)},
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
                return _partial("create link", done, label, exc, {"created": done})
        labels = [link_label(lk, by_id) for lk in made]
        return ToolResult(
            text=f"Created {len(made)} link(s):\n" + "\n".join(f"- {x}" for x in labels),
            structured={
                "created": [
                    {"link_id": lk.link_id, "label": x} for lk, x in zip(made, labels, strict=True)
                ]
            },
        )


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
    description = "Delete links, each named by the nodes (and ports) at its ends."
    args_schema = DeleteLinksArgs
    risk = "change"

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
        deleted: list[str] = []
        for link in {lk.link_id: lk for lk in targets}.values():
            try:
                await ctx.client.delete_link(ctx.project_id, link.link_id)
            except CopilotError as exc:
                return _partial(
                    "delete link", deleted, link_label(link, by_id), exc, {"deleted": deleted}
                )
            deleted.append(link_label(link, by_id))
        return ToolResult(
            text=f"Deleted {len(deleted)} link(s):\n" + "\n".join(f"- {x}" for x in deleted),
            structured={"deleted": deleted},
        )


def node_change_tools() -> list[AgentTool[Any]]:
    """The node and link change tools."""
    return [
        CreateNodesTool(),
        UpdateNodesTool(),
        DeleteNodesTool(),
        CreateLinksTool(),
        DeleteLinksTool(),
    ]
