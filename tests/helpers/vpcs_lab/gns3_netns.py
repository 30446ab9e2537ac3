"""Runs as PID 1 of the GNS3 VPCS lab's namespaces: the real GNS3 server plus port forwarders.

Started by `gns3_lab.start_gns3_vpcs_lab` under ``unshare --net --pid --mount --mount-proc``. It
brings loopback up, starts the server command it is given, and relays every listening socket it
inherited (bound to 127.0.0.1 in the test's namespace) to the same port on the lab's loopback, so
the test reaches the server's API and the node consoles while VPCS's all-interfaces sockets stay
inside the lab. It reaps orphans (the VPCS daemons end up as its children) and stops the server
when its stdin closes; the kernel then ends everything left in the PID namespace.

A ``restart`` line on stdin restarts the server as an administrator would: stopped by its PID
(SIGTERM, as GNS3 is stopped on a host), then started again with the same command, port and data
dirs; the relays stay up meanwhile (connections are refused while it is down). Each start writes
``<generation> <pid>`` to the spec's ``status`` file, so a test can wait for the new server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
from typing import Any


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


async def _forward(fd: int, port: int) -> asyncio.Server:
    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    sock = socket.socket(fileno=fd)
    return await asyncio.start_server(relay, sock=sock)


def _start_server(spec: dict[str, Any], generation: int) -> subprocess.Popen[bytes]:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    with open(spec["log"], "ab") as log:  # a restart's log follows the first one's
        server = subprocess.Popen(
            spec["command"],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=spec["env"],
            cwd=spec["cwd"],
            stdin=subprocess.DEVNULL,
        )
    if spec.get("status"):
        with open(spec["status"], "w", encoding="utf-8") as status:
            status.write(f"{generation} {server.pid}\n")
    return server


async def _stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            await asyncio.to_thread(server.wait, 15)
    if server.poll() is None:
        server.kill()
        await asyncio.to_thread(server.wait, 5)


async def main(spec: dict[str, Any]) -> None:
    """Serve the relays until stdin closes or the server exits (a ``restart`` line restarts
    it); then stop the server."""
    generation = 1
    server = _start_server(spec, generation)
    forwarders = [await _forward(fd, port) for fd, port in spec["forward"]]
    loop = asyncio.get_running_loop()
    line = loop.run_in_executor(None, sys.stdin.readline)
    while server.poll() is None:
        await asyncio.wait([line], timeout=0.5)
        _reap_others(server.pid)
        if not line.done():
            continue
        if line.result().strip() != "restart":
            break  # stdin closed
        await _stop_server(server)
        _reap_others(server.pid)
        generation += 1
        server = _start_server(spec, generation)
        line = loop.run_in_executor(None, sys.stdin.readline)
    for forwarder in forwarders:
        forwarder.close()
    await _stop_server(server)


def _reap_others(keep: int) -> None:
    """Reap exited orphans, leaving the server's status to Popen."""
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in (keep, os.getpid()):
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(int(entry), os.WNOHANG)


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
