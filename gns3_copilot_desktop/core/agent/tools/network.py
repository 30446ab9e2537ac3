"""Every network tool (read, change, capture, device), for the app:
``default_registry(network_tools(access))``."""

from __future__ import annotations

from typing import Any

from gns3_copilot_desktop.core.agent.tools import default_registry
from gns3_copilot_desktop.core.agent.tools.base import AgentTool
from gns3_copilot_desktop.core.agent.tools.capture_tools import capture_tools
from gns3_copilot_desktop.core.agent.tools.change_tools import node_change_tools
from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess, device_tools
from gns3_copilot_desktop.core.agent.tools.inspect_tools import inspect_tools
from gns3_copilot_desktop.core.agent.tools.link_tools import link_change_tools
from gns3_copilot_desktop.core.agent.tools.plan_tools import plan_tools
from gns3_copilot_desktop.core.agent.tools.power_tools import power_tools
from gns3_copilot_desktop.core.agent.tools.project_tools import project_change_tools
from gns3_copilot_desktop.core.agent.tools.registry import ToolRegistry


def network_tools(access: DeviceAccess | None = None) -> list[AgentTool[Any]]:
    """Read, change, capture and device tools (the core's read tools come from the registry)."""
    return [
        *inspect_tools(),
        *node_change_tools(),
        *link_change_tools(),
        *plan_tools(access),
        *power_tools(),
        *project_change_tools(),
        *capture_tools(),
        *device_tools(access),
    ]


def network_registry(access: DeviceAccess | None = None) -> ToolRegistry:
    """The registry the app gives `AgentService`: the core's read tools plus every network tool.

    ``access`` carries the secret store (console logins) and the user's refused-command
    patterns, e.g. ``DeviceAccess(store, lambda: settings.device_refused_patterns)``.
    """
    return default_registry(network_tools(access))
