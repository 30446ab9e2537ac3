#!/usr/bin/env python3
"""TEST DOUBLE around Debian's vpcs 0.5b2 for GNS3 3.0, which requires VPCS >= 0.6.1.

``-v`` reports version 0.6.1. Otherwise the real vpcs runs with the arguments GNS3 gives, minus
``-F`` and ``-R`` (0.5b2 does not know them). Without ``-F`` vpcs daemonises, so this wrapper stays
in the foreground in its place (GNS3 watches the process it started): it finds the daemon by its
command line in /proc (the lab mounts its own /proc, so PIDs match), waits while it runs, and on
SIGTERM ends those PIDs and waits until they are gone. The real VPCS path comes from $LAB_REAL_VPCS.

Relay socket: vpcs 0.5b2 cannot be told ``-R`` and always binds a relay socket on its UDP port + 9.
Inside GNS3's UDP range that port may be one GNS3 has just handed to another node starting at the
same moment (its ubridge then fails with "Address already in use"). When the lab gives
$LAB_UDP_START and $LAB_VPCS_UDP_BASE, the real vpcs is moved off GNS3's range: it gets its own
block of 10 ports, ``LAB_VPCS_UDP_BASE + 10 * (port - LAB_UDP_START)`` (data port and relay port
+ 9 both inside it, so no two vpcs and no GNS3 port can meet), and this wrapper binds the port GNS3
chose and hands each datagram arriving there to the vpcs. vpcs sends its own datagrams straight
to the ``-c`` port GNS3 gave, as before.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

VERSION_TEXT = "Welcome to Virtual PC Simulator, version 0.6.1"
BLOCK = 10  # vpcs 0.5b2 binds its data port and data port + 9


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


def _moved_port(gns3_port: int) -> int | None:
    """The vpcs data port outside GNS3's UDP range for the port GNS3 chose, or None (not moved)."""
    start, base = os.environ.get("LAB_UDP_START"), os.environ.get("LAB_VPCS_UDP_BASE")
    if not start or not base or gns3_port < int(start):
        return None
    moved = int(base) + BLOCK * (gns3_port - int(start))
    return moved if moved + BLOCK - 1 <= 65535 else None


def main() -> None:
    args = sys.argv[1:]
    if "-v" in args:
        print(VERSION_TEXT)
        return
    real = os.environ["LAB_REAL_VPCS"]
    args = [a for a in args if a not in ("-F", "-R")]
    port = args[args.index("-p") + 1]
    inbound: socket.socket | None = None
    vpcs_port = 0
    if "-s" in args:
        gns3_port = int(args[args.index("-s") + 1])
        moved = _moved_port(gns3_port)
        if moved is not None:
            # bound before vpcs starts, so a datagram from the link is never lost to a closed port
            inbound = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            inbound.bind(("127.0.0.1", gns3_port))
            inbound.setblocking(False)
            vpcs_port = moved
            args[args.index("-s") + 1] = str(moved)
    # A daemon of this node's last run still ending would hold its ports, and be taken for the new
    # one below: wait it out (the real vpcs is the process GNS3 watches, so it never overlaps).
    _end(_daemons(real, port), grace_s=5.0)
    before = set(_daemons(real, port))
    subprocess.run([real, *args], check=True)
    pids: list[int] = []
    deadline = time.monotonic() + 10
    while not pids and time.monotonic() < deadline:
        pids = [pid for pid in _daemons(real, port) if pid not in before]
        time.sleep(0.05)

    def stop(signum: int, frame: object) -> None:
        # GNS3 marks the node stopped once this process exits: the vpcs must be gone by then, as
        # the real one is, or a start right after meets its ports still bound.
        # (GNS3 allows the process 3 s before it kills it.)
        _end(pids, grace_s=2.0)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    _relay_while_alive(pids, inbound, vpcs_port)


def _relay_while_alive(pids: list[int], inbound: socket.socket | None, vpcs_port: int) -> None:
    """Hand datagrams from GNS3's port to the moved vpcs until the vpcs daemons end."""
    selector = selectors.DefaultSelector()
    if inbound is not None:
        selector.register(inbound, selectors.EVENT_READ)
    check_at = 0.0
    while True:
        now = time.monotonic()
        if now >= check_at:
            if not any(_alive(pid) for pid in pids):
                return
            check_at = now + 0.2
        if inbound is None:
            time.sleep(0.2)
            continue
        for _ in selector.select(timeout=0.2):
            with contextlib.suppress(BlockingIOError, InterruptedError):
                while True:
                    data = inbound.recv(65536)
                    with contextlib.suppress(OSError):  # sent from GNS3's port: no new port taken
                        inbound.sendto(data, ("127.0.0.1", vpcs_port))


def _end(pids: list[int], grace_s: float) -> None:
    """SIGTERM the PIDs and wait until none runs; SIGKILL what still runs after `grace_s`."""
    for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 0.5)):
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + wait_s
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.02)
        if not any(_alive(pid) for pid in pids):
            return


def _alive(pid: int) -> bool:
    """Running and not a zombie (the lab's PID 1 reaps orphans only now and then)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


if __name__ == "__main__":
    main()
