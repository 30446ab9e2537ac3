#!/usr/bin/env python3
"""TEST DOUBLE around Debian's vpcs 0.5b2 for GNS3 3.0, which requires VPCS >= 0.6.1.

``-v`` reports version 0.6.1. Otherwise the real vpcs runs with the arguments GNS3 gives, minus
``-F`` and ``-R`` (0.5b2 does not know them). Without ``-F`` vpcs daemonises, so this wrapper stays
in the foreground in its place (GNS3 watches the process it started): it finds the daemon by its
command line in /proc (the lab mounts its own /proc, so PIDs match), waits while it runs, and on
SIGTERM ends those PIDs. The real VPCS path comes from $LAB_REAL_VPCS.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

VERSION_TEXT = "Welcome to Virtual PC Simulator, version 0.6.1"


def _daemons(real: str, port: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ours = argv[0].decode(errors="replace") == real and b"-p" in argv
        if ours and argv[argv.index(b"-p") + 1].decode() == port:
            found.append(int(entry.name))
    return found


def main() -> None:
    args = sys.argv[1:]
    if "-v" in args:
        print(VERSION_TEXT)
        return
    real = os.environ["LAB_REAL_VPCS"]
    args = [a for a in args if a not in ("-F", "-R")]
    port = args[args.index("-p") + 1]
    subprocess.run([real, *args], check=True)
    pids: list[int] = []
    deadline = time.monotonic() + 10
    while not pids and time.monotonic() < deadline:
        pids = _daemons(real, port)
        time.sleep(0.05)

    def stop(signum: int, frame: object) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while any(_alive(pid) for pid in pids):
        time.sleep(0.2)


def _alive(pid: int) -> bool:
    """Running and not a zombie (the lab's PID 1 reaps orphans only now and then)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


if __name__ == "__main__":
    main()
