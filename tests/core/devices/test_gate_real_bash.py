"""The read-only gate against a real bash (tests/helpers/bash_console.py): every command it calls
a read leaves the shell's world as it was; the known ways of changing it are never reads.

- A Hypothesis corpus of commands built from the gate's own words, hostile options and pipe
  targets, and the files in the folder: each one the gate calls a read is run in the real shell
  through the app's own console code, and afterwards every file is unchanged and the shell alive.
- A corpus of changes (the attacks seen, and their cousins): none is a read, and run for real in
  the shell (bypassing the gate) each one does change something, so the corpus is not vacuous.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gns3_copilot_desktop.core.devices.command_risk import is_read_only_command
from gns3_copilot_desktop.core.devices.console import DeviceConsole
from gns3_copilot_desktop.core.devices.console_data import ConsoleOptions, ConsoleTarget
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from tests.helpers.bash_console import BashConsole

T = TypeVar("T")
OPTIONS = ConsoleOptions(connect_timeout=10, login_timeout=10, command_timeout=10)
READ_CORPUS_SIZE = 150


class LoopThread:
    """An event loop in a thread, so that sync Hypothesis tests can drive async consoles."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


class Shell:
    """One real bash and one console session to it."""

    def __init__(self, workdir: Path, *, seven_bit: bool = False) -> None:
        self.thread = LoopThread()
        self.server = BashConsole(workdir, seven_bit=seven_bit)
        self.thread.run(self.server.start())
        target = ConsoleTarget("Linux1", self.server.host, self.server.port, DeviceKind.LINUX)
        self.console = DeviceConsole(target, None, OPTIONS)
        self.thread.run(self.console.connect())

    def run(self, command: str) -> str:
        [result] = self.thread.run(self.console.run_commands([command]))
        return result.output

    def raw(self, text: str) -> str:
        """Type ``text`` (UTF-8) into a shell of the same server, bypassing every check of the
        app (to prove an attack is real)."""
        return self.thread.run(self.server.send_raw(text.encode()))

    def close(self) -> None:
        self.thread.run(self.console.close())
        self.thread.run(self.server.stop())
        self.thread.close()


def _workdir(root: Path) -> Path:
    work = root / "work"
    (work / "configs").mkdir(parents=True)
    (work / "configs" / "r1.cfg").write_text("hostname R1\ninterface e0\n")
    (work / "notes.txt").write_text("lab notes\n")
    (work / "victim.txt").write_text("do not overwrite\n")
    return work


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    session = Shell(_workdir(tmp_path))
    try:
        yield session
    finally:
        session.close()


# --- the read corpus -------------------------------------------------------------------------

_PATHS = ["notes.txt", "victim.txt", "configs", "configs/r1.cfg", "/etc/hostname", ".", "/"]
_ARGS = [
    *_PATHS, "-o", "victim.txt", "-delete", "-exec", "rm", "-f", "-l", "-la", "-n", "-c", "2",
    "-a", "dev", "lo", "show", "addr", "route", "link", "127.0.0.1", "-i", "-v", "R1", "ip",
    "brief", "interface", "-R", "-h", "out.txt", "--output=x", "-w", "1", "tee", "xargs",
]  # fmt: skip
_VERBS = ["ls", "cat", "ip", "show", "ping", "uname", "df", "free", "ps", "netstat", "ss",
          "ifconfig", "arp", "date", "pwd", "whoami", "uptime", "hostname", "trace",
          "display"]  # fmt: skip
_FILTERS = ["grep", "head", "tail", "wc", "sort", "uniq", "include", "exclude", "begin", "tee",
            "xargs", "find", "ex", "sed", "awk", "rm", "cp", "count", "no-more"]  # fmt: skip


@st.composite
def commands(draw: st.DrawFn) -> str:
    words = [draw(st.sampled_from(_VERBS))]
    words += draw(st.lists(st.sampled_from(_ARGS), max_size=4))
    if words[0] == "ping":
        words += ["-c", "1", "127.0.0.1"]
    text = " ".join(words)
    for _ in range(draw(st.integers(0, 2))):
        pipe = [draw(st.sampled_from(_FILTERS))]
        pipe += draw(st.lists(st.sampled_from(_ARGS), max_size=3))
        text += " | " + " ".join(pipe)
    return text


def test_every_command_the_gate_calls_a_read_leaves_the_real_shell_unchanged(
    tmp_path: Path,
) -> None:
    session = Shell(_workdir(tmp_path))
    before = session.server.fingerprint()
    reads: list[str] = []
    try:

        @settings(
            max_examples=READ_CORPUS_SIZE * 20,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        @given(commands())
        def check(command: str) -> None:
            if not is_read_only_command(command) or len(reads) >= READ_CORPUS_SIZE:
                return
            reads.append(command)
            session.run(command)
            assert session.server.fingerprint() == before, command
            assert session.server.shells_alive(), command

        check()
    finally:
        session.close()
    # the corpus is real: many reads ran, of several verbs and with filters
    assert len(reads) >= 60, len(reads)
    assert len({r.split()[0] for r in reads}) >= 8
    assert any("|" in r for r in reads)


# --- the change corpus -----------------------------------------------------------------------

# (command as the model would send it, what it changes in the real shell)
CHANGES = [
    ("ls | sort -o victim.txt", "victim.txt"),
    ("ls | find configs -delete", "configs"),
    ("ls | tee victim.txt", "victim.txt"),
    ("ls | xargs rm -f", "notes.txt"),
    ("cat notes.txt > victim.txt", "victim.txt"),
    ("ls >> victim.txt", "victim.txt"),
    ("cp notes.txt victim.txt", "victim.txt"),
    ("ls; touch made.txt", "made.txt"),
    ("ls && touch made.txt", "made.txt"),
    ("echo $(touch made.txt)", "made.txt"),
    ("echo `touch made.txt`", "made.txt"),
    ("ls | uniq - victim.txt", "victim.txt"),
    ("date > victim.txt", "victim.txt"),
    ("ls notes.txt | sed -i s/lab/LAB/ notes.txt", "notes.txt"),
    ("sh -c 'touch made.txt'", "made.txt"),
]
# Control characters inside one command: the line editor turns a read into something else.
EDITS = [
    ("ls\x15touch made.txt", "made.txt"),  # Ctrl-U kills the line typed so far
    ("ls\x08\x08touch made.txt", "made.txt"),  # backspaces erase the read verb
    ("show ip\x01touch made.txt ; \x05", "made.txt"),  # Ctrl-A / Ctrl-E move the cursor
]


@pytest.mark.parametrize(("command", "changed"), CHANGES + EDITS)
def test_no_known_change_is_a_read_and_each_really_changes_the_shell(
    command: str, changed: str, shell: Shell
) -> None:
    assert not is_read_only_command(command)
    before = shell.server.fingerprint()
    shell.raw(command)
    after = shell.server.fingerprint()
    assert before != after and (
        before.get(changed) != after.get(changed) or changed not in before
    ), f"{command!r} did not change {changed} in the real shell"


# --- a console that drops the 8th bit ----------------------------------------------------------

# What str.split() takes for a space or a line end and is no ASCII: stripped to 7 bits, U+200A
# (E2 80 8A) becomes "b", NUL, LINE FEED, and the rest of the line runs as a second command.
UNICODE_SPACES = [
    "\u00a0", "\u1680", *(chr(c) for c in range(0x2000, 0x200B)), "\u202f", "\u205f", "\u3000",
    "\u2028", "\u2029", "\u0085", "\u200b", "\ufeff",
]  # fmt: skip


def _seven_bit_lines(command: str) -> list[str]:
    """The lines a console that drops the 8th bit receives for ``command`` sent as UTF-8."""
    stripped = bytes(b & 0x7F for b in command.encode()).decode("ascii")
    return [line for line in stripped.replace("\r", "\n").split("\n") if line.strip()]


def test_a_unicode_space_never_reaches_a_seven_bit_shell(tmp_path: Path) -> None:
    """``ls <U+200A>touch PWNED`` was a read and created PWNED on a 7-bit shell: now it is
    refused with the character named, at the tool's arguments and at the console, and PWNED
    never exists; typed past the app into the same shell it does create PWNED."""
    from gns3_copilot_desktop.core.agent.tools.device_tools import RunDeviceCommandsArgs
    from gns3_copilot_desktop.core.devices.policy import CommandRefusedError

    attack = "ls \u200atouch PWNED"
    assert _seven_bit_lines(attack)[1] == "touch PWNED"  # what the console would run
    session = Shell(_workdir(tmp_path), seven_bit=True)
    pwned = session.server.workdir / "PWNED"
    try:
        assert not is_read_only_command(attack)
        with pytest.raises(ValueError, match="U\\+200A HAIR SPACE at column 4"):
            RunDeviceCommandsArgs.model_validate(
                {"devices": [{"node": "Linux1", "commands": [attack]}]}
            )
        with pytest.raises(CommandRefusedError, match="U\\+200A HAIR SPACE at column 4"):
            session.run(attack)
        for space in UNICODE_SPACES:
            with pytest.raises(CommandRefusedError, match=f"U\\+{ord(space):04X}"):
                session.run(f"ls{space}touch PWNED")
        listing = session.run("ls").split()  # the session still works, and ran nothing else
        assert "notes.txt" in listing and "PWNED" not in listing
        assert not pwned.exists()
        session.raw(attack)  # the same bytes, typed past the app
        assert pwned.exists(), "the 7-bit shell did not run the hidden line: the test is vacuous"
    finally:
        session.close()


@st.composite
def spaced_commands(draw: st.DrawFn) -> str:
    """A corpus command with Unicode spaces, line separators or other non-ASCII put between or
    inside its words, and sometimes a change after them."""
    words = draw(commands()).split(" ")
    tail = draw(st.sampled_from(["", "touch PWNED", "reload", "rm -rf /", "reboot"]))
    words += tail.split() if tail else []
    out = words[0]
    for word in words[1:]:
        out += draw(st.sampled_from([" ", " ", *UNICODE_SPACES, "\u00e9", "\u4e2d"])) + word
    return out


@settings(max_examples=3000, derandomize=True, deadline=None, database=None)
@given(spaced_commands())
def test_a_read_stays_a_read_on_a_seven_bit_console_and_no_ascii_is_never_sent(
    command: str,
) -> None:
    """For any command: if the gate calls it a read, every line a 7-bit console makes of it is a
    read too; and a command with any character outside printable ASCII is never a read and is
    refused before it reaches a console."""
    from gns3_copilot_desktop.core.devices.policy import check_command

    if is_read_only_command(command):
        lines = _seven_bit_lines(command)
        assert lines == [command], command
        assert all(is_read_only_command(line) for line in lines), command
    if any(not " " <= char <= "~" for char in command):
        assert not is_read_only_command(command), command
        refused = check_command(command)
        assert refused is not None and "printable ASCII" in refused.reason, command
