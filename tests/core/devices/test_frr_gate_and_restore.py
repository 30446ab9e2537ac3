"""The command gate, configuration push and Restore on a REAL FRR router (vtysh), not a model.

Shares the session's router (``frr_router``). Reads run at once and print what vtysh prints;
``write erase``, ``reload`` and their ``do`` forms in configuration mode never reach the router;
a push is read before and after with ``show running-config`` and its ``+`` lines are what changed;
the Restore computed from that pair brings the running configuration back line for line.
"""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.tools.device_results import config_changes, config_preview
from gns3_copilot_desktop.core.devices import (
    CommandRefusedError,
    DeviceConsole,
    DeviceJob,
    run_on_devices,
)
from gns3_copilot_desktop.core.devices.command_risk import is_read_only_command
from gns3_copilot_desktop.core.undo.config import restore_lines
from tests.helpers.frr_router import FrrRouter

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

READS = [
    "show running-config",
    "show ip route",
    "show interface brief",
    "show ip ospf neighbor",  # vtysh: "% OSPF is not enabled" until OSPF runs
    "show bgp summary",
    "traceroute 127.0.0.1",
]
PUSH = [
    "interface eth1",
    "description to-R2",
    "ip address 10.12.0.1/24",
    "ip ospf cost 40",
    "exit",
    "router ospf",
    "ospf router-id 1.1.1.1",
    "network 10.12.0.0/24 area 0",
    "exit",
    "ip route 192.0.2.0/24 10.12.0.2",
]


async def _running(router: FrrRouter) -> str:
    async with DeviceConsole(router.target, router.credentials, router.options) as con:
        return (await con.run_command("show running-config")).output


async def test_reads_run_and_destructive_commands_never_reach_vtysh(frr_router: FrrRouter) -> None:
    assert all(is_read_only_command(c) for c in READS)
    async with DeviceConsole(frr_router.target, frr_router.credentials, frr_router.options) as con:
        results = await con.run_commands(READS)
        before = (await con.run_command("show running-config")).output
        for refused in (["write erase"], ["reload"], ["show version", "write erase"]):
            with pytest.raises(CommandRefusedError, match="nothing was sent"):
                await con.run_commands(refused)
        for lines in (["do write erase"], ["interface eth2", "do reload"]):
            with pytest.raises(CommandRefusedError):
                await con.push_config(lines)
        after = (await con.run_command("show running-config")).output
    # a read vtysh refuses is that line's failure, with vtysh's words; the others ran
    errors = [r.error for r in results]
    # vtysh answers a read of a protocol that is not configured with an error of that line
    assert errors[3] in (None, "% OSPF is not enabled in vrf default")
    assert errors[4] in (None, "% BGP instance not found")
    assert errors[:3] + errors[5:] == [None] * 4, [r.output for r in results]
    assert "hostname router" in results[0].output
    assert "127.0.0.1" in results[-1].output
    assert after == before  # nothing of a refused request ran
    # a change is never a read: the gate asks the user first
    for change in (
        "write memory",
        "configure terminal",
        "do show ip route",
        "clear ip ospf process",
    ):
        assert not is_read_only_command(change), change


async def test_a_push_shows_its_plus_lines_and_restore_brings_back_the_exact_config(
    frr_router: FrrRouter,
) -> None:
    original = await _running(frr_router)
    preview, new, present = config_preview(PUSH, original)
    assert new + present == len(PUSH) and new >= 7, preview
    assert "+ ip address 10.12.0.1/24" in preview

    job = DeviceJob(
        frr_router.target, (), tuple(PUSH), frr_router.credentials, snapshot_config=True
    )
    [pushed] = await run_on_devices([job], frr_router.options)
    assert pushed.ok and pushed.config is not None and pushed.config.ok, pushed
    changes = config_changes(pushed) or ""
    added = {
        line[1:].strip()
        for line in changes.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    }
    assert {"ip address 10.12.0.1/24", "network 10.12.0.0/24 area 0"} <= added, changes
    assert "ip route 192.0.2.0/24 10.12.0.2" in added, changes
    assert pushed.config_before is not None and pushed.config_before.output == original

    # Restore (the Undo of the push): computed from the pair, pushed, compared line by line
    assert pushed.config_after is not None
    restore = restore_lines("show running-config", original, pushed.config_after.output)
    assert restore.lines and not restore.left_out, restore
    undo = DeviceJob(frr_router.target, (), tuple(restore.lines), frr_router.credentials)
    [undone] = await run_on_devices([undo], frr_router.options)
    assert undone.ok and undone.config is not None, undone
    assert undone.config.ok, (undone.config.rejected, undone.config.output)
    restored = await _running(frr_router)
    assert restored.splitlines() == original.splitlines(), (restore.lines, restored)
