"""Run commands or push configuration on several devices at once.

Each device gets its own `DeviceConsole`; one device being down, refusing a command or timing out
shows up in that device's `DeviceOutcome.error` and never cancels the others. Errors that are not
`CopilotError`s are bugs: they are raised once every device has finished.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from gns3_copilot_desktop.core.devices.console import (
    CommandResult,
    ConfigResult,
    ConsoleOptions,
    ConsoleTarget,
    DeviceConsole,
    DeviceCredentials,
    DeviceTimeoutError,
)
from gns3_copilot_desktop.core.devices.policy import CommandRefusedError, RefusedCommand
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.devices.targets import target_for_node
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Node


@dataclass(frozen=True)
class DeviceJob:
    """What to do on one device: configuration lines, then commands (either may be empty)."""

    target: ConsoleTarget
    commands: tuple[str, ...] = ()
    config_lines: tuple[str, ...] = ()
    credentials: DeviceCredentials | None = field(default=None, repr=False)
    snapshot_config: bool = False
    """Read the running configuration before and after the lines and commands, when the
    device family has a command for it (`CONFIG_READ`)."""


@dataclass(frozen=True)
class DeviceOutcome:
    """The result on one device: command results, the config push, or why it failed."""

    device: str
    results: list[CommandResult] = field(default_factory=list)
    config: ConfigResult | None = None
    error: str | None = None
    refused: list[RefusedCommand] = field(default_factory=list)
    config_before: CommandResult | None = None
    config_after: CommandResult | None = None

    @property
    def ok(self) -> bool:
        """True when everything ran (rejected config lines are reported in `config`)."""
        return self.error is None


ConsoleFactory = Callable[[ConsoleTarget, DeviceCredentials | None, ConsoleOptions], DeviceConsole]


async def run_on_devices(
    jobs: Sequence[DeviceJob],
    options: ConsoleOptions | None = None,
    *,
    max_parallel: int = 8,
    console_factory: ConsoleFactory = DeviceConsole,
) -> list[DeviceOutcome]:
    """Run every job concurrently (at most `max_parallel` consoles open); outcomes in job order."""
    opts = options or ConsoleOptions()
    gate = asyncio.Semaphore(max(1, max_parallel))

    async def one(job: DeviceJob) -> DeviceOutcome:
        async with gate:
            outcome = await _run_job(job, console_factory(job.target, job.credentials, opts))
            return scrub_outcome(outcome, job.credentials)

    outcomes = await asyncio.gather(*(one(job) for job in jobs), return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    return [o for o in outcomes if isinstance(o, DeviceOutcome)]


async def save_running_vpcs(
    nodes: Sequence[Node], server_url: str, options: ConsoleOptions | None = None
) -> list[str]:
    """Tell every started VPCS among ``nodes`` to ``save`` (its running configuration becomes
    its startup file, which a snapshot, an export or a re-created node keeps). Returns one
    ``"PC1: why"`` per VPCS that could not be saved."""
    problems: list[str] = []
    jobs: list[DeviceJob] = []
    for node in nodes:
        if node.node_type != "vpcs" or node.status != "started":
            continue
        try:
            jobs.append(DeviceJob(target_for_node(node, server_url), ("save",)))
        except CopilotError as exc:
            problems.append(f"{node.name}: {exc.user_message}")
    if jobs:
        outcomes = await run_on_devices(jobs, options)
        problems += [f"{o.device}: {o.error}" for o in outcomes if o.error]
    return problems


CONFIG_READ = {
    DeviceKind.IOS: "show running-config",
    DeviceKind.JUNOS: "show configuration | display set",
    DeviceKind.VPCS: "show ip",
}
"""The read that shows a family's running configuration (Linux shells have none)."""
CONFIG_READ_MAX_CHARS = 256_000
"""A configuration read is kept whole up to this (the diff and the restore need all of it;
what the model reads is cut separately)."""


async def _read_config(console: DeviceConsole) -> CommandResult | None:
    command = CONFIG_READ.get(console.kind)
    if not command:
        return None
    return await console.run_command(command, max_chars=CONFIG_READ_MAX_CHARS)


async def _run_job(job: DeviceJob, console: DeviceConsole) -> DeviceOutcome:
    name = job.target.name
    results: list[CommandResult] = []
    config: ConfigResult | None = None
    before = after = None
    try:
        async with console:
            before = await _read_config(console) if job.snapshot_config else None
            config = await console.push_config(job.config_lines) if job.config_lines else None
            if job.commands:
                results = await console.run_commands(job.commands)
            if before is not None and (job.config_lines or job.commands):
                after = await _read_config(console)
    except CommandRefusedError as exc:
        return DeviceOutcome(name, results, config, exc.user_message, exc.refused, before, after)
    except DeviceTimeoutError as exc:
        return DeviceOutcome(
            name, results or exc.completed, config, exc.user_message, [], before, after
        )
    except CopilotError as exc:
        return DeviceOutcome(name, results, config, exc.user_message, [], before, after)
    return DeviceOutcome(name, results, config, None, [], before, after)


SCRUBBED = "********"
MIN_SCRUBBED_CHARS = 4


def _secrets_of(credentials: DeviceCredentials | None) -> list[str]:
    if credentials is None:
        return []
    found = [credentials.password, credentials.enable_secret]
    # longest first, so a secret that contains another is replaced whole
    return sorted({s for s in found if s and len(s) >= MIN_SCRUBBED_CHARS}, key=len, reverse=True)


def scrub(text: str, secrets: Sequence[str]) -> str:
    """``text`` with every secret replaced by ``********``."""
    for secret in secrets:
        text = text.replace(secret, SCRUBBED)
    return text


def scrub_outcome(outcome: DeviceOutcome, credentials: DeviceCredentials | None) -> DeviceOutcome:
    """The outcome with the login's password and enable secret taken out of everything a device
    printed (a device that echoes a password, a ``show running-config`` that lists it), before
    the model, the transcript or a tool card can see it."""
    secrets = _secrets_of(credentials)
    if not secrets:
        return outcome
    results = [replace(r, output=scrub(r.output, secrets)) for r in outcome.results]
    config = outcome.config
    if config is not None:
        config = replace(
            config,
            output=scrub(config.output, secrets),
            lines=[scrub(line, secrets) for line in config.lines],
            rejected=[
                replace(r, line=scrub(r.line, secrets), message=scrub(r.message, secrets))
                for r in config.rejected
            ],
        )
    error = scrub(outcome.error, secrets) if outcome.error else outcome.error
    before, after = (
        replace(r, output=scrub(r.output, secrets)) if r is not None else None
        for r in (outcome.config_before, outcome.config_after)
    )
    return replace(
        outcome,
        results=results,
        config=config,
        error=error,
        config_before=before,
        config_after=after,
    )
