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
