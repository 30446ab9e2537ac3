"""Run commands or push configuration on several devices at once.

Each device gets its own `DeviceConsole`; one device being down, refusing a command or timing out
shows up in that device's `DeviceOutcome.error` and never cancels the others. Errors that are not
`CopilotError`s are bugs: they are raised once every device has finished.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from gns3_copilot_desktop.core.devices.console import DeviceConsole
from gns3_copilot_desktop.core.devices.console_data import (
    CommandResult,
    ConfigResult,
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceTimeoutError,
)
from gns3_copilot_desktop.core.devices.output import truncate_output
from gns3_copilot_desktop.core.devices.policy import CommandRefusedError, RefusedCommand
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.devices.secret_mask import MASK, SecretMask
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
    mask_secrets: tuple[str, ...] = field(default=(), repr=False)
    """Saved secrets besides this login's to mask in what the device prints (the other saved
    console logins: one device's configuration may hold another's password)."""
    just_started: bool = False
    """The node was started moments ago (a plan configures the routers it started): its
    console may stay silent while it boots (a kernel kept off the serial console), so its
    first prompt is awaited for the options' ``boot_timeout``, not just ``login_timeout``."""


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
    whole = replace(opts, max_output_chars=MASK_INPUT_MAX_CHARS)
    booting = replace(whole, login_timeout=max(whole.login_timeout, whole.boot_timeout))
    gate = asyncio.Semaphore(max(1, max_parallel))

    async def one(job: DeviceJob) -> DeviceOutcome:
        async with gate:
            console = console_factory(
                job.target, job.credentials, booting if job.just_started else whole
            )
            outcome = await _run_job(job, console)
            return scrub_outcome(outcome, mask_for(job), max_output_chars=opts.max_output_chars)

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
    # cut to CONFIG_READ_MAX_CHARS once masked (scrub_outcome)
    return await console.run_command(command, max_chars=MASK_INPUT_MAX_CHARS)


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


SCRUBBED = MASK
"""What a secret the device printed is replaced with (`secret_mask.MASK`)."""
MASK_INPUT_MAX_CHARS = 2_000_000
"""Output is masked whole up to this and cut to its configured size afterwards, so a cut never
falls inside a secret (a half of a type 7 string, one end of a secret printed a character per
line). Longer output is cut to this first."""


def mask_for(job: DeviceJob) -> SecretMask:
    """The mask of what ``job``'s device prints: its login's password and enable secret and the
    job's other saved secrets."""
    creds = job.credentials
    own = (creds.password, creds.enable_secret) if creds is not None else ()
    return SecretMask((*own, *job.mask_secrets))


def scrub_outcome(
    outcome: DeviceOutcome,
    credentials: DeviceCredentials | SecretMask | None,
    *,
    max_output_chars: int | None = None,
    config_max_chars: int = CONFIG_READ_MAX_CHARS,
) -> DeviceOutcome:
    """The outcome with every saved secret masked in everything a device printed, in every form
    (`SecretMask`), before the model, the transcript or a tool card can see it; then each text
    cut to its size (``max_output_chars``: command and push output; ``config_max_chars``:
    configuration reads)."""
    if isinstance(credentials, SecretMask):
        mask = credentials
    else:
        creds = credentials or DeviceCredentials()
        mask = SecretMask((creds.password, creds.enable_secret))

    def command(result: CommandResult, limit: int | None) -> CommandResult:
        masked = mask.mask(result.output)
        if limit is None:
            return replace(result, output=masked)
        cut = truncate_output(masked, limit)
        return replace(result, output=cut.text, truncated=result.truncated or cut.truncated)

    config = outcome.config
    if config is not None:
        output = mask.mask(config.output)
        cut = truncate_output(output, max_output_chars) if max_output_chars else None
        config = replace(
            config,
            output=cut.text if cut else output,
            truncated=config.truncated or bool(cut and cut.truncated),
            lines=[mask.mask(line) for line in config.lines],
            rejected=[
                replace(r, line=mask.mask(r.line), message=mask.mask(r.message))
                for r in config.rejected
            ],
        )
    before, after = (
        command(r, config_max_chars) if r is not None else None
        for r in (outcome.config_before, outcome.config_after)
    )
    return replace(
        outcome,
        results=[command(r, max_output_chars) for r in outcome.results],
        config=config,
        error=mask.mask(outcome.error) if outcome.error else outcome.error,
        config_before=before,
        config_after=after,
    )
