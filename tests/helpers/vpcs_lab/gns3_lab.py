"""Pytest plugin: the REAL GNS3 server 3.0.6 with startable VPCS nodes, in private namespaces.

GNS3 needs ubridge and VPCS >= 0.6.1 to start a VPCS node; this machine has neither, so two
clearly labelled TEST DOUBLES stand in: `ubridge_standin.py` (hypervisor protocol + UDP relay) and
`vpcs_wrapper.py` (Debian's real vpcs 0.5b2 reporting 0.6.1, moved off GNS3's UDP range), each
started by a small shell launcher (`*_launcher.sh`) that answers GNS3's version checks without
Python. Everything else is real: the
server, its telnet console proxy, the VPCS CLI, the packets. The server runs in its own network,
PID and mount namespaces (`gns3_netns.py` is PID 1 there); the test reaches its API and console
ports through sockets bound to 127.0.0.1 here and relayed into the lab.

Fixture: ``gns3_vpcs_lab`` (session) -> `Gns3VpcsLab`; skips, saying why, when vpcs cannot be
fetched or namespaces are not allowed.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import LinkEnd, Node
from tests.helpers.gns3_server import (
    PASSWORD,
    USERNAME,
    _server_env,
    _version_answers,
    ephemeral_ports,
    find_dynamips,
    server_venv,
    write_config,
)
from tests.helpers.vpcs_lab import REPO_ROOT, lab_unavailable, vpcs_binary

HERE = Path(__file__).resolve().parent
UNSHARE_LAB = ["unshare", "--net", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc"]
CONSOLE_PORTS = 40
# GNS3's UDP ports (links, tunnels) and, above them, the blocks the vpcs test double moves each real
# vpcs to (10 ports per GNS3 port: its data port and the relay socket vpcs 0.5b2 binds at + 9).
# Both stay below the lab's ephemeral ports (32768), so no automatic bind can take one of them.
UDP_START, UDP_END = 10000, 11899
VPCS_UDP_BASE = 13000
START_TIMEOUT_S = 60.0
STATUS_FILE = "server.status"
"""Where the lab writes ``<generation> <pid>`` each time it starts the server."""


@dataclass(frozen=True)
class Gns3VpcsLab:
    """A running lab: the server's URL (reachable from the test) and its admin login."""

    base_url: str
    username: str
    password: str
    log_path: Path

    def log_text(self) -> str:
        """The server's log (for failure messages)."""
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")[-4000:]
        return "(no log)"


def _reserve_ports(consoles: int = CONSOLE_PORTS) -> list[socket.socket]:
    """1 + ``consoles`` consecutive listening sockets on 127.0.0.1 (API, then consoles)."""
    low, _ = ephemeral_ports()  # below it: no outgoing connection can hold one of them
    for _ in range(50):
        base = random.randrange(max(1024, low - 20000), low - consoles - 2)
        socks: list[socket.socket] = []
        try:
            for port in range(base, base + consoles + 1):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                socks.append(sock)
                sock.bind(("127.0.0.1", port))
                sock.listen(16)
            return socks
        except OSError:
            for sock in socks:
                sock.close()
    raise RuntimeError("no free block of loopback ports for the VPCS lab")


def _lab_config(run_dir: Path, port: int, real_vpcs: Path, consoles: int = CONSOLE_PORTS) -> Path:
    # dynamips (when there is one) lets switches join the lab: captures and switched pings.
    config = write_config(run_dir, port, find_dynamips()[0], port_ranges=False)
    text = config.read_text().replace(
        "[Server]\n",
        "[Server]\n"
        f"ubridge_path = {HERE / 'ubridge_launcher.sh'}\n"
        f"console_start_port_range = {port + 1}\n"
        f"console_end_port_range = {port + consoles}\n"
        f"udp_start_port_range = {UDP_START}\n"
        f"udp_end_port_range = {UDP_END}\n",
        1,
    )
    config.write_text(text + f"[VPCS]\nvpcs_path = {HERE / 'vpcs_launcher.sh'}\n")
    return config


def start_gns3_vpcs_lab(
    run_dir: Path, real_vpcs: Path, consoles: int = CONSOLE_PORTS
) -> tuple[subprocess.Popen[str], Gns3VpcsLab]:
    """Start the lab (``consoles`` console ports) and wait until the API answers through the
    relay."""
    socks = _reserve_ports(consoles)
    port = socks[0].getsockname()[1]
    config = _lab_config(run_dir, port, real_vpcs, consoles)
    env = {
        **_server_env(run_dir),
        "LAB_REAL_VPCS": str(real_vpcs),
        "LAB_UDP_START": str(UDP_START),
        "LAB_VPCS_UDP_BASE": str(VPCS_UDP_BASE),
    }
    log_path = run_dir / "server.log"
    spec = {
        "command": [
            str(server_venv() / "bin" / "gns3server"),
            "--config",
            str(config),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        "env": env,
        "cwd": str(run_dir),
        "log": str(log_path),
        "status": str(run_dir / STATUS_FILE),
        "forward": [[s.fileno(), s.getsockname()[1]] for s in socks],
    }
    process = subprocess.Popen(
        [*UNSHARE_LAB, sys.executable, "-m", "tests.helpers.vpcs_lab.gns3_netns", json.dumps(spec)],
        stdin=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        pass_fds=[s.fileno() for s in socks],
    )
    for sock in socks:
        sock.close()  # the lab holds its own copies
    lab = Gns3VpcsLab(f"http://127.0.0.1:{port}", USERNAME, PASSWORD, log_path)
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _version_answers(lab.base_url):
        if process.poll() is not None or time.monotonic() > deadline:
            stop_lab(process)
            pytest.fail(f"the GNS3 VPCS lab did not start. Log:\n{lab.log_text()}")
        time.sleep(0.2)
    return process, lab


def server_generation(lab: Gns3VpcsLab) -> tuple[int, int]:
    """(how many times the lab started the GNS3 server, that server's PID in the lab)."""
    generation, pid = (lab.log_path.with_name(STATUS_FILE).read_text().split() or ["0", "0"])[:2]
    return int(generation), int(pid)


def restart_gns3(process: subprocess.Popen[str], lab: Gns3VpcsLab) -> None:
    """Restart the lab's GNS3 server (stopped by PID, started again on the same port with the
    same data dirs, see `gns3_netns`) and wait until the new one answers."""
    assert process.stdin is not None
    before, _ = server_generation(lab)
    process.stdin.write("restart\n")
    process.stdin.flush()
    deadline = time.monotonic() + START_TIMEOUT_S
    while server_generation(lab)[0] == before or not _version_answers(lab.base_url):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the GNS3 server did not come back. Log:\n{lab.log_text()}")
        time.sleep(0.2)  # the server's own state, polled


def stop_lab(process: subprocess.Popen[str]) -> None:
    """Close the lab's stdin (it stops the server and exits); kill it by PID if it hangs."""
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()  # --kill-child takes the namespace's processes with it
        process.wait(10)


@pytest.fixture(scope="session")
def gns3_vpcs_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gns3VpcsLab]:
    """The real GNS3 server with startable VPCS nodes, for this session."""
    reason = lab_unavailable()
    if reason is not None:
        pytest.skip(reason)
    real_vpcs = vpcs_binary()
    assert isinstance(real_vpcs, Path)
    process, lab = start_gns3_vpcs_lab(tmp_path_factory.mktemp("gns3-vpcs-lab"), real_vpcs)
    try:
        yield lab
    finally:
        stop_lab(process)


@contextlib.asynccontextmanager
async def two_linked_pcs(
    lab: Gns3VpcsLab, project_name: str
) -> AsyncIterator[tuple[Gns3Client, str, Node, Node]]:
    """A logged-in client and a fresh project with VPCS nodes PC1 and PC2 linked; deleted after."""
    async with Gns3Client(lab.base_url) as client:
        token = await client.authenticate(lab.username, lab.password)
        client.token = token.access_token
        project = await client.create_project(project_name)
        pid = project.project_id
        try:
            pc1 = await client.create_node(pid, "PC1", "vpcs", x=-100, y=0)
            pc2 = await client.create_node(pid, "PC2", "vpcs", x=100, y=0)
            await client.create_link(
                pid,
                LinkEnd(node_id=pc1.node_id, adapter_number=0, port_number=0),
                LinkEnd(node_id=pc2.node_id, adapter_number=0, port_number=0),
            )
            yield client, pid, pc1, pc2
        finally:
            await client.delete_project(pid)


@contextlib.asynccontextmanager
async def switched_pcs(
    lab: Gns3VpcsLab, project_name: str, hosts: int = 3
) -> AsyncIterator[tuple[Gns3Client, str, list[Node], Node]]:
    """A fresh project with a REAL dynamips Ethernet switch SW1 and VPCS nodes PC1..PCn on its
    ports 1..n (every link made before anything starts: Debian's dynamips 0.2.14 can deadlock
    when a frame arrives while a port is added); the switch is started, the hosts are not."""
    async with Gns3Client(lab.base_url) as client:
        token = await client.authenticate(lab.username, lab.password)
        client.token = token.access_token
        project = await client.create_project(project_name)
        pid = project.project_id
        try:
            switch = await client.create_node(pid, "SW1", "ethernet_switch", x=0, y=-100)
            pcs = []
            for n in range(1, hosts + 1):
                pc = await client.create_node(pid, f"PC{n}", "vpcs", x=-200 + 150 * n, y=100)
                await client.create_link(
                    pid,
                    LinkEnd(node_id=pc.node_id, adapter_number=0, port_number=0),
                    LinkEnd(node_id=switch.node_id, adapter_number=0, port_number=n),
                )
                pcs.append(pc)
            yield client, pid, pcs, switch
        finally:
            await client.delete_project(pid)
