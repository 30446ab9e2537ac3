"""An async telnet session with one device console: wake, log in, run commands, push config.

`DeviceConsole` wraps telnetlib3 (the only module that imports it). It reads what the device sends
until a prompt appears on the last line (`prompts.match_prompt`), answers ``--More--`` pagers with a
space, logs in when asked (``Username:``/``login:``, ``Password:``) and enters ``enable`` on IOS.
Output is the text between the command's echo and the next prompt, as it would stay visible on a
screen (`terminal.screen_text`), with ``\\n`` line ends, cut to size (`output.truncate_output`).

Every command and configuration line is checked by `policy.check_commands` first: if one of a
request is refused, nothing of that request is sent. Commands go out as printable ASCII only
(`policy.console_bytes`). Failures raise `DeviceError` (or its
subclasses here) whose message names the device, the command and what was received.
"""

from __future__ import annotations

import asyncio
import codecs
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal

import telnetlib3

from gns3_copilot_desktop.core.devices.output import truncate_output
from gns3_copilot_desktop.core.devices.policy import check_commands, console_bytes
from gns3_copilot_desktop.core.devices.prompts import (
    BOOT_OUTPUT_RE,
    LOGIN_FAILED_RE,
    PASSWORD_RE,
    PRESS_RETURN_RE,
    SETUP_DIALOG_RE,
    USERNAME_RE,
    VPCS_BANNER_RE,
    DeviceKind,
    Prompt,
    PromptMode,
    confirmation_reply,
    is_pager,
    match_prompt,
)
from gns3_copilot_desktop.core.devices.terminal import last_line, screen_text
from gns3_copilot_desktop.core.devices.transcript import Transcript
from gns3_copilot_desktop.core.errors import DeviceError

# Rejections: IOS "% ..." messages (not warnings, not "%LINK-3-UPDOWN:" style log lines), VPCS,
# shells, Junos.
_REJECTED_RE = re.compile(
    r"(?im)^\s*(?:%\s*(?!warning)(?![A-Z0-9_]+-\d-[A-Z0-9_]+:)\S.*"
    r"|bad command\b.*|invalid (?:command|input)\b.*|.*\bcommand not found\b.*"
    r"|\S+: not found\b.*|syntax error\b.*|unknown command\b.*|error:.*)$"
)
_READ_SIZE = 65536
_MAX_LOGIN_STEPS = 12
_MAX_ANSWERS = 5


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


_RESYNC_WAIT_S = 2.0
"""How long the extra newline after a freshly started device's banner waits for its prompt."""


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


@dataclass
class _ReadState:
    pages: int = 0  # pager pages turned
    answered_at: int = -1  # length of the text when a question was last answered
    answers: int = 0


@dataclass
class _Event:
    kind: Literal["prompt", "username", "password", "setup", "press_return"]
    raw: str
    prompt: Prompt | None = None


class DeviceConsole:
    """One telnet session with one device console. Use ``async with`` or call `close`."""

    def __init__(
        self,
        target: ConsoleTarget,
        credentials: DeviceCredentials | None = None,
        options: ConsoleOptions | None = None,
    ) -> None:
        self.target = target
        self._creds = credentials or DeviceCredentials()
        self._options = options or ConsoleOptions()
        self._kind = target.kind
        self._prompt: Prompt | None = None
        self._reader: Any = None
        self._writer: Any = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._carry = ""  # text read by a listening `_wait` that ended without an event
        self._lock = asyncio.Lock()  # one conversation at a time on one console
        self._prompt_before = ""
        self.transcript = Transcript(
            target.name,
            (self._creds.username, self._creds.password, self._creds.enable_secret),
        )

    @property
    def prompt(self) -> Prompt | None:
        """The last prompt seen, None before `connect`."""
        return self._prompt

    @property
    def kind(self) -> DeviceKind:
        """The console family: as given, or as recognised from the first prompt."""
        return self._kind

    @property
    def connected(self) -> bool:
        """Whether the telnet connection is open."""
        return self._writer is not None and not self._writer.is_closing()

    async def __aenter__(self) -> DeviceConsole:
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- connection -----------------------------------------------------------------------

    async def connect(self) -> Prompt:
        """Open the telnet connection, wake the console, log in if asked; return the prompt."""
        if self.connected and self._prompt is not None:
            return self._prompt
        target, timeout = self.target, self._options.connect_timeout
        try:
            async with asyncio.timeout(timeout + 2.0):  # not wait_for: see _read
                self._reader, self._writer = await telnetlib3.open_connection(
                    target.host,
                    target.port,
                    client_factory=telnetlib3.TelnetClient,
                    encoding=False,
                    connect_minwait=0.0,
                    connect_maxwait=min(2.0, timeout),
                    connect_timeout=timeout,
                )
        except (OSError, TimeoutError) as exc:
            raise DeviceError(
                f"Cannot reach the console of {target.name} at {target.host}:{target.port}: "
                f"{exc or type(exc).__name__}"
            ) from exc
        self._decoder.reset()
        self._carry = ""
        try:
            self._prompt = await self._wake()
        except BaseException:
            await self.close()
            raise
        return self._prompt

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        writer, self._writer, self._reader = self._writer, None, None
        self._prompt = None
        if writer is not None:
            writer.close()

    async def _wake(self) -> Prompt:
        deadline = time.monotonic() + self._options.login_timeout
        what = "the console prompt"
        listen_until = time.monotonic() + self._options.listen_before_wake
        event = await self._read_event(listen_until, what=what, login=True, echo=None, soft=True)
        woken = event is None
        if woken:
            self._send("")
        sent_password = False
        boot_deadline = time.monotonic() + self._options.boot_timeout
        for _ in range(_MAX_LOGIN_STEPS):
            if event is None:
                event = await self._wait_through_boot(deadline, boot_deadline, what)
            if sent_password and (
                event.kind == "username" or LOGIN_FAILED_RE.search(screen_text(event.raw))
            ):
                if not (woken and event.kind == "username"):
                    raise DeviceError(f"Login to {self.target.name} failed: check the credentials.")
                # The wake-up newline reached a login prompt printed before we connected and was
                # taken as an empty user name (a Linux getty then asks for that user's password):
                # one more try from the fresh login prompt, with nothing sent blind.
                woken, sent_password = False, False
            if event.kind == "prompt":
                assert event.prompt is not None
                if woken and not sent_password and _printed_before_prompt(event.raw):
                    event = await self._resync(deadline, event)
                assert event.prompt is not None
                return self._settle_kind(event.prompt, event.raw)
            what = self._answer_login(event)
            sent_password = sent_password or event.kind == "password"
            event = None
        raise DeviceError(f"{self.target.name}: no prompt after {_MAX_LOGIN_STEPS} login steps.")

    async def _wait_through_boot(self, deadline: float, boot_deadline: float, what: str) -> _Event:
        """A login question or prompt; while the console shows a boot, up to `boot_deadline`."""
        booting = False
        while True:
            event = await self._read_event(deadline, what=what, login=True, echo=None, soft=True)
            if event is not None:
                return event
            if not booting and BOOT_OUTPUT_RE.search(screen_text(self._carry)):
                booting, deadline = True, max(deadline, boot_deadline)
                continue
            raw, self._carry = self._carry, ""
            self.transcript.received(raw)
            await self.close()
            if booting:
                what = f"{what} (it was still booting)"
            limit = self._options.boot_timeout if booting else self._options.login_timeout
            raise DeviceTimeoutError(
                self.target.name, what, self.transcript.redact(screen_text(raw)), limit
            )

    async def _resync(self, deadline: float, event: _Event) -> _Event:
        """The wake-up newline went out while the device was printing on its own (a node that
        has just started: banner, startup script): the device may still owe an answer to it, and
        a VPCS drops the first line typed after its startup script. One more newline and its
        prompt put the session in step before the first command."""
        self._send("")
        until = min(deadline, time.monotonic() + _RESYNC_WAIT_S)
        synced = await self._read_event(until, what="the prompt", login=False, echo=None, soft=True)
        if synced is None or synced.prompt is None:
            return event
        return _Event("prompt", event.raw + synced.raw, synced.prompt)

    def _answer_login(self, event: _Event) -> str:
        """Reply to a login question; return what is awaited next (for timeout messages)."""
        if event.kind == "username":
            if not self._creds.username:
                raise DeviceError(f"{self.target.name} asks for a username; none is configured.")
            self._send(self._creds.username, secret=True)
            return "the password prompt after the username"
        if event.kind == "password":
            if self._creds.password is None:
                raise DeviceError(f"{self.target.name} asks for a password; none is configured.")
            self._send(self._creds.password, secret=True)
            return "the prompt after the password"
        self._send("no" if event.kind == "setup" else "")
        return "the console prompt"

    def _settle_kind(self, prompt: Prompt, raw: str) -> Prompt:
        if self._kind is DeviceKind.AUTO:
            if prompt.kind is DeviceKind.IOS and VPCS_BANNER_RE.search(raw):
                prompt = Prompt(DeviceKind.VPCS, PromptMode.USER, prompt.hostname, prompt.text)
            self._kind = prompt.kind
        return prompt

    # --- commands -------------------------------------------------------------------------

    async def run_command(
        self, command: str, *, command_timeout: float | None = None, max_chars: int | None = None
    ) -> CommandResult:
        """Run one command (after the refusal check) and return its output (cut to
        ``max_chars``, by default the options' ``max_output_chars``)."""
        return (
            await self.run_commands([command], command_timeout=command_timeout, max_chars=max_chars)
        )[0]

    async def run_commands(
        self,
        commands: Sequence[str],
        *,
        command_timeout: float | None = None,
        max_chars: int | None = None,
    ) -> list[CommandResult]:
        """Run `commands` in order; refuse all of them if one is destructive.

        Raises `CommandRefusedError` before sending anything, `DeviceTimeoutError` (with the
        results completed so far) when a command does not return to a prompt in time.
        """
        async with self._lock:
            await self._connect_checked(commands)
            if self._options.auto_enable:
                await self._enter_enable(required=False)
            results: list[CommandResult] = []
            for command in commands:
                try:
                    results.append(await self._command(command, command_timeout, max_chars))
                except DeviceTimeoutError as exc:
                    exc.completed = results
                    raise
            return results

    async def push_config(
        self, lines: Sequence[str], *, command_timeout: float | None = None
    ) -> ConfigResult:
        """Apply configuration lines; report the lines the device rejected.

        IOS-style: ``enable`` when needed, ``configure terminal``, the lines, ``end``. Junos:
        ``configure``, the lines, ``commit and-quit``. VPCS and Linux: each line as a command.
        """
        lines = [line for line in lines if line.strip()]
        async with self._lock:
            await self._connect_checked(lines)
            results = await self._config_session(lines, command_timeout)
        prompts = [self._prompt_before, *(res.prompt for res in results)]
        joined = "\n".join(
            f"{before.rstrip()} {res.command}\n{res.output}".rstrip()
            for before, res in zip(prompts, results, strict=False)
        )
        rejected = [r for r in (self._rejection(res) for res in results) if r is not None]
        cut = truncate_output(joined, self._options.max_output_chars)
        return ConfigResult(self.target.name, lines, rejected, cut.text, cut.truncated)

    async def _config_session(
        self, lines: Sequence[str], command_timeout: float | None
    ) -> list[CommandResult]:
        if self._kind is DeviceKind.IOS:
            await self._enter_enable(required=True)
            if self._mode() is not PromptMode.CONFIG:
                await self._expect_mode("configure terminal", PromptMode.CONFIG, command_timeout)
        elif self._kind is DeviceKind.JUNOS and self._mode() is not PromptMode.CONFIG:
            await self._expect_mode("configure", PromptMode.CONFIG, command_timeout)
        self._prompt_before = self._prompt.text if self._prompt else ""
        results = [await self._command(line, command_timeout) for line in lines]
        if self._kind is DeviceKind.IOS:
            results.append(await self._command("end", command_timeout))
        elif self._kind is DeviceKind.JUNOS:
            results.append(await self._command("commit and-quit", command_timeout))
        return results

    async def _connect_checked(self, commands: Sequence[str]) -> None:
        """Refuse before connecting, and again once the console family is known."""
        check = self._options.extra_refused_patterns
        check_commands(self.target.name, commands, check, self._kind)
        await self.connect()
        check_commands(self.target.name, commands, check, self._kind)

    def _mode(self) -> PromptMode:
        return self._prompt.mode if self._prompt else PromptMode.USER

    @staticmethod
    def _rejection(result: CommandResult) -> RejectedLine | None:
        match = _REJECTED_RE.search(result.output)
        return RejectedLine(result.command, match.group(0).strip()) if match else None

    async def _expect_mode(
        self, command: str, mode: PromptMode, command_timeout: float | None
    ) -> None:
        result = await self._command(command, command_timeout)
        if self._mode() is not mode:
            raise DeviceError(
                f"{self.target.name}: '{command}' did not reach {mode.value} mode "
                f"(prompt '{result.prompt}', output: {result.output.strip()[-300:]})"
            )

    async def _enter_enable(self, *, required: bool) -> None:
        if self._kind is not DeviceKind.IOS or self._mode() is not PromptMode.USER:
            return
        deadline = time.monotonic() + self._options.command_timeout
        self._send("enable")
        event = await self._wait(deadline, what="enable", login=True, echo="enable")
        secret = self._creds.enable_secret or self._creds.password
        for attempt in range(3):  # IOS asks three times before giving up with "% Bad secrets"
            if event.kind != "password":
                break
            if (secret is None or attempt > 0) and required:
                await self.close()
                raise DeviceError(
                    f"{self.target.name} refused 'enable': the enable secret is missing or wrong."
                )
            # Without a secret, empty answers let IOS fall back to user mode; commands then run
            # there and any "% Invalid input" shows the model why.
            self._send(secret if secret is not None and attempt == 0 else "", secret=True)
            event = await self._wait(deadline, what="the prompt after enable", login=True)
        if event.prompt is not None:
            self._prompt = event.prompt
        if required and self._mode() is PromptMode.USER:
            raise DeviceError(f"{self.target.name} refused 'enable': check the enable secret.")

    async def _command(
        self, command: str, command_timeout: float | None, max_chars: int | None = None
    ) -> CommandResult:
        started = time.monotonic()
        limit = command_timeout if command_timeout is not None else self._options.command_timeout
        self._send(command)
        event = await self._wait(started + limit, what=command, login=False, echo=command)
        assert event.prompt is not None
        self._prompt = event.prompt
        output = _without_bare_prompts(_output_of(screen_text(event.raw), command), event.prompt)
        cut = truncate_output(output, max_chars or self._options.max_output_chars)
        elapsed = time.monotonic() - started
        return CommandResult(
            self.target.name, command, cut.text, cut.truncated, event.prompt.text, elapsed
        )

    # --- reading and writing --------------------------------------------------------------

    def _send(self, text: str, *, secret: bool = False) -> None:
        if self._writer is None:
            raise DeviceError(f"The console of {self.target.name} is closed.")
        # Commands become bytes in one place (`console_bytes`: printable ASCII, checked again
        # here), so what the gate classified is what the device receives. A saved login is
        # typed as the user saved it.
        data = text.encode() if secret else console_bytes(text)
        self.transcript.sent(text, secret=secret)
        self._writer.write(data + (self.target.newline or self._options.newline).encode())

    async def _wait(
        self, deadline: float, *, what: str, login: bool, echo: str | None = None
    ) -> _Event:
        """`_read_event` that raises on timeout."""
        event = await self._read_event(deadline, what=what, login=login, echo=echo, soft=False)
        assert event is not None  # a hard wait raises instead of returning None
        return event

    async def _read_event(
        self, deadline: float, *, what: str, login: bool, echo: str | None, soft: bool
    ) -> _Event | None:
        """Read until a prompt (after the echo of `echo`) or, with `login`, a login question.

        Every prompt before the echo is stale (a wake-up newline can produce two prompts), which
        is why the echo is awaited first. On timeout a `soft` wait keeps what it read for the next
        wait and returns None; otherwise the session is closed and `DeviceTimeoutError` raised.
        """
        budget = max(0.0, deadline - time.monotonic())
        raw, state, self._carry = self._carry, _ReadState(), ""
        while True:
            line = last_line(raw)
            if is_pager(line) and state.pages < self._options.max_pages:
                raw, state.pages = raw[: raw.rfind("\n") + 1], state.pages + 1
                self._writer.write(b" ")
                continue
            event = self._classify(raw, line, login, echo)
            if event is not None:
                self.transcript.received(raw)
                return event
            if echo is not None:
                self._answer_question(raw, line, state)
            remaining = deadline - time.monotonic()
            unechoed = echo is not None and match_prompt(line, self._kind) is not None
            wait = min(remaining, self._options.echo_grace) if unechoed else remaining
            chunk = await self._read(wait) if wait > 0 else None
            if chunk is None and unechoed and time.monotonic() < deadline:
                # A prompt and then silence: this console does not echo commands.
                self.transcript.received(raw)
                return _Event("prompt", raw, match_prompt(line, self._kind))
            if chunk is None and soft:
                self._carry = raw
                return None
            if chunk is None:
                self.transcript.received(raw)
                await self.close()  # the session is out of step with the device now
                raise DeviceTimeoutError(
                    self.target.name, what, self.transcript.redact(screen_text(raw)), budget
                )
            raw += chunk

    def _answer_question(self, raw: str, line: str, state: _ReadState) -> None:
        """Answer a confirmation question on the last line once (see `confirmation_reply`)."""
        if len(raw) <= state.answered_at or state.answers >= _MAX_ANSWERS:
            return  # already answered this text; a device that keeps asking hits the timeout
        reply = confirmation_reply(line)
        if reply is not None:
            self._send(reply)
            state.answered_at, state.answers = len(raw), state.answers + 1

    def _classify(self, raw: str, line: str, login: bool, echo: str | None) -> _Event | None:
        prompt = match_prompt(line, self._kind)
        if prompt is not None and (echo is None or _echo_seen(raw, echo)):
            return _Event("prompt", raw, prompt)
        if not login:
            return None
        if USERNAME_RE.search(line):
            return _Event("username", raw)
        if PASSWORD_RE.search(line):
            return _Event("password", raw)
        if SETUP_DIALOG_RE.search(line):
            return _Event("setup", raw)
        if PRESS_RETURN_RE.search(line):
            return _Event("press_return", raw)
        return None

    async def _read(self, wait_s: float) -> str | None:
        """Up to one chunk of text, or None on timeout. EOF raises `DeviceError`.

        ``asyncio.timeout``, not ``wait_for``: on Python 3.11 ``wait_for`` drops a cancel that
        arrives as the read completes, so a Stop during a device's steady output was lost and the
        command ran on to its timeout (test_stop_during_endless_output_ends_the_command_at_once).
        """
        try:
            async with asyncio.timeout(wait_s):
                data: bytes = await self._reader.read(_READ_SIZE)
        except TimeoutError:
            return None
        except (OSError, EOFError) as exc:
            await self.close()
            raise DeviceError(f"The console of {self.target.name} failed: {exc}") from exc
        if not data:
            await self.close()
            raise DeviceError(f"The console of {self.target.name} closed the connection.")
        return self._decoder.decode(data)


def _printed_before_prompt(raw: str) -> bool:
    """Whether the device printed something of its own before its prompt (a banner, a startup
    script's output), not just the answer to a newline."""
    lines = screen_text(raw).splitlines()
    return any(line.strip() for line in lines[:-1])


def _without_bare_prompts(output: str, prompt: Prompt) -> str:
    """The output without the prompts that end it on lines of their own: a serial console whose
    line discipline turns the CR and the LF of an Enter into two Enters (vtysh, a Linux getty)
    answers a command with its output, a prompt, and the same prompt again."""
    lines = output.split("\n")
    bare = prompt.text.strip()
    while lines and bare and lines[-1].strip() in (bare, ""):
        lines.pop()
    return "\n".join(lines)


def _squash(text: str) -> str:
    return "".join(text.split())


def _echo_seen(raw: str, command: str) -> bool:
    """Whether the device echoed `command` on a line before the last one."""
    wanted = _squash(command)[-24:]
    if not wanted:
        return "\n" in raw
    lines = screen_text(raw).split("\n")[:-1]
    return any(_squash(line).endswith(wanted) for line in lines)


def _is_echo(line: str, command: str) -> bool:
    """Whether `line` is `command` echoed again: alone or after a redrawn prompt. An error that
    quotes the command (vtysh's ``% Unknown command: show frobnicate``) is output, not an echo."""
    text, typed = line.rstrip(), command.strip()
    if not typed or not text.endswith(typed):
        return False
    before = text[: len(text) - len(typed)].rstrip()
    return not before or before[-1] in "#>$]"


def _output_of(screen: str, command: str) -> str:
    """The lines between the command's echo and the final prompt, blank edges removed.

    A console that was still printing when the command arrived echoes it twice (the typed
    characters, then the redrawn prompt and line), sometimes with blank lines between: every echo
    and blank line before the first line of output goes.
    """
    lines = [line.rstrip() for line in screen.split("\n")[:-1]]
    wanted = _squash(command)[-24:]
    if wanted:
        echoes = [i for i, line in enumerate(lines) if _squash(line).endswith(wanted)]
        if echoes:
            lines = lines[echoes[0] + 1 :]
            while lines and (not lines[0] or _is_echo(lines[0], command)):
                lines.pop(0)
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
