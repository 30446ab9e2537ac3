"""``plan_lab`` on the REAL GNS3 server with startable VPCS (``gns3_vpcs_lab``) and dynamips
switches: applied (nodes started, hosts ping across two switches), re-applied (nothing changes),
extended (only the new part), undone (the project back to its snapshot), and refused plans
(missing template, used port, overlapping subnets) named before any card."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.base import CallRefusedError
from gns3_copilot_desktop.core.agent.tools.plan_tools import NOTHING_TO_DO, PlanLabTool
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.lab_plan.apply import ApplyReport, undo_plan, undo_preview
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
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
            applied = await tool.run(spec, ctx)
            assert not applied.is_error, applied.text
            assert "SW1 Ethernet2 (to SW2)" in applied.text  # after PC1 (e0), PC2 (e1)
            checks = {c["check"]: c["passed"] for c in applied.structured["checks"]}
            assert checks == {
                **{f"{n} started": True for n in ("SW1", "SW2", "PC1", "PC2", "PC3")},
                "PC1 pings 192.0.2.3": True,
            }
            assert await _counts(client, pid) == (5, 4)

            again = await tool.consequence(spec, ctx)
            assert again.text == "nothing to change"
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
            grown = await tool.run(extended, ctx)
            assert not grown.is_error, grown.text
            assert "SW2 Ethernet1 (to PC4)" in grown.text
            assert await _counts(client, pid) == (6, 5)

            report = ApplyReport(
                snapshot_id=grown.structured["snapshot_id"],
                added_nodes=grown.structured["added_nodes"],
                added_links=grown.structured["added_links"],
            )
            assert await undo_preview(client, pid, report) == [
                "node PC4",
                "link SW2 Ethernet1 <-> PC4 Ethernet0",
            ]
            await undo_plan(client, pid, report.snapshot_id)
            assert await _counts(client, pid) == (5, 4)
            assert "PC4" not in {n.name for n in await client.list_nodes(pid)}

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
