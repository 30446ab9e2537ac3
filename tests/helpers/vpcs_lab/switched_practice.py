"""A switched practice lab on the real GNS3 server: SW1 (a real dynamips Ethernet switch) joins
PC1, PC2 and PC3 (VPCS, 192.0.2.1, .10, .20 /24), all started and addressed, with a practice
engine and the node statuses GNS3's notification stream sent meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices, target_for_node
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.gns3.notifications import Backoff, WsTarget, stream_notifications
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.store import ExerciseStore
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, switched_pcs

ADDRESSES = {"PC1": "192.0.2.1", "PC2": "192.0.2.10", "PC3": "192.0.2.20"}


@dataclass
class SwitchedLab:
    client: Gns3Client
    project_id: str
    engine: PracticeEngine
    statuses: list[tuple[str, str]] = field(default_factory=list)
    """(node name, status) of every node.updated GNS3 sent while the test ran."""
    mark: int = 0

    async def node(self, name: str) -> Node:
        return next(n for n in await self.client.list_nodes(self.project_id) if n.name == name)

    async def run(self, node_name: str, *commands: str) -> str:
        node = await self.node(node_name)
        [outcome] = await run_on_devices(
            [DeviceJob(target_for_node(node, self.client.base_url), tuple(commands))]
        )
        assert outcome.ok, outcome.error
        return "\n".join(r.output for r in outcome.results)

    async def pings(self, src: str, dst: str, count: int = 2) -> bool:
        output = await self.run(src, f"ping {ADDRESSES[dst]} -c {count}")
        return f"{ADDRESSES[dst]} icmp_seq=" in output

    async def address(self, gateway: str = "") -> None:
        for name, address in ADDRESSES.items():
            await self.run(name, f"ip {address}/24 {gateway}".strip(), "save")
        await until(lambda: self.pings("PC1", "PC2"))

    def stopped(self) -> list[str]:
        """Nodes GNS3 reported not started since the test began (after the lab was up)."""
        return [name for name, status in self.statuses[self.mark :] if status != "started"]


async def until(condition: Callable[[], Awaitable[bool]], within: float = 30.0) -> None:
    """Wait (bounded) until the lab answers as wanted: the server and devices are polled."""
    async with asyncio.timeout(within):
        while not await condition():  # noqa: ASYNC110 - a remote state, no event to wait on
            await asyncio.sleep(0.5)


async def constant(value: bool) -> bool:
    return value


async def all_started(client: Gns3Client, pid: str) -> bool:
    return all(n.status == "started" for n in await client.list_nodes(pid))


@contextlib.asynccontextmanager
async def switched_practice_lab(
    gns3_vpcs_lab: Gns3VpcsLab, store_path: Path
) -> AsyncIterator[SwitchedLab]:
    """The lab up and addressed, its notification stream listened to; deleted on leaving."""
    async with switched_pcs(gns3_vpcs_lab, f"practice-{time.monotonic_ns()}") as (
        client,
        pid,
        pcs,
        _switch,
    ):
        engine = PracticeEngine(client, pid, ExerciseStore(store_path, os.urandom(32)))
        engine.recheck_delay_s = 1.0
        lab = SwitchedLab(client, pid, engine)
        target = WsTarget(
            client.base_url, f"/v3/projects/{pid}/notifications/ws", lambda: client.token
        )

        async def listen() -> None:
            async for note in stream_notifications(target, Backoff()):
                if note.action == "node.updated" and "status" in note.event:
                    lab.statuses.append((str(note.event.get("name")), str(note.event["status"])))

        listener = asyncio.create_task(listen())
        await asyncio.sleep(0.5)  # the websocket is up before the hosts start
        for pc in pcs:
            await client.start_node(pid, pc.node_id)
        await until(lambda: all_started(client, pid), within=60)
        await lab.address()
        # the stream is live: it told each host's start
        await until(lambda: constant({"PC1", "PC2", "PC3"} <= {n for n, _ in lab.statuses}))
        lab.mark = len(lab.statuses)
        try:
            yield lab
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener
