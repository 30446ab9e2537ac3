"""From a GNS3 node to the console to connect to."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.devices.targets import kind_for_node_type, target_for_node
from gns3_copilot_desktop.core.errors import DeviceError
from gns3_copilot_desktop.core.gns3.models import Node


def _node(**fields: object) -> Node:
    base: dict[str, object] = {
        "node_id": "n1",
        "name": "R1",
        "node_type": "dynamips",
        "status": "started",
        "console": 5000,
        "console_host": "192.0.2.10",
        "console_type": "telnet",
    }
    return Node.model_validate({**base, **fields})


def test_a_started_telnet_node_gives_its_console() -> None:
    target = target_for_node(_node(), "http://gns3.example:3080")
    assert (target.name, target.host, target.port, target.kind) == (
        "R1",
        "192.0.2.10",
        5000,
        DeviceKind.IOS,
    )


@pytest.mark.parametrize("bound", ["0.0.0.0", "::", None])
def test_a_console_on_every_address_is_reached_through_the_server_host(bound: str | None) -> None:
    target = target_for_node(_node(console_host=bound), "http://192.0.2.99:3080")
    assert target.host == "192.0.2.99"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"status": "stopped"}, "R1 is stopped; start it"),
        ({"console": None}, "no console port"),
        ({"console_type": "vnc"}, "vnc console"),
    ],
)
def test_unusable_consoles_are_explained(fields: dict[str, object], message: str) -> None:
    with pytest.raises(DeviceError, match=message):
        target_for_node(_node(**fields), "http://127.0.0.1:3080")


def test_kinds_by_node_type() -> None:
    assert kind_for_node_type("vpcs") is DeviceKind.VPCS
    assert kind_for_node_type("iou") is DeviceKind.IOS
    assert kind_for_node_type("docker") is DeviceKind.LINUX
    assert kind_for_node_type("qemu") is DeviceKind.AUTO


@pytest.mark.parametrize(("node_type", "newline"), [("qemu", "\r"), ("dynamips", None)])
def test_a_qemu_serial_console_gets_a_carriage_return_as_enter(
    node_type: str, newline: str | None
) -> None:
    # CR LF on a serial line is two Enters: the LF would answer the next question (a password)
    assert target_for_node(_node(node_type=node_type), "http://h:3080").newline == newline
