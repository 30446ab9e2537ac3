"""Pytest plugin: the REAL GNS3 server 3.0.6 on 127.0.0.1, started once per test session.

The server lives in its own virtual environment (``$GNS3_SERVER_VENV``, created with pip when
missing) so its pins never decide ours. Each session gets a throwaway run dir: every path of the
server's config points into it, and so do HOME, TMPDIR and XDG_*. The server is stopped by PID
(SIGTERM, then SIGKILL) at the end. Switch/hub nodes need dynamips: ``$GNS3_DYNAMIPS_PATH`` (set
by tests/tools/run_suite.sh from tests/tools/fetch_dynamips.sh) or the cached wrapper.

Fixtures: ``gns3_server`` (session), ``gns3_token`` (session), ``gns3_client``, ``gns3_project``,
``requires_dynamips``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.errors import Gns3NotFoundError
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project

SERVER_VERSION = "3.0.6"
USERNAME = "admin"
PASSWORD = "admin"
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 15.0
_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gns3-copilot-desktop"
_JWT = re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]+")


@dataclass(frozen=True)
class Gns3Server:
    """A running test server."""

    base_url: str
    username: str
    password: str
    dynamips_available: bool
    dynamips_reason: str
    run_dir: Path
    log_path: Path
    pid: int
    jwt_secret: str = field(repr=False)

    def craft_token(self, username: str, *, expires_in_s: float) -> str:
        """An HS256 JWT signed with the server's secret (negative ``expires_in_s``: expired)."""
        return craft_hs256_token(self.jwt_secret, username, time.time() + expires_in_s)

    def log_text(self) -> str:
        """The server's log with anything that looks like a JWT redacted."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return _JWT.sub("<jwt>", text)


def craft_hs256_token(secret: str, username: str, exp: float) -> str:
    """Sign ``{"sub": username, "exp": exp}`` the way the server does (HS256, stdlib only)."""

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64(json.dumps({"sub": username, "exp": int(exp)}).encode())
    signing_input = f"{header}.{payload}".encode()
    signature = hmac.new(secret.encode(), signing_input, hashlib.sha256).digest()
    return f"{header}.{payload}.{b64(signature)}"


# --- setup helpers -------------------------------------------------------------------------------


def server_venv() -> Path:
    """The server's venv, installed with pip when missing."""
    venv = Path(os.environ.get("GNS3_SERVER_VENV", _CACHE / f"gns3-server-{SERVER_VERSION}"))
    binary = venv / "bin" / "gns3server"
    if binary.exists() and (venv / ".complete").exists():
        return venv
    if binary.exists() and not (venv / ".complete").exists() and _being_installed(venv):
        _wait_for(lambda: (venv / ".complete").exists(), 300, "another install of the server")
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            f"gns3-server=={SERVER_VERSION}",
        ],
        check=True,
    )
    (venv / ".complete").touch()
    return venv


def _being_installed(venv: Path) -> bool:
    # run_suite.sh may be installing it right now in another process (it writes .complete last).
    newest = max((p.stat().st_mtime for p in venv.rglob("*") if p.is_file()), default=0.0)
    return time.time() - newest < 60


def find_dynamips() -> tuple[str | None, str]:
    """(path, reason): the dynamips to use, or None with why not."""
    configured = os.environ.get("GNS3_DYNAMIPS_PATH")
    candidates = [configured] if configured else []
    candidates += [str(_CACHE / "dynamips" / "dynamips"), shutil.which("dynamips") or ""]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate, ""
    if configured:
        return None, f"GNS3_DYNAMIPS_PATH={configured} is not an executable file"
    return None, (
        "dynamips is not available (run tests/tools/fetch_dynamips.sh DIR and set "
        "GNS3_DYNAMIPS_PATH to the path it prints)"
    )


def ephemeral_ports() -> tuple[int, int]:
    """The kernel's range of source ports for outgoing connections."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now, below the kernel's ephemeral range.

    A port the kernel picked (bind to 0) is in the range it also gives outgoing connections: a
    server started a moment later on it could find it taken by one of them (seen once: the VPCS
    lab's GNS3 server failed with "address already in use"). Below that range only listeners
    that chose the port themselves can hold it."""
    low, _ = ephemeral_ports()
    for _ in range(200):
        port = random.randrange(max(1024, low - 20000), low - 1)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free loopback port below the ephemeral range")


def worker_index() -> int:
    """Which of pytest-xdist's workers this process is (0 without xdist)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


def worker_port_ranges() -> list[str]:
    """Console and UDP port ranges of their own for this worker's GNS3 servers.

    GNS3 hands a node a console port (and a link its UDP ports) from its configured range when
    the node is created, and binds it only when the node starts; two servers on one loopback
    given the same range (two xdist workers) can hand out the same port, and the second node to
    start fails. Each worker gets its own thousand console ports and two thousand UDP ports,
    all below the kernel's ephemeral range (the consoles below the ports `free_port` picks)."""
    n = worker_index()
    console, udp = 5000 + 1000 * n, 10_000 + 2000 * n
    return [
        f"console_start_port_range = {console}",
        f"console_end_port_range = {console + 999}",
        f"udp_start_port_range = {udp}",
        f"udp_end_port_range = {udp + 1999}",
    ]


def write_config(
    run_dir: Path, port: int, dynamips: str | None, *, port_ranges: bool = True
) -> Path:
    """The server's config file; every path points into ``run_dir``. ``port_ranges``: this
    worker's console and UDP ranges (a server in a network namespace of its own sets its own)."""
    config_dir = run_dir / "config"
    dirs = {
        name: run_dir / name
        for name in ("projects", "images", "appliances", "symbols", "configs", "resources")
    }
    for path in [config_dir, *dirs.values()]:
        path.mkdir(parents=True, exist_ok=True)
    lines = [
        "[Server]",
        "host = 127.0.0.1",
        f"port = {port}",
        *(f"{name}_path = {path}" for name, path in dirs.items()),
        "report_errors = False",
        "auto_discover_images = False",
        "compute_username = gns3",
        f"compute_password = {secrets.token_hex(8)}",
        "[Controller]",
        "jwt_access_token_expire_minutes = 120",
        f"default_admin_username = {USERNAME}",
        f"default_admin_password = {PASSWORD}",
    ]
    if port_ranges:
        lines[lines.index("[Controller]") : lines.index("[Controller]")] = worker_port_ranges()
    if dynamips:
        lines += ["[Dynamips]", f"dynamips_path = {dynamips}"]
    config = config_dir / "gns3_server.conf"
    config.write_text("\n".join(lines) + "\n")
    return config


def _server_env(run_dir: Path) -> dict[str, str]:
    home = run_dir / "home"
    tmp = run_dir / "tmp"
    for path in (home, tmp):
        path.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_"))}
    env.update(
        HOME=str(home),
        TMPDIR=str(tmp),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_RUNTIME_DIR=str(tmp),
    )
    return env


def _wait_for(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.2)


def _version_answers(base_url: str) -> bool:
    try:
        return httpx.get(f"{base_url}/v3/version", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


def start_server(run_dir: Path) -> tuple[subprocess.Popen[bytes], Gns3Server]:
    """Start the server and wait until GET /v3/version answers."""
    venv = server_venv()
    dynamips, reason = find_dynamips()
    port = free_port()
    config = write_config(run_dir, port, dynamips)
    log_path = run_dir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                str(venv / "bin" / "gns3server"),
                "--config",
                str(config),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=_server_env(run_dir),
            cwd=run_dir,
            start_new_session=True,  # its own group, so the SIGKILL fallback reaches dynamips too
        )
    base_url = f"http://127.0.0.1:{port}"
    server = Gns3Server(
        base_url=base_url,
        username=USERNAME,
        password=PASSWORD,
        dynamips_available=dynamips is not None,
        dynamips_reason=reason,
        run_dir=run_dir,
        log_path=log_path,
        pid=process.pid,
        jwt_secret="",
    )
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _version_answers(base_url):
        if process.poll() is not None or time.monotonic() > deadline:
            why = "exited" if process.poll() is not None else f"no answer in {START_TIMEOUT_S:g} s"
            stop_server(process)
            pytest.fail(f"GNS3 server did not start ({why}). Log:\n{server.log_text()}")
        time.sleep(0.2)
    secret = (config.parent / "gns3_jwt_secret_key").read_text().strip()
    return process, Gns3Server(**{**server.__dict__, "jwt_secret": secret})


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM by PID, wait, then SIGKILL the process group we created."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


# --- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def gns3_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gns3Server]:
    """The real GNS3 server for this session."""
    run_dir = tmp_path_factory.mktemp("gns3-server")
    process, server = start_server(run_dir)
    try:
        yield server
    finally:
        stop_server(process)


@pytest.fixture(scope="session")
def gns3_token(gns3_server: Gns3Server) -> str:
    """An admin JWT for the session's server."""
    response = httpx.post(
        f"{gns3_server.base_url}/v3/access/users/authenticate",
        json={"username": gns3_server.username, "password": gns3_server.password},
        timeout=15.0,
    )
    response.raise_for_status()
    return str(response.json()["access_token"])


@pytest_asyncio.fixture
async def gns3_client(gns3_server: Gns3Server, gns3_token: str) -> AsyncIterator[Gns3Client]:
    """An authenticated client, closed after the test."""
    async with Gns3Client(gns3_server.base_url, token=gns3_token) as client:
        yield client


@pytest_asyncio.fixture
async def gns3_project(gns3_client: Gns3Client) -> AsyncIterator[Project]:
    """A fresh project (auto_close off), deleted after the test."""
    project = await gns3_client.create_project(f"test-{secrets.token_hex(4)}", auto_close=False)
    try:
        yield project
    finally:
        with contextlib.suppress(Gns3NotFoundError):  # the test may have deleted it itself
            await gns3_client.delete_project(project.project_id)


@pytest.fixture
def requires_dynamips(gns3_server: Gns3Server) -> None:
    """Skip (with the reason) when the server has no dynamips for switch/hub nodes."""
    if not gns3_server.dynamips_available:
        pytest.skip(gns3_server.dynamips_reason)


# --- a loopback proxy that can cut its connections (notification reconnect tests) ---------------


class DroppingProxy:
    """A loopback TCP proxy in front of the test server; ``drop_all()`` cuts its connections,
    ``go_down()`` makes its port refuse connections (a stopped server), ``come_back()`` listens
    on the same port again.

    It accepts on a socket of its own, not `asyncio.start_server`: a server closed while it is
    taking a connection in (accepted, not yet handed to its handler) leaves that connection open
    and never served, so a client would wait its whole timeout instead of seeing the server
    gone. Here every accepted connection is either piped or reset."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.accepted = 0
        self._port = 0
        self._listener: socket.socket | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._generation = 0
        """Counts go_down() calls: a connection taken in before one is reset, never piped."""

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<proxy port>``."""
        assert self._port, "the proxy was never started"
        return f"http://127.0.0.1:{self._port}"

    async def __aenter__(self) -> DroppingProxy:
        await self.come_back()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.go_down()

    async def come_back(self) -> None:
        """Listen (again, on the same port after the first time)."""
        if self._listener is not None:
            return
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self._port))
        listener.listen(64)
        listener.setblocking(False)
        self._port = listener.getsockname()[1]
        self._listener = listener
        generation = self._generation
        asyncio.get_running_loop().add_reader(listener, self._accept, listener, generation)

    async def go_down(self) -> None:
        """Cut every connection and stop listening: new connections are refused."""
        listener, self._listener = self._listener, None
        self._generation += 1
        self.drop_all()
        if listener is not None:
            asyncio.get_running_loop().remove_reader(listener)
            listener.close()  # connections still queued in the kernel are reset

    def _accept(self, listener: socket.socket, generation: int) -> None:
        """Take in every waiting connection, each at once owned by a task that pipes or resets
        it (accepted synchronously: no connection is left between the kernel and a handler)."""
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # none waiting (or the listener closed)
                return
            conn.setblocking(False)
            task = asyncio.create_task(self._serve(conn, generation))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _serve(self, conn: socket.socket, generation: int) -> None:
        if generation != self._generation:  # taken in, then the proxy went down: reset
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()
            return
        try:
            reader, writer = await asyncio.open_connection(sock=conn)
        except OSError:
            conn.close()
            return
        await self._handle(reader, writer, generation)

    def drop_all(self) -> None:
        """Abort every open connection (both sides see a reset, no close frame)."""
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _handle(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, generation: int
    ) -> None:
        if generation != self._generation:  # went down while this connection was set up
            writer.transport.abort()
            return
        self.accepted += 1
        # Known before the server side is opened: a drop or go_down() meanwhile must cut this
        # connection too, not leave it to be piped to the server after the proxy went down.
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            self._writers.discard(writer)
            return
        if writer not in self._writers or generation != self._generation:  # cut meanwhile
            up_writer.transport.abort()
            writer.transport.abort()
            return
        self._writers.add(up_writer)
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        finally:
            writer.transport.abort()
            self._writers.discard(writer)
