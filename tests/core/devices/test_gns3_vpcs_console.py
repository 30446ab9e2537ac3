"""Device consoles through the REAL GNS3 server: VPCS nodes, a link, telnet console ports.

Uses the ``gns3_vpcs_lab`` fixture (tests/helpers/vpcs_lab/gns3_lab.py): the real server, real
VPCS CLI, and test doubles only for ubridge and VPCS's version check. Skips saying why where the
lab cannot run.
"""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceJob,
    DeviceKind,
    run_on_devices,
    target_for_node,
)
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = [pytest.mark.asyncio, pytest.mark.gns3, pytest.mark.slow]


async def test_configure_and_ping_between_linked_vpcs_nodes(gns3_vpcs_lab: Gns3VpcsLab) -> None:
    async with two_linked_pcs(gns3_vpcs_lab, "vpcs-console-lab") as (client, pid, pc1, pc2):
        for node in (pc1, pc2):
            await client.start_node(pid, node.node_id)
        nodes = [await client.get_node(pid, n.node_id) for n in (pc1, pc2)]
        targets = [target_for_node(n, gns3_vpcs_lab.base_url) for n in nodes]
        assert all(t.kind is DeviceKind.VPCS for t in targets)
        options = ConsoleOptions(connect_timeout=5, login_timeout=5, command_timeout=15)
        configured = await run_on_devices(
            [
                DeviceJob(targets[0], ("show ip",), ("ip 192.0.2.1/24",)),
                DeviceJob(targets[1], ("show ip",), ("ip 192.0.2.2/24",)),
            ],
            options,
        )
        assert [o.error for o in configured] == [None, None], gns3_vpcs_lab.log_text()
        shown = [o.results[0].output for o in configured]
        assert "192.0.2.1/24" in shown[0] and "192.0.2.2/24" in shown[1], shown
        # Three tries: on a loaded machine the first echo can be lost while ARP resolves.
        [ping] = await run_on_devices([DeviceJob(targets[1], ("ping 192.0.2.1 -c 3",))], options)
        assert ping.error is None, ping.error
        replies = ping.results[0].output.count("ttl=")
        assert replies >= 1, f"{ping.results[0].output}\n{gns3_vpcs_lab.log_text()}"


async def test_the_first_command_after_a_start_with_a_startup_script_is_answered(
    gns3_vpcs_lab: Gns3VpcsLab,
) -> None:
    """A VPCS that has just started prints its banner and runs its startup script while the
    console wakes it; the wake-up newline is then owed an answer and the first line typed is
    dropped. Before the resync, the first ``show ip`` came back empty (3 of 3 runs)."""
    async with two_linked_pcs(gns3_vpcs_lab, "vpcs-first-command") as (client, pid, pc1, _):
        script = "set pcname PC1\nip 192.0.2.2/24\n"
        await client.write_node_file(pid, pc1.node_id, "startup.vpc", script)
        await client.start_node(pid, pc1.node_id)
        node = await client.get_node(pid, pc1.node_id)
        job = DeviceJob(target_for_node(node, gns3_vpcs_lab.base_url), ("show ip",))
        [outcome] = await run_on_devices([job])
        assert outcome.error is None, gns3_vpcs_lab.log_text()
        assert "IP/MASK     : 192.0.2.2/24" in outcome.results[0].output
