"""The telnet transport of a device console: telnetlib3 (the only module that imports it), the
bytes sent, and the reading loop that waits for a prompt or a login question.

While reading, ``--More--`` pagers are answered with a space and confirmation questions once
(`prompts.confirmation_reply`); a prompt before the command's echo is stale. Commands go out as
printable ASCII only (`policy.console_bytes`).
"""

from __future__ import annotations

import asyncio
import codecs
import time
from dataclasses import dataclass
from typing import Any

import telnetlib3

from gns3_copilot_desktop.core.devices.console_data import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceTimeoutError,
)
from gns3_copilot_desktop.core.devices.policy import console_bytes
from gns3_copilot_desktop.core.devices.prompts import (
    confirmation_reply,
    match_prompt,
    pager_key,
)
from gns3_copilot_desktop.core.devices.recognize import ConsoleEvent, classify
from gns3_copilot_desktop.core.devices.terminal import last_line, screen_text
from gns3_copilot_desktop.core.devices.transcript import Transcript
from gns3_copilot_desktop.core.errors import DeviceError

_READ_SIZE = 65536
_MAX_ANSWERS = 5


@dataclass
class _ReadState:
    pages: int = 0  # pager pages turned
    answered_at: int = -1  # length of the text when a question was last answered
    answers: int = 0


class TelnetSession:
    """The telnet connection to one console: open, send, read until something to act on, close."""

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
        self._reader: Any = None
        self._writer: Any = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._carry = ""  # text read by a listening `_wait` that ended without an event
        self.pager_keys: list[str] = []
        """The keys sent to pagers in this session, in order (" ": a page turned, "q": quit)."""
        self.transcript = Transcript(
            target.name,
            (self._creds.username, self._creds.password, self._creds.enable_secret),
        )

    @property
    def connected(self) -> bool:
        """Whether the telnet connection is open."""
        return self._writer is not None and not self._writer.is_closing()

    async def _open(self) -> None:
        """Open the telnet connection (`DeviceError` when the console cannot be reached)."""
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

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()

    def _send(self, text: str, *, secret: bool = False) -> None:
        if self._writer is None:
            raise DeviceError(f"The console of {self.target.name} is closed.")
        # Commands become bytes in one place (`console_bytes`: printable ASCII, checked again
        # here), so what the gate classified is what the device receives. A saved login is
        # typed as the user saved it.
        data = text.encode() if secret else console_bytes(text)
        self.transcript.sent(text, secret=secret)
        self._writer.write(data + (self.target.newline or self._options.newline).encode())

    def _interrupt(self) -> None:
        """Send Ctrl-C: stop the program that holds the console (a ping without a count)."""
        if self._writer is None:
            raise DeviceError(f"The console of {self.target.name} is closed.")
        self.transcript.sent("^C")
        self._writer.write(b"\x03")

    async def _wait(
        self, deadline: float, *, what: str, login: bool, echo: str | None = None
    ) -> ConsoleEvent:
        """`_read_event` that raises on timeout."""
        event = await self._read_event(deadline, what=what, login=login, echo=echo, soft=False)
        assert event is not None  # a hard wait raises instead of returning None
        return event

    async def _read_event(
        self, deadline: float, *, what: str, login: bool, echo: str | None, soft: bool
    ) -> ConsoleEvent | None:
        """Read until a prompt (after the echo of `echo`) or, with `login`, a login question.

        Every prompt before the echo is stale (a wake-up newline can produce two prompts), which
        is why the echo is awaited first. On timeout a `soft` wait keeps what it read for the next
        wait and returns None; otherwise the session is closed and `DeviceTimeoutError` raised.
        """
        budget = max(0.0, deadline - time.monotonic())
        raw, state, self._carry = self._carry, _ReadState(), ""
        while True:
            line = last_line(raw)
            key = pager_key(line) if state.pages < self._options.max_pages else None
            if key is not None:
                raw, state.pages = raw[: raw.rfind("\n") + 1], state.pages + 1
                self._writer.write(key.encode("ascii"))
                self.pager_keys.append(key)
                continue
            event = classify(raw, line, self._kind, login=login, echo=echo)
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
                return ConsoleEvent("prompt", raw, match_prompt(line, self._kind))
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
