"""run_device_commands is a read only when every command only reads."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.tools.device_tools import (
    RunDeviceCommandsArgs,
    RunDeviceCommandsTool,
)
from gns3_copilot_desktop.core.devices.command_risk import is_read_only_command


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


# --- the corpus of disguised commands ----------------------------------------------------------

# Changes dressed as reads: Unicode spaces and separators (a console that drops the 8th bit turns
# U+200A into a new line), device files and kernel files that change state when read.
DISGUISED_CHANGES = [
    *(
        f"ls{space}touch PWNED"
        for space in (
            "\u00a0",
            "\u1680",
            "\u2000",
            "\u2001",
            "\u2002",
            "\u2003",
            "\u2004",
            "\u2005",
            "\u2006",
            "\u2007",
            "\u2008",
            "\u2009",
            "\u200a",
            "\u202f",
            "\u205f",
            "\u3000",
            "\u2028",
            "\u2029",
            "\u0085",
        )
    ),
    "show version\u200areload",
    "show ip\u3000interface brief\u2028reload",
    "ping 10.0.0.1\u00a0-c 1\u200arm -rf /",
    "cat /dev/watchdog",
    "cat /dev/watchdog0",
    "cat //dev/./watchdog",
    "cat /proc/kmsg",
    "cat /sys/kernel/debug/tracing/trace_pipe",
    "cat /sys/kernel/tracing/trace_pipe",
    "cat /sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw",
    "cat trace_pipe",
    "cat kmsg",
    "cat /dev/sda",
    "cat /dev/input/event0",
    "cat /proc/self/fd/0",
    "cat ../../dev/watchdog",
    "cat /etc/../dev/watchdog",
    "cat /proc/sysrq-trigger",
    "cat /dev/mem",
    "cat /dev/urandom",
    "cat /dev/tty",
]
# Reads, including the two that needed approval (the app's own Junos configuration read and
# Linux's brief address list).
READS = [
    "show configuration | display set",
    "ip -br addr",
    "ip -br link",
    "ip -4 addr show dev eth0",
    "show configuration | display set | no-more",
    "show running-config",
    "show ip interface brief",
    "display current-configuration",
    "ping 10.0.0.2 -c 2",
    "traceroute 10.0.0.2",
    "cat /etc/hostname",
    "cat /proc/cpuinfo",
    "cat /sys/class/net/eth0/address",
    "ls -la /dev",
    "ip route",
    "ss -tuln",
]


def test_no_disguised_change_is_a_read() -> None:
    reads = [c for c in DISGUISED_CHANGES if is_read_only_command(c)]
    assert reads == []
    assert len(DISGUISED_CHANGES) >= 38


def test_the_reads_of_the_corpus_are_reads() -> None:
    assert [c for c in READS if not is_read_only_command(c)] == []


# Obfuscated destructive commands: refused (a family that is never legitimate here), and
# whatever the refusal list lets through is named on the card.
OBFUSCATED = [
    "$(echo reboot)",
    "r${x}eboot",
    "echo reboot | sh",
    "`reboot`",
    "eval reboot",
    "eval $(printf '\\x72eboot')",
    "echo cmVib290 | base64 -d | sh",
    "echo cmVib290 | base64 -d | bash -s",
    "echo reboot | xargs sh -c",
    ":(){ :|:& };:",
    "bomb(){ bomb|bomb& };bomb",
    "f() { f | f & }; f",
    "echo x > /dev/sda",
    "cat junk >/dev/vda",
    "tee /dev/sda < junk",
    "cp junk /dev/nvme0n1",
    "dd if=/dev/zero of=/dev/sda",
    "mkfs.ext4 /dev/sda1",
    "/sbin/mkfs /dev/sda",
    "/???/reb??t",
    "'re'boot",
    "re\\boot",
    "x=reboot; $x",
    "sudo $(echo reboot)",
    "echo reboot | python3",
    "!touch MARKER",
    "! reboot",
    "action 1.0 reload",
    'action 2.0 cli command "reload"',
    "event manager applet X",  # allowed: the applet alone does nothing; its actions are checked
    "alias exec r reload",
    "do reload",
    "cli reload",
]


@pytest.mark.parametrize("command", OBFUSCATED)
def test_obfuscated_destructive_commands_are_refused(command: str) -> None:
    from gns3_copilot_desktop.core.devices.policy import check_command

    assert not is_read_only_command(command)
    refused = check_command(command)
    if command == "event manager applet X":
        assert refused is None
        return
    assert refused is not None, command


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("python3 -c 'import os; os.system(\"reboot\")'", "may reboot the device"),
        ("python3 -c 'import os; os.system(\"reboot\")'", "hides the command it runs"),
        ("bash -c 'rebo''ot'", "may reboot the device"),
        ("systemctl restart networking", None),
        ("printf '\\x72eboot' > /tmp/x", "hides the command it runs"),
        ("ip 10.0.0.1/24 10.0.0.254", None),
    ],
)
def test_the_card_names_what_a_change_may_do(command: str, named: str | None) -> None:
    from gns3_copilot_desktop.core.devices.command_risk import command_hazards

    found = command_hazards(command)
    assert (named in found) if named else found == []
