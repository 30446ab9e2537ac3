"""Every read command of the VPCS and FRR sheets runs on the real device: the real VPCS of the
GNS3 lab and the project's real FRR router (vtysh), and neither CLI refuses it."""

from __future__ import annotations

import re

import pytest

from gns3_copilot_desktop.core.devices import (
    DeviceConsole,
    DeviceJob,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.devices.sheets import device_sheets
from tests.helpers.frr_router import FrrRouter
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

# What each CLI prints for a command it does not know or cannot parse.
VPCS_REFUSALS = re.compile(r"Bad command|Invalid command|Unknown command", re.IGNORECASE)
VTYSH_REFUSALS = re.compile(r"% (Unknown command|Invalid input|Command incomplete|Ambiguous)")


async def test_the_vpcs_sheet_reads_run_on_real_vpcs(gns3_vpcs_lab: Gns3VpcsLab) -> None:
    reads = device_sheets()["vpcs"].read_commands
    async with two_linked_pcs(gns3_vpcs_lab, "sheet reads") as (client, pid, pc1, _pc2):
        await client.start_node(pid, pc1.node_id)
        node = await client.get_node(pid, pc1.node_id)
        [outcome] = await run_on_devices([DeviceJob(target_for_node(node, client.base_url), reads)])
    assert outcome.ok, outcome.error
    for result in outcome.results:
        assert not VPCS_REFUSALS.search(result.output), (result.command, result.output)
    assert [r.command for r in outcome.results] == list(reads)


async def test_the_frr_sheet_reads_run_on_the_real_router(frr_router: FrrRouter) -> None:
    reads = device_sheets()["frr"].read_commands
    async with DeviceConsole(frr_router.target, frr_router.credentials, frr_router.options) as con:
        results = await con.run_commands(list(reads))
    for result in results:
        assert not VTYSH_REFUSALS.search(result.output), (result.command, result.output)
    assert [r.command for r in results] == list(reads)
