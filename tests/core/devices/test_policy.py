"""The refusal list for destructive commands."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.devices.policy import (
    CommandRefusedError,
    check_command,
    check_commands,
)
from gns3_copilot_desktop.core.devices.prompts import DeviceKind

REFUSED = [
    "reload",
    "rel",
    "reload in 5",
    "do reload",
    "wr er",
    "write erase",
    "erase start",
    "erase startup-config",
    "erase nvram:",
    "format flash:",
    "delete flash:vlan.dat",
    "del /force /recursive flash:configs",
    "squeeze flash:",
    "configure replace flash:base.cfg",
    "copy /erase tftp://192.0.2.9/x flash:",
    "crypto key zeroize rsa",
    "request system reboot",
    "load override terminal",
    "rm -rf /",
    "rm -fr /*",
    "sudo rm -r --no-preserve-root /",
    "rm -rf ~",
    "rm -Rf /etc",
    "ls; reboot",
    "true && sudo poweroff",
    "halt",
    "init 0",
    "systemctl reboot",
    "shutdown -h now",
    "shutdown -r +5",
    "mkfs.ext4 /dev/sda1",
    "wipefs -a /dev/vda",
    "dd if=/dev/zero of=/dev/sda bs=1M",
    "cat junk > /dev/nvme0n1",
    "kill -9 1",
    "chmod -R 777 /",
    ":(){ :|:& };:",
]

ALLOWED = [
    "show running-config",
    "sh run",
    "show reload",
    "write memory",
    "wr",
    "copy running-config startup-config",
    "configure terminal",
    "interface Ethernet0/0",
    "shutdown",  # the IOS interface command
    "no shutdown",
    "no ip address",
    "clear ip bgp *",
    "delete interfaces ge-0/0/0 unit 0",  # Junos configuration editing
    "rm -rf /tmp/lab-capture",
    "rm -rf ./build",
    "dd if=/dev/zero of=/tmp/file bs=1k count=1",
    "ping 192.0.2.1",
    "ip 192.0.2.1/24",
    "clear ip",  # VPCS: reversible configuration change, left to approval
    "echo reboot",
    "re",
]


@pytest.mark.parametrize("command", REFUSED)
def test_destructive_commands_are_refused(command: str) -> None:
    refused = check_command(command)
    assert refused is not None and refused.command == command and refused.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_ordinary_commands_pass(command: str) -> None:
    assert check_command(command) is None


def test_kind_specific_rules() -> None:
    assert check_command("shutdown", kind=DeviceKind.LINUX) is not None
    assert check_command("shutdown", kind=DeviceKind.IOS) is None
    assert check_command("quit", kind=DeviceKind.VPCS) is not None
    assert check_command("quit", kind=DeviceKind.IOS) is None


def test_user_patterns_extend_the_list() -> None:
    extra = ["^debug all", "no router bgp", "bad[regex"]
    assert check_command("debug all", extra) is not None
    assert check_command("undebug all", extra) is None
    assert check_command("No  Router  BGP 65000", extra) is not None
    refused = check_command("echo bad[regex here", extra)
    assert refused is not None and "bad[regex" in refused.reason
    assert check_command("show ip bgp", extra) is None


def test_check_commands_lists_every_refusal() -> None:
    with pytest.raises(CommandRefusedError) as info:
        check_commands("R1", ["show version", "reload", "wr er"])
    assert [r.command for r in info.value.refused] == ["reload", "wr er"]
    assert "R1" in info.value.user_message and "nothing was sent" in info.value.user_message
    check_commands("R1", ["show version"])  # no error


@pytest.mark.parametrize(
    "command",
    [
        # shells: quoting, escaping and wrappers reach the same program
        "'rm' -rf /",
        "\\rm -rf /",
        '"r"m -rf /',
        "rm -rf '/'",
        "command rm -rf /",
        "env rm -rf /",
        "busybox rm -rf /",
        "timeout 5 reboot",
        "nice -n 5 poweroff",
        "sudo -u root halt",
        "sh -c 'reboot'",
        'bash -c "rm -rf /"',
        "eval reboot",
        "echo $(reboot)",
        "echo `poweroff`",
        "true && 'shutdown' -h now",
        # other routes to the same effect
        "echo o > /proc/sysrq-trigger",
        "echo b | tee /proc/sysrq-trigger",
        "echo mem > /sys/power/state",
        "systemctl isolate rescue.target",
        "systemctl start poweroff.target",
        "systemctl soft-reboot",
        "loginctl reboot",
        "telinit 1",
        "kill -9 -1",
        "kill -SIGKILL 1",
        "pkill -9 systemd",
        "killall5",
        # VPCS takes unique abbreviations: q, qu, qui end the process like quit
        "q",
        "qu",
        "qui",
    ],
)
def test_the_refused_list_holds_against_the_forms_devices_accept(command: str) -> None:
    assert check_command(command, kind=DeviceKind.AUTO) is not None, command
    assert (
        check_command(
            command, kind=DeviceKind.LINUX if command not in ("q", "qu", "qui") else DeviceKind.VPCS
        )
        is not None
    )
