"""``plan_lab`` on the REAL GNS3 server with startable VPCS (``gns3_vpcs_lab``) and dynamips
switches: applied (nodes started, each host pings every other host of its subnet across two
switches), re-applied (nothing to change, no card), extended on the running lab (only the new
part; no running node ever leaves "started", watched on the project's notification stream),
undone from its journal (what it created is gone), and refused plans (missing template, used
port, overlapping subnets) named before any card."""

from __future__ import annotations

import asyncio
import contextlib
import copy
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools import progress
from gns3_copilot_desktop.core.agent.tools.base import CallAnsweredError, CallRefusedError
from gns3_copilot_desktop.core.agent.tools.plan_tools import NOTHING_TO_DO, PlanLabTool
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.notifications import LinkState
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from gns3_copilot_desktop.core.undo.record import UndoRecord
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

SPEC: dict[str, Any] = {
    "nodes": [
        {"name": "SW1", "template": "Ethernet switch", "x": 0, "y": 0},
        {"name": "SW2", "template": "Ethernet switch", "x": 300, "y": 0},
        {"name": "PC1", "template": "VPCS"},
        {"name": "PC2", "template": "VPCS"},
        {"name": "PC3", "template": "VPCS"},
    ],
    "links": [
        {"a": {"node": "PC1"}, "b": {"node": "SW1"}, "subnet": "lan"},
        {"a": {"node": "PC2"}, "b": {"node": "SW1"}, "subnet": "lan"},
        {"a": {"node": "PC3"}, "b": {"node": "SW2"}, "subnet": "lan"},
        {"a": {"node": "SW1", "port": "any"}, "b": {"node": "SW2", "port": "Ethernet7"}},
    ],
    "subnets": [{"name": "lan", "prefix": "192.0.2.0/24"}],
    "addresses": [
        {"node": "PC1", "interface": "Ethernet0", "address": "192.0.2.1/24"},
        {"node": "PC2", "interface": "e0", "address": "192.0.2.2/24"},
        {"node": "PC3", "interface": "Ethernet0", "address": "192.0.2.3/24"},
    ],
    "reach": [["PC1", "PC3"]],
}


async def _counts(client: Gns3Client, pid: str) -> tuple[int, int]:
    return len(await client.list_nodes(pid)), len(await client.list_links(pid))


@contextlib.asynccontextmanager
async def status_history(client: Gns3Client, pid: str) -> Any:
    """Every node status the project's notification stream reports while the block runs, as
    ``{node name: [status, ...]}`` (the stream is up before the block starts)."""
    history: dict[str, list[str]] = {}
    linked = asyncio.Event()

    def on_link(state: LinkState) -> None:
        if state.connected:
            linked.set()

    async def watch() -> None:
        async for note in client.project_notifications(pid, on_link=on_link):
            event = note.event
            if note.action == "node.updated" and isinstance(event.get("name"), str):
                history.setdefault(event["name"], []).append(str(event.get("status")))

    task = asyncio.create_task(watch())
    try:
        async with asyncio.timeout(15):
            await linked.wait()
        yield history
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_apply_reapply_extend_undo_and_refuse(
    gns3_vpcs_lab: Gns3VpcsLab, requires_dynamips: None
) -> None:
    tool = PlanLabTool()
    async with Gns3Client(gns3_vpcs_lab.base_url) as client:
        token = await client.authenticate(gns3_vpcs_lab.username, gns3_vpcs_lab.password)
        client.token = token.access_token
        project = await client.create_project("plan-lab", auto_close=False)
        pid = project.project_id
        ctx = RunContext(
            client=client,
            project_id=pid,
            model=FakeListChatModel(responses=[""]),
            server_url=gns3_vpcs_lab.base_url,
        )
        try:
            spec = LabSpec.model_validate(SPEC)
            before = await tool.consequence(spec, ctx)
            assert before.text == "add 5 nodes, 4 links; configure 3 devices"
            assert before.plan is not None and len(before.plan["links"]) == 4
            told: list[str] = []
            with progress.reporting(told.append):  # what the running tool card shows
                applied = await tool.run(spec, ctx)
            assert not applied.is_error, applied.text
            # each step said as it runs, numbered, to the last (no silent "running 8 s")
            assert len(told) >= 5 and told[0].startswith("[1/"), told
            total = told[0].split("/")[1].split("]")[0]
            assert told[-1].startswith(f"[{total}/{total}]"), told
            assert "SW1 Ethernet2 (to SW2)" in applied.text  # after PC1 (e0), PC2 (e1)
            checks = {c["check"]: c["passed"] for c in applied.structured["checks"]}
            assert checks == {
                **{f"{n} started": True for n in ("SW1", "SW2", "PC1", "PC2", "PC3")},
                "PC1 pings 192.0.2.2": True,
                "PC1 pings 192.0.2.3": True,
                "PC2 pings 192.0.2.1": True,
                "PC2 pings 192.0.2.3": True,
                "PC3 pings 192.0.2.1": True,
                "PC3 pings 192.0.2.2": True,
            }
            assert "snapshot" not in str(applied.structured)
            assert not await client.list_snapshots(pid)
            assert await _counts(client, pid) == (5, 4)

            with pytest.raises(CallAnsweredError) as answered:
                await tool.consequence(spec, ctx)  # no approval card for nothing to change
            assert answered.value.user_message == NOTHING_TO_DO
            assert (await tool.run(spec, ctx)).text == NOTHING_TO_DO
            assert await _counts(client, pid) == (5, 4)

            bigger = copy.deepcopy(SPEC)
            bigger["nodes"].append({"name": "PC4", "template": "VPCS"})
            bigger["links"].append({"a": {"node": "SW2"}, "b": {"node": "PC4"}})
            bigger["addresses"].append(
                {"node": "PC4", "interface": "e0", "address": "192.0.2.4/24"}
            )
            extended = LabSpec.model_validate(bigger)
            assert (await tool.consequence(extended, ctx)).text == (
                "add 1 node, 1 link; configure 1 device"
            )
            running = {n.name for n in await client.list_nodes(pid) if n.status == "started"}
            async with status_history(client, pid) as history:
                grown = await tool.run(extended, ctx)
            assert not grown.is_error, grown.text
            left = {name: seen for name, seen in history.items() if name in running}
            assert all(s == "started" for seen in left.values() for s in seen), left
            assert history.get("PC4", [])[-1:] == ["started"]  # the stream did report starts
            assert "SW2 Ethernet1 (to PC4)" in grown.text
            grown_checks = {c["check"]: c["passed"] for c in grown.structured["checks"]}
            for other in ("192.0.2.1", "192.0.2.2", "192.0.2.3"):
                assert grown_checks[f"PC4 pings {other}"] is True
            assert await _counts(client, pid) == (6, 5)

            record = UndoRecord.from_structured(grown.structured)
            assert record is not None and record.tool == "plan_lab"
            undo = await plan_undo(record, client, pid)
            assert [a.text for a in undo.actions] == [
                "remove link SW2 Ethernet1 <-> PC4 Ethernet0",
                "remove node PC4",
            ]
            assert (await run_undo(undo)).ok
            assert await _counts(client, pid) == (5, 4)
            assert "PC4" not in {n.name for n in await client.list_nodes(pid)}
            statuses = {n.name: n.status for n in await client.list_nodes(pid)}
            assert all(statuses[name] == "started" for name in running)

            bad = copy.deepcopy(SPEC)
            bad["nodes"].append({"name": "R1", "template": "Cisco 7200 (absent)"})
            bad["links"].append({"a": {"node": "PC1", "port": "Ethernet0"}, "b": {"node": "SW2"}})
            bad["subnets"].append({"name": "wan", "prefix": "192.0.2.128/25"})
            with pytest.raises(CallRefusedError) as refused:
                await tool.consequence(LabSpec.model_validate(bad), ctx)
            text = refused.value.user_message
            assert "no template named 'Cisco 7200 (absent)'" in text
            assert "PC1 Ethernet0 is already used by an existing link" in text
            assert "lan (192.0.2.0/24) and wan (192.0.2.128/25) overlap" in text
            assert await _counts(client, pid) == (5, 4)
        finally:
            await client.delete_project(pid)
