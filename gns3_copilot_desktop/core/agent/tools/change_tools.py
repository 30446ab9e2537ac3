"""Change tools for nodes: create from templates, rename/move, delete; every call needs approval.

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
    partial_failure,
    project_topology,
)
from gns3_copilot_desktop.core.devices import save_running_vpcs
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.layout import place_nodes
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.gns3.resolve import (
    NameResolutionError,
    link_label,
    resolve_node,
    resolve_nodes,
    resolve_template,
)
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP
from gns3_copilot_desktop.core.undo.record import (
    RemoveNode,
    RestoreFields,
    RestoreLink,
    RestoreNode,
    SavedLink,
    SavedNode,
    with_undo,
)

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
    display_name = QT_TRANSLATE_NOOP("ToolName", "Add nodes")
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
                return partial_failure(
                    "create",
                    [n.name for n in created],
                    new.name or template.name,
                    exc,
                    _created(created),
                )
            created.append(node)
        lines = [
            f"- {n.name} ({n.node_type}, {n.status}, {console_text(n)}) at ({n.x}, {n.y}); "
            f"ports: {', '.join(p.name for p in n.ports) or 'none'}"
            for n in created
        ]
        return ToolResult(
            text=f"Created {len(created)} node(s):\n" + "\n".join(lines),
            structured=_created(created),
        )


def _created(created: list[Node]) -> dict[str, Any]:
    steps = [RemoveNode(node_id=n.node_id, name=n.name, node_type=n.node_type) for n in created]
    return with_undo({"created": [node_card(n) for n in created]}, "create_nodes", steps)


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
    display_name = QT_TRANSLATE_NOOP("ToolName", "Rename or move nodes")
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
                return partial_failure(
                    "update", [n.name for n in updated], node.name, exc, _updated(targets, updated)
                )
        lines = [
            f"- {before.name} -> {after.name} at ({after.x}, {after.y})"
            for before, after in zip(targets, updated, strict=True)
        ]
        return ToolResult(
            text=f"Updated {len(updated)} node(s):\n" + "\n".join(lines),
            structured=_updated(targets, updated),
        )


def _updated(targets: list[Node], updated: list[Node]) -> dict[str, Any]:
    steps = [
        RestoreFields(
            node_id=after.node_id,
            name=after.name,
            node_type=after.node_type,
            old_name=before.name if before.name != after.name else None,
            x=before.x if (before.x, before.y) != (after.x, after.y) else None,
            y=before.y if (before.x, before.y) != (after.x, after.y) else None,
        )
        for before, after in zip(targets, updated, strict=False)
    ]
    return with_undo({"updated": [node_card(n) for n in updated]}, "update_nodes", steps)


def _coord(value: int | None) -> str:
    return "same" if value is None else str(value)


# --- delete nodes -----------------------------------------------------------------------------


class DeleteNodesArgs(StrictArgs):
    """Arguments of `DeleteNodesTool`."""

    nodes: list[str] = Field(min_length=1, max_length=MAX_BATCH, description="Node names.")


def _from_node(label: str, name: str) -> str:
    """A link's label with `name`'s end first (``R1 e0/0 <-> SW1 Ethernet3``)."""
    ends = label.split(" <-> ")
    if len(ends) == 2 and not ends[0].startswith(f"{name} ") and ends[1].startswith(f"{name} "):
        return f"{ends[1]} <-> {ends[0]}"
    return label


class DeleteNodesTool(AgentTool[DeleteNodesArgs]):
    """Delete nodes (their links go with them)."""

    name = "delete_nodes"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Delete nodes")
    description = "Delete nodes by name; their links are deleted with them."
    args_schema = DeleteNodesArgs
    risk = "change"
    destructive = True

    def summary(self, args: DeleteNodesArgs) -> str:
        """``delete Switch1 with its links``, ``delete PC3 and PC4 with their links``."""
        whose = "its" if len(args.nodes) == 1 else "their"
        return f"delete {join_names(args.nodes)} with {whose} links"

    async def consequence(self, args: DeleteNodesArgs, ctx: RunContext) -> str | None:
        """One line per node, then each link that goes with it by its ends and ports (as the
        undo question names them)::

            Switch1 goes with its 2 links:
              Switch1 Ethernet0 <-> PC1 Ethernet0
              Switch1 Ethernet1 <-> PC2 Ethernet0
            Switch1 is running now
            PC3 has no links
        """
        topology = await project_topology(ctx)
        by_id = {n.node_id: n for n in topology.nodes}
        lines: list[str] = []
        for node in resolve_nodes(topology.nodes, args.nodes):
            links = [
                lk for lk in topology.links if any(e.node_id == node.node_id for e in lk.nodes)
            ]
            if not links:
                lines.append(f"{node.name} has no links")
            else:
                plural = "link" if len(links) == 1 else "links"
                lines.append(f"{node.name} goes with its {len(links)} {plural}:")
                lines.extend(f"  {_from_node(link_label(lk, by_id), node.name)}" for lk in links)
            if node.status in ("started", "suspended"):
                state = "running" if node.status == "started" else "suspended"
                lines.append(f"{node.name} is {state} now")
        return "\n".join(lines) or None

    async def run(self, args: DeleteNodesArgs, ctx: RunContext) -> ToolResult:
        """Resolve every name, then delete."""
        try:
            topology = await project_topology(ctx)
            targets = resolve_nodes(topology.nodes, args.nodes)
        except CopilotError as exc:
            return error_result(exc)
        ids = {n.node_id for n in targets}
        gone_links = [lk for lk in topology.links if any(e.node_id in ids for e in lk.nodes)]
        by_id = {n.node_id: n for n in topology.nodes}
        saved, not_kept = await _save_nodes(ctx, targets)
        deleted: list[Node] = []
        for node in targets:
            try:
                await ctx.client.delete_node(ctx.project_id, node.node_id)
            except CopilotError as exc:
                return partial_failure(
                    "delete",
                    [n.name for n in deleted],
                    node.name,
                    exc,
                    _deleted(deleted, saved, gone_links, by_id),
                )
            deleted.append(node)
        kept = f" Not kept for Undo: {'; '.join(not_kept)}." if not_kept else ""
        return ToolResult(
            text=f"Deleted {join_names([n.name for n in deleted])} and {len(gone_links)} "
            f"link(s) attached to them.{kept}",
            structured=_deleted(deleted, saved, gone_links, by_id),
        )


NODE_FILES = {"vpcs": ("startup.vpc",)}
"""The small text files that hold a node type's saved configuration, kept for Undo."""


async def _save_nodes(ctx: RunContext, nodes: list[Node]) -> tuple[dict[str, SavedNode], list[str]]:
    """Each node as the server describes it, with its configuration files. A running VPCS is
    told to ``save`` first, so what it runs now is what Undo brings back."""
    url = ctx.server_url or ctx.client.base_url
    not_kept = [
        f"the running configuration of {problem}" for problem in await save_running_vpcs(nodes, url)
    ]
    saved: dict[str, SavedNode] = {}
    for node in nodes:
        files: dict[str, str] = {}
        for path in NODE_FILES.get(node.node_type, ()):
            try:
                text = await ctx.client.read_node_file(ctx.project_id, node.node_id, path)
            except CopilotError as exc:
                not_kept.append(f"{node.name}'s {path} ({exc.user_message})")
                continue
            if text is not None:
                files[path] = text
        saved[node.node_id] = SavedNode.from_node(node, files)
    return saved, not_kept


def _deleted(
    deleted: list[Node],
    saved: dict[str, SavedNode],
    links: list[Any],
    by_id: dict[str, Node],
) -> dict[str, Any]:
    gone = {n.node_id for n in deleted}
    steps: list[Any] = [RestoreNode(node=saved[n.node_id]) for n in deleted]
    for link in links:
        if any(e.node_id in gone for e in link.nodes):
            kept = SavedLink.from_link(link, by_id)
            if kept is not None:
                steps.append(RestoreLink(link=kept))
    count = len(steps) - len(deleted)
    return with_undo(
        {"deleted": [n.name for n in deleted], "links_removed": count}, "delete_nodes", steps
    )


def node_change_tools() -> list[AgentTool[Any]]:
    """The node change tools."""
    return [CreateNodesTool(), UpdateNodesTool(), DeleteNodesTool()]
