"""Device tools: run commands on, and push configuration to, nodes over their telnet consoles.

They use `core.devices` (prompt recognition, login, pagers, per-command timeouts, head-and-tail
output cuts, the destructive-command refusal list). `run_device_commands` is a read when every
command passes `is_read_only_command` (``show``, ``ping``, ``traceroute``, ``display``...) and a
device-config change otherwise; `configure_devices` is always device-config.

What the tools need from the app besides the `RunContext` comes in a `DeviceAccess` given when the
tools are built: the secret store for console logins (per node, or a login saved under a name),
the user's extra refused-command patterns (read at each call, so a settings change applies at
once) and console options. Nothing secret enters the arguments, the results or the graph state.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from pydantic import Field, field_validator

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.tools import progress
from gns3_copilot_desktop.core.agent.tools.base import (
    AgentTool,
    CallRefusedError,
    Consequence,
    ToolResult,
)
from gns3_copilot_desktop.core.agent.tools.common import (
    MAX_BATCH,
    StrictArgs,
    error_result,
    join_names,
)
from gns3_copilot_desktop.core.agent.tools.device_results import (
    config_preview,
    device_result,
)
from gns3_copilot_desktop.core.agent.topology import fetch_topology
from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceJob,
    DeviceKind,
    DeviceOutcome,
    check_command,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.devices.command_risk import (
    command_hazards,
    is_read_only_command,
)
from gns3_copilot_desktop.core.devices.policy import ASCII_ONLY, ascii_problems
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.gns3.resolve import resolve_nodes
from gns3_copilot_desktop.core.protocol import RiskClass
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.gns3.client import Gns3Client
    from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
    from gns3_copilot_desktop.core.settings import ConsoleLogin

MIN_OUTPUT_CHARS = 600

# --- what the tools need from the app -----------------------------------------------------------


@dataclass(frozen=True)
class DeviceAccess:
    """The app's side of the device tools (no secret in here: the store is asked per call)."""

    secret_store: SecretStore | None = None
    refused_patterns: Callable[[], Sequence[str]] = field(default=lambda: ())
    console_logins: Callable[[], Sequence[ConsoleLogin]] = field(default=lambda: ())
    """The saved console logins of the settings (their secrets are in `secret_store`)."""
    options: ConsoleOptions = field(default_factory=ConsoleOptions)
    target_for: Callable[[Node, str], ConsoleTarget] = target_for_node
    """Where a node's console is, given the node and the server URL (`target_for_node`)."""

    async def credentials_for(
        self, ctx: ConsoleContext, node: Node, name: str | None = None
    ) -> DeviceCredentials | None:
        """The console login for ``node``: its own saved login, else the saved login named
        ``name``, else the settings' login that applies to its name or its template."""
        store = self.secret_store
        if store is None:
            return None
        saved = await store.get_node_credential(
            ctx.server_url or ctx.client.base_url, ctx.project_id, node.node_id
        )
        if saved is None and name:
            saved = await store.get_named_credential(name)
            if saved is None:
                raise CopilotError(f"No console login is saved under the name '{name}'.")
        if saved is None:
            saved = await self._saved_login(ctx, node, store)
        if saved is None:
            return None
        return DeviceCredentials(saved.username, saved.password, saved.enable_secret or None)

    async def _saved_login(
        self, ctx: ConsoleContext, node: Node, store: SecretStore
    ) -> DeviceCredential | None:
        """The settings' console login for this node: by its name, else by its template."""
        logins = list(self.console_logins())
        if not logins:
            return None
        template_name = None
        if any(login.applies_to.lower().startswith("template:") for login in logins):
            template_id = node.template_id
            if template_id:
                templates = await ctx.client.list_templates()
                template_name = next(
                    (t.name for t in templates if t.template_id == template_id), None
                )
        by_name = [g for g in logins if g.matches(node.name, None)]
        by_template = [
            g for g in logins if g not in by_name and g.matches(node.name, template_name)
        ]
        for login in [*by_name, *by_template]:
            saved = await store.get_named_credential(login.id)
            if saved is not None:
                return saved
        return None


class ConsoleContext(Protocol):
    """What talking to the project's consoles needs of a run (a `RunContext` has it)."""

    @property
    def client(self) -> Gns3Client: ...
    @property
    def project_id(self) -> str: ...
    @property
    def server_url(self) -> str: ...
    @property
    def limits(self) -> AgentLimits: ...


@dataclass(frozen=True)
class DirectConsoleContext:
    """A `ConsoleContext` outside a run: what the user does from a card (restore a
    configuration they approved), with the same console rules as the agent's pushes."""

    client: Gns3Client
    project_id: str
    server_url: str = ""
    limits: AgentLimits = field(default_factory=AgentLimits)


class DeviceRunArgsBase(StrictArgs):
    """Shared by both device tools."""

    credential: str | None = Field(
        default=None,
        description="Name of a saved console login to use (when the node has none of its own).",
    )
    command_timeout_s: float = Field(default=30.0, ge=1.0, le=300.0)


def _one_per_line(items: list[str]) -> list[str]:
    """Several lines in one string (a pasted block, ``\n`` or ``\r\n``) become one item per
    line. Any other character outside printable ASCII is refused before anything is classified:
    a device's line editor applies control characters (a backspace, Ctrl-U or an escape sequence
    changes what runs) and a console that drops the 8th bit turns U+200A into a new line."""
    lines = [
        line.removesuffix("\r").rstrip(" ")
        for item in items
        for line in item.split("\n")
        if line.strip()
    ]
    for number, line in enumerate(lines, start=1):
        found = ascii_problems(line)
        if found:
            raise ValueError(
                f"line {number} ({line.encode('unicode_escape').decode()[:80]!r}) contains "
                f"{', '.join(found[:3])}: {ASCII_ONLY}, so it is never sent. Send plain ASCII "
                "text, one command per line."
            )
    return lines


class DeviceCommands(StrictArgs):
    """Commands for one device."""

    node: str
    commands: list[str] = Field(min_length=1, max_length=20)

    @field_validator("commands", mode="after")
    @classmethod
    def _split(cls, commands: list[str]) -> list[str]:
        lines = _one_per_line(commands)
        if not lines:
            raise ValueError("give at least one non-empty command")
        return lines


class RunDeviceCommandsArgs(DeviceRunArgsBase):
    """Arguments of `RunDeviceCommandsTool`."""

    devices: list[DeviceCommands] = Field(min_length=1, max_length=MAX_BATCH)


class DeviceConfig(StrictArgs):
    """Configuration lines for one device."""

    node: str
    lines: list[str] = Field(min_length=1, max_length=200)

    @field_validator("lines", mode="after")
    @classmethod
    def _split(cls, lines: list[str]) -> list[str]:
        split = _one_per_line(lines)
        if not split:
            raise ValueError("give at least one non-empty configuration line")
        return split


class ConfigureDevicesArgs(DeviceRunArgsBase):
    """Arguments of `ConfigureDevicesTool`."""

    devices: list[DeviceConfig] = Field(min_length=1, max_length=MAX_BATCH)


_LOSING_LINE = re.compile(
    r"^\s*(no|default|clear|erase|delete|undo|reload|shutdown|write\s+erase|unset)\b", re.I
)
"""A configuration line that removes, resets or erases: the approval card marks it in red."""


class _DeviceTool:
    """The plumbing both device tools share: nodes -> console jobs -> outcomes -> result."""

    name: ClassVar[str]

    def __init__(self, access: DeviceAccess | None = None) -> None:
        self.access = access or DeviceAccess()

    async def _run_jobs(
        self,
        ctx: RunContext,
        args: DeviceRunArgsBase,
        wanted: Sequence[tuple[str, tuple[str, ...], tuple[str, ...]]],
        *,
        snapshot: bool = False,
    ) -> ToolResult:
        try:
            found = await self._outcomes(ctx, args, wanted, snapshot=snapshot)
        except CopilotError as exc:
            return error_result(exc)
        return device_result(found, self.name)

    async def _outcomes(
        self,
        ctx: ConsoleContext,
        args: DeviceRunArgsBase,
        wanted: Sequence[tuple[str, tuple[str, ...], tuple[str, ...]]],
        *,
        snapshot: bool = False,
    ) -> list[tuple[Node, DeviceOutcome]]:
        """Each wanted node with what happened on it, in the order asked."""
        topology = await fetch_topology(ctx.client, ctx.project_id)
        nodes = resolve_nodes(topology.nodes, [w[0] for w in wanted])
        total = sum(len(c) + len(lines) for _, c, lines in wanted) or 1
        options = replace(
            self.access.options,
            command_timeout=args.command_timeout_s,
            max_output_chars=max(MIN_OUTPUT_CHARS, ctx.limits.max_tool_output_chars // total),
            extra_refused_patterns=tuple(self.access.refused_patterns()),
        )
        jobs: list[DeviceJob] = []
        early: dict[str, DeviceOutcome] = {}
        saved = await self._saved_secrets(args.credential)
        for node, (_, commands, lines) in zip(nodes, wanted, strict=True):
            try:
                target = self.access.target_for(node, ctx.server_url or ctx.client.base_url)
                creds = await self._credentials(ctx, node, args.credential)
            except CopilotError as exc:
                early[node.name] = DeviceOutcome(node.name, error=exc.user_message)
                continue
            jobs.append(
                DeviceJob(
                    target, commands, lines, creds, snapshot_config=snapshot, mask_secrets=saved
                )
            )
        progress.report(f"talking to {join_names([j.target.name for j in jobs])}")
        outcomes = {o.device: o for o in await run_on_devices(jobs, options)}
        return [(n, early.get(n.name) or outcomes[n.name]) for n in nodes]

    async def _saved_secrets(self, name: str | None) -> tuple[str, ...]:
        """The password and enable secret of every saved console login: what a device prints is
        masked for all of them, since one device's configuration may hold another's password.
        A login that cannot be read fails the call (its secret could not be masked)."""
        store = self.access.secret_store
        if store is None:
            return ()
        ids = {login.id for login in self.access.console_logins()} | ({name} if name else set())
        found = await asyncio.gather(*(store.get_named_credential(i) for i in sorted(ids)))
        return tuple(
            secret
            for credential in found
            if credential is not None
            for secret in (credential.password, credential.enable_secret)
            if secret
        )

    async def _gate(self, ctx: ConsoleContext, wanted: Sequence[tuple[str, Sequence[str]]]) -> str:
        """Before the approval card: raise `CallRefusedError` (no card, the model is told why)
        when a line is refused on its node's console family, the way the console would refuse
        it after approval; else what the lines may do beyond an ordinary change, one sentence
        per line that stands out (empty when none does)."""
        kinds = await self._kinds(ctx, [name for name, _ in wanted])
        patterns = tuple(self.access.refused_patterns())
        refused: list[str] = []
        hazards: list[str] = []
        for name, lines in wanted:
            for line in lines:
                found = check_command(line, patterns, kinds.get(name, DeviceKind.AUTO))
                if found is not None:
                    refused.append(f"{name}: '{found.command}': {found.reason}")
                named = command_hazards(line)
                if named:
                    hazards.append(f"{name}: '{line}' {', '.join(named)}")
        if refused:
            raise CallRefusedError("Refused, nothing was sent: " + "; ".join(refused))
        return "; ".join(hazards)

    async def _kinds(self, ctx: ConsoleContext, names: Sequence[str]) -> dict[str, DeviceKind]:
        """Each named node's console family as its node type tells (AUTO when unknown)."""
        try:
            topology = await fetch_topology(ctx.client, ctx.project_id)
            nodes = resolve_nodes(topology.nodes, list(names))
        except CopilotError:
            return {}
        kinds: dict[str, DeviceKind] = {}
        for name, node in zip(names, nodes, strict=True):
            try:
                kinds[name] = self.access.target_for(node, ctx.server_url or "").kind
            except CopilotError:
                kinds[name] = DeviceKind.AUTO
        return kinds

    async def _credentials(
        self, ctx: ConsoleContext, node: Node, name: str | None
    ) -> DeviceCredentials | None:
        return await self.access.credentials_for(ctx, node, name)


class RunDeviceCommandsTool(_DeviceTool, AgentTool[RunDeviceCommandsArgs]):
    """Run commands on one or more devices at once."""

    name = "run_device_commands"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Run commands")
    description = (
        "Run CLI commands on one or more nodes at once over their telnet consoles (VPCS, "
        "Cisco IOS-style, Linux shells), e.g. 'show ip interface brief', 'ping 10.0.0.2'. "
        "Read-only commands (show, ping, traceroute...) run at once; others need approval. "
        "Destructive commands (reload, erase, format...) are refused."
    )
    args_schema = RunDeviceCommandsArgs
    risk = "device-config"
    read_calls = True

    def risk_for(self, args: RunDeviceCommandsArgs) -> RiskClass:
        """A read when every command only reads; device-config otherwise."""
        commands = [c for d in args.devices for c in d.commands]
        return "read" if all(is_read_only_command(c) for c in commands) else "device-config"

    def is_destructive(self, args: RunDeviceCommandsArgs) -> bool:
        """A command the gate does not know as a read may change the device."""
        return self.risk_for(args) != "read"

    def summary(self, args: RunDeviceCommandsArgs) -> str:
        """``run on PC1: show ip; ping 10.0.0.2 | PC2: show ip``."""
        parts = [f"{d.node}: {'; '.join(d.commands)}" for d in args.devices]
        return "run on " + " | ".join(parts)

    async def consequence(self, args: RunDeviceCommandsArgs, ctx: RunContext) -> str | None:
        """A refused command ends the call here (no card); otherwise the card names what a
        command may do (``'echo reboot | sh' may reboot the device, hides the command it
        runs``)."""
        return await self._gate(ctx, [(d.node, d.commands) for d in args.devices]) or None

    async def run(self, args: RunDeviceCommandsArgs, ctx: RunContext) -> ToolResult:
        """Open each console, run the commands, cut the output. Commands that may change the
        device run between two reads of its configuration, so the change can be restored."""
        wanted = [(d.node, tuple(d.commands), ()) for d in args.devices]
        return await self._run_jobs(ctx, args, wanted, snapshot=self.risk_for(args) != "read")


class ConfigureDevicesTool(_DeviceTool, AgentTool[ConfigureDevicesArgs]):
    """Push configuration lines to one or more devices."""

    name = "configure_devices"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Configure devices")
    description = (
        "Push configuration lines to one or more nodes over their telnet consoles. IOS-style: "
        "entered in 'configure terminal' (do not include it, nor 'end'); VPCS and Linux: each "
        "line is run as a command. Lines the device rejects are reported."
    )
    args_schema = ConfigureDevicesArgs
    risk = "device-config"
    destructive = False

    def is_destructive(self, args: ConfigureDevicesArgs) -> bool:
        """A line that removes, resets or erases something loses it; setting an address on a
        VPCS or adding a route loses nothing (and is undone from the config read before)."""
        return any(_LOSING_LINE.match(line) for d in args.devices for line in d.lines)

    def summary(self, args: ConfigureDevicesArgs) -> str:
        """``configure PC1: ip 10.0.0.1/24 | PC2: ip 10.0.0.2/24``."""
        parts = []
        for d in args.devices:
            shown = "; ".join(d.lines[:3]) + (
                f" (+{len(d.lines) - 3} lines)" if len(d.lines) > 3 else ""
            )
            parts.append(f"{d.node}: {shown}")
        return "configure " + " | ".join(parts)

    async def consequence(self, args: ConfigureDevicesArgs, ctx: RunContext) -> Consequence | None:
        """Each device's lines against its running configuration, read over the console before
        the user decides (a read); devices whose configuration cannot be read are named."""
        hazards = await self._gate(ctx, [(d.node, d.lines) for d in args.devices])
        wanted = [(d.node, (), ()) for d in args.devices]
        found = await self._outcomes(ctx, args, wanted, snapshot=True)
        parts: list[str] = [hazards] if hazards else []
        blocks: list[str] = []
        for device, (_, outcome) in zip(args.devices, found, strict=True):
            running = outcome.config_before
            if running is None:
                why = outcome.error or "no command shows its running configuration"
                parts.append(f"{device.node}: running configuration not read ({why})")
                continue
            marked, new, there = config_preview(device.lines, running.output, running.command)
            parts.append(f"{device.node}: {new} new line(s), {there} already there")
            blocks.append(f"== {device.node} ({running.command}) ==\n{marked}")
        return Consequence("; ".join(parts), "\n".join(blocks) or None)

    async def run(self, args: ConfigureDevicesArgs, ctx: RunContext) -> ToolResult:
        """Open each console and push its lines, reading the running configuration before and
        after so the result says what changed."""
        wanted = [(d.node, (), tuple(d.lines)) for d in args.devices]
        return await self._run_jobs(ctx, args, wanted, snapshot=True)

    async def push_lines(
        self, ctx: ConsoleContext, node: Node, lines: Sequence[str]
    ) -> DeviceOutcome:
        """Push ``lines`` to ``node`` outside a run (a restore the user approved on a card),
        through the same console rules: the command gate, refused patterns, saved logins.
        Lines with control characters are refused before anything is sent."""
        config = DeviceConfig(node=node.name, lines=list(lines))
        args = ConfigureDevicesArgs(devices=[config])
        found = await self._outcomes(ctx, args, [(node.name, (), tuple(config.lines))])
        return found[0][1]


def device_tools(access: DeviceAccess | None = None) -> list[AgentTool[Any]]:
    """The two device tools, sharing `access`."""
    shared = access or DeviceAccess()
    return [RunDeviceCommandsTool(shared), ConfigureDevicesTool(shared)]
