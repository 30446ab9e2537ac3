"""Start, stop, suspend and reload nodes (one, several or all), then wait for the asked status.

The server's power calls can take long on slow boots (a QEMU image, dynamips loading an IOS), so
the HTTP call is not what the wait relies on: each call runs as its own task, a client timeout only
means "still working", and the node's status is polled until every node reached the wanted status
or the bounded wait ends. Progress is reported while waiting ("R1 started, waiting for R2 (8 s)").
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools import progress
from gns3_copilot_desktop.core.agent.tools.base import AgentTool, ToolResult
from gns3_copilot_desktop.core.agent.tools.common import (
    MAX_BATCH,
    StrictArgs,
    error_result,
    join_names,
    project_topology,
)
from gns3_copilot_desktop.core.errors import CopilotError, Gns3ConnectionError
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.gns3.resolve import resolve_nodes
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP

PowerAction = Literal["start", "stop", "suspend", "reload"]
POLL_INTERVAL_S = 0.5
PROGRESS_EVERY_S = 5.0
UNREACHABLE_LIMIT_S = 20.0
ALWAYS_ON = frozenset(
    {"ethernet_switch", "ethernet_hub", "frame_relay_switch", "atm_switch", "cloud", "nat"}
)
"""Built-in devices GNS3 runs as soon as they exist; power actions do not change them."""
_WANTED: dict[PowerAction, str] = {
    "start": "started",
    "stop": "stopped",
    "suspend": "suspended",
    "reload": "started",
}


class PowerArgs(StrictArgs):
    """Which nodes, and how long to wait for them."""

    nodes: list[str] = Field(
        default_factory=list, max_length=MAX_BATCH, description="Node names (empty with all=true)."
    )
    all: bool = Field(default=False, description="Every node of the project.")
    wait: bool = Field(default=True, description="Wait until every node has the new status.")
    timeout_s: float = Field(
        default=120.0, ge=1.0, le=600.0, description="Longest wait for the status, in seconds."
    )

    @model_validator(mode="after")
    def _some_nodes(self) -> PowerArgs:
        if [name.strip().lower() for name in self.nodes] in (["all"], ["*"]):
            self.nodes, self.all = [], True  # what a person (and a model) writes for "every node"
        if not self.all and not self.nodes:
            raise ValueError("name the nodes, or set all=true")
        return self


@dataclass
class _Progress:
    """Where each node is while waiting."""

    wanted: str
    started: float = field(default_factory=time.monotonic)
    status: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    wait_error: str | None = None

    def pending(self) -> list[str]:
        return [n for n, s in self.status.items() if s != self.wanted and n not in self.errors]

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def line(self) -> str:
        done = [n for n, s in self.status.items() if s == self.wanted]
        waiting = self.pending()
        text = f"{len(done)}/{len(self.status)} {self.wanted}"
        if waiting:
            text += f", waiting for {join_names(waiting, 4)}"
        return f"{text} ({self.elapsed():.0f} s)"


class _PowerTool(AgentTool[PowerArgs]):
    """Shared by the four power tools."""

    action: ClassVar[PowerAction]
    args_schema = PowerArgs
    risk = "change"

    def summary(self, args: PowerArgs) -> str:
        """``start SW1, PC1 and wait up to 120 s``."""
        what = "all nodes" if args.all else join_names(args.nodes)
        wait = f" and wait up to {args.timeout_s:g} s" if args.wait else ""
        return f"{self.action} {what}{wait}"

    def is_destructive(self, args: PowerArgs) -> bool:
        """Stopping, suspending and reloading end what runs; starting loses nothing."""
        return self.action != "start"

    async def consequence(self, args: PowerArgs, ctx: RunContext) -> str | None:
        """``R1 and R2 are running: their unsaved configuration is lost``."""
        if self.action == "start":
            return None
        topology = await project_topology(ctx)
        targets = topology.nodes if args.all else resolve_nodes(topology.nodes, args.nodes)
        running = [
            n.name for n in targets if n.status == "started" and n.node_type not in ALWAYS_ON
        ]
        if not running:
            return "none of these nodes is running"
        verb = "is" if len(running) == 1 else "are"
        lost = "paused" if self.action == "suspend" else "lost unless saved on the device"
        what = (
            "their consoles and traffic are"
            if self.action == "suspend"
            else "their running configuration is"
        )
        return f"{join_names(running)} {verb} running: {what} {lost}"

    async def run(self, args: PowerArgs, ctx: RunContext) -> ToolResult:
        """Send the action to each node, then wait for the status."""
        try:
            topology = await project_topology(ctx)
            targets = topology.nodes if args.all else resolve_nodes(topology.nodes, args.nodes)
        except CopilotError as exc:
            return error_result(exc)
        always_on = [n.name for n in targets if n.node_type in ALWAYS_ON]
        targets = [n for n in targets if n.node_type not in ALWAYS_ON]
        if not targets:
            return _report(self.action, _Progress(_WANTED[self.action]), args.wait, 0, always_on)
        state = _Progress(_WANTED[self.action], status={n.name: n.status for n in targets})
        calls = [asyncio.create_task(self._send(ctx, node, state)) for node in targets]
        try:
            if args.wait:
                await _wait_for_status(ctx, targets, state, args.timeout_s, calls)
            else:
                await asyncio.gather(*calls)
        finally:
            for task in calls:
                task.cancel()
        return _report(self.action, state, args.wait, args.timeout_s, always_on)

    async def _send(self, ctx: RunContext, node: Node, state: _Progress) -> None:
        method = getattr(ctx.client, f"{self.action}_node")
        try:
            await method(ctx.project_id, node.node_id)
        except Gns3ConnectionError:
            return  # a slow boot outlasting the HTTP timeout: the status poll decides
        except CopilotError as exc:
            state.errors[node.name] = exc.user_message


async def _wait_for_status(
    ctx: RunContext,
    targets: list[Node],
    state: _Progress,
    timeout_s: float,
    calls: list[asyncio.Task[None]],
) -> None:
    deadline = time.monotonic() + timeout_s
    last_report = 0.0
    ids = {n.node_id: n.name for n in targets}
    unreachable_since: float | None = None
    while True:
        await asyncio.sleep(POLL_INTERVAL_S)
        try:
            nodes = await ctx.client.list_nodes(ctx.project_id)
            unreachable_since = None
        except Gns3ConnectionError as exc:
            # A server busy booting nodes may miss a poll; one gone for long ends the wait.
            unreachable_since = unreachable_since or time.monotonic()
            if time.monotonic() - unreachable_since >= UNREACHABLE_LIMIT_S:
                state.wait_error = exc.user_message
                return
            nodes = []
        except CopilotError as exc:
            state.wait_error = exc.user_message
            return
        before = dict(state.status)
        for node in nodes:
            if node.node_id in ids:
                state.status[ids[node.node_id]] = node.status
        if state.status != before or time.monotonic() - last_report >= PROGRESS_EVERY_S:
            progress.report(state.line())
            last_report = time.monotonic()
        # reload keeps "started" throughout: the status counts once the call has returned.
        if all(task.done() for task in calls) and not state.pending():
            return
        if time.monotonic() >= deadline:
            return


def _report(
    action: PowerAction, state: _Progress, waited: bool, timeout_s: float, always_on: list[str]
) -> ToolResult:
    reached = [n for n, s in state.status.items() if s == state.wanted]
    lines = [f"{action}: {len(reached)} of {len(state.status)} node(s) {state.wanted}."]
    if always_on:
        lines.append(
            f"Not changed: {join_names(always_on)} (built-in switch/hub/cloud devices are always "
            f"running in GNS3; {action} does not apply to them)."
        )
    for name, message in state.errors.items():
        lines.append(f"- {name}: failed: {message}")
    if state.wait_error:
        lines.append(f"Stopped waiting: {state.wait_error}")
    late = list(state.pending()) if waited else []
    for name in late:
        lines.append(
            f"- {name}: still {state.status[name]} after {timeout_s:g} s (it may still be working)"
        )
    if not waited:
        lines.append("Not waited for; check the status with get_node_details.")
    structured: dict[str, Any] = {
        "action": action,
        "wanted": state.wanted,
        "status": state.status,
        "errors": state.errors,
        "timed_out": late,
        "elapsed_s": round(state.elapsed(), 1),
        "always_on": always_on,
    }
    if state.errors or late or state.wait_error:
        return ToolResult(text="\n".join(lines), structured=structured, is_error=True)
    return ToolResult(text="\n".join(lines), structured=structured)


class StartNodesTool(_PowerTool):
    """Start nodes and wait until they run."""

    name = "start_nodes"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Start nodes")
    action = "start"
    description = (
        "Start nodes (by name, or all) and wait until they are started, up to timeout_s. "
        "Reports nodes that failed to start with the server's reason."
    )


class StopNodesTool(_PowerTool):
    """Stop nodes and wait until they are stopped."""

    name = "stop_nodes"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Stop nodes")
    action = "stop"
    description = "Stop nodes (by name, or all) and wait until they are stopped."


class SuspendNodesTool(_PowerTool):
    """Suspend nodes (pause them)."""

    name = "suspend_nodes"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Suspend nodes")
    action = "suspend"
    description = "Suspend (pause) nodes, by name or all, and wait until they are suspended."


class ReloadNodesTool(_PowerTool):
    """Reload (restart) nodes."""

    name = "reload_nodes"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Reload nodes")
    action = "reload"
    description = "Reload (restart) nodes, by name or all, and wait until they run again."


def power_tools() -> list[AgentTool[Any]]:
    """The four power tools."""
    return [StartNodesTool(), StopNodesTool(), SuspendNodesTool(), ReloadNodesTool()]
