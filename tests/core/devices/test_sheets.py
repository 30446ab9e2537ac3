"""The device sheets shipped in resources/devices: each reads, each read command is a read for the
command gate, and the agent's prompt carries the sheets of the lab's platforms."""

from __future__ import annotations

from pathlib import Path

import pytest

from gns3_copilot_desktop.core.devices.command_risk import is_read_only_command
from gns3_copilot_desktop.core.devices.policy import check_command
from gns3_copilot_desktop.core.devices.sheets import (
    PLATFORMS,
    device_sheets,
    load_sheet,
    sheets_for_node_types,
    sheets_prompt,
)
from gns3_copilot_desktop.core.errors import CopilotError


def test_every_platform_has_a_sheet() -> None:
    sheets = device_sheets()
    assert list(sheets) == list(PLATFORMS)
    assert all(s.read_commands and s.save and s.quirks for s in sheets.values())


@pytest.mark.parametrize(
    ("platform", "command"),
    [(s.platform, c) for s in device_sheets().values() for c in s.read_commands],
)
def test_every_read_on_a_sheet_is_a_read_for_the_gate(platform: str, command: str) -> None:
    """What the sheets teach the model as a read runs without an approval: the gate agrees."""
    assert is_read_only_command(command), (platform, command)
    assert check_command(command, kind=device_sheets()[platform].console) is None


def test_the_save_and_change_lines_are_not_reads() -> None:
    """A sheet's change idioms are changes for the gate: they would wait for approval."""
    for sheet in device_sheets().values():
        changes = [line.strip() for line in sheet.config_example if line.strip()]
        assert not any(is_read_only_command(line) for line in changes), sheet.platform


def test_the_prompt_holds_the_lab_platforms_only() -> None:
    text = sheets_prompt(["vpcs", "ethernet_switch"])
    assert "VPCS" in text and "show ip" in text and "save" in text
    assert "vtysh" not in text and "Junos" not in text
    assert sheets_prompt(["ethernet_switch", "cloud"]) == ""
    qemu = [s.platform for s in sheets_for_node_types(["qemu"])]
    assert {"frr", "junos"} <= set(qemu)  # a QEMU node may be any of them


@pytest.mark.parametrize(
    "text",
    [
        'platform = "x"',  # fields missing
        'platform = "vpcs"\nname = "n"\nconsole = "vpcs"\nnode_types = []\n'
        'read_commands = ["show ip"]\nsave = "save"\nconfig_example = []\nquirks = []\n'
        'run_on_load = "rm -rf /"',  # an unknown field
        'platform = "vpcs"\nname = "n"\nconsole = "bash"\nnode_types = []\n'
        'read_commands = ["show ip"]\nsave = "save"\nconfig_example = []\nquirks = []',
        "not = toml = at all",
    ],
)
def test_a_damaged_sheet_is_a_clear_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "vpcs.toml"
    path.write_text(text)
    with pytest.raises(CopilotError, match=r"The device sheet vpcs\.toml cannot be read"):
        load_sheet(path)
