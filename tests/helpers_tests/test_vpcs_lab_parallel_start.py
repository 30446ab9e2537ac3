"""The VPCS lab's test doubles let many VPCS start at the same moment, as a plan starts them.

Real GNS3 server 3.0.6 (``gns3_vpcs_lab``): ten VPCS in five linked pairs are started all at once,
three times; every one must reach "started" and ping its neighbour. Before the vpcs test double
moved vpcs 0.5b2 off GNS3's UDP range, its relay socket (data port + 9) could take a port GNS3 had
just given to another node, and that node's start failed with "Address already in use".
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
                await asyncio.gather(*(client.stop_node(pid, n.node_id) for n in nodes))
                stopped = await _statuses_become(client, pid, nodes, "stopped")
                assert [n.status for n in stopped] == ["stopped"] * PCS, round_number
        finally:
            await client.delete_project(pid)
