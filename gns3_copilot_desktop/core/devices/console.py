"""An async session with one device console: wake, log in, run commands, push config.

`DeviceConsole` talks over the telnet transport of `telnet_session`, which reads what the device
sends until a prompt appears on the last line (`recognize`), answers ``--More--`` pagers with a
space and confirmation questions once. Here it logs in when asked (``Username:``/``login:``,
``Password:``) and enters ``enable`` on IOS. Output is the text between the command's echo and
the next prompt, as it would stay visible on a screen (`terminal.screen_text`), with ``\\n`` line
ends, cut to size (`output.truncate_output`). What it is given and returns is in `console_data`.

Every command and configuration line is checked by `policy.check_commands` first: if one of a
request is refused, nothing of that request is sent. Failures raise `DeviceError` (or
`DeviceTimeoutError`) whose message names the device, the command and what was received.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from types import TracebackType

from gns3_copilot_desktop.core.devices.console_data import (
    CommandResult,
    ConfigResult,
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceTimeoutError,
    RejectedLine,
)
from gns3_copilot_desktop.core.devices.output import truncate_output
from gns3_copilot_desktop.core.devices.ping import endless_ping
from gns3_copilot_desktop.core.devices.policy import check_commands
from gns3_copilot_desktop.core.devices.prompts import (
    BOOT_OUTPUT_RE,
    LOGIN_FAILED_RE,
    VPCS_BANNER_RE,
    DeviceKind,
    Prompt,
    PromptMode,
)
from gns3_copilot_desktop.core.devices.recognize import (
    ConsoleEvent,
    output_of,
    printed_before_prompt,
    without_bare_prompts,
)
from gns3_copilot_desktop.core.devices.telnet_session import TelnetSession
from gns3_copilot_desktop.core.devices.terminal import screen_text
from gns3_copilot_desktop.core.errors import DeviceError

_MAX_LOGIN_STEPS = 12

_RESYNC_WAIT_S = 2.0
"""How long the extra newline after a freshly started device's banner waits for its prompt."""


class DeviceConsole(TelnetSession):
    """One telnet session with one device console. Use ``async with`` or call `close`."""

    def __init__(
        self,
        target: ConsoleTarget,
        credentials: DeviceCredentials | None = None,
        options: ConsoleOptions | None = None,
    ) -> None:
        super().__init__(target, credentials, options)
        self._prompt: Prompt | None = None
        self._lock = asyncio.Lock()  # one conversation at a time on one console
        self._prompt_before = ""

    @property
    def prompt(self) -> Prompt | None:
        """The last prompt seen, None before `connect`."""
        return self._prompt

    @property
    def kind(self) -> DeviceKind:
        """The console family: as given, or as recognised from the first prompt."""
        return self._kind

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
        await self._open()
        try:
            self._prompt = await self._wake()
        except BaseException:
            await self.close()
            raise
        return self._prompt

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        self._prompt = None
        await super().close()

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
                if woken and not sent_password and printed_before_prompt(event.raw):
                    event = await self._resync(deadline, event)
                assert event.prompt is not None
                return self._settle_kind(event.prompt, event.raw)
            what = self._answer_login(event)
            sent_password = sent_password or event.kind == "password"
            event = None
            # each answer gets its own wait: a router that took its boot to reach "login:" is
            # not out of time for "Password:" (a plan configures the routers it just started)
            deadline = time.monotonic() + self._options.login_timeout
        raise DeviceError(f"{self.target.name}: no prompt after {_MAX_LOGIN_STEPS} login steps.")

    async def _wait_through_boot(
        self, deadline: float, boot_deadline: float, what: str
    ) -> ConsoleEvent:
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

    async def _resync(self, deadline: float, event: ConsoleEvent) -> ConsoleEvent:
        """The wake-up newline went out while the device was printing on its own (a node that
        has just started: banner, startup script): the device may still owe an answer to it, and
        a VPCS drops the first line typed after its startup script. One more newline and its
        prompt put the session in step before the first command."""
        self._send("")
        until = min(deadline, time.monotonic() + _RESYNC_WAIT_S)
        synced = await self._read_event(until, what="the prompt", login=False, echo=None, soft=True)
        if synced is None or synced.prompt is None:
            return event
        return ConsoleEvent("prompt", event.raw + synced.raw, synced.prompt)

    def _answer_login(self, event: ConsoleEvent) -> str:
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
    @staticmethod
    def _rejection(result: CommandResult) -> RejectedLine | None:
        error = result.error
        return RejectedLine(result.command, error) if error is not None else None

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
        event = None
        stop_at = started + self._options.ping_stop_s
        if endless_ping(command) and stop_at < started + limit:
            # A ping that only Ctrl-C ends (vtysh's, a shell's): its replies so far, then stop it
            event = await self._read_event(
                stop_at, what=command, login=False, echo=command, soft=True
            )
            if event is None:
                self._interrupt()
        if event is None:
            event = await self._wait(started + limit, what=command, login=False, echo=command)
        assert event.prompt is not None
        self._prompt = event.prompt
        output = without_bare_prompts(output_of(screen_text(event.raw), command), event.prompt)
        cut = truncate_output(output, max_chars or self._options.max_output_chars)
        elapsed = time.monotonic() - started
        return CommandResult(
            self.target.name, command, cut.text, cut.truncated, event.prompt.text, elapsed
        )
