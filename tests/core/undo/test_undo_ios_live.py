"""A configuration push to an IOS-like router, restored: the real GNS3 server holds the node and
the approval path is real; the console is the telnet lab's modeled IOS device (a test double: no
router image runs here) with a login and an enable secret from the secret store. After the
restore the router's running configuration is exactly what it was."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.tools.device_tools import (
    ConfigureDevicesTool,
    DeviceAccess,
    DirectConsoleContext,
)
from gns3_copilot_desktop.core.devices import ConsoleTarget, DeviceKind
from gns3_copilot_desktop.core.devices.batch import DeviceOutcome
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from gns3_copilot_desktop.core.undo.record import RestoreConfig, UndoRecord
from tests.helpers.agent import ServiceFactory
from tests.helpers.network_copilot import call, open_copilot
from tests.helpers.scripted_openai import ScriptedOpenAIServer
from tests.helpers.telnet_lab import ModeledIosDevice, TelnetLab

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

PUSH = [
    "hostname CORE",
    "interface Ethernet0/1",
    "description uplink",
    "ip address 10.0.0.1 255.255.255.0",
    "no shutdown",
    "interface Loopback1",
    "ip address 1.1.1.1 255.255.255.255",
    "no ip domain lookup",
]


@dataclass
class Router:
    """The modeled router, its node in the real project, and the console access to it."""

    device: ModeledIosDevice
    node: Node
    access: DeviceAccess
    pusher: Callable[[Node, Sequence[str]], Awaitable[DeviceOutcome]]


@pytest_asyncio.fixture
async def router(
    gns3_client: Gns3Client,
    gns3_project: Project,
    telnet_lab: TelnetLab,
    secret_store: SecretStore,
) -> Router:
    device = ModeledIosDevice(name="R1", interfaces=4)
    running = await telnet_lab.start(device)
    pid = gns3_project.project_id
    node = await gns3_client.create_node(pid, "R1", "vpcs")
    login = DeviceCredential("admin", "lab-password", "lab-enable")
    await secret_store.set_node_credential(gns3_client.base_url, pid, node.node_id, login)
    access = DeviceAccess(
        secret_store=secret_store,
        target_for=lambda n, _: ConsoleTarget(n.name, running.host, running.port, DeviceKind.IOS),
    )
    tool = ConfigureDevicesTool(access)
    where = DirectConsoleContext(gns3_client, pid, gns3_client.base_url)

    async def push(target: Node, lines: Sequence[str]) -> DeviceOutcome:
        return await tool.push_lines(where, target, lines)

    return Router(device, node, access, push)


async def test_an_ios_push_is_restored_to_the_exact_running_configuration(
    gns3_client: Gns3Client,
    gns3_project: Project,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    router: Router,
) -> None:
    device = router.device
    before = device.running_config()
    pid = gns3_project.project_id
    cp = await open_copilot(make_service, scripted_openai, gns3_client, pid, access=router.access)
    _, end = await cp.change(
        call("configure_devices", {"devices": [{"node": "R1", "lines": PUSH}]}), "approve"
    )
    assert end.status == "ok", end.tool_output
    assert "hostname CORE" in device.running_config()
    record = UndoRecord.from_structured(end.structured)
    assert record is not None
    [step] = record.steps
    assert isinstance(step, RestoreConfig) and step.left_out == []
    assert step.lines == [  # global lines first, in the order the router printed them
        "no hostname CORE",
        "ip domain lookup",
        "no interface Loopback1",
        "hostname R1",
        "interface Ethernet0/1",
        "no ip address 10.0.0.1 255.255.255.0",
        "no description",
        "no ip address",
        "shutdown",
    ]

    plan = await plan_undo(record, gns3_client, pid, push_config=router.pusher)
    outcome = await run_undo(plan)
    assert outcome.ok, outcome.failed
    assert device.running_config() == before
    assert all("lab-" not in line for line in step.lines)  # no secret in the record


async def test_a_restore_with_a_destructive_line_never_reaches_the_router(
    gns3_client: Gns3Client, gns3_project: Project, router: Router
) -> None:
    """Restore lines come from what a device printed: a hostile router that printed
    ``do reload`` in its configuration gets nothing pushed, not even the harmless lines."""
    device, node, pid = router.device, router.node, gns3_project.project_id
    record = UndoRecord(
        tool="configure_devices",
        steps=[
            RestoreConfig(
                node_id=node.node_id,
                name="R1",
                read_command="show running-config",
                lines=["hostname CORE", "do reload"],
            )
        ],
    )
    plan = await plan_undo(record, gns3_client, pid, push_config=router.pusher)
    assert plan.actions[0].lines == ("hostname CORE", "do reload")  # shown to the user first
    outcome = await run_undo(plan)
    assert not outcome.ok and "reload" in (outcome.failed or "")
    assert device.name == "R1" and not any("reload" in line for line in device.received)


async def test_a_restore_with_a_hostile_applet_is_refused_and_nothing_reaches_the_router(
    gns3_client: Gns3Client, gns3_project: Project, router: Router
) -> None:
    """A record (from a database or a remote service) whose 64 restore lines hide an EEM applet
    that reloads at line 51: the question lists every line, the console refuses the push, and
    not one line of it (nor configure terminal) reaches the router."""
    device, node, pid = router.device, router.node, gns3_project.project_id
    lines = [f"interface Loopback{i}" for i in range(50)]
    lines += ["event manager applet BOOT", "event timer countdown time 30", "action 1.0 reload"]
    lines += [f"ip host h{i} 10.0.0.{i}" for i in range(11)]
    assert len(lines) == 64
    step = RestoreConfig(
        node_id=node.node_id, name="R1", read_command="show running-config", lines=lines
    )
    record = UndoRecord(tool="configure_devices", steps=[step])
    plan = await plan_undo(record, gns3_client, pid, push_config=router.pusher)
    assert plan.actions[0].lines == tuple(lines)  # all of them go to the question
    received_before = list(device.received)
    outcome = await run_undo(plan)
    assert not outcome.ok
    assert "action 1.0 reload" in (outcome.failed or "") and "reload" in (outcome.failed or "")
    sent = device.received[len(received_before) :]
    assert not any(line in sent for line in lines), sent
    assert not any(s.startswith(("conf", "event", "action")) for s in sent), sent
