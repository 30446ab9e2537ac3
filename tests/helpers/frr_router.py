"""Pytest plugin: the project's FRR router appliance as a REAL GNS3 QEMU node.

The router is built by ``packaging/router/build.sh`` (Debian minbase + FRR, cached in
``<user cache>/gns3-copilot-desktop/router-<version>``; built here when missing and allowed), then
registered on the real GNS3 server of the VPCS lab (``gns3_vpcs_lab``, whose ubridge test double
carries QEMU links too) as the QEMU template "FRR router": the disk, kernel and initrd are uploaded
through the images API and the template names them, the way a user imports the ``.gns3a`` file.

QEMU uses KVM when a probe boot shows that KVM runs the Debian kernel here, else software emulation
(TCG); the session's summary says which, with the measured boot-to-login time.

Fixtures: ``frr_template`` (session) -> `FrrTemplate`; ``frr_router`` (session) -> `FrrRouter`, one
started router node whose console has shown its login prompt, shared by the router tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import select
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    target_for_node,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from gns3_copilot_desktop.core.settings import ConsoleLogin
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.vpcs_lab import REPO_ROOT
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab

TEMPLATE_NAME = "FRR router"
ROUTER_USER = "admin"  # lands in vtysh
ROUTER_PASSWORD = "gns3"
SHELL_USER = "root"  # lands in bash
KERNEL_COMMAND_LINE = "console=ttyS0 root=/dev/vda rw net.ifnames=0 init=/sbin/router-init"
BUILD_TIMEOUT_S = 900.0
KVM_PROBE_S = 20.0
BOOT_TIMEOUT_S = 300.0  # software emulation on two shared cores, beside the other routers
FILES = ("frr-router.qcow2", "vmlinuz", "initrd.img")
_CACHE = Path(
    os.environ.get("GNS3_COPILOT_TEST_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gns3-copilot-desktop"
)
_FACTS: dict[str, str] = {}


@dataclass(frozen=True)
class Acceleration:
    """How QEMU runs the router: ``kvm`` or ``tcg``, and why not KVM."""

    mode: str
    reason: str = ""

    @property
    def qemu_options(self) -> str:
        """The template's extra QEMU options (GNS3 adds -enable-kvm unless told tcg)."""
        return "-cpu host" if self.mode == "kvm" else "-machine accel=tcg"


@dataclass(frozen=True)
class FrrTemplate:
    """The registered template, the lab it lives on, and how QEMU runs it."""

    lab: Gns3VpcsLab
    template_id: str
    acceleration: Acceleration
    build_dir: Path


@dataclass(frozen=True)
class FrrRouter:
    """One started router node whose console has reached its login prompt."""

    template: FrrTemplate
    project_id: str
    node: Node
    boot_to_login_s: float

    @property
    def lab(self) -> Gns3VpcsLab:
        return self.template.lab

    @property
    def target(self) -> ConsoleTarget:
        """The node's console, as the device tools reach it (an IOS-like CLI: vtysh)."""
        return target_for_node(self.node, self.lab.base_url)

    @property
    def credentials(self) -> DeviceCredentials:
        return DeviceCredentials(ROUTER_USER, ROUTER_PASSWORD)

    @property
    def options(self) -> ConsoleOptions:
        return ConsoleOptions(connect_timeout=10, login_timeout=30, command_timeout=60)


def router_version() -> str:
    """The build's version (a digest of the build scripts, as ``version.sh`` prints it)."""
    script = REPO_ROOT / "packaging" / "router" / "version.sh"
    return subprocess.run(
        ["bash", str(script)], capture_output=True, text=True, check=True
    ).stdout.strip()


def router_dir() -> Path:
    """Where this version of the router is (or will be) cached."""
    return _CACHE / f"router-{router_version()}"


@functools.cache
def router_build() -> Path | str:
    """The built router's folder (built now when missing and possible), or why there is none."""
    out = router_dir()
    if (out / ".complete").is_file():
        return out
    if os.geteuid() != 0:
        return f"the FRR router is not built at {out} and building it needs root"
    missing = [t for t in ("debootstrap", "mke2fs", "qemu-img") if shutil.which(t) is None]
    if missing:
        return f"the FRR router cannot be built: {', '.join(missing)} not installed"
    script = REPO_ROOT / "packaging" / "router" / "build.sh"
    try:
        done = subprocess.run(
            ["bash", str(script), str(out)],
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return f"the FRR router build took more than {BUILD_TIMEOUT_S:g}s"
    if done.returncode != 0:
        return f"the FRR router build failed: {done.stderr.strip()[-600:]}"
    return out


@functools.cache
def acceleration(build_dir: Path) -> Acceleration:
    """KVM when a probe boot of the router's kernel prints under ``-accel kvm``, else TCG.

    /dev/kvm can exist and still not run an ordinary guest (a paravirtual KVM of a nested host):
    only a boot tells.
    """
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return Acceleration("tcg", "/dev/kvm is missing or not usable by this user")
    # the probe's answer, kept beside the build for this host kernel: each worker of a run (and
    # each run) would otherwise wait its 20 s again
    known = build_dir / f".accel-probe-{os.uname().release}"
    if known.is_file() and known.read_text().strip() in ("kvm", "tcg"):
        mode = known.read_text().strip()
        return Acceleration(mode, "" if mode == "kvm" else f"{_NO_KVM} (probed before, {known})")
    found = _probe_kvm(build_dir)
    with contextlib.suppress(OSError):
        known.write_text(found.mode)
    return found


_NO_KVM = (
    f"KVM does not run the Debian kernel here (no kernel output in {KVM_PROBE_S:g}s "
    "under -accel kvm)"
)


def _probe_kvm(build_dir: Path) -> Acceleration:
    command = [
        "qemu-system-x86_64", "-accel", "kvm", "-cpu", "host", "-m", "128", "-nographic",
        "-no-reboot", "-nic", "none", "-kernel", str(build_dir / "vmlinuz"),
        "-append", "console=ttyS0 earlyprintk=serial,ttyS0 panic=-1",
    ]  # fmt: skip
    with subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    ) as probe:
        assert probe.stdout is not None
        seen = b""
        deadline = time.monotonic() + KVM_PROBE_S
        while b"Linux version" not in seen and probe.poll() is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            ready, _, _ = select.select([probe.stdout], [], [], remaining)
            if ready:
                seen += os.read(probe.stdout.fileno(), 4096)
        probe.kill()
    if b"Linux version" in seen:
        return Acceleration("kvm")
    return Acceleration("tcg", _NO_KVM)


def template_body(build_dir: Path, accel: Acceleration) -> dict[str, Any]:
    """The GNS3 QEMU template of the router (the same settings as the .gns3a file)."""
    del build_dir  # the files are named as uploaded
    return {
        "name": TEMPLATE_NAME,
        "template_type": "qemu",
        "compute_id": "local",
        "platform": "x86_64",
        "category": "router",
        "default_name_format": "R{0}",
        "ram": 256,
        "cpus": 1,
        "adapters": 4,
        "adapter_type": "virtio-net-pci",
        "port_name_format": "eth{0}",  # GNS3's port names are the router's interface names
        "hda_disk_image": "frr-router.qcow2",
        "hda_disk_interface": "virtio",
        "kernel_image": "vmlinuz",
        "initrd": "initrd.img",
        "kernel_command_line": KERNEL_COMMAND_LINE,
        "console_type": "telnet",
        "linked_clone": True,
        "on_close": "power_off",
        "options": accel.qemu_options,
    }


def _register(lab: Gns3VpcsLab, build_dir: Path, accel: Acceleration) -> str:
    with httpx.Client(base_url=lab.base_url + "/v3", timeout=300) as http:
        auth = http.post(
            "/access/users/authenticate", json={"username": lab.username, "password": lab.password}
        )
        auth.raise_for_status()
        http.headers["Authorization"] = f"Bearer {auth.json()['access_token']}"
        for name in FILES:
            with (build_dir / name).open("rb") as data:
                sent = http.post(f"/images/upload/{name}", content=data)
            assert sent.status_code == 201, f"upload of {name}: {sent.status_code} {sent.text}"
        made = http.post("/templates", json=template_body(build_dir, accel))
        assert made.status_code == 201, f"template: {made.status_code} {made.text}"
        template_id: str = made.json()["template_id"]
        return template_id


def wait_for_login_prompt(port: int, timeout_s: float) -> float:
    """Read the console until it shows ``login:``; return the seconds it took.

    A console that was connected after the prompt was printed shows nothing: after a quiet
    moment an Enter makes getty print it again.
    """
    return wait_for_console_text(port, b"login:", timeout_s, nudge=True)


def wait_for_console_text(port: int, marker: bytes, timeout_s: float, *, nudge: bool) -> float:
    """Read the console until `marker` shows (with `nudge`, an Enter after 8 s of quiet)."""
    started = time.monotonic()
    deadline = started + timeout_s
    seen = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        quiet_since = time.monotonic()
        while marker not in seen[-4096:]:
            now = time.monotonic()
            if now > deadline:
                tail = seen[-800:].decode(errors="replace")
                raise TimeoutError(f"no {marker!r} in {timeout_s:g}s; console: {tail}")
            ready, _, _ = select.select([sock], [], [], 1.0)
            if ready:
                chunk = sock.recv(4096)
                if not chunk:
                    raise ConnectionError("the router console closed")
                seen += chunk
                quiet_since = time.monotonic()
            elif nudge and now - quiet_since > 8.0:
                sock.sendall(b"\r")
                quiet_since = now
    return time.monotonic() - started


def _log_out(port: int, timeout_s: float) -> None:
    """Bring the console back to ``login:`` (from vtysh in any mode, or a shell)."""
    deadline = time.monotonic() + timeout_s
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"\r")
        seen, exits = b"", 0
        while True:
            tail = seen.rstrip(b" ").rsplit(b"\n", 1)[-1]
            if tail.endswith(b"login:"):
                return
            if tail.endswith((b"#", b"$", b">")) and exits < 6:
                sock.sendall(b"end\rexit\r" if tail.endswith(b")#") else b"exit\r")
                seen, exits = b"", exits + 1
            if time.monotonic() > deadline:
                raise TimeoutError(f"no login prompt to log out to: {seen[-300:]!r}")
            ready, _, _ = select.select([sock], [], [], 1.0)
            if ready:
                seen += sock.recv(4096)


async def log_out(router: FrrRouter, timeout_s: float = BOOT_TIMEOUT_S) -> None:
    """Leave the router's console at its login prompt (the next session logs in)."""
    assert router.node.console is not None
    await asyncio.to_thread(_log_out, router.node.console, timeout_s)


async def start_router(
    template: FrrTemplate, client: Gns3Client, project_id: str, name: str, x: int = 0
) -> tuple[Node, float]:
    """Create a router node from the template, start it, wait for its login prompt."""
    node = await client.create_node_from_template(
        project_id, template.template_id, x=x, y=0, name=name
    )
    await client.start_node(project_id, node.node_id)
    node = await client.get_node(project_id, node.node_id)
    assert node.console is not None and node.status == "started", node
    waited = await asyncio.to_thread(wait_for_login_prompt, node.console, BOOT_TIMEOUT_S)
    return node, waited


async def template_login_access() -> DeviceAccess:
    """The device tools' access as a user sets it up: the Console logins tab's login for the
    router template (``admin``, which lands in vtysh), its password in a secret store."""
    store = SecretStore(backend=MemoryKeyring())
    login = ConsoleLogin(id="frr", applies_to=f"template:{TEMPLATE_NAME}", username=ROUTER_USER)
    await store.set_named_credential(login.id, DeviceCredential(ROUTER_USER, ROUTER_PASSWORD, ""))
    return DeviceAccess(secret_store=store, console_logins=lambda: [login])


async def logged_in_client(lab: Gns3VpcsLab) -> Gns3Client:
    client = Gns3Client(lab.base_url)
    token = await client.authenticate(lab.username, lab.password)
    client.token = token.access_token
    return client


@pytest.fixture(scope="session")
def frr_template(gns3_vpcs_lab: Gns3VpcsLab) -> FrrTemplate:
    """The "FRR router" QEMU template on the lab's real GNS3 server."""
    built = router_build()
    if isinstance(built, str):
        pytest.skip(built)
    if shutil.which("qemu-system-x86_64") is None:
        pytest.skip("qemu-system-x86_64 is not installed")
    accel = acceleration(built)
    _FACTS["acceleration"] = accel.mode + (f" ({accel.reason})" if accel.reason else "")
    template_id = _register(gns3_vpcs_lab, built, accel)
    return FrrTemplate(gns3_vpcs_lab, template_id, accel, built)


@pytest.fixture(scope="session")
def frr_router(frr_template: FrrTemplate) -> Iterator[FrrRouter]:
    """One started FRR router (node "R1" of its own project), shared by the session's tests."""

    async def setup() -> tuple[str, Node, float]:
        client = await logged_in_client(frr_template.lab)
        async with client:
            project = await client.create_project("frr-router-session")
            node, waited = await start_router(frr_template, client, project.project_id, "R1")
            return project.project_id, node, waited

    project_id, node, waited = asyncio.run(setup())
    _FACTS["boot_to_login"] = f"{waited:.1f} s ({frr_template.acceleration.mode})"
    try:
        yield FrrRouter(frr_template, project_id, node, waited)
    finally:

        async def teardown() -> None:
            async with await logged_in_client(frr_template.lab) as client:
                with contextlib.suppress(Exception):
                    await client.delete_project(project_id)

        asyncio.run(teardown())


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how the router ran (KVM or emulation) and how long it took to boot."""
    if _FACTS:
        facts = ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in _FACTS.items())
        terminalreporter.write_line(f"FRR router: {facts}")
