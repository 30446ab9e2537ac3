"""run_device_commands is a read only when every command only reads."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.tools.command_risk import is_read_only_command
from gns3_copilot_desktop.core.agent.tools.device_tools import (
    RunDeviceCommandsArgs,
    RunDeviceCommandsTool,
)


@pytest.mark.parametrize(
    "command",
    [
        "show ip",
        "sh ip int br",
        "show running-config | include hostname",
        "show ip route | i 10.0",
        "display interface brief",
        "ping 192.0.2.2 -c 2",
        "traceroute 10.0.0.1",
        "ip addr",
        "ip -br a",
        "ip route show",
        "ifconfig",
        "ifconfig eth0",
        "arp",
        "cat /etc/hostname",
    ],
)
def test_reading_commands(command: str) -> None:
    assert is_read_only_command(command)


@pytest.mark.parametrize(
    "command",
    [
        "ip 192.0.2.1/24",
        "ip addr add 10.0.0.1/24 dev eth0",
        "ip route add default via 10.0.0.254",
        "ifconfig eth0 10.0.0.1 netmask 255.255.255.0",
        "configure terminal",
        "conf t",
        "write memory",
        "clear ip",
        "hostname R9",
        "arp -d 10.0.0.1",
        "show ip; reboot",
        "cat /etc/passwd > /tmp/x",
        "show run | tee flash:x",
        "echo $(reboot)",
        "",
    ],
)
def test_changing_or_unknown_commands(command: str) -> None:
    assert not is_read_only_command(command)


def test_the_tool_asks_approval_only_for_changing_commands() -> None:
    tool = RunDeviceCommandsTool()
    reads = RunDeviceCommandsArgs.model_validate(
        {
            "devices": [
                {"node": "PC1", "commands": ["show ip"]},
                {"node": "R1", "commands": ["sh ver"]},
            ]
        }
    )
    mixed = RunDeviceCommandsArgs.model_validate(
        {"devices": [{"node": "PC1", "commands": ["show ip", "ip 10.0.0.1/24"]}]}
    )
    assert tool.risk_for(reads) == "read"
    assert tool.risk_for(mixed) == "device-config"
    assert tool.summary(mixed) == "run on PC1: show ip; ip 10.0.0.1/24"
