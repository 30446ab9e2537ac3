"""Read tools beyond the topology: node and link details, project stats, snapshots, templates.

They run without approval; names are resolved like the change tools do, with close matches.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import Field

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.base import AgentTool, NoArgs, ToolResult
from gns3_copilot_desktop.core.agent.tools.common import (
    MAX_BATCH,
    StrictArgs,
    console_text,
    error_result,
    join_names,
    node_card,
    project_topology,
)
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Link, Node, Template
from gns3_copilot_desktop.core.gns3.resolve import (
    link_label,
    port_label,
    resolve_node,
    resolve_nodes,
    resolve_template,
    used_ports,
)
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP

# --- nodes ------------------------------------------------------------------------------------


class NodeNamesArgs(StrictArgs):
    """Nodes by name."""

    nodes: list[str] = Field(min_length=1, max_length=MAX_BATCH)


class GetNodeDetailsTool(AgentTool[NodeNamesArgs]):
    """Status, console, ports (with what each is linked to) and properties of nodes."""

    name = "get_node_details"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Node details")
    description = (
        "Details of one or more nodes: type, status, console (type, host, port), position, "
        "each port with what it is linked to, and the node's main properties."
    )
    args_schema = NodeNamesArgs
    risk = "read"

    def summary(self, args: NodeNamesArgs) -> str:
        """``details of R1, SW1``."""
        return f"details of {join_names(args.nodes)}"

    async def run(self, args: NodeNamesArgs, ctx: RunContext) -> ToolResult:
        """Read the topology and describe each node."""
        try:
            topology = await project_topology(ctx)
            nodes = resolve_nodes(topology.nodes, args.nodes)
        except CopilotError as exc:
            return error_result(exc)
        by_id = {n.node_id: n for n in topology.nodes}
        blocks = [_node_text(n, topology.links, by_id) for n in nodes]
        cards = [{**node_card(n), "properties": _properties(n)} for n in nodes]
        return ToolResult(text="\n\n".join(blocks), structured={"nodes": cards})


def _peer(node: Node, adapter: int, port: int, links: list[Link], by_id: dict[str, Node]) -> str:
    for link in links:
        ends = link.nodes
        for i, end in enumerate(ends):
            if (end.node_id, end.adapter_number, end.port_number) == (node.node_id, adapter, port):
                other = ends[1 - i] if len(ends) == 2 else None
                peer = by_id.get(other.node_id) if other else None
                if other is None or peer is None:
                    return "linked"
                return f"-> {peer.name} {port_label(peer, other.adapter_number, other.port_number)}"
    return "free"


_PROPERTY_KEYS = (
    "image",
    "ram",
    "cpus",
    "adapters",
    "mac_address",
    "startup_script_path",
    "platform",
    "hda_disk_image",
)


def _properties(node: Node) -> dict[str, Any]:
    return {
        k: node.properties[k] for k in _PROPERTY_KEYS if node.properties.get(k) not in (None, "")
    }


def _node_text(node: Node, links: list[Link], by_id: dict[str, Node]) -> str:
    lines = [
        f"{node.name}: {node.node_type}, {node.status}, console {console_text(node)}, "
        f"at ({node.x}, {node.y}), id {node.node_id}"
    ]
    for port in node.ports:
        peer = _peer(node, port.adapter_number, port.port_number, links, by_id)
        lines.append(f"  {port.name} ({port.adapter_number}/{port.port_number}): {peer}")
    props = _properties(node)
    if props:
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in props.items()))
    return "\n".join(lines)


# --- links ------------------------------------------------------------------------------------


class GetLinksArgs(StrictArgs):
    """Arguments of `GetLinksTool`."""

    node: str | None = Field(default=None, description="Only the links of this node.")


class GetLinksTool(AgentTool[GetLinksArgs]):
    """Every link (or a node's links) with ports, capture state, filters and suspension."""

    name = "get_links"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Links")
    description = (
        "Details of the project's links (or one node's): the port at each end, whether a "
        "capture runs (and its file), packet filters and suspension."
    )
    args_schema = GetLinksArgs
    risk = "read"

    def summary(self, args: GetLinksArgs) -> str:
        """``links of R1``."""
        return f"links of {args.node}" if args.node else "links of the project"

    async def run(self, args: GetLinksArgs, ctx: RunContext) -> ToolResult:
        """Read the topology and describe the links."""
        try:
            topology = await project_topology(ctx)
            node = resolve_node(topology.nodes, args.node) if args.node else None
        except CopilotError as exc:
            return error_result(exc)
        by_id = {n.node_id: n for n in topology.nodes}
        links = [
            lk
            for lk in topology.links
            if node is None or any(e.node_id == node.node_id for e in lk.nodes)
        ]
        rows = [_link_row(lk, by_id, as_in_gns3=ctx.mode == "practice") for lk in links]
        lines = [f"- {r['label']}{r['flags']} (id {r['link_id']})" for r in rows]
        text = f"{len(rows)} link(s):\n" + "\n".join(lines) if rows else "No links."
        return ToolResult(text=text, structured={"links": rows})


def _link_row(link: Link, by_id: dict[str, Node], *, as_in_gns3: bool = False) -> dict[str, Any]:
    """One link's row. ``as_in_gns3`` (Practice) shows a link as the GNS3 canvas does: a
    suspended link is visible there, its packet filters are not, so they are left out and a
    link fault is found by measuring, not read from a tool."""
    flags = ""
    if link.capturing:
        flags += f" [capturing to {link.capture_file_name}]"
    elif link.capture_file_name:
        flags += f" [last capture {link.capture_file_name}]"
    if link.suspend:
        flags += " [suspended]"
    if link.filters and not as_in_gns3:
        flags += f" [filters: {', '.join(link.filters)}]"
    row: dict[str, Any] = {
        "link_id": link.link_id,
        "label": link_label(link, by_id),
        "flags": flags,
        "capturing": link.capturing,
        "capture_file_name": link.capture_file_name,
        "suspend": link.suspend,
    }
    if not as_in_gns3:
        row["filters"] = link.filters
    return row


# --- project ----------------------------------------------------------------------------------


class ProjectStatsTool(AgentTool[NoArgs]):
    """How much the project holds, and the status of its nodes."""

    name = "get_project_stats"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Project statistics")
    description = "Counts of the project's nodes (by status), links, drawings and snapshots."
    args_schema = NoArgs
    risk = "read"

    def summary(self, args: NoArgs) -> str:
        """One line for the card."""
        return "project statistics"

    async def run(self, args: NoArgs, ctx: RunContext) -> ToolResult:
        """Stats plus node statuses (the server's stats do not split by status)."""
        try:
            stats = await ctx.client.project_stats(ctx.project_id)
            project = await ctx.client.get_project(ctx.project_id)
            topology = await project_topology(ctx)
        except CopilotError as exc:
            return error_result(exc)
        by_status: dict[str, int] = {}
        for node in topology.nodes:
            by_status[node.status] = by_status.get(node.status, 0) + 1
        free = sum(len(n.ports) for n in topology.nodes) - len(used_ports(topology.links))
        status_text = ", ".join(f"{v} {k}" for k, v in sorted(by_status.items())) or "none"
        text = (
            f"Project {project.name} ({project.status}): {stats.nodes} node(s) ({status_text}), "
            f"{stats.links} link(s), {free} free port(s), {stats.drawings} drawing(s), "
            f"{stats.snapshots} snapshot(s)."
        )
        structured = {
            "name": project.name,
            **stats.model_dump(include={"nodes", "links", "drawings", "snapshots"}),
            "nodes_by_status": by_status,
            "free_ports": free,
        }
        return ToolResult(text=text, structured=structured)


class ListSnapshotsTool(AgentTool[NoArgs]):
    """The project's snapshots, oldest first."""

    name = "list_snapshots"
    display_name = QT_TRANSLATE_NOOP("ToolName", "List snapshots")
    description = "List the project's snapshots (name and time), oldest first."
    args_schema = NoArgs
    risk = "read"

    def summary(self, args: NoArgs) -> str:
        """One line for the card."""
        return "list snapshots"

    async def run(self, args: NoArgs, ctx: RunContext) -> ToolResult:
        """Ask the server."""
        try:
            snapshots = await ctx.client.list_snapshots(ctx.project_id)
        except CopilotError as exc:
            return error_result(exc)
        rows = [
            {"snapshot_id": s.snapshot_id, "name": s.name, "created_at": _when(s.created_at)}
            for s in sorted(snapshots, key=lambda s: s.created_at or 0)
        ]
        lines = [f"- {r['name']} ({r['created_at']})" for r in rows]
        text = f"{len(rows)} snapshot(s):\n" + "\n".join(lines) if rows else "No snapshots."
        return ToolResult(text=text, structured={"snapshots": rows})


def _when(timestamp: int | None) -> str:
    if timestamp is None:
        return "unknown time"
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


# --- templates --------------------------------------------------------------------------------

_NEEDS: dict[str, str] = {
    "vpcs": "the VPCS binary (0.6.1 or newer) and ubridge on the compute",
    "ethernet_switch": "dynamips on the compute",
    "ethernet_hub": "dynamips on the compute",
    "frame_relay_switch": "dynamips on the compute",
    "atm_switch": "dynamips on the compute",
    "cloud": "ubridge on the compute and a host network interface to bridge to",
    "nat": "ubridge and the NAT interface (virbr0 from libvirt on Linux) on the compute",
    "dynamips": "dynamips and the IOS image {image} ({ram} MB RAM)",
    "iou": "the IOU image {path} and an IOU licence on the compute",
    "qemu": "{qemu_path}, the disk image {hda_disk_image} and {ram} MB RAM (KVM advised)",
    "docker": "Docker on the compute and the image {image}",
    "virtualbox": "VirtualBox with the VM {vmname}",
    "vmware": "VMware with the VM {vmx_path}",
}


_NEEDS_DEFAULTS: dict[str, Any] = {
    "qemu_path": "QEMU",
    "image": "(no image set)",
    "hda_disk_image": "(none set)",
    "path": "(none set)",
    "ram": "?",
    "vmname": "(none set)",
    "vmx_path": "(none set)",
}


def template_needs(template: Template) -> str:
    """What a node from `template` needs to run, filled in from the template's fields."""
    pattern = _NEEDS.get(template.template_type or "", "whatever its emulator needs")
    fields = {**(template.model_extra or {}), **template.model_dump(exclude_none=True)}

    values = {**_NEEDS_DEFAULTS, **{k: v for k, v in fields.items() if v not in (None, "")}}
    return pattern.format_map(values)


class TemplateNamesArgs(StrictArgs):
    """Arguments of `GetTemplateDetailsTool`."""

    templates: list[str] = Field(
        default_factory=list, max_length=MAX_BATCH, description="Template names; empty: all."
    )


class GetTemplateDetailsTool(AgentTool[TemplateNamesArgs]):
    """What a node from each template needs to run, its ports and console."""

    name = "get_template_details"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Template details")
    description = (
        "Details of templates (all when none named): type, category, console type, default "
        "name, and what a node from it needs to run (binaries, images)."
    )
    args_schema = TemplateNamesArgs
    risk = "read"

    def summary(self, args: TemplateNamesArgs) -> str:
        """``template details of VPCS``."""
        return (
            f"template details of {join_names(args.templates)}"
            if args.templates
            else "template details"
        )

    async def run(self, args: TemplateNamesArgs, ctx: RunContext) -> ToolResult:
        """Ask the server and describe each template."""
        try:
            templates = await ctx.client.list_templates()
            chosen = (
                [resolve_template(templates, name) for name in args.templates]
                if args.templates
                else sorted(templates, key=lambda t: t.name.lower())
            )
        except CopilotError as exc:
            return error_result(exc)
        rows = [_template_row(t) for t in chosen]
        lines = [
            f"- {r['name']} ({r['template_type']}, {r['category']}, console {r['console_type']}): "
            f"needs {r['needs']}"
            for r in rows
        ]
        return ToolResult(text="\n".join(lines) or "No templates.", structured={"templates": rows})


def _template_row(template: Template) -> dict[str, Any]:
    extra = template.model_extra or {}
    return {
        "template_id": template.template_id,
        "name": template.name,
        "template_type": template.template_type,
        "category": template.category,
        "console_type": extra.get(
            "console_type",
            "telnet"
            if template.template_type in ("vpcs", "dynamips", "iou", "qemu", "docker")
            else "none",
        ),
        "default_name_format": extra.get("default_name_format"),
        "needs": template_needs(template),
    }


def inspect_tools() -> list[AgentTool[Any]]:
    """The read tools: what the project and its devices are, never a change."""
    return [
        GetNodeDetailsTool(),
        GetLinksTool(),
        ProjectStatsTool(),
        ListSnapshotsTool(),
        GetTemplateDetailsTool(),
    ]
