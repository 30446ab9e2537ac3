"""A loopback telnet server that plays device consoles: a TEST DOUBLE for real devices.

Real VPCS, IOS routers and Linux nodes cannot run on this machine (see
shared/notes/gns3-server.md), so the telnet layer is tested against these emulations. They copy
what the real consoles send on the wire, as far as the console layer cares:

- `VpcsDevice`: the VPCS banner, ``PC1> `` prompt, ``show ip``, ``ip a.b.c.d/m``, ``hang``.
- `IosDevice`: ``User Access Verification``, ``Username:``/``Password:``, ``R1>``/``R1#``,
  ``enable`` (with an enable secret), ``show running-config`` paged with `` --More-- `` and the
  backspace/space/backspace erase real IOS sends, ``configure terminal`` with ``(config)#`` and
  ``(config-if)#`` prompts, ``% Invalid input detected at '^' marker.`` for unknown lines.
- `LinuxDevice`: ``debian login:``, ``Password:``, a coloured ``user@debian:~$ `` prompt with
  bracketed-paste switches, ``echo``, ``seq``, ``sleep``, ``ping HOST`` until Ctrl-C.
- `StalledDevice`: accepts the connection and never says anything.

The server speaks just enough telnet (WILL ECHO, WILL SGA; it skips the client's option
negotiation) and records every line it receives in ``device.received``, so tests can assert what
reached the "device". It listens on 127.0.0.1 on a free port. Use the ``telnet_lab`` fixture.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest_asyncio

IAC, SB, SE, WILL, WONT, DO, DONT = 255, 250, 240, 251, 252, 253, 254
ECHO, SGA = 1, 3
IOS_ERASE = "\b" * 10 + " " * 10 + "\b" * 10
IOS_PAGE_LINES = 23
INVALID_INPUT = "% Invalid input detected at '^' marker."


class LabIO:
    """One client connection: telnet-aware line and key reading, plain writing."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._after_cr = False

    def write(self, text: str) -> None:
        """Send text as the device would (the caller writes its own \\r\\n)."""
        self._writer.write(text.encode())

    @property
    def closed(self) -> bool:
        """Whether the client went away (a device that talks on its own stops then)."""
        return self._writer.is_closing() or self._reader.at_eof()

    async def _data_byte(self) -> int:
        """The next byte of user data; telnet commands are skipped. EOF ends the session."""
        while True:
            byte = (await self._reader.readexactly(1))[0]
            if byte != IAC:
                return byte
            command = (await self._reader.readexactly(1))[0]
            if command == IAC:
                return IAC
            if command in (WILL, WONT, DO, DONT):
                await self._reader.readexactly(1)
            elif command == SB:
                await self._reader.readuntil(bytes([IAC, SE]))

    async def key(self) -> str:
        """One key press (a pager waits for one)."""
        while True:
            byte = await self._data_byte()
            if self._after_cr and byte in (0, 10):
                self._after_cr = False
                continue
            self._after_cr = byte == 13
            return "\n" if byte in (10, 13) else chr(byte)

    async def line(self, *, echo: bool = True) -> str:
        """One line (CR LF, CR NUL, CR or LF ends it), echoed back unless `echo` is False."""
        chars: list[str] = []
        while True:
            key = await self.key()
            if key == "\n":
                text = "".join(chars)
                self.write((text if echo else "") + "\r\n")
                return text
            chars.append(key)

    def close(self) -> None:
        """Drop the connection."""
        self._writer.close()


@dataclass
class LabDevice:
    """Base of the emulated consoles: a name and everything received, line by line."""

    name: str
    received: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    echo_commands: bool = True  # False: a console that does not echo what is typed

    async def session(self, io: LabIO) -> None:
        """Talk to one client until it disconnects."""
        raise NotImplementedError

    async def read_line(self, io: LabIO, *, echo: bool = True) -> str:
        """Read a line and record it."""
        text = await io.line(echo=echo and self.echo_commands)
        self.received.append(text)
        return text


@dataclass
class VpcsDevice(LabDevice):
    """VPCS 0.6.1 as seen through its GNS3 telnet console."""

    name: str = "PC1"
    ip: str = "0.0.0.0/0"

    def show_ip(self) -> str:
        """The exact text of ``show ip``, \\n line ends."""
        return "\n".join(
            [
                f"NAME        : {self.name}[1]",
                f"IP/MASK     : {self.ip}",
                "GATEWAY     : 0.0.0.0",
                "DNS         : ",
                "MAC         : 00:50:79:66:68:00",
                "LPORT       : 20000",
                "RHOST:PORT  : 127.0.0.1:20001",
                "MTU         : 1500",
            ]
        )

    async def session(self, io: LabIO) -> None:
        """Banner, then a command loop."""
        io.write(
            "\r\nWelcome to Virtual PC Simulator, version 0.6.1\r\nDedicated to Daling.\r\n"
            "Build time: Jan  1 2024 00:00:00\r\nPress '?' to get help.\r\n\r\n"
            f"Executing the startup file\r\n\r\n\r\n{self.name}> "
        )
        while True:
            command = (await self.read_line(io)).strip()
            if command == "hang":
                await asyncio.Event().wait()
            if command == "flood":  # output without end and no prompt (a debug left on)
                for n in itertools.count():
                    if io.closed:
                        return
                    io.write(f"84 bytes from 10.0.0.9 icmp_seq={n} ttl=64 time=0.1 ms\r\n")
                    await asyncio.sleep(0.001)
            io.write(self._answer(command))
            io.write(f"\r\n{self.name}> ")

    def _answer(self, command: str) -> str:
        if not command:
            return ""
        if command == "show ip":
            return "\r\n" + self.show_ip().replace("\n", "\r\n") + "\r\n"
        match = re.fullmatch(r"ip (\d+\.\d+\.\d+\.\d+)/(\d+)", command)
        if match:
            self.ip = f"{match.group(1)}/{match.group(2)}"
            return f"Checking for duplicate address...\r\n{self.name} : {self.ip}\r\n"
        return f'Bad command: "{command}". Use ? for help.\r\n'


def _ios_word(token: str, word: str, minimum: int) -> bool:
    return len(token) >= minimum and word.startswith(token)


@dataclass
class IosDevice(LabDevice):
    """A Cisco IOS-like console with login, enable, a paged running-config and config mode."""

    name: str = "R1"
    username: str | None = "admin"
    password: str | None = "lab-password"
    enable_secret: str | None = "lab-enable"
    interfaces: int = 12
    paging: bool = True
    extra_config: list[str] = field(default_factory=list)
    saved: bool = False

    def running_config(self) -> str:
        """The exact text of ``show running-config`` without the pager, \\n line ends."""
        lines = ["Building configuration...", "", "Current configuration : 4242 bytes", "!"]
        lines += ["version 15.2", "service timestamps debug datetime msec", "!"]
        lines += [f"hostname {self.name}", "!"]
        for index in range(self.interfaces):
            lines += [f"interface Ethernet0/{index}", " no ip address", " shutdown", "!"]
        lines += [*self.extra_config, "!", "line con 0", " logging synchronous", "!", "end"]
        return "\n".join(lines)

    async def session(self, io: LabIO) -> None:
        """Login, then the exec/config command loop."""
        if self.username is None:
            await self.read_line(io)  # a console without login stays silent until Enter
        elif not await self._login(io):
            io.close()
            return
        mode = "user"
        io.write(f"\r\n{self._prompt(mode)}")
        while True:
            command = (await self.read_line(io)).strip()
            mode = await self._handle(io, mode, command)
            io.write(self._prompt(mode))

    def _prompt(self, mode: str) -> str:
        return {
            "user": f"{self.name}>",
            "priv": f"{self.name}#",
            "config": f"{self.name}(config)#",
            "config-if": f"{self.name}(config-if)#",
        }[mode]

    async def _login(self, io: LabIO) -> bool:
        io.write("\r\n\r\nUser Access Verification\r\n\r\n")
        for _ in range(3):
            io.write("Username: ")
            user = await self.read_line(io)
            while not user:  # an empty Enter just asks again, as IOS does
                io.write("Username: ")
                user = await self.read_line(io)
            io.write("Password: ")
            password = await self.read_line(io, echo=False)
            if user == self.username and password == self.password:
                return True
            io.write("\r\n% Login invalid\r\n\r\n")
        return False

    async def _handle(self, io: LabIO, mode: str, command: str) -> str:
        words = command.split()
        if not words:
            return mode
        if mode.startswith("config"):
            return self._config(io, mode, command, words)
        if _ios_word(words[0], "enable", 2):
            return await self._enable(io, mode)
        if _ios_word(words[0], "disable", 4):
            return "user"
        if _ios_word(words[0], "show", 2) and len(words) > 1:
            if _ios_word(words[1], "running-config", 3) and mode == "priv":
                await self._paged(io, self.running_config())
                return mode
            if _ios_word(words[1], "version", 1):
                io.write("Cisco IOS Software, Linux Software (I86BI_LINUX-ADVENTERPRISEK9-M)\r\n")
                return mode
        if mode == "priv" and _ios_word(words[0], "copy", 2) and len(words) == 3:
            io.write("Destination filename [startup-config]? ")
            await self.read_line(io)
            io.write("Building configuration...\r\n[OK]\r\n")
            self.saved = True
            return mode
        if mode == "priv" and [w[:3] for w in words] == ["cle", "cou"]:
            io.write('Clear "show interface" counters on all interfaces [confirm]')
            await self.read_line(io)
            return mode
        if _ios_word(words[0], "terminal", 3) and words[1:] == ["length", "0"]:
            self.paging = False
            return mode
        if mode == "priv" and len(words) == 2 and _ios_word(words[0], "configure", 4):
            io.write("Enter configuration commands, one per line.  End with CNTL/Z.\r\n")
            return "config"
        io.write(f"{' ' * (len(self._prompt(mode)))}^\r\n{INVALID_INPUT}\r\n\r\n")
        return mode

    async def _enable(self, io: LabIO, mode: str) -> str:
        if self.enable_secret is None:
            return "priv"
        for _ in range(3):
            io.write("Password: ")
            if await self.read_line(io, echo=False) == self.enable_secret:
                return "priv"
        io.write("% Bad secrets\r\n\r\n")
        return mode

    def _config(self, io: LabIO, mode: str, command: str, words: list[str]) -> str:
        if words == ["end"]:
            return "priv"
        if words == ["exit"]:
            return "config" if mode == "config-if" else "priv"
        if words[0] == "hostname" and len(words) == 2:
            self.name = words[1]
            return mode
        if words[0] == "interface" and len(words) == 2:
            self.extra_config.append(command)
            return "config-if"
        known = ("ip address ", "no shutdown", "shutdown", "description ", "no ip address")
        if mode == "config-if" and command.startswith(known):
            self.extra_config.append(f" {command}")
            if command == "no shutdown":  # a log line that is not a rejection
                io.write("%LINK-3-UPDOWN: Interface Ethernet0/1, changed state to up\r\n")
            return mode
        io.write(f"{' ' * len(self._prompt(mode))}^\r\n{INVALID_INPUT}\r\n\r\n")
        return mode

    async def _paged(self, io: LabIO, text: str) -> None:
        """Write `text` a page at a time with IOS's pager and erase sequence."""
        lines = text.split("\n")
        shown = 0
        page = len(lines) if not self.paging else IOS_PAGE_LINES
        while shown < len(lines):
            chunk = lines[shown : shown + page]
            io.write("".join(f"{line}\r\n" for line in chunk))
            shown += len(chunk)
            if shown >= len(lines):
                return
            io.write(" --More-- ")
            key = await io.key()
            self.keys.append(key)
            io.write(IOS_ERASE)
            if key == "q":
                return
            page = 1 if key == "\n" else IOS_PAGE_LINES


@dataclass
class ModeledIosDevice(IosDevice):
    """An IOS-like console whose configuration mode merges lines the way IOS does: each
    section keeps its lines, ``no`` takes a line (or a whole interface) away, an address
    replaces the one before, and a global command typed inside an interface leaves it. A test
    double for a router (no router image runs here); enough to push a change and restore it."""

    globals_: list[str] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)
    _section: str | None = None

    def __post_init__(self) -> None:
        if not self.sections:
            self.sections = {
                f"interface Ethernet0/{i}": ["no ip address", "shutdown"]
                for i in range(self.interfaces)
            }

    def running_config(self) -> str:
        """The configuration as ``show running-config`` prints it (no pager)."""
        lines = ["Building configuration...", "", "Current configuration : 1234 bytes", "!"]
        lines += ["version 15.2", "!", f"hostname {self.name}", "!", *self.globals_, "!"]
        for head, children in self.sections.items():
            lines += [head, *(f" {line}" for line in children), "!"]
        lines += ["line con 0", " logging synchronous", "!", "end"]
        return "\n".join(lines)

    def _config(self, io: LabIO, mode: str, command: str, words: list[str]) -> str:
        if words in (["end"], ["exit"]):
            return super()._config(io, mode, command, words)
        if self._global(command, words):
            if words[0] == "interface":
                return "config-if"
            self._section = None
            return "config"
        if mode == "config-if" and self._section is not None and self._interface(command):
            return mode
        io.write(f"{' ' * len(self._prompt(mode))}^\r\n{INVALID_INPUT}\r\n\r\n")
        return mode

    def _global(self, command: str, words: list[str]) -> bool:
        if words[0] == "hostname" and len(words) == 2:
            self.name = words[1]
        elif words == ["no", "hostname"] or (words[:2] == ["no", "hostname"] and len(words) == 3):
            self.name = "Router"
        elif words[0] == "interface" and len(words) == 2:
            self._section = command
            self.sections.setdefault(command, ["no ip address"])
        elif words[:2] == ["no", "interface"] and len(words) == 3:
            self.sections.pop(f"interface {words[2]}", None)
        elif command in ("no ip domain lookup", "ip domain lookup"):
            other = "ip domain lookup" if command.startswith("no ") else "no ip domain lookup"
            self.globals_ = [g for g in self.globals_ if g != other]
            if command.startswith("no "):
                self.globals_.append(command)
        else:
            return False
        return True

    def _interface(self, command: str) -> bool:
        assert self._section is not None
        lines = self.sections[self._section]
        if command.startswith("ip address "):
            lines[:] = [x for x in lines if not x.startswith(("ip address", "no ip address"))]
            lines.insert(0, command)
        elif command.startswith("no ip address"):
            lines[:] = [x for x in lines if not x.startswith(("ip address", "no ip address"))]
            lines.insert(0, "no ip address")
        elif command == "shutdown":
            if "shutdown" not in lines:
                lines.append("shutdown")
        elif command == "no shutdown":
            lines[:] = [x for x in lines if x != "shutdown"]
        elif command.startswith("description "):
            lines[:] = [x for x in lines if not x.startswith("description ")]
            lines.insert(0, command)
        elif command.startswith("no description"):
            lines[:] = [x for x in lines if not x.startswith("description ")]
        else:
            return False
        return True


@dataclass
class LinuxDevice(LabDevice):
    """A Debian-like serial/telnet login and bash prompt (with colours and bracketed paste)."""

    name: str = "debian"
    username: str = "user"
    password: str = "lab-linux"
    boot_s: float = 0.0  # kernel lines for this long before the login prompt (a node starting)
    silent_s: float = 0.0
    """Nothing at all for this long first (a kernel kept off the serial console)."""
    late_ctrl_c_echo: bool = False
    """The tty's ``^C`` echo comes after ping's summary, glued to the next prompt (seen on the
    real router's vtysh, one run in a few)."""

    def prompt(self) -> str:
        """The coloured bash prompt."""
        return f"\x1b[?2004h\x1b[01;32m{self.username}@{self.name}\x1b[00m:\x1b[01;34m~\x1b[00m$ "

    async def session(self, io: LabIO) -> None:
        """A boot's kernel lines (`boot_s`), login:/Password:, then a command loop."""
        await asyncio.sleep(self.silent_s)
        for n in range(int(self.boot_s / 0.25)):
            io.write(f"[    {n * 0.25:.6f}] Linux version 6.1.0-18-amd64: booting\r\n")
            await asyncio.sleep(0.25)
        io.write(f"\r\nDebian GNU/Linux 12 {self.name} ttyS0\r\n\r\n")
        while True:
            io.write(f"{self.name} login: ")
            user = await self.read_line(io)
            if not user:  # getty asks again after an empty Enter
                continue
            io.write("Password: ")
            password = await self.read_line(io, echo=False)
            if user == self.username and password == self.password:
                break
            io.write("\r\nLogin incorrect\r\n")
        io.write(f"Linux {self.name} 6.1.0-18-amd64 #1 SMP x86_64\r\n{self.prompt()}")
        while True:
            command = (await self.read_line(io)).strip()
            io.write("\x1b[?2004l\r")
            if command.startswith("sleep"):
                await asyncio.Event().wait()
            words = command.split()
            if words[:1] == ["ping"] and "-c" not in words:
                await self._ping_until_ctrl_c(io, words[-1])
            else:
                io.write(self._answer(command))
            io.write(self.prompt())

    async def _ping_until_ctrl_c(self, io: LabIO, host: str) -> None:
        """iputils ping without a count: an echo every 0.2 s until Ctrl-C, then its summary."""
        stopped = asyncio.ensure_future(self._ctrl_c(io))
        sent = 0
        while not stopped.done():
            sent += 1
            io.write(f"64 bytes from {host}: icmp_seq={sent} ttl=64 time=0.05 ms\r\n")
            await asyncio.wait({stopped}, timeout=0.2)
        echo = "^C\r\n" if not self.late_ctrl_c_echo else ""
        io.write(
            f"{echo}--- {host} ping statistics ---\r\n"
            f"{sent} packets transmitted, {sent} received, 0% packet loss\r\n"
        )
        if self.late_ctrl_c_echo:
            io.write("^C")

    async def _ctrl_c(self, io: LabIO) -> None:
        while (key := await io.key()) != "\x03":
            self.keys.append(key)
        self.keys.append("^C")

    def _answer(self, command: str) -> str:
        words = command.split()
        if not words:
            return ""
        if words[0] == "echo":
            return " ".join(words[1:]) + "\r\n"
        if words[0] == "seq" and len(words) == 2 and words[1].isdigit():
            return "".join(f"{n}\r\n" for n in range(1, int(words[1]) + 1))
        return f"-bash: {words[0]}: command not found\r\n"


@dataclass
class StalledDevice(LabDevice):
    """Accepts the connection, reads everything, never answers (a hung console)."""

    name: str = "stalled"

    async def session(self, io: LabIO) -> None:
        """Swallow lines forever."""
        while True:
            await self.read_line(io, echo=False)


@dataclass
class RunningDevice:
    """An emulated device listening on 127.0.0.1:`port`."""

    device: LabDevice
    host: str
    port: int


class TelnetLab:
    """Starts emulated consoles on loopback and stops them all at the end of a test."""

    def __init__(self) -> None:
        self._servers: list[asyncio.Server] = []
        self._sessions: set[asyncio.Task[object]] = set()
        self.connections_made = 0

    async def start(self, device: LabDevice) -> RunningDevice:
        """Listen for `device` on a free loopback port."""

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            if task is not None:
                self._sessions.add(task)
            self.connections_made += 1
            writer.write(bytes([IAC, WILL, ECHO, IAC, WILL, SGA]))
            io = LabIO(reader, writer)
            try:
                await device.session(io)
            except (asyncio.IncompleteReadError, ConnectionError):
                pass  # the client went away
            except asyncio.CancelledError:
                # Ended by TelnetLab.close(); finishing normally keeps asyncio's stream callback
                # from logging the cancellation as an error.
                pass
            finally:
                if task is not None:
                    self._sessions.discard(task)
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        self._servers.append(server)
        port = server.sockets[0].getsockname()[1]
        return RunningDevice(device, "127.0.0.1", port)

    async def unused_port(self) -> int:
        """A loopback port nobody listens on (a device that is down)."""
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port: int = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        return port

    async def close(self) -> None:
        """Stop listening and end every session (hung ones included)."""
        for server in self._servers:
            server.close()
        sessions = list(self._sessions)
        for task in sessions:
            task.cancel()
        await asyncio.gather(*sessions, return_exceptions=True)
        for server in self._servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5)


@pytest_asyncio.fixture
async def telnet_lab() -> AsyncIterator[TelnetLab]:
    """A `TelnetLab` whose devices are stopped after the test."""
    lab = TelnetLab()
    try:
        yield lab
    finally:
        await lab.close()
