"""Start a local GNS3 server when nothing answers at a loopback URL (as the GNS3 GUI does).

`start_local_server` runs the ``gns3server`` found on PATH as a child process bound to the URL's
loopback host and port (``--local``: the same mode the GNS3 GUI uses for its own local server),
waits until ``GET /v3/version`` answers (or the process exits, or a time limit passes), and returns
a `LocalServer` that the app stops by its PID when it closes. Its output goes to a log file whose
tail is shown when the start fails. Only loopback URLs are accepted: a server started here must
not listen on a network the user did not choose.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from gns3_copilot_desktop.core.errors import Gns3ConnectionError, Gns3Error
from gns3_copilot_desktop.core.gns3.client import Gns3Client

log = logging.getLogger(__name__)

EXECUTABLE = "gns3server"
DEFAULT_PORT = 3080
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 15.0
POLL_INTERVAL_S = 0.2
TAIL_LINES = 15


@dataclass
class LocalServer:
    """A ``gns3server`` child process started by the app."""

    url: str
    process: subprocess.Popen[bytes] = field(repr=False)
    log_path: Path

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self.process.pid

    @property
    def running(self) -> bool:
        """True while the process has not exited."""
        return self.process.poll() is None

    def output_tail(self, lines: int = TAIL_LINES) -> str:
        """The last lines the server wrote (stdout and stderr)."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    async def stop(self, timeout_s: float = STOP_TIMEOUT_S) -> None:
        """Terminate the process by its PID, wait for it, kill its group if it lingers."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            await asyncio.to_thread(self.process.wait, timeout_s)
        except subprocess.TimeoutExpired:
            log.warning("the local GNS3 server (pid %s) did not stop; killing it", self.pid)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGKILL)
            await asyncio.to_thread(self.process.wait, 5.0)
        log.info("stopped the local GNS3 server (pid %s)", self.pid)


def loopback_address(url: str) -> tuple[str, int]:
    """(host, port) of a loopback ``http`` URL; `Gns3ConnectionError` for any other URL."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    host = parts.hostname or ""
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise Gns3ConnectionError(f"{url} has no valid port.", server=url) from None
    if parts.scheme != "http":
        raise Gns3ConnectionError(
            f"A local GNS3 server can only be started for an http:// URL, not {url}.", server=url
        )
    if host == "localhost":
        host = "127.0.0.1"
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise Gns3ConnectionError(
            f"A local GNS3 server is only started on this computer (127.0.0.1), not at {url}.",
            server=url,
        )
    return host, port


def find_gns3server(path: str | None = None) -> str | None:
    """The ``gns3server`` executable on PATH (or on `path`), or None."""
    return shutil.which(EXECUTABLE, path=path)


async def start_local_server(
    url: str,
    *,
    log_dir: Path,
    timeout_s: float = START_TIMEOUT_S,
    env: Mapping[str, str] | None = None,
) -> LocalServer:
    """Start ``gns3server --local`` on the URL's loopback host and port; wait until it answers.

    Raises `Gns3ConnectionError` when the URL is not loopback, no ``gns3server`` is on PATH, or
    the server exits or does not answer within `timeout_s` (with the tail of its output).
    """
    host, port = loopback_address(url)
    environment = dict(os.environ if env is None else env)
    executable = find_gns3server(environment.get("PATH"))
    if executable is None:
        raise Gns3ConnectionError(
            "No gns3server program was found; install the GNS3 server to start one here.",
            server=url,
        )
    base_url = f"http://{host}:{port}"
    server = await asyncio.to_thread(_spawn, executable, host, port, log_dir, environment)
    server.url = base_url
    log.info("started the local GNS3 server %s (pid %s) on %s", executable, server.pid, base_url)
    try:
        await _wait_until_ready(server, timeout_s)
    except BaseException:
        await server.stop()
        raise
    return server


def _spawn(
    executable: str, host: str, port: int, log_dir: Path, env: dict[str, str]
) -> LocalServer:
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"gns3server-{port}.log"
    with log_path.open("wb") as output:
        process = subprocess.Popen(
            [executable, "--host", host, "--port", str(port), "--local"],
            stdout=output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # its own group: the kill fallback reaches its children too
        )
    return LocalServer(url="", process=process, log_path=log_path)


async def _wait_until_ready(server: LocalServer, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    async with Gns3Client(server.url, timeout=2.0) as client:
        while True:
            if not server.running:
                raise Gns3ConnectionError(
                    f"The local GNS3 server exited (exit code "
                    f"{server.process.returncode}):\n{server.output_tail()}",
                    server=server.url,
                )
            if await _answers(client):
                return
            if time.monotonic() > deadline:
                raise Gns3ConnectionError(
                    f"The local GNS3 server did not answer within {timeout_s:g} s:\n"
                    f"{server.output_tail()}",
                    server=server.url,
                )
            await asyncio.sleep(POLL_INTERVAL_S)


async def _answers(client: Gns3Client) -> bool:
    try:
        await client.version()
    except Gns3Error:
        return False
    return True
