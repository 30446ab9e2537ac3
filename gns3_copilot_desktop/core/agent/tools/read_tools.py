"""The read-only tools: list projects, the current project's topology, templates.

They run without approval. Expected failures (server unreachable, token expired) come back as
`ToolResult.error` with the client's user-facing message.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.labtext import quote
from gns3_copilot_desktop.core.agent.tools.base import AgentTool, NoArgs, ToolResult
from gns3_copilot_desktop.core.agent.topology import fetch_topology, port_name, summarize_topology
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP


class ListProjectsTool(AgentTool[NoArgs]):
    """Every project on the GNS3 server, with its status."""

    name = "list_projects"
    display_name = QT_TRANSLATE_NOOP("ToolName", "List projects")
    description = "List the projects on the GNS3 server with their id and status (opened/closed)."
    args_schema = NoArgs
    risk = "read"

    def summary(self, args: NoArgs) -> str:
        """One line for the card."""
        return "List projects"

    async def run(self, args: NoArgs, ctx: RunContext) -> ToolResult:
        """Ask the server for its projects."""
        try:
            projects = await ctx.client.list_projects()
        except CopilotError as exc:
            return ToolResult.error(f"Error: {exc.user_message}")
        rows = [
            {"project_id": p.project_id, "name": p.name, "status": p.status}
            for p in sorted(projects, key=lambda p: p.name.lower())
        ]
        lines = [
            f"- {r['name']} ({r['status']}, id {r['project_id']})"
            + (" <- current" if r["project_id"] == ctx.project_id else "")
            for r in rows
        ]
        text = f"{len(rows)} project(s):\n" + "\n".join(lines) if rows else "No projects."
        return ToolResult(text=text, structured={"projects": rows})


class GetTopologyTool(AgentTool[NoArgs]):
    """The nodes and links of the current project."""

    name = "get_topology"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Read the topology")
    description = (
        "Read the current project's topology: every node with its type, status and console, "
        "its ports, and every link with the port names at both ends."
    )
    args_schema = NoArgs
    risk = "read"

    def summary(self, args: NoArgs) -> str:
        """One line for the card."""
        return "Read the topology of the current project"

    async def run(self, args: NoArgs, ctx: RunContext) -> ToolResult:
        """Read nodes and links; list free ports so the model can plan links."""
        try:
            snapshot = await fetch_topology(ctx.client, ctx.project_id)
        except CopilotError as exc:
            return ToolResult.error(f"Error: {exc.user_message}")
        used = {
            (end.node_id, end.adapter_number, end.port_number)
            for link in snapshot.links
            for end in link.nodes
        }
        port_lines = []
        for node in sorted(snapshot.nodes, key=lambda n: n.name.lower()):
            free = [
                port_name(node, p.adapter_number, p.port_number)
                for p in node.ports
                if (node.node_id, p.adapter_number, p.port_number) not in used
            ]
            if free:
                port_lines.append(f"- {quote(node.name)}: {', '.join(free)}")
        text = summarize_topology(snapshot.nodes, snapshot.links)
        if port_lines:
            text += "\nFree ports:\n" + "\n".join(port_lines)
        structured: dict[str, Any] = {
            "nodes": [
                {
                    "node_id": n.node_id,
                    "name": n.name,
                    "node_type": n.node_type,
                    "status": n.status,
                    "console": n.console,
                    "console_type": n.console_type,
                }
                for n in snapshot.nodes
            ],
            "links": [
                {"link_id": link.link_id, "ends": [e.model_dump() for e in link.nodes]}
                for link in snapshot.links
            ],
        }
        return ToolResult(text=text, structured=structured)


class ListTemplatesArgs(BaseModel):
    """Arguments of `ListTemplatesTool`."""

    model_config = ConfigDict(extra="forbid")

    name_contains: str | None = Field(
        default=None, description="Only templates whose name contains this text (any case)."
    )


class ListTemplatesTool(AgentTool[ListTemplatesArgs]):
    """The node templates nodes can be created from."""

    name = "list_templates"
    display_name = QT_TRANSLATE_NOOP("ToolName", "List templates")
    description = (
        "List the node templates available on the GNS3 server (name, type, category); "
        "nodes are created from these."
    )
    args_schema = ListTemplatesArgs
    risk = "read"

    def summary(self, args: ListTemplatesArgs) -> str:
        """One line for the card."""
        if args.name_contains:
            return f"List templates matching {args.name_contains!r}"
        return "List templates"

    async def run(self, args: ListTemplatesArgs, ctx: RunContext) -> ToolResult:
        """Ask the server for its templates, optionally filtered by name."""
        try:
            templates = await ctx.client.list_templates()
        except CopilotError as exc:
            return ToolResult.error(f"Error: {exc.user_message}")
        needle = (args.name_contains or "").lower()
        rows = [
            {
                "template_id": t.template_id,
                "name": t.name,
                "template_type": t.template_type,
                "category": t.category,
            }
            for t in sorted(templates, key=lambda t: t.name.lower())
            if needle in t.name.lower()
        ]
        lines = [f"- {r['name']} ({r['template_type']}, {r['category']})" for r in rows]
        text = f"{len(rows)} template(s):\n" + "\n".join(lines) if rows else "No templates."
        return ToolResult(text=text, structured={"templates": rows})


def read_only_tools() -> list[AgentTool[Any]]:
    """The tools of the agent core issue."""
    return [ListProjectsTool(), GetTopologyTool(), ListTemplatesTool()]
