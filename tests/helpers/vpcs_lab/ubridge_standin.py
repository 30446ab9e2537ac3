#!/usr/bin/env python3
"""TEST DOUBLE for ubridge, which this machine lacks (it is in neither Debian nor PyPI).

Implements just what GNS3 3.0 asks of ubridge for VPCS links: ``-v`` prints a version, ``-H
host:port`` serves the hypervisor text protocol (one command per line; ``100-...`` for success,
``2xx-...`` for an error), and a started bridge relays UDP datagrams between its two UDP NIOs.
Of the packet filters, ``frequency_drop`` (-1: drop everything, which is how GNS3 suspends a
link; N: every Nth datagram) and ``packet_loss`` (percent) are applied, so a suspended or lossy
link behaves like one; ``delay`` (latency and jitter in ms) holds a datagram back, ``corrupt``
(percent) damages the destination MAC of a frame (so no host takes it, as a bad checksum would
have it dropped), and ``bpf`` drops the frames its expression matches. Of BPF, the double knows
only the expressions GNS3 Copilot uses (``icmp``, ``arp``, ``ip``, ``tcp``, ``udp``, ``len < N``,
``len > N``); any other is refused the way ubridge refuses one it cannot compile, so a test never
passes on a filter the double silently ignored. Captures are acknowledged and ignored. Runs only
inside the lab's namespace.
"""

from __future__ import annotations

import asyncio
import random
import re
import shlex
import socket
import sys
from dataclasses import dataclass, field

VERSION = "0.9.18"


@dataclass
class Bridge:
    """A bridge: up to two UDP NIOs (local port, remote host, remote port) relayed both ways."""

    nios: list[tuple[int, str, int]] = field(default_factory=list)
    transports: list[asyncio.DatagramTransport] = field(default_factory=list)
    filters: list[tuple[str, list[int | str]]] = field(default_factory=list)
    seen: int = 0

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        for lport, rhost, _ in self.nios:
            index = len(self.transports)
            transport, _ = await loop.create_datagram_endpoint(
                lambda i=index: _Relay(self, i),  # type: ignore[misc]
                local_addr=(rhost, lport),
                family=socket.AF_INET,
            )
            self.transports.append(transport)

    def dropped(self, frame: bytes) -> bool:
        self.seen += 1
        for kind, values in self.filters:
            first = values[0] if values else None
            if kind == "frequency_drop" and first == -1:
                return True
            every = first if kind == "frequency_drop" and isinstance(first, int) else 0
            if every > 0 and self.seen % every == 0:
                return True
            if kind == "packet_loss" and isinstance(first, int) and random.randrange(100) < first:
                return True
            if kind == "bpf" and isinstance(first, str) and bpf_matches(first, frame):
                return True
        return False

    def altered(self, frame: bytes) -> tuple[bytes, float]:
        """The frame as the filters pass it on, and how long (s) it is held back."""
        delay = 0.0
        for kind, values in self.filters:
            ints = [v for v in values if isinstance(v, int)]
            if kind == "delay" and ints:
                jitter = ints[1] if len(ints) > 1 else 0
                delay = max(0.0, (ints[0] + random.uniform(-jitter, jitter)) / 1000)
            if kind == "corrupt" and ints and random.randrange(100) < ints[0] and frame:
                frame = bytes([frame[0] ^ 0x02]) + frame[1:]  # a unicast MAC no host has
        return frame, delay

    def forward(self, from_index: int, data: bytes) -> None:
        if len(self.transports) != 2 or self.dropped(data):
            return
        data, delay = self.altered(data)
        other = 1 - from_index
        _, rhost, rport = self.nios[other]
        transport = self.transports[other]
        if delay:
            asyncio.get_running_loop().call_later(delay, transport.sendto, data, (rhost, rport))
        else:
            transport.sendto(data, (rhost, rport))

    def stop(self) -> None:
        for transport in self.transports:
            transport.close()
        self.transports.clear()


_LEN = re.compile(r"^len\s*([<>])\s*(\d+)$")
_PROTOCOLS = {"icmp": 1, "tcp": 6, "udp": 17}


def bpf_known(expression: str) -> bool:
    """Whether the double can apply this BPF expression (see the module's docstring)."""
    text = expression.strip()
    return text in ("icmp", "tcp", "udp", "ip", "arp") or _LEN.match(text) is not None


def bpf_matches(expression: str, frame: bytes) -> bool:
    """Whether an Ethernet ``frame`` matches a BPF expression the double knows."""
    text = expression.strip()
    found = _LEN.match(text)
    if found:
        size = int(found.group(2))
        return len(frame) < size if found.group(1) == "<" else len(frame) > size
    ethertype = frame[12:14] if len(frame) >= 14 else b""
    if text == "arp":
        return ethertype == b"\x08\x06"
    if ethertype != b"\x08\x00" or len(frame) < 24:
        return False
    return text == "ip" or frame[23] == _PROTOCOLS.get(text)


class _Relay(asyncio.DatagramProtocol):
    def __init__(self, bridge: Bridge, index: int) -> None:
        self.bridge, self.index = bridge, index

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        self.bridge.forward(self.index, data)


class Hypervisor:
    """The hypervisor's command set (the part GNS3 uses for VPCS)."""

    def __init__(self) -> None:
        self.bridges: dict[str, Bridge] = {}
        self.stopped = asyncio.Event()

    async def handle(self, line: str) -> str:
        words = line.split()
        if words[:2] == ["hypervisor", "version"]:
            return f"100-{VERSION}"
        if words[:2] in (["hypervisor", "stop"], ["hypervisor", "reset"]):
            # ubridge ends on "stop" (GNS3 kills it only if it is still running 3 s later)
            for bridge in self.bridges.values():
                bridge.stop()
            self.bridges.clear()
            if words[1] == "stop":
                self.stopped.set()
            return "100-OK"
        if words[:1] == ["hypervisor"]:
            return "100-OK"
        if len(words) < 3 or words[0] != "bridge":
            return f"209-Unknown command '{line}'"
        action, name = words[1], words[2]
        if action == "create":
            self.bridges[name] = Bridge()
            return f"100-bridge '{name}' created"
        bridge = self.bridges.get(name)
        if bridge is None:
            return f"209-bridge '{name}' doesn't exist"
        if action == "add_nio_udp" and len(words) == 6:
            bridge.nios.append((int(words[3]), words[4], int(words[5])))
            return f"100-NIO UDP added to bridge '{name}'"
        if action == "start":
            try:
                await bridge.start()
            except OSError as exc:  # told to GNS3 as ubridge tells an error, not a dropped line
                bridge.stop()
                return f"209-bridge '{name}' cannot start: {exc}"
            return f"100-bridge '{name}' started"
        if action in ("stop", "delete"):
            bridge.stop()
            if action == "delete":
                del self.bridges[name]
            return f"100-bridge '{name}' {action}d"
        if action == "reset_packet_filters":
            bridge.filters.clear()
            return "100-OK"
        if action == "add_packet_filter" and len(words) >= 5:
            # bridge add_packet_filter NAME filterN TYPE VALUES... (a BPF expression is quoted)
            parts = shlex.split(line)
            values: list[int | str] = [int(w) if w.lstrip("-").isdigit() else w for w in parts[5:]]
            if parts[4] == "bpf" and not (
                values and isinstance(values[0], str) and bpf_known(values[0])
            ):
                return f"209-Cannot compile filter '{' '.join(parts[5:])}': syntax error"
            bridge.filters.append((parts[4], values))
            return "100-OK"
        return "100-OK"  # other filters' values, captures: accepted and ignored


async def serve(host: str, port: int) -> None:
    hypervisor = Hypervisor()

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while line := (await reader.readline()).decode().strip():
            writer.write((await hypervisor.handle(line) + "\r\n").encode())
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(client, host, port)
    await hypervisor.stopped.wait()
    await asyncio.sleep(0.05)  # the "100-OK" reaches GNS3 before the process ends
    server.close()


def main() -> None:
    args = sys.argv[1:]
    if "-v" in args:
        print(f"ubridge version {VERSION} (test double)")
        return
    if "-H" in args:
        host, _, port = args[args.index("-H") + 1].rpartition(":")
        asyncio.run(serve(host or "127.0.0.1", int(port)))
        return
    print("usage: ubridge -v | -H host:port", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    main()
