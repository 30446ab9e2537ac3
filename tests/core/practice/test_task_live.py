"""A trainer's task tried on REAL VPCS nodes of the real GNS3 server (``gns3_vpcs_lab``): the
checks pass on the working lab, the task's own fault makes them fail, its undo makes them pass
again, a half fix earns its part; a stopped or deleted device is "cannot check", never a pass;
a task whose fault breaks nothing the checks see is not accepted."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.practice.task import TaskFileError, parse_task
from gns3_copilot_desktop.core.practice.task_checks import TaskRunner, score
from tests.helpers.node_console import run_on_node
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

TASK = """\
format = 1
title = "PC1 moved"
ticket = "PC1 cannot reach PC2 since this morning."
level = "beginner"
time_limit_min = 15

[lab]
project = "two-pcs.gns3project"

[[faults]]
device = "PC1"
inject = ["ip 198.51.100.1/24"]
undo = ["ip 192.0.2.1/24"]

[[checks]]
title = "PC1 reaches PC2"
device = "PC1"
command = "ping 192.0.2.2 -c 2"
pass = { ping_max_loss = 50 }
on_pass = "PC1 and PC2 talk again."
on_fail = "PC1 gets no answer from PC2."
points = 70

[[checks]]
title = "PC1 keeps its address"
device = "PC1"
command = "show ip"
pass = { contains = "192.0.2.1/24" }
points = 30
"""


@dataclass
class TaskLab:
    client: Gns3Client
    project_id: str
    runner: TaskRunner

    async def run(self, name: str, *commands: str) -> str:
        return await run_on_node(self.client, self.project_id, name, commands)

    async def node_id(self, name: str) -> str:
        nodes = await self.client.list_nodes(self.project_id)
        return next(n.node_id for n in nodes if n.name == name)


async def _until_status(client: Gns3Client, pid: str, status: str, within: float = 30.0) -> None:
    async with asyncio.timeout(within):
        while any(n.status != status for n in await client.list_nodes(pid)):  # noqa: ASYNC110
            await asyncio.sleep(0.3)  # the server's state, polled


@pytest_asyncio.fixture
async def task_lab(gns3_vpcs_lab: Gns3VpcsLab) -> AsyncIterator[TaskLab]:
    async with two_linked_pcs(gns3_vpcs_lab, "task") as (client, pid, pc1, pc2):
        await client.start_node(pid, pc1.node_id)
        await client.start_node(pid, pc2.node_id)
        await _until_status(client, pid, "started")
        lab = TaskLab(client, pid, TaskRunner(client, pid, client.base_url))
        await lab.run("PC1", "ip 192.0.2.1/24")
        await lab.run("PC2", "ip 192.0.2.2/24")
        yield lab


async def test_a_task_is_proved_on_the_working_lab_and_leaves_it_working(task_lab: TaskLab) -> None:
    task = parse_task(TASK)
    proof = await task_lab.runner.prove(task)
    assert proof.ok, proof.problems
    assert [r.state for r in proof.baseline] == ["pass", "pass"]
    assert score(proof.baseline) == task.total_points == 100
    assert [r.state for r in proof.injected] == ["fail", "fail"]
    assert proof.injected[0].message == "PC1 gets no answer from PC2."
    assert score(proof.injected) == 0
    assert [r.state for r in proof.restored] == ["pass", "pass"]
    assert proof.restored[0].message == "PC1 and PC2 talk again."
    # the lab is as the trainer left it
    assert "192.0.2.1/24" in await task_lab.run("PC1", "show ip")


async def test_a_student_fix_is_scored_and_a_half_fix_earns_its_part(task_lab: TaskLab) -> None:
    task = parse_task(TASK)
    runner = task_lab.runner
    await runner.inject(task)
    assert score(await runner.check(task)) == 0
    await task_lab.run("PC1", "ip 192.0.2.1/25")  # half a fix: the address, not the mask
    results = await runner.check(task)
    assert [r.state for r in results] == ["pass", "fail"] and score(results) == 70
    await task_lab.run("PC1", "ip 192.0.2.1/24")
    results = await runner.check(task)
    assert [r.state for r in results] == ["pass", "pass"] and score(results) == 100


async def test_a_stopped_or_deleted_device_cannot_be_checked_never_passes(
    task_lab: TaskLab,
) -> None:
    task = parse_task(TASK)
    client, pid = task_lab.client, task_lab.project_id
    pc1 = await task_lab.node_id("PC1")
    await client.stop_node(pid, pc1)
    async with asyncio.timeout(30):
        while (await client.get_node(pid, pc1)).status != "stopped":  # noqa: ASYNC110
            await asyncio.sleep(0.3)  # the server's state, polled
    results = await task_lab.runner.check(task)
    assert [r.state for r in results] == ["cannot-check", "cannot-check"], results
    assert "PC1 is stopped" in results[1].message and score(results) == 0
    with pytest.raises(TaskFileError, match="cannot undo on PC1"):
        await task_lab.runner.undo(task)
    await client.delete_node(pid, pc1)
    results = await task_lab.runner.check(task)
    assert [r.state for r in results] == ["cannot-check", "cannot-check"], results
    assert "not in the lab" in results[0].message and score(results) == 0
    # a catalog fault on the deleted device says why, not that the catalog lacks its steps
    catalog = TASK.replace(
        'inject = ["ip 198.51.100.1/24"]\nundo = ["ip 192.0.2.1/24"]',
        'catalog = "vpcs-wrong-address"\n'
        'params = { address = "192.0.2.1", wrong_address = "198.51.100.1", prefix = "24", '
        'gateway = "" }',
    )
    with pytest.raises(TaskFileError, match=r"^cannot inject on PC1: not in the lab$"):
        await task_lab.runner.inject(parse_task(catalog))


async def test_a_fault_that_breaks_nothing_the_checks_see_is_not_accepted(
    task_lab: TaskLab,
) -> None:
    harmless = TASK.replace('inject = ["ip 198.51.100.1/24"]', 'inject = ["ip 192.0.2.1/24"]')
    proof = await task_lab.runner.prove(parse_task(harmless))
    assert not proof.ok
    assert proof.problems == [
        "the faults break nothing the checks look at: every check still passes"
    ]
    # a check that fails on the working lab: the task cannot be saved either
    wrong = TASK.replace('contains = "192.0.2.1/24"', 'contains = "192.0.2.99/24"')
    proof = await task_lab.runner.prove(parse_task(wrong))
    assert not proof.ok and proof.injected == []
    assert proof.problems[0].startswith("“PC1 keeps its address” does not pass on the working lab")


LINK_TASK = TASK.replace(
    'device = "PC1"\ninject = ["ip 198.51.100.1/24"]\nundo = ["ip 192.0.2.1/24"]',
    'device = "PC1"\ncatalog = "{fault}"\nparams = {params}',
)


async def test_catalog_link_and_unplugged_faults_are_proved_through_the_gns3_api(
    task_lab: TaskLab,
) -> None:
    """A task may use the catalog's link faults (the one link between the device and its
    ``peer``, changed through GNS3) and a fault set while the host is unplugged: each is in
    while the checks run, and the lab carries traffic again after (GNS3 3.0.6 keeps a cleared
    filter alive unless it is healed: the restored ping would fail)."""
    client, pid = task_lab.client, task_lab.project_id
    [link] = await client.list_links(pid)
    for fault, params, failing in [
        ("link-bpf-icmp", '{ peer = "PC2" }', ["fail", "pass"]),
        (
            "vpcs-duplicate-address",
            '{ address = "192.0.2.1", peer_address = "192.0.2.2", prefix = "24", gateway = "" }',
            ["pass", "fail"],  # PC1 now answers for PC2's address itself
        ),
    ]:
        task = parse_task(LINK_TASK.replace("{fault}", fault).replace("{params}", params))
        proof = await task_lab.runner.prove(task)
        assert proof.ok, (fault, proof.problems)
        assert [r.state for r in proof.injected] == failing, (fault, proof.injected)
        assert [r.state for r in proof.restored] == ["pass", "pass"], fault
        after = await client.get_link(pid, link.link_id)
        assert not after.suspend and not after.filters, (fault, after)
    # a link fault whose peer is not linked to the device: refused, nothing changed
    await client.delete_link(pid, link.link_id)
    task = parse_task(
        LINK_TASK.replace("{fault}", "link-suspended").replace("{params}", '{ peer = "PC2" }')
    )
    with pytest.raises(TaskFileError, match="0 links join PC1 and PC2"):
        await task_lab.runner.inject(task)
