"""The lines that take a device back to the configuration it ran before a push."""

from __future__ import annotations

from gns3_copilot_desktop.core.undo.config import restore_lines, vpcs_settings

IOS = "show running-config"

BEFORE = """Building configuration...

Current configuration : 1201 bytes
!
! Last configuration change at 10:01:02 UTC Mon Mar 1 2026
!
version 15.2
hostname R1
!
enable secret 5 ********
!
interface Ethernet0/0
 ip address 10.0.0.1 255.255.255.0
 shutdown
!
interface Ethernet0/1
 no ip address
!
router ospf 1
 network 10.0.0.0 0.0.0.255 area 0
!
banner motd ^C
Authorised users only
^C
ntp clock-period 17179861
line con 0
 logging synchronous
!
end
"""


def _after(before: str, *edits: tuple[str, str]) -> str:
    for old, new in edits:
        assert old in before
        before = before.replace(old, new)
    return before


def test_ios_a_changed_address_and_a_no_shutdown_are_put_back_in_their_section() -> None:
    after = _after(
        BEFORE,
        (" ip address 10.0.0.1 255.255.255.0\n shutdown\n", " ip address 10.0.0.9 255.255.255.0\n"),
        ("Current configuration : 1201", "Current configuration : 1188"),
        ("ntp clock-period 17179861", "ntp clock-period 17179870"),
    )
    back = restore_lines(IOS, BEFORE, after)
    assert back.lines == [
        "interface Ethernet0/0",
        "no ip address 10.0.0.9 255.255.255.0",
        "ip address 10.0.0.1 255.255.255.0",
        "shutdown",
    ]
    assert back.left_out == []


def test_ios_a_new_section_is_removed_whole_and_a_no_line_is_negated_without_no() -> None:
    after = _after(
        BEFORE,
        ("router ospf 1\n", "interface Loopback1\n ip address 1.1.1.1 255.255.255.255\n!\n"
         "no ip domain lookup\nrouter ospf 1\n"),
        ("hostname R1", "hostname CORE"),
    )  # fmt: skip
    back = restore_lines(IOS, BEFORE, after)
    assert back.lines == [
        "no hostname CORE",
        "no interface Loopback1",
        "ip domain lookup",
        "hostname R1",
    ]


def test_ios_a_removed_nested_line_comes_back_under_its_section() -> None:
    after = _after(BEFORE, (" network 10.0.0.0 0.0.0.255 area 0\n", ""))
    back = restore_lines(IOS, BEFORE, after)
    assert back.lines == ["router ospf 1", "network 10.0.0.0 0.0.0.255 area 0"]


def test_ios_secrets_and_banners_are_never_pushed_back_but_named() -> None:
    after = _after(
        BEFORE,
        ("enable secret 5 ********\n", ""),
        ("Authorised users only", "reload\nwrite erase"),
    )
    back = restore_lines(IOS, BEFORE, after)
    assert back.lines == []  # neither the secret line nor a banner's text becomes a command
    assert any("banner" in x for x in back.left_out)
    assert any("hidden secret (enable secret 5" in x for x in back.left_out)


def test_ios_nothing_changed_nothing_to_push() -> None:
    assert restore_lines(IOS, BEFORE, BEFORE).lines == []


def test_lines_with_control_characters_from_a_device_are_left_out() -> None:
    after = _after(BEFORE, ("hostname R1", "hostname R1\x1b[2J"))
    back = restore_lines(IOS, BEFORE, after)
    assert all("\x1b" not in line for line in back.lines)
    assert back.lines == ["hostname R1"]
    assert back.left_out == ["a line with unprintable characters (1)"]


def test_junos_set_lines_are_deleted_or_set_again() -> None:
    address = "set interfaces ge-0/0/0 unit 0 family inet address"
    before = f"set system host-name vsrx1\n{address} 10.0.0.1/24\n"
    after = f"set system host-name vsrx1\n{address} 10.0.0.2/24\n"
    back = restore_lines("show configuration | display set", before, after)
    assert back.lines == [
        "delete interfaces ge-0/0/0 unit 0 family inet address 10.0.0.2/24",
        "set interfaces ge-0/0/0 unit 0 family inet address 10.0.0.1/24",
    ]


VPCS = """NAME        : PC1[1]
IP/MASK     : 192.0.2.1/24
GATEWAY     : 192.0.2.254
DNS         :
MAC         : 00:50:79:66:68:00
"""


def test_vpcs_address_gateway_and_name_come_back() -> None:
    after = VPCS.replace("192.0.2.1/24", "10.0.0.5/8").replace("PC1[1]", "Client[1]")
    back = restore_lines("show ip", VPCS, after)
    assert back.lines == ["set pcname PC1", "ip 192.0.2.1/24 192.0.2.254"]
    assert vpcs_settings(after).name == "Client"


def test_vpcs_without_an_address_before_is_cleared() -> None:
    before = VPCS.replace("192.0.2.1/24", "0.0.0.0/0").replace("192.0.2.254", "0.0.0.0")
    assert restore_lines("show ip", before, VPCS).lines == ["clear ip"]


def test_a_linux_shell_has_no_restore() -> None:
    back = restore_lines("cat /etc/network/interfaces", "a", "b")
    assert back.lines == [] and back.left_out


def test_vpcs_a_gateway_set_by_the_push_is_cleared_first() -> None:
    before = VPCS.replace("192.0.2.254", "0.0.0.0")
    assert restore_lines("show ip", before, VPCS).lines == ["clear ip", "ip 192.0.2.1/24"]


HOSTILE_APPLET = [
    "event manager applet BOOT",
    " event timer countdown time 30",
    " action 1.0 reload",
    "event manager applet LATER",
    " event none",
    ' action 1.0 cli command "enable"',
    ' action 2.0 cli command "reload"',
    "alias exec up reload",
    "kron policy-list NIGHT",
    " cli reload",
]


def test_restore_lines_never_hold_a_line_the_gate_refuses() -> None:
    """A running configuration printed by a device holds an EEM applet that reloads (and its
    cousins): a push removed them, and the restore that would put them back leaves each of them
    out, named, while the harmless lines around them stay."""
    filler = [f"interface Loopback{i}\n ip address 10.9.{i}.1 255.255.255.255" for i in range(27)]
    before = "\n".join(["hostname R1", *filler, *HOSTILE_APPLET, "end"])
    after = "\n".join(["hostname R1", "end"])
    back = restore_lines(IOS, before, after)
    assert "interface Loopback26" in back.lines and "event manager applet BOOT" in back.lines
    assert not any("reload" in line for line in back.lines), back.lines
    named = sorted(why for why in back.left_out if "refused" in why)
    assert named == [
        "'action 1.0 reload', refused: an EEM applet action or event that reloads the device",
        "'action 2.0 cli command \"reload\"', refused: it runs another command: reload reboots "
        "the device",
        "'alias exec up reload', refused: it runs another command: reload reboots the device",
        "'cli reload', refused: it runs another command: reload reboots the device",
    ]
