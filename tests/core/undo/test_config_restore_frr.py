"""FRR's running configuration closes each section with ``exit``: not a setting to negate."""

from __future__ import annotations

from gns3_copilot_desktop.core.undo.config import restore_lines

BEFORE = "frr version 8.4.4\nhostname router\n!\nend\n"
AFTER = (
    "frr version 8.4.4\nhostname router\n!\nip route 192.0.2.0/24 10.12.0.2\n!\n"
    "router ospf\n ospf router-id 1.1.1.1\nexit\n!\nend\n"
)


def test_section_ends_are_not_restored_as_settings() -> None:
    restore = restore_lines("show running-config", BEFORE, AFTER)
    assert "no exit" not in restore.lines
    assert restore.lines == ["no ip route 192.0.2.0/24 10.12.0.2", "no router ospf"]


PUSHED_INTO_ETH1 = (
    "frr version 8.4.4\nhostname router\n!\ninterface eth1\n description to-R2\n"
    " ip address 10.12.0.1/24\n ip ospf cost 40\nexit\n!\ninterface lo1\n ip address 1.1.1.1/32\n"
    "exit\n!\ninterface eth2.10\n ip address 10.10.0.1/24\nexit\n!\nend\n"
)


def test_a_physical_interface_keeps_its_section_and_loses_the_lines_the_push_set() -> None:
    """FRR (like IOS) never deletes a physical interface ("% Only inactive interfaces can be
    deleted"): the lines set in it are negated under it; a loopback or a subinterface the push
    created is removed whole."""
    restore = restore_lines("show running-config", BEFORE, PUSHED_INTO_ETH1)
    assert restore.lines == [
        "no interface lo1",
        "no interface eth2.10",
        "interface eth1",
        "no description",
        "no ip address 10.12.0.1/24",
        "no ip ospf cost 40",
    ]


def test_interface_names_that_are_not_physical_sections() -> None:
    for header in (
        "interface Loopback0",
        "interface Tunnel1",
        "interface Vlan10",
        "interface GigabitEthernet0/0.10",
        "interface Port-channel1",
    ):
        after = f"hostname router\n!\n{header}\n description x\n!\nend\n"
        restore = restore_lines("show running-config", "hostname router\n!\nend\n", after)
        assert restore.lines == [f"no {header}"], header
    after = "hostname router\n!\ninterface GigabitEthernet0/1\n description x\n!\nend\n"
    restore = restore_lines("show running-config", "hostname router\n!\nend\n", after)
    assert restore.lines == ["interface GigabitEthernet0/1", "no description"]
