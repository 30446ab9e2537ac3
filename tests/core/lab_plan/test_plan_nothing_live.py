"""A lab plan the project already matches asks for no approval: the real service, a scripted
model and the REAL GNS3 server; the call is answered "nothing to change" at once, no approval card
is shown, and the lab is untouched. A plan that changes something still waits for approval."""

from __future__ import annotations

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.tools.plan_tools import NOTHING_TO_DO
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from tests.helpers.agent import ServiceFactory
from tests.helpers.network_copilot import Copilot, call, nodes_by_name, open_copilot
from tests.helpers.scripted_openai import ScriptedOpenAIServer

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


@pytest_asyncio.fixture
async def copilot(
    gns3_client: Gns3Client,
    gns3_project: Project,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> Copilot:
    return await open_copilot(make_service, scripted_openai, gns3_client, gns3_project.project_id)


async def test_a_plan_with_nothing_to_change_is_answered_without_approval(
    copilot: Copilot, requires_dynamips: None
) -> None:
    cp = copilot
    await cp.client.create_node(cp.project_id, "SW1", "ethernet_switch", x=0, y=0)
    spec = {"nodes": [{"name": "SW1", "template": "Ethernet switch"}], "links": []}
    scripted = call("plan_lab", spec)
    end = await cp.read(scripted)  # asserts that no approval was asked
    assert end.status == "ok" and end.tool_output == NOTHING_TO_DO, end.tool_output
    assert cp.last_tool_text(scripted.id or "") == NOTHING_TO_DO
    assert set(await nodes_by_name(cp)) == {"SW1"}

    bigger = {"nodes": [*spec["nodes"], {"name": "SW2", "template": "Ethernet switch"}]}
    approval, end = await cp.change(call("plan_lab", bigger), "reject")
    assert approval.consequence == "add 1 node"
    assert set(await nodes_by_name(cp)) == {"SW1"}
