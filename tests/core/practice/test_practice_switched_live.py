"""Practice on a REAL lab with a REAL dynamips Ethernet switch and running VPCS hosts.

SW1 (always on) joins PC1, PC2 and PC3 (192.0.2.1, .10, .20 /24). No node is ever stopped to
practise: the statuses come from GNS3's own notification stream. A fault the device refuses
is reported with the device's answer and nothing starts; a check whose device or link is gone,
stopped or replaced cannot be checked, which is never a pass. Each test has a lab of its own;
the catalog's faults go round on one lab in test_practice_round_trip_live.py.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.gns3.models import LinkEnd
from gns3_copilot_desktop.core.practice.store import PracticeError
from tests.helpers.agent import ServiceFactory, collect
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab
from tests.helpers.vpcs_lab.switched_practice import (
    ADDRESSES,
    SwitchedLab,
    all_started,
    switched_practice_lab,
    until,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow, pytest.mark.spread]


@pytest_asyncio.fixture
async def switched_lab(gns3_vpcs_lab: Gns3VpcsLab, tmp_path: Path) -> AsyncIterator[SwitchedLab]:
    async with switched_practice_lab(gns3_vpcs_lab, tmp_path / "practice.db") as lab:
        yield lab


async def test_starts_on_a_lab_with_a_switch_without_stopping_a_node(
    switched_lab: SwitchedLab,
) -> None:
    lab, engine = switched_lab, switched_lab.engine
    plan = await engine.prepare("s1", difficulty="intermediate", fault_ids=["vpcs-wrong-mask"])
    started = time.monotonic()
    public = await engine.approve(plan.exercise_id)
    elapsed = time.monotonic() - started
    assert public.status == "active" and public.started_at is not None
    assert public.snapshot_id is None and await lab.client.list_snapshots(lab.project_id) == []
    assert not await lab.pings("PC1", "PC2")  # injected for real
    assert public.ticket and "{" not in public.ticket and "PC1" in public.ticket
    await _answer_is_nowhere_in_clear(lab, "vpcs-wrong-mask")
    report = await engine.check(plan.exercise_id)
    assert [c.state for c in report.checks] == ["failed"]
    assert lab.stopped() == [], lab.statuses  # not one node left "started", switch included
    assert {n.status for n in await lab.client.list_nodes(lab.project_id)} == {"started"}
    assert elapsed < 20, elapsed

    given = await engine.give_up(plan.exercise_id)
    assert given.restore is not None and not given.restore.destructive
    assert await engine.restore(plan.exercise_id) == []
    assert await lab.pings("PC1", "PC2")
    [past] = await engine.history()
    assert past.status == "given_up" and past.sealed  # history kept, answer shown once ended


async def test_an_injection_the_device_refuses_is_reported_and_nothing_starts(
    switched_lab: SwitchedLab,
) -> None:
    lab, engine = switched_lab, switched_lab.engine
    await lab.address(gateway="192.0.2.254")  # a wrong subnet would leave the gateway outside
    plan = await engine.prepare("s1", difficulty="beginner", fault_ids=["vpcs-wrong-address"])
    with pytest.raises(PracticeError) as refused:
        await engine.approve(plan.exercise_id)
    text = refused.value.user_message
    assert "Could not inject “A host in the wrong subnet” on PC1" in text
    assert "not same subnet" in text  # the device's own answer
    record = await engine._store.get(plan.exercise_id)
    assert record.status == "cancelled" and record.started_at is None
    assert "192.0.2.1/24" in await lab.run("PC1", "show ip")
    assert await lab.pings("PC1", "PC2")
    assert lab.stopped() == []


async def test_a_start_refused_half_way_undoes_the_faults_already_injected(
    switched_lab: SwitchedLab,
) -> None:
    """Two faults, the device refuses one: whatever was injected before the refusal is undone,
    and the lab is as it was (every link carries traffic, every host keeps its address)."""
    lab, engine, pid = switched_lab, switched_lab.engine, switched_lab.project_id
    await lab.address(gateway="192.0.2.254")  # the wrong-subnet address will be refused
    plan = await engine.prepare(
        "s1", difficulty="beginner", count=2, fault_ids=["link-suspended", "vpcs-wrong-address"]
    )
    with pytest.raises(PracticeError) as refused:
        await engine.approve(plan.exercise_id)
    assert "Could not inject “A host in the wrong subnet”" in refused.value.user_message
    record = await engine._store.get(plan.exercise_id)
    assert record.status == "cancelled" and record.started_at is None
    links = await lab.client.list_links(pid)
    assert [(link.suspend, bool(link.filters)) for link in links] == [(False, False)] * len(links)
    for name, address in ADDRESSES.items():
        assert f"{address}/24" in await lab.run(name, "show ip")
    for a, b in (("PC1", "PC2"), ("PC2", "PC3"), ("PC3", "PC1")):
        await until(lambda a=a, b=b: lab.pings(a, b))
    assert lab.stopped() == []


@pytest.mark.parametrize("change", ["delete link", "stop node", "delete node"])
async def test_a_changed_lab_cannot_be_checked_and_is_never_a_pass(
    switched_lab: SwitchedLab, change: str
) -> None:
    lab, engine = switched_lab, switched_lab.engine
    fault = "link-suspended" if change == "delete link" else "vpcs-wrong-mask"
    plan = await engine.prepare("s1", difficulty="beginner", fault_ids=[fault])
    await engine.approve(plan.exercise_id)
    pc1 = await lab.node("PC1")
    if change == "delete link":
        [link] = await lab.client.node_links(lab.project_id, pc1.node_id)
        await lab.client.delete_link(lab.project_id, link.link_id)
    elif change == "stop node":
        await lab.client.stop_node(lab.project_id, pc1.node_id)
    else:
        await lab.client.delete_node(lab.project_id, pc1.node_id)
    report = await engine.check(plan.exercise_id)
    assert not report.solved and report.reveal is None
    assert {c.state for c in report.checks} == {"cannot_check"}
    assert all("the lab changed" in c.reason for c in report.checks)
    assert (await engine._store.get(plan.exercise_id)).status == "active"


async def test_a_new_working_link_in_place_of_the_faulty_one_is_a_fix(
    switched_lab: SwitchedLab,
) -> None:
    lab, engine = switched_lab, switched_lab.engine
    plan = await engine.prepare("s1", difficulty="beginner", fault_ids=["link-suspended"])
    await engine.approve(plan.exercise_id)
    pc1, sw1 = await lab.node("PC1"), await lab.node("SW1")
    [link] = await lab.client.node_links(lab.project_id, pc1.node_id)
    await lab.client.delete_link(lab.project_id, link.link_id)
    await lab.client.create_link(
        lab.project_id,
        LinkEnd(node_id=pc1.node_id, adapter_number=0, port_number=0),
        LinkEnd(node_id=sw1.node_id, adapter_number=0, port_number=7),
    )
    await until(lambda: lab.pings("PC1", "PC2"))
    report = await engine.check(plan.exercise_id)
    assert report.solved, report.checks


async def test_a_reload_of_the_faulty_host_does_not_fix_it(switched_lab: SwitchedLab) -> None:
    """The fault is in the host's startup configuration as a real misconfiguration would be:
    GNS3's Reload (a restart that reads the saved configuration) keeps it, so it is no fix."""
    lab, engine, pid = switched_lab, switched_lab.engine, switched_lab.project_id
    plan = await engine.prepare("s1", difficulty="beginner", fault_ids=["vpcs-wrong-address"])
    await engine.approve(plan.exercise_id)
    for name in ADDRESSES:
        await lab.client.reload_node(pid, (await lab.node(name)).node_id)
    await until(lambda: all_started(lab.client, pid), within=60)
    # every host answers its console again with its saved address before the check
    for name in ADDRESSES:
        await until(lambda n=name: _async_console(lab, n), within=60)
    report = await engine.check(plan.exercise_id)
    assert not report.solved, report.checks
    assert "failed" in {c.state for c in report.checks}, report.checks
    assert (await engine._store.get(plan.exercise_id)).status == "active"


async def _async_console(lab: SwitchedLab, name: str) -> bool:
    try:
        return "IP/MASK" in await lab.run(name, "show ip")
    except AssertionError:
        return False


async def test_restoring_an_old_snapshot_is_not_a_pass(switched_lab: SwitchedLab) -> None:
    lab, engine, pid = switched_lab, switched_lab.engine, switched_lab.project_id
    await lab.client.stop_all_nodes(pid)  # GNS3 snapshots only a stopped project
    await until(lambda: _none_running(lab))
    snapshot = await lab.client.create_snapshot(pid, "the student's own")
    await lab.client.start_all_nodes(pid)
    await until(lambda: all_started(lab.client, pid), within=60)
    await until(lambda: lab.pings("PC1", "PC2"))
    plan = await engine.prepare("s1", difficulty="intermediate", fault_ids=["vpcs-wrong-mask"])
    await engine.approve(plan.exercise_id)

    await lab.client.restore_snapshot(pid, snapshot.snapshot_id)
    await lab.client.start_all_nodes(pid)
    await until(lambda: all_started(lab.client, pid), within=60)
    await until(lambda: lab.pings("PC1", "PC2"))  # the lab works again, by the snapshot
    report = await engine.check(plan.exercise_id)
    assert not report.solved
    assert {c.state for c in report.checks} == {"cannot_check"}


async def _none_running(lab: SwitchedLab) -> bool:
    nodes = await lab.client.list_nodes(lab.project_id)
    return all(n.status == "stopped" for n in nodes if n.node_type == "vpcs")


async def _answer_is_nowhere_in_clear(lab: SwitchedLab, fault_id: str) -> None:
    """The fault's id, title, hints and the sealed record's own words are in no file under the
    project folder and not in the `strings` of the practice store."""
    fault = lab.engine._catalog.get(fault_id)
    answer = [fault.id, fault.title, *fault.hints, "wrong_prefix", "fault_id", '"params"']
    project = await lab.client.get_project(lab.project_id)
    assert project.path
    await asyncio.to_thread(_scan, Path(project.path), lab.engine._store._path, answer)


def _scan(folder: Path, store: Path, answer: list[str]) -> None:
    files = [f for f in folder.rglob("*") if f.is_file()]
    assert any(f.name.endswith(".gns3") for f in files)
    for file in files:
        data = file.read_bytes()
        assert not [a for a in answer if a.encode() in data], file
    printable = subprocess.run(
        ["strings", "-n", "4", str(store)], capture_output=True, text=True, check=True
    ).stdout
    assert "active" in printable  # strings does read the records
    assert not [a for a in answer if a in printable]


async def test_the_tutor_model_sees_links_as_the_gns3_canvas_shows_them(
    switched_lab: SwitchedLab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> None:
    lab, engine = switched_lab, switched_lab.engine
    service = await make_service(tools=network_registry())
    session = await service.create_session(None, "practice")
    plan = await engine.prepare(
        session.id,
        difficulty="beginner",
        count=2,
        fault_ids=["link-heavy-loss", "link-suspended"],
    )
    await engine.approve(plan.exercise_id)
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(ScriptedToolCall("get_links", {}, "c_links")),
        ScriptedTurn.text("Look at each link between the hosts and the switch."),
    )
    ctx = RunContext(
        client=lab.client,
        project_id=lab.project_id,
        model=scripted_openai.chat_model(),
        server_url=lab.client.base_url,
        limits=AgentLimits(heartbeat_interval_s=0),
    )
    chunks = await collect(service.stream_chat("PC1 cannot reach PC2", session.id, context=ctx))
    assert chunks[-1].type == "done"
    requests = json.dumps([r.body for r in scripted_openai.chat_requests()])
    assert "[suspended]" in requests  # visible on the GNS3 canvas too
    for word in ("packet_loss", "[filters"):
        at = requests.find(word)
        assert at < 0, requests[max(0, at - 400) : at + 100]
    for fault_id in ("link-heavy-loss", "link-suspended"):
        fault = engine._catalog.get(fault_id)
        assert fault.title not in requests and fault.symptoms not in requests
