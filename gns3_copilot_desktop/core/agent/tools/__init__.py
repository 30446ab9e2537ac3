"""The agent's tools: typed schemas, a risk class, a summary, and ``run(args, ctx)``."""

from __future__ import annotations

from typing import Any

from gns3_copilot_desktop.core.agent.tools.base import AgentTool, NoArgs, ToolResult, truncate_text
from gns3_copilot_desktop.core.agent.tools.read_tools import read_only_tools
from gns3_copilot_desktop.core.agent.tools.registry import ResolvedCall, ToolRegistry

__all__ = [
    "AgentTool",
    "NoArgs",
    "ResolvedCall",
    "ToolRegistry",
    "ToolResult",
    "default_registry",
    "truncate_text",
]


def default_registry(extra: list[AgentTool[Any]] | None = None) -> ToolRegistry:
    """The registry of every tool the app ships (the network tools come in through ``extra``)."""
    return ToolRegistry([*read_only_tools(), *(extra or [])])
