"""The VPCS lab's test doubles let many VPCS start at the same moment, as a plan starts them.

Real GNS3 server 3.0.6 (``gns3_vpcs_lab``): ten VPCS in five linked pairs are started all at once,
three times; every one must reach "started" and ping its neighbour. Before the vpcs test double
moved vpcs 0.5b2 off GNS3's UDP range, its relay socket (data port + 9) could take a port GNS3 had
just given to another node, and that node's start failed with "Address already in use". Before
the vpcs double waited for its daemon on a stop, a node GNS3 called stopped could still be running
(its console still answered) when the next round started it again, and the new vpcs lost its
ports to the old one.
"""

from __future__ import annotations

import asyncio

import pytest

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceJob,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import LinkEnd, Node
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab

pytestmark = [pytest.mark.asyncio, pytest.mark.gns3, pytest.mark.slow]

PCS = 10
ROUNDS = 3


def _address(index: int) -> str:
    return f"192.0.2.{index + 1}"


async def _statuses_become(
    client: Gns3Client, pid: str, nodes: list[Node], status: str, timeout_s: float = 30.0
) -> list[Node]:
    """The nodes once all show `status` (the controller learns it from the compute's notification,
    a moment after the call returns); the last seen otherwise."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        fresh = [await client.get_node(pid, n.node_id) for n in nodes]
        if all(n.status == status for n in fresh):
            return fresh
        if asyncio.get_running_loop().time() > deadline:
            return fresh
        await asyncio.sleep(0.2)


async def _console_answers(host: str, port: int) -> bool:
    """Whether anything still answers Enter on a console (the lab's relay closes a refused one)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 5)
    except OSError:
        return False
    try:
        writer.write(b"\r\n")
        await writer.drain()
        return bool(await asyncio.wait_for(reader.read(100), 5))
    except (OSError, TimeoutError):
        return False
    finally:
        writer.close()


async def test_ten_vpcs_started_at_once_three_times_all_start_and_ping(
    gns3_vpcs_lab: Gns3VpcsLab,
) -> None:
    lab = gns3_vpcs_lab
    # Ten starts at once run ten of each test double's Python start-up on a shared 2-core machine:
    # allow them a minute (the app's 15 s is for one call at a time).
    async with Gns3Client(lab.base_url, timeout=60.0) as client:
        client.token = (await client.authenticate(lab.username, lab.password)).access_token
        pid = (await client.create_project("vpcs-parallel-start")).project_id
        try:
            nodes = [
                await client.create_node(pid, f"PC{i + 1}", "vpcs", x=80 * i, y=0)
                for i in range(PCS)
            ]
            for a, b in zip(nodes[0::2], nodes[1::2], strict=True):
                await client.create_link(
                    pid,
                    LinkEnd(node_id=a.node_id, adapter_number=0, port_number=0),
                    LinkEnd(node_id=b.node_id, adapter_number=0, port_number=0),
                )
            options = ConsoleOptions(connect_timeout=5, login_timeout=5, command_timeout=15)
            for round_number in range(1, ROUNDS + 1):
                started = await asyncio.gather(
                    *(client.start_node(pid, n.node_id) for n in nodes), return_exceptions=True
                )
                failures = [repr(r) for r in started if isinstance(r, BaseException)]
                assert not failures, f"round {round_number}: {failures}\n{lab.log_text()}"
                fresh = await _statuses_become(client, pid, nodes, "started")
                assert [n.status for n in fresh] == ["started"] * PCS, round_number
                targets = [target_for_node(n, lab.base_url) for n in fresh]
                configured = await run_on_devices(
                    [DeviceJob(t, (), (f"ip {_address(i)}/24",)) for i, t in enumerate(targets)],
                    options,
                    max_parallel=PCS,
                )
                assert [o.error for o in configured] == [None] * PCS, round_number
                # each PC pings its link neighbour (PC1 <-> PC2, PC3 <-> PC4, ...)
                pings = await run_on_devices(
                    [
                        DeviceJob(t, (f"ping {_address(i ^ 1)} -c 3",))
                        for i, t in enumerate(targets)
                    ],
                    options,
                    max_parallel=PCS,
                )
                for i, ping in enumerate(pings):
                    assert ping.error is None, (round_number, i, ping.error)
                    output = ping.results[0].output
                    assert f"{_address(i ^ 1)} icmp_seq=" in output and "ttl=" in output, (
                        f"round {round_number}, PC{i + 1}: {output}"
                    )
                # still running after all that: a vpcs double that had taken the last round's
                # daemon for its own would have ended with it, and GNS3 called the node stopped
                after = [(await client.get_node(pid, n.node_id)).status for n in nodes]
                assert after == ["started"] * PCS, (round_number, after)
                await asyncio.gather(*(client.stop_node(pid, n.node_id) for n in nodes))
                stopped = await _statuses_become(client, pid, nodes, "stopped")
                assert [n.status for n in stopped] == ["stopped"] * PCS, round_number
                answering = [t.name for t in targets if await _console_answers(t.host, t.port)]
                assert answering == [], f"round {round_number}: stopped yet running"
        finally:
            await client.delete_project(pid)
