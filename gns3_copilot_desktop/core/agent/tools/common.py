"""Small pieces every network tool uses: the project's nodes and links, node cards, errors."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.base import ToolResult
from gns3_copilot_desktop.core.agent.topology import TopologySnapshot, fetch_topology
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Node

MAX_BATCH = 30
"""Most items one batched call may hold (nodes, links, devices)."""


class StrictArgs(BaseModel):
    """Base of the tools' argument schemas: unknown fields are refused, so typos are caught."""

    model_config = ConfigDict(extra="forbid")


async def project_topology(ctx: RunContext) -> TopologySnapshot:
    """The current project's nodes and links."""
    return await fetch_topology(ctx.client, ctx.project_id)


def error_result(exc: CopilotError, **structured: Any) -> ToolResult:
    """An expected failure as a result the model can act on."""
    return ToolResult.error(f"Error: {exc.user_message}", **structured)


def console_text(node: Node) -> str:
    """``telnet 127.0.0.1:5000`` or ``no console``."""
    if node.console is None or node.console_type in (None, "none"):
        return "no console"
    host = node.console_host or ""
    return (
        f"{node.console_type} {host}:{node.console}"
        if host
        else f"{node.console_type} {node.console}"
    )


def node_card(node: Node) -> dict[str, Any]:
    """The node's fields a UI card shows."""
    return {
        "node_id": node.node_id,
        "name": node.name,
        "node_type": node.node_type,
        "status": node.status,
        "console": node.console,
        "console_type": node.console_type,
        "console_host": node.console_host,
        "x": node.x,
        "y": node.y,
    }


def join_names(names: list[str], limit: int = 8) -> str:
    """``R1, R2 and 3 more``."""
    if len(names) <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit])} and {len(names) - limit} more"


def partial_failure(
    verb: str, done: list[str], failed: str, exc: CopilotError, structured: dict[str, Any]
) -> ToolResult:
    """A batch that failed half-way: what was done, what failed, and that the rest was not tried."""
    before = f"Done before the failure: {', '.join(done)}. " if done else "Nothing was changed. "
    return ToolResult.error(
        f"Error: could not {verb} {failed}: {exc.user_message} {before}"
        "The rest of the batch was not attempted.",
        **structured,
    )
