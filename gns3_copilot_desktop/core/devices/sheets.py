"""Device sheets: what the app knows of each platform's CLI, shipped offline in
``resources/devices/<platform>.toml`` (our own text) — its read commands, the idioms of a change,
how a change is kept, and the quirks a user meets.

The agent's prompt carries the sheets of the platforms in the open lab, so a model that has never
seen FRR's vtysh or VPCS is told how they differ from IOS. A test holds every read command of every
sheet to the command gate (each must be a read) and runs them on the real VPCS and FRR router.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.paths import resource_path

PLATFORMS = ("vpcs", "frr", "linux", "ios", "junos", "eos")


class DeviceSheet(BaseModel):
    """One platform's sheet."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    platform: str
    name: str
    console: DeviceKind
    """The console family the app drives it as."""
    node_types: tuple[str, ...]
    """GNS3 node types this platform runs as (a QEMU node may be any of several)."""
    read_commands: tuple[str, ...] = Field(min_length=1)
    save: str
    config_example: tuple[str, ...]
    quirks: tuple[str, ...]

    def prompt_text(self) -> str:
        """The sheet as the agent reads it."""
        lines = [
            f"{self.name}:",
            "  reads: " + "; ".join(self.read_commands),
            f"  keep a change: {self.save}",
            "  a change looks like: " + " / ".join(line.strip() for line in self.config_example),
        ]
        lines += [f"  - {quirk}" for quirk in self.quirks]
        return "\n".join(lines)


def load_sheet(path: Path) -> DeviceSheet:
    """One sheet file, checked; a clear error naming the file when it is not a sheet."""
    try:
        return DeviceSheet.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise CopilotError(f"The device sheet {path.name} cannot be read: {exc}") from exc


@cache
def device_sheets() -> dict[str, DeviceSheet]:
    """Every sheet the app ships, by platform."""
    sheets = {name: load_sheet(resource_path("devices", f"{name}.toml")) for name in PLATFORMS}
    for name, sheet in sheets.items():
        if sheet.platform != name:
            raise CopilotError(f"The device sheet {name}.toml describes {sheet.platform}.")
    return sheets


def sheets_for_node_types(node_types: Iterable[str]) -> list[DeviceSheet]:
    """The sheets of the platforms a lab of these node types may hold, in the sheets' order
    (a QEMU or Docker node may be a router or a host: each of its platforms is included)."""
    present = set(node_types)
    return [s for s in device_sheets().values() if present.intersection(s.node_types)]


def sheets_prompt(node_types: Iterable[str]) -> str:
    """The device notes for the agent's prompt (empty when no node has a known platform)."""
    sheets = sheets_for_node_types(node_types)
    if not sheets:
        return ""
    body = "\n".join(sheet.prompt_text() for sheet in sheets)
    return f"Device notes for the platforms in this lab (how their CLIs differ):\n{body}"
