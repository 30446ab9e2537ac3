"""A REAL bash behind a loopback telnet server: the command gate is attacked against a real line
editor and a real shell, not an emulation.

Each connection gets ``bash --norc --noprofile -i`` on its own pseudo-terminal, in a throwaway
working folder whose HOME is inside it, with a plain ``lab@bash:~$`` prompt. What the client sends
goes to the terminal as typed (telnet negotiation bytes are dropped); readline applies backspace,
Ctrl-U and escape sequences as it would for a person at a console. The server listens on
127.0.0.1 and kills its shells by PID when it stops.

``seven_bit=True`` makes it a console that drops the 8th bit, like a serial line or Cisco IOS by
default: the terminal strips every byte to 7 bits (``stty istrip``) and bash reads it without
readline (``--noediting``), since readline turns ``istrip`` off while it reads a line.
`BashConsole.send_raw` types bytes into a shell of its own, past every check of the app (to show
that an attack is real).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import pty
import signal
import struct
import subprocess
import termios
from dataclasses import dataclass, field
from pathlib import Path

IAC = 255
PROMPT = "lab@bash:~$ "
RAW_TIMEOUT_S = 10.0


@dataclass
class BashConsole:
    """The running server, its working folder and the shells it started."""

    workdir: Path
    host: str = "127.0.0.1"
    port: int = 0
    seven_bit: bool = False
    pids: list[int] = field(default_factory=list)
    _server: asyncio.Server | None = None

    def fingerprint(self) -> dict[str, str]:
        """Every file under the working folder (HOME included) with a hash of its content."""
        prints: dict[str, str] = {}
        for path in sorted(self.workdir.rglob("*")):
            rel = str(path.relative_to(self.workdir))
            if rel.startswith("home/.bash_history"):
                continue
            if path.is_file():
                prints[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                prints[rel] = "dir"
        return prints

    def shells_alive(self) -> bool:
        """Whether every shell started so far is still running."""
        alive = True
        for pid in self.pids:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return False
            alive = alive and done == 0
        return alive

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._session, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for pid in self.pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        await asyncio.to_thread(_reap, self.pids)

    async def send_raw(self, data: bytes) -> str:
        """Type ``data`` and a line end into a new shell of this server, as they are, and
        return what the shell printed once it has run them (a marker command is typed after
        them and awaited)."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        seen = b""
        try:
            async with asyncio.timeout(RAW_TIMEOUT_S):
                while not seen.endswith(PROMPT.encode()):
                    seen += await reader.read(4096)
                writer.write(data + b"\r")
                writer.write(b"echo RAW-$((6*7))-DONE\r")
                while b"RAW-42-DONE" not in seen:
                    chunk = await reader.read(4096)
                    if not chunk:
                        break
                    seen += chunk
        finally:
            writer.close()
        return seen.decode(errors="replace")

    def _spawn(self) -> tuple[int, int]:
        home = self.workdir / "home"
        home.mkdir(exist_ok=True)
        env = {
            "HOME": str(home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PS1": PROMPT,
            "TERM": "vt100",
            "LANG": "C.UTF-8",
            "HISTFILE": "/dev/null",
        }
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        args = ["bash", "--norc", "--noprofile", "-i"]
        if self.seven_bit:
            attrs = termios.tcgetattr(slave)
            attrs[0] |= termios.ISTRIP  # stty istrip
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
            args = ["bash", "--norc", "--noprofile", "--noediting", "-i"]
        process = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=self.workdir,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.pids.append(process.pid)
        return process.pid, master

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        _pid, master = self._spawn()
        os.set_blocking(master, False)
        closed = asyncio.Event()

        def from_shell() -> None:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                closed.set()
                loop.remove_reader(master)
                return
            writer.write(data)

        loop.add_reader(master, from_shell)
        try:
            skip = 0
            while not closed.is_set():
                data = await reader.read(4096)
                if not data:
                    break
                out = bytearray()
                for byte in data:  # drop telnet negotiation (IAC x y); keep the user's bytes
                    if skip:
                        skip -= 1
                    elif byte == IAC:
                        skip = 2
                    else:
                        out.append(byte)
                if out:
                    os.write(master, bytes(out))
        except (ConnectionError, OSError):
            pass
        finally:
            loop.remove_reader(master)
            os.close(master)
            writer.close()


def _reap(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
