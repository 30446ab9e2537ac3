"""Two REAL FRR routers linked by GNS3 form an OSPF adjacency over the QEMU link.

GNS3 carries a QEMU node's link through ubridge (a UDP tunnel per adapter); here the clearly named
ubridge test double relays it. The routers are configured through the product's console code
(`run_on_devices`), and the check goes beyond ping: the neighbour is Full in ``show ip ospf
neighbor`` and the other router's loopback is an OSPF route in ``show ip route``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceJob,
    DeviceOutcome,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.devices.routing import ospf_neighbor_full, route_present
from gns3_copilot_desktop.core.gns3.models import LinkEnd
from gns3_copilot_desktop.core.practice.task import PassCondition
from gns3_copilot_desktop.core.practice.task_checks import condition_holds
from tests.helpers.frr_router import (
    BOOT_TIMEOUT_S,
    ROUTER_PASSWORD,
    ROUTER_USER,
    FrrTemplate,
    logged_in_client,
    wait_for_login_prompt,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

OSPF_FULL_TIMEOUT_S = 90.0


def _config(index: int) -> tuple[str, ...]:
    return (
        "interface eth0",
        f"ip address 10.0.12.{index}/24",
        "ip ospf network point-to-point",
        "ip ospf hello-interval 2",
        "ip ospf dead-interval 8",
        "exit",
        "interface lo",
        f"ip address 192.0.2.{index}/32",
        "exit",
        "router ospf",
        f"ospf router-id {index}.{index}.{index}.{index}",
        "network 10.0.12.0/24 area 0",
        f"network 192.0.2.{index}/32 area 0",
        "exit",
    )


async def _run(target: ConsoleTarget, *commands: str, lines: tuple[str, ...] = ()) -> DeviceOutcome:
    job = DeviceJob(target, commands, lines, DeviceCredentials(ROUTER_USER, ROUTER_PASSWORD))
    options = ConsoleOptions(connect_timeout=10, login_timeout=30, command_timeout=60)
    options = replace(options, boot_timeout=BOOT_TIMEOUT_S)
    [outcome] = await run_on_devices([job], options)
    assert outcome.ok, outcome.error
    return outcome


async def test_two_routers_over_a_qemu_link_reach_ospf_full(frr_template: FrrTemplate) -> None:
    async with await logged_in_client(frr_template.lab) as client:
        project = await client.create_project("frr-ospf-link")
        pid = project.project_id
        try:
            ra, rb = [
                await client.create_node_from_template(
                    pid, frr_template.template_id, x=x, y=0, name=name
                )
                for name, x in (("R1", -100), ("R2", 100))
            ]
            await client.create_link(
                pid,
                LinkEnd(node_id=ra.node_id, adapter_number=0, port_number=0),
                LinkEnd(node_id=rb.node_id, adapter_number=0, port_number=0),
            )
            await client.start_node(pid, ra.node_id)
            await client.start_node(pid, rb.node_id)
            ra, rb = [await client.get_node(pid, n.node_id) for n in (ra, rb)]
            assert ra.console is not None and rb.console is not None
            url = frr_template.lab.base_url
            ta, tb = target_for_node(ra, url), target_for_node(rb, url)
            await asyncio.gather(
                asyncio.to_thread(wait_for_login_prompt, ra.console, BOOT_TIMEOUT_S),
                asyncio.to_thread(wait_for_login_prompt, rb.console, BOOT_TIMEOUT_S),
            )
            pushed = await asyncio.gather(_run(ta, lines=_config(1)), _run(tb, lines=_config(2)))
            assert all(o.config is not None and o.config.ok for o in pushed), pushed

            started = time.monotonic()
            neighbours = ""
            while time.monotonic() - started < OSPF_FULL_TIMEOUT_S:
                neighbours = (await _run(ta, "show ip ospf neighbor")).results[0].output
                if "Full" in neighbours:
                    break
                await asyncio.sleep(2)  # the next read, not a guess: the loop ends on Full
            assert "2.2.2.2" in neighbours and "Full" in neighbours, neighbours
            routes = ""
            while time.monotonic() - started < OSPF_FULL_TIMEOUT_S:
                routes = (await _run(ta, "show ip route 192.0.2.2/32")).results[0].output
                if 'Known via "ospf"' in routes:
                    break
                await asyncio.sleep(2)  # SPF runs after the adjacency: read again until it has
            assert 'Known via "ospf"' in routes and "10.0.12.2" in routes, routes
            # a trainer's checks read the same real output through the task's parsed conditions
            assert ospf_neighbor_full(neighbours, "2.2.2.2"), neighbours
            assert not ospf_neighbor_full(neighbours, "3.3.3.3"), neighbours
            table = (await _run(ta, "show ip route")).results[0].output
            assert route_present(table, "192.0.2.2/32"), table
            assert route_present(table, "10.0.12.0/24"), table  # connected
            assert not route_present(table, "192.0.2.0/24"), table  # a shorter prefix is another
            assert route_present(routes, "192.0.2.2/32"), routes  # the detail of one route
            assert condition_holds(PassCondition(ospf_full="any"), neighbours)
            assert condition_holds(PassCondition(route="192.0.2.2/32"), table)
        finally:
            await client.delete_project(pid)
