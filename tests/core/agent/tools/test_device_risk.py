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
        "sho ip int br",
        "show ip interface brief",
        "show running-config | include hostname",
        "show arp",
        "ping 192.0.2.2",
        "ping 10.0.0.1 repeat 5 size 1400 source Loopback0",
        "trace 10.0.0.1",
        "ip addr show dev eth0",
        "ip link",
        "ls -la /etc",
        "ps aux | grep bgpd",
        "ip route | head -5",
        "netstat -rn",
        "uname -a",
        "show ip route | i 10.0",
        "display interface brief",
        "ping 192.0.2.2 -c 2",
        "traceroute 10.0.0.1",
        "ip addr",
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
        # a shell on Linux runs a script file; VPCS's ip accepts abbreviations (ip a = ip auto)
        "sh ip int br",
        "ip -br a",
        # an IOS regex alternation cannot be told from a second pipe
        "show running-config | include ^interface|ip address",
        "ip a",
        # control characters: the device's line editor applies them
        "show ip\b\b\b\b\b\b\bip 10.9.9.9/24",
        "show ip\x15rm -rf work",
        "show ip\x1b[D\x1b[Dx",
        "show\tip",
        "show ip\u2028reload",
        # read verbs whose options or pipe targets write or run
        "ls | sort -o victim.txt",
        "ls | find work -delete",
        "ls | xargs rm",
        "ls | tee out.txt",
        "ls | uniq - out.txt",
        "cat list | ex victim.txt",
        "show run | redirect flash:evil.cfg",
        "show run | append flash:x",
        "grep -f patterns.txt",
        "ls | grep -r x /",
        "date -s 2020-01-01",
        "date +%s",
        "ping -f 10.0.0.1",
        "ping",
        "ls `reboot`",
        "ls 'x'",
        "cat ~/.ssh/id_rsa",
        "ls *",
        "ls && reboot",
        "ls &",
        "cat a > b",
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
                {"node": "R1", "commands": ["sho ver"]},
            ]
        }
    )
    mixed = RunDeviceCommandsArgs.model_validate(
        {"devices": [{"node": "PC1", "commands": ["show ip", "ip 10.0.0.1/24"]}]}
    )
    assert tool.risk_for(reads) == "read"
    assert tool.risk_for(mixed) == "device-config"
    assert tool.summary(mixed) == "run on PC1: show ip; ip 10.0.0.1/24"


@pytest.mark.parametrize(
    "bad",
    [
        "show ip\b\b\b\b\b\b\bip 10.9.9.9/24",
        "ls\x15rm -rf x",
        "show\x7fip",
        "a\x1b[2Kb",
        "x\u2028y",
        "ip 1.2.3.4\x0b",
        "show\tip",
        "x\u200by",
        "x\x85y",
    ],
)
@pytest.mark.parametrize("tool", ["run_device_commands", "configure_devices"])
def test_both_device_tools_refuse_control_characters_in_their_arguments(
    bad: str, tool: str
) -> None:
    from pydantic import ValidationError

    from gns3_copilot_desktop.core.agent.tools.device_tools import ConfigureDevicesArgs

    field = "commands" if tool == "run_device_commands" else "lines"
    model = RunDeviceCommandsArgs if tool == "run_device_commands" else ConfigureDevicesArgs
    with pytest.raises(ValidationError) as info:
        model.model_validate({"devices": [{"node": "PC1", field: ["show version", bad]}]})
    assert "never sent" in str(info.value) and "U+" in str(info.value)
    # pasted blocks with \n and \r\n are still split into lines
    ok = model.model_validate({"devices": [{"node": "PC1", field: ["show ip\r\nshow arp\n"]}]})
    assert getattr(ok.devices[0], field) == ["show ip", "show arp"]
