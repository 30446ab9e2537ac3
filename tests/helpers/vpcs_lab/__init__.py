"""A real VPCS lab on loopback, for console tests against a real device CLI.

Everything here is real: Debian's VPCS 0.5b2 binary (fetched with ``apt-get download`` into the
cache, never installed), real telnet consoles, real pings between the PCs. Two VPCS instances are
wired back to back with VPCS's own UDP tunnel (``-s``/``-c`` ports), so no switch, ubridge or GNS3
server is needed. VPCS binds its console on every interface, so the lab runs in fresh network and
PID namespaces (``unshare --net --pid --fork --kill-child``): nothing is reachable from outside,
and every process of the lab dies with the namespace.

`vpcs_binary()` and `namespaces_available()` return a reason string when the lab cannot run, so
tests can skip saying why. `run_lab()` starts the namespace, runs `netns_runner` in it and returns
its JSON report.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[3]
_CACHE = Path(
    os.environ.get("GNS3_COPILOT_TEST_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gns3-copilot-desktop"
)
VPCS_DIR = _CACHE / "vpcs"
UNSHARE = ["unshare", "--net", "--pid", "--fork", "--kill-child"]


@functools.cache
def vpcs_binary() -> Path | str:
    """The cached VPCS binary (fetched on first use), or why it is not available."""
    binary = VPCS_DIR / "root" / "usr" / "bin" / "vpcs"
    if binary.is_file():
        return binary
    for tool in ("apt-get", "dpkg-deb"):
        if shutil.which(tool) is None:
            return f"{tool} is not available (not a Debian-like system)"
    with tempfile.TemporaryDirectory() as work:
        fetched = subprocess.run(
            ["apt-get", "-qq", "download", "vpcs"], cwd=work, capture_output=True, text=True
        )
        debs = list(Path(work).glob("vpcs_*.deb"))
        if fetched.returncode != 0 or not debs:
            return f"apt-get download vpcs failed: {fetched.stderr.strip()[-300:]}"
        VPCS_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(VPCS_DIR / "root")], check=True)
    return binary if binary.is_file() else "the vpcs package holds no usr/bin/vpcs"


@functools.cache
def namespaces_available() -> str | None:
    """None when unshare can create network and PID namespaces here, else the reason."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "unshare or ip is not installed"
    probe = subprocess.run(
        [*UNSHARE, "ip", "link", "set", "lo", "up"], capture_output=True, text=True, timeout=20
    )
    if probe.returncode != 0:
        return f"cannot create network namespaces here: {probe.stderr.strip()[-300:]}"
    return None


def lab_unavailable() -> str | None:
    """Why the lab cannot run here (a sentence for a skip), or None when it can."""
    binary = vpcs_binary()
    if isinstance(binary, str):
        return f"real VPCS lab unavailable: {binary}"
    reason = namespaces_available()
    return f"real VPCS lab unavailable: {reason}" if reason else None


def run_lab(spec: dict[str, Any], timeout_s: float = 60.0) -> dict[str, Any]:
    """Run `netns_runner` with `spec` in fresh namespaces; return its JSON report."""
    with tempfile.TemporaryDirectory(prefix="vpcs-lab-") as work:
        spec = {**spec, "work_dir": work}
        done = subprocess.run(
            [*UNSHARE, sys.executable, "-m", "tests.helpers.vpcs_lab.netns_runner"],
            input=json.dumps(spec),
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
            timeout=timeout_s,
        )
    if done.returncode != 0:
        raise RuntimeError(f"the VPCS lab failed ({done.returncode}): {done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report
