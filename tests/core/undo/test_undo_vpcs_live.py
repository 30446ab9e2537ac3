"""Restoring configuration, and bringing back a running VPCS, on REAL VPCS nodes of the real
GNS3 server (the ``gns3_vpcs_lab``: real server and VPCS CLI; test doubles only for ubridge and
VPCS's version check; it skips, saying why, where namespaces or the VPCS package are missing).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.tools.device_tools import (
    ConfigureDevicesTool,
    DeviceAccess,
    DirectConsoleContext,
)
from gns3_copilot_desktop.core.devices.batch import DeviceOutcome
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from gns3_copilot_desktop.core.undo.record import RestoreConfig, UndoRecord
from tests.helpers.agent import ServiceFactory
from tests.helpers.network_copilot import Copilot, call, open_copilot
from tests.helpers.scripted_openai import ScriptedOpenAIServer
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

USER_REFUSED = ["^set pcname"]


@pytest_asyncio.fixture
async def vpcs_copilot(
    gns3_vpcs_lab: Gns3VpcsLab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> AsyncIterator[Copilot]:
    async with two_linked_pcs(gns3_vpcs_lab, "undo-config") as (client, pid, _pc1, _pc2):
        access = DeviceAccess(refused_patterns=lambda: USER_REFUSED)
        cp = await open_copilot(make_service, scripted_openai, client, pid, access=access)
        _, end = await cp.change(call("start_nodes", {"all": True}), "approve")
        assert end.status == "ok", end.tool_output
        yield cp


def _pusher(cp: Copilot, access: DeviceAccess | None = None):  # type: ignore[no-untyped-def]
    tool = ConfigureDevicesTool(access or DeviceAccess(refused_patterns=lambda: USER_REFUSED))
    where = DirectConsoleContext(cp.client, cp.project_id, cp.client.base_url)

    async def push(node: Node, lines: list[str]) -> DeviceOutcome:
        return await tool.push_lines(where, node, lines)

    return push


async def _show_ip(cp: Copilot, node: str) -> str:
    devices = [{"node": node, "commands": ["show ip"]}]
    end = await cp.read(call("run_device_commands", {"devices": devices}))
    assert end.status == "ok", end.tool_output
    return end.tool_output or ""


async def test_a_pushed_configuration_is_restored_after_the_user_approves_the_lines(
    vpcs_copilot: Copilot,
) -> None:
    cp = vpcs_copilot
    first = [{"node": "PC1", "lines": ["ip 192.0.2.1/24 192.0.2.254"]}]
    _, end = await cp.change(call("configure_devices", {"devices": first}), "approve")
    assert end.status == "ok", end.tool_output
    _, end = await cp.change(
        call("configure_devices", {"devices": [{"node": "PC1", "lines": ["ip 10.0.0.5/8"]}]}),
        "approve",
    )
    record = UndoRecord.from_structured(end.structured)
    assert record is not None
    [step] = record.steps
    assert isinstance(step, RestoreConfig)
    assert step.lines == ["ip 192.0.2.1/24 192.0.2.254"] and step.read_command == "show ip"
    assert "IP/MASK     : 10.0.0.5/8" in await _show_ip(cp, "PC1")
    # the card keeps the configuration before and after the push
    assert end.structured is not None
    [card] = end.structured["devices"]
    assert card["config_before"]["command"] == "show ip"
    assert "IP/MASK     : 192.0.2.1/24" in card["config_before"]["text"]
    assert "IP/MASK     : 10.0.0.5/8" in card["config_after"]["text"]

    plan = await plan_undo(record, cp.client, cp.project_id, push_config=_pusher(cp))
    [action] = plan.actions
    assert action.text == "push back 1 line(s) to PC1"
    assert action.lines == ("ip 192.0.2.1/24 192.0.2.254",)
    outcome = await run_undo(plan)
    assert outcome.ok, outcome.failed
    shown = await _show_ip(cp, "PC1")
    assert "IP/MASK     : 192.0.2.1/24" in shown and "GATEWAY     : 192.0.2.254" in shown


async def test_a_restore_goes_through_the_same_command_gate(vpcs_copilot: Copilot) -> None:
    """A restore line the user's refused patterns name never reaches the device: the undo
    fails on it and says so."""
    cp = vpcs_copilot
    nodes = {n.name: n for n in await cp.client.list_nodes(cp.project_id)}
    record = UndoRecord(
        tool="configure_devices",
        steps=[
            RestoreConfig(
                node_id=nodes["PC2"].node_id,
                name="PC2",
                read_command="show ip",
                lines=["set pcname EVIL"],
            )
        ],
    )
    plan = await plan_undo(record, cp.client, cp.project_id, push_config=_pusher(cp))
    outcome = await run_undo(plan)
    assert not outcome.ok and "refused" in (outcome.failed or "").lower()
    assert "EVIL" not in await _show_ip(cp, "PC2")


async def test_a_running_vpcs_deleted_comes_back_with_what_it_ran(
    vpcs_copilot: Copilot,
) -> None:
    cp = vpcs_copilot
    _, end = await cp.change(
        call("configure_devices", {"devices": [{"node": "PC2", "lines": ["ip 192.0.2.2/24"]}]}),
        "approve",
    )
    assert end.status == "ok", end.tool_output
    _, end = await cp.change(call("delete_nodes", {"nodes": ["PC2"]}), "approve")
    assert end.status == "ok", end.tool_output
    record = UndoRecord.from_structured(end.structured)
    assert record is not None
    outcome = await run_undo(await plan_undo(record, cp.client, cp.project_id))
    assert outcome.ok, outcome.failed
    _, end = await cp.change(call("start_nodes", {"nodes": ["PC2"]}), "approve")
    assert end.status == "ok", end.tool_output
    assert "IP/MASK     : 192.0.2.2/24" in await _show_ip(cp, "PC2")


async def test_a_command_that_changes_a_device_can_be_restored_too(vpcs_copilot: Copilot) -> None:
    """run_device_commands with a command the gate does not know as a read is approved like a
    push, and reads the configuration around it: the address it set is cleared on restore."""
    cp = vpcs_copilot
    _, end = await cp.change(
        call("run_device_commands", {"devices": [{"node": "PC1", "commands": ["ip 10.1.1.1/24"]}]}),
        "approve",
    )
    assert end.status == "ok", end.tool_output
    record = UndoRecord.from_structured(end.structured)
    assert record is not None and record.tool == "run_device_commands"
    [step] = record.steps
    assert isinstance(step, RestoreConfig) and step.lines == ["clear ip"]
    outcome = await run_undo(await plan_undo(record, cp.client, cp.project_id,
                                             push_config=_pusher(cp)))  # fmt: skip
    assert outcome.ok, outcome.failed
    assert "IP/MASK     : 0.0.0.0/0" in await _show_ip(cp, "PC1")
