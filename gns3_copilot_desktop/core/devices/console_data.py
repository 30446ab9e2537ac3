"""What a device console session is given and what it returns: where the console is, the login,
the options, and the typed results of commands and configuration pushes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.errors import DeviceError

# Rejections: IOS "% ..." messages (not warnings, not "%LINK-3-UPDOWN:" style log lines), VPCS,
# shells, Junos.
_REJECTED_RE = re.compile(
    r"(?im)^\s*(?:%\s*(?!warning)(?![A-Z0-9_]+-\d-[A-Z0-9_]+:)\S.*"
    r"|bad command\b.*|invalid (?:command|input)\b.*|.*\bcommand not found\b.*"
    r"|\S+: not found\b.*|syntax error\b.*|unknown command\b.*|error:.*)$"
)


@dataclass(frozen=True)
class ConsoleTarget:
    """Where a device's console is: its name (for messages), telnet host and port, its family."""

    name: str
    host: str
    port: int
    kind: DeviceKind = DeviceKind.AUTO
    newline: str | None = None
    """What Enter sends on this console; None: the options' ``newline``."""


@dataclass(frozen=True)
class DeviceCredentials:
    """Login data from the secret store. Never logged: the repr hides every field."""

    username: str | None = field(default=None, repr=False)
    password: str | None = field(default=None, repr=False)
    enable_secret: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class ConsoleOptions:
    """Timeouts (seconds), output size and line ending of console sessions."""

    connect_timeout: float = 10.0
    login_timeout: float = 20.0
    command_timeout: float = 30.0
    max_output_chars: int = 12_000
    max_pages: int = 2_000
    newline: str = "\r\n"
    # How long to listen for a login question or prompt the console shows on its own before
    # waking it with a newline (a newline typed into "Username:" would be taken as a name).
    listen_before_wake: float = 0.4
    auto_enable: bool = True
    # A console that shows a boot (BIOS, kernel lines) gets this long, from the connection, to
    # reach its login or prompt: a router that was just started or reloaded.
    boot_timeout: float = 240.0
    # A prompt not preceded by the command's echo is accepted after this much silence.
    echo_grace: float = 1.5
    extra_refused_patterns: tuple[str, ...] = ()
    # A ping without a count (`ping.endless_ping`) is stopped with Ctrl-C after this long: on a
    # Linux shell or in FRR's vtysh it would run on, and the console would stay in it.
    ping_stop_s: float = 10.0


@dataclass(frozen=True)
class CommandResult:
    """The visible output of one command, its prompt afterwards and whether it was cut."""

    device: str
    command: str
    output: str
    truncated: bool
    prompt: str
    elapsed_s: float

    @property
    def error(self) -> str | None:
        """The device's refusal of this command (``% Unknown command: ...``), None when it ran."""
        match = _REJECTED_RE.search(self.output)
        return match.group(0).strip() if match else None


@dataclass(frozen=True)
class RejectedLine:
    """A configuration line the device refused, with the device's message."""

    line: str
    message: str


@dataclass(frozen=True)
class ConfigResult:
    """What a configuration push did: lines sent, lines rejected, the output of the session."""

    device: str
    lines: list[str]
    rejected: list[RejectedLine]
    output: str
    truncated: bool

    @property
    def ok(self) -> bool:
        """True when the device accepted every line."""
        return not self.rejected


class DeviceTimeoutError(DeviceError):
    """The device did not show a prompt in time; `received` is what it sent meanwhile."""

    def __init__(
        self,
        device: str,
        command: str,
        received: str,
        timeout: float,
        completed: Sequence[CommandResult] = (),
    ) -> None:
        shown = received.strip()[-600:] or "nothing"
        super().__init__(
            f"{device}: no prompt after {timeout:g}s waiting for '{command}'. Received: {shown}"
        )
        self.device = device
        self.command = command
        self.received = received
        self.completed = list(completed)
