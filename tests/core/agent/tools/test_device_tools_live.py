"""Power and device tools on REAL VPCS nodes of the real GNS3 server (the ``gns3_vpcs_lab``).

The lab (tests/helpers/vpcs_lab) runs the real server and Debian's real VPCS CLI, with test doubles
only for ubridge and VPCS's version check; it skips, saying why, where namespaces or the VPCS
package are not available. Everything goes through the scripted model and AgentService: nodes are
started and stopped with bounded waits, addresses configured (device-config, approved), show and
ping commands run at once (reads), and destructive or user-refused commands never reach a device.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.gns3 import Gns3Client
from tests.helpers.agent import ServiceFactory
from tests.helpers.gns3_server import find_dynamips
from tests.helpers.network_copilot import Copilot, call, open_copilot
from tests.helpers.scripted_openai import ScriptedOpenAIServer
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

USER_REFUSED = ["^clear arp"]


@pytest_asyncio.fixture
async def vpcs_copilot(
    gns3_vpcs_lab: Gns3VpcsLab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> AsyncIterator[Copilot]:
    async with two_linked_pcs(gns3_vpcs_lab, "device-tools") as (client, pid, _pc1, _pc2):
        access = DeviceAccess(refused_patterns=lambda: USER_REFUSED)
        yield await open_copilot(make_service, scripted_openai, client, pid, access=access)


async def _status(cp: Copilot) -> dict[str, str]:
    return {n.name: n.status for n in await cp.client.list_nodes(cp.project_id)}


async def test_power_and_device_tools_on_real_vpcs(vpcs_copilot: Copilot) -> None:
    cp = vpcs_copilot
    # start: reject, then approve with a bounded wait that sees both nodes started
    _, end = await cp.change(call("start_nodes", {"all": True}), "reject")
    assert await _status(cp) == {"PC1": "stopped", "PC2": "stopped"}
    approval, end = await cp.change(call("start_nodes", {"nodes": ["PC1", "pc2"]}), "approve")
    assert approval.summary == "start PC1, pc2 and wait up to 120 s"
    assert end.status == "ok" and "2 of 2 node(s) started" in (end.tool_output or "")
    assert await _status(cp) == {"PC1": "started", "PC2": "started"}
    progress = [
        c.content or ""
        for c in cp.log[-1]
        if c.type == "tool_start" and c.tool_call_id == approval.tool_call_id
    ]
    assert progress[0] == approval.summary and any("2/2 started" in p for p in progress[1:])

    # configuration is a device-config change: approve with edited lines
    approval, end = await cp.change(
        call(
            "configure_devices",
            {
                "devices": [
                    {"node": "PC1", "lines": ["ip 192.0.2.1/24"]},
                    {"node": "PC2", "lines": ["ip 192.0.2.9/24"]},
                ]
            },
        ),
        "edit",
        arguments={
            "devices": [
                {"node": "PC1", "lines": ["ip 192.0.2.1/24"]},
                {"node": "PC2", "lines": ["ip 192.0.2.2/24"]},
            ]
        },
    )
    # an address on a VPCS loses nothing (and is undone from the config read before): not red
    assert approval.risk == "device-config" and not approval.destructive
    assert approval.summary == "configure PC1: ip 192.0.2.1/24 | PC2: ip 192.0.2.9/24"
    # before the decision, the card was told each device's lines against its running
    # configuration, read over the real console
    assert (
        approval.consequence
        == "PC1: 1 new line(s), 0 already there; PC2: 1 new line(s), 0 already there"
    )
    assert approval.diff is not None
    assert "== PC1 (show ip) ==\n+ ip 192.0.2.1/24" in approval.diff, approval.diff
    assert end.status == "ok", end.tool_output
    # after the push, the result (and so the tool card) keeps what changed on each device
    output = end.tool_output or ""
    assert output.count("Running configuration changes (show ip):") == 2, output
    assert any(line.startswith("+") and "192.0.2.2/24" in line for line in output.splitlines()), (
        output
    )

    # show and ping only read: they run at once, on both devices in one call
    end = await cp.read(
        call(
            "run_device_commands",
            {
                "devices": [
                    {"node": "PC1", "commands": ["show ip"]},
                    {"node": "PC2", "commands": ["ping 192.0.2.1 -c 2"]},
                ]
            },
        )
    )
    output = end.tool_output or ""
    assert end.status == "ok" and "192.0.2.1/24" in output, output
    assert output.count("192.0.2.1 icmp_seq=") == 2, output

    # a command that changes the device needs approval; rejected, the address stays
    approval, end = await cp.change(
        call(
            "run_device_commands", {"devices": [{"node": "PC1", "commands": ["ip 192.0.2.77/24"]}]}
        ),
        "reject",
    )
    assert approval.risk == "device-config" and end.status == "rejected"
    end = await cp.read(
        call("run_device_commands", {"devices": [{"node": "PC1", "commands": ["show ip"]}]})
    )
    assert "192.0.2.1/24" in (end.tool_output or "") and "192.0.2.77" not in (end.tool_output or "")

    # destructive (built-in list) and user-refused commands never reach the device: refused
    # before any card is shown, the model is told why (the console refuses them again)
    end = await cp.read(
        call(
            "run_device_commands",
            {
                "devices": [
                    {"node": "PC1", "commands": ["quit"]},
                    {"node": "PC2", "commands": ["clear arp"]},
                ]
            },
        )
    )
    output = end.tool_output or ""
    assert end.status == "error" and "Refused, nothing was sent: PC1: 'quit'" in output, output
    assert "PC2: 'clear arp': matches the user's refused pattern '^clear arp'" in output
    assert await _status(cp) == {"PC1": "started", "PC2": "started"}

    # stop: edit (one node only), then approve the rest; statuses follow
    _, end = await cp.change(
        call("stop_nodes", {"all": True}), "edit", arguments={"nodes": ["PC2"]}
    )
    assert end.status == "ok" and await _status(cp) == {"PC1": "started", "PC2": "stopped"}
    _, end = await cp.change(call("stop_nodes", {"all": True}), "approve")
    assert end.status == "ok" and await _status(cp) == {"PC1": "stopped", "PC2": "stopped"}
    # a stopped node's console is not used; the model is told why
    end = await cp.read(
        call("run_device_commands", {"devices": [{"node": "PC1", "commands": ["show ip"]}]})
    )
    assert end.status == "error" and "PC1 is stopped; start it" in (end.tool_output or "")


async def test_capture_a_ping_through_a_switch(
    gns3_vpcs_lab: Gns3VpcsLab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    """PC1 - SW1 - PC2 built by the copilot; the capture of PC1's link sees the ping's packets."""
    dynamips, why = find_dynamips()
    if dynamips is None:
        pytest.skip(why)
    async with Gns3Client(gns3_vpcs_lab.base_url) as client:
        token = await client.authenticate(gns3_vpcs_lab.username, gns3_vpcs_lab.password)
        client.token = token.access_token
        pid = (await client.create_project("capture-lab")).project_id
        try:
            cp = await open_copilot(make_service, scripted_openai, client, pid)
            await _switched_capture(cp)
        finally:
            await client.delete_project(pid)


async def _switched_capture(cp: Copilot) -> None:
    nodes = [{"template": "Ethernet switch", "name": "SW1"}]
    nodes += [{"template": "VPCS", "name": name} for name in ("PC1", "PC2")]
    steps = [
        call("create_nodes", {"nodes": nodes}),
        call("create_links", {"links": [{"node_a": p, "node_b": "SW1"} for p in ("PC1", "PC2")]}),
        call("start_nodes", {"all": True}),
        call("start_capture", {"link": {"node_a": "PC1", "node_b": "SW1"}}),
        call(
            "configure_devices",
            {
                "devices": [
                    {"node": "PC1", "lines": ["ip 192.0.2.1/24"]},
                    {"node": "PC2", "lines": ["ip 192.0.2.2/24"]},
                ]
            },
        ),
    ]
    for step in steps:
        _, end = await cp.change(step, "approve")
        assert end.status == "ok", (step.name, end.tool_output)
    end = await cp.read(
        call(
            "run_device_commands",
            {"devices": [{"node": "PC2", "commands": ["ping 192.0.2.1 -c 3"]}]},
        )
    )
    assert (end.tool_output or "").count("192.0.2.1 icmp_seq=") == 3, end.tool_output
    _, end = await cp.change(call("stop_capture", {"link": {"node_a": "PC1"}}), "approve")
    end = await cp.read(call("summarize_capture", {"link": {"node_a": "PC1"}}))
    summary = end.structured or {}
    assert end.status == "ok" and summary["link_type"] == "Ethernet", end.tool_output
    assert summary["protocols"]["ICMP"] >= 6 and summary["protocols"]["ARP"] >= 2, summary
    assert {"192.0.2.1", "192.0.2.2"} <= set(summary["top_talkers"])
    assert "192.0.2.1 <-> 192.0.2.2" in (end.tool_output or "")
