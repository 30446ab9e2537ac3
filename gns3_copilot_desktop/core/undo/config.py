"""The lines that take a device back to the configuration it had before a push.

A push's tool card keeps the running configuration read before and after it (`CONFIG_READ`: IOS
``show running-config``, Junos ``show configuration | display set``, VPCS ``show ip``). Pushing
the whole "before" text back is not possible (IOS merges, never replaces; secrets in it are
scrubbed), so the inverse is computed from the difference:

- IOS-like: what the push added is negated (``no <line>``, or the line without its ``no``), a
  section the push created is removed as a whole (``no interface Loopback1``) unless it is a
  physical interface's, which no device deletes (FRR: "% Only inactive interfaces can be
  deleted"): there each line the push set inside it is negated instead. What the push removed
  is entered again under its section. Banners and lines with a scrubbed secret are never pushed
  back; they are named in `RestoreLines.left_out` so the user knows.
- Junos ``set`` lines: added -> ``delete ...``, removed -> ``set ...`` again.
- VPCS: the name, the address/mask and the gateway as ``show ip`` printed them.

The text comes from a device, so it is data: only lines of plain printable text are ever proposed,
each passes the same refusal list as a push (`policy.check_command` for the device's family, with
its configuration-mode forms: an EEM ``action 1.0 reload`` that was in the running configuration
is left out and named, never pushed back), and the user sees every one of them before anything is
sent. The console checks them again when they are pushed.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field

from gns3_copilot_desktop.core.devices.batch import CONFIG_READ, SCRUBBED
from gns3_copilot_desktop.core.devices.policy import check_command
from gns3_copilot_desktop.core.devices.prompts import DeviceKind

MAX_RESTORE_LINES = 200
"""Most lines one restore proposes (a configuration push holds at most as many)."""

_NAMED_REFUSALS = 10
"""Refused lines named one by one in what was left out (the rest are counted)."""
_IOS_IGNORED = (
    "Building configuration",
    "Current configuration",
    "Last configuration change",
    "NVRAM config last updated",
    "ntp clock-period",
)
# Lines that close a section (FRR's vtysh prints "exit" after each one): not settings.
_SECTION_ENDS = {"end", "exit", "exit-address-family", "exit-vrf", "exit-vnc", "quit"}
_BANNER = re.compile(r"^banner\s+\S+\s+(\S)")
_PLAIN = re.compile(r"^[\x20-\x7e]+$")
_WORD = re.compile(r"^[A-Za-z0-9_.-]{1,48}$")


@dataclass(frozen=True)
class RestoreLines:
    """The lines to push, and what could not be put back (each a short reason)."""

    lines: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def family_of(read_command: str) -> DeviceKind | None:
    """The console family whose configuration read is ``read_command``."""
    return next((kind for kind, cmd in CONFIG_READ.items() if cmd == read_command), None)


def restore_lines(read_command: str, before: str, after: str) -> RestoreLines:
    """What to push to go from ``after`` back to ``before`` (both as the read printed them)."""
    kind = family_of(read_command)
    if kind is DeviceKind.IOS:
        found = _ios_restore(before, after)
    elif kind is DeviceKind.JUNOS:
        found = _junos_restore(before, after)
    elif kind is DeviceKind.VPCS:
        found = _vpcs_restore(before, after)
    else:
        why = f"no way to restore a configuration read by {read_command!r}"
        return RestoreLines(left_out=[why])
    unsafe = [line for line in found.lines if not _PLAIN.match(line)]
    plain = [line for line in found.lines if _PLAIN.match(line)]
    checked = [(line, check_command(line, kind=kind)) for line in plain]
    allowed = [line for line, why in checked if why is None]
    refused = [f"'{line}', refused: {why.reason}" for line, why in checked if why is not None]
    left_out = found.left_out + [f"a line with unprintable characters ({len(unsafe)})"] * bool(
        unsafe
    )
    left_out += refused[:_NAMED_REFUSALS]
    if len(refused) > _NAMED_REFUSALS:
        left_out.append(f"{len(refused) - _NAMED_REFUSALS} more refused line(s)")
    if len(allowed) > MAX_RESTORE_LINES:
        left_out.append(f"lines after the first {MAX_RESTORE_LINES}")
    return RestoreLines(allowed[:MAX_RESTORE_LINES], left_out)


# --- IOS-like ---------------------------------------------------------------------------------

_Item = tuple[tuple[str, ...], str]
"""(the section lines above it, the line), both with the indentation the device printed."""


def _ios_items(text: str) -> tuple[list[_Item], list[str]]:
    """The configuration as items under their sections; banner blocks are returned apart."""
    items: list[_Item] = []
    banners: list[str] = []
    stack: list[tuple[int, str]] = []
    banner_end: str | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if banner_end is not None:
            banners[-1] += "\n" + line
            if banner_end in line:
                banner_end = None
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("!") or stripped in _SECTION_ENDS:
            continue
        if any(stripped.startswith(word) for word in _IOS_IGNORED):
            continue
        banner = _BANNER.match(stripped)
        if banner:
            banners.append(stripped)
            delimiter = banner.group(1)[:2] if banner.group(1).startswith("^") else banner.group(1)
            rest = stripped[banner.end() :]
            banner_end = None if delimiter in rest else delimiter
            continue
        depth = len(line) - len(line.lstrip(" "))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        items.append((tuple(s for _, s in stack), stripped))
        stack.append((depth, stripped))
    return items, banners


_PHYSICAL_INTERFACE = re.compile(
    r"interface\s+(?!(?:loopback|lo\d|tunnel|tun\d|vlan|port-channel|bond|bridge|br\d|bvi|dialer"
    r"|virtual|null|dummy|gre|vrf)\S*)[^\s.:]+(?:\s|$)",
    re.IGNORECASE,
)
"""A section header of an interface the hardware has (``interface eth1``, ``interface
GigabitEthernet0/0``), not one the configuration creates (loopbacks, tunnels, VLAN interfaces,
subinterfaces such as ``eth1.10`` or ``Gi0/0.10``)."""


_FREE_TEXT = ("description ",)
"""Settings whose value is free text: negated by their keyword alone (FRR refuses ``no
description to-R2`` with "% Unknown command"; IOS takes ``no description`` as well)."""


def _negate(line: str) -> str:
    if line.startswith("no "):
        return line[3:].lstrip()
    keyword = next((k for k in _FREE_TEXT if line.startswith(k)), None)
    return f"no {keyword.strip()}" if keyword else f"no {line}"


def _ios_restore(before: str, after: str) -> RestoreLines:
    old, old_banners = _ios_items(before)
    new, new_banners = _ios_items(after)
    old_set, new_set = set(old), set(new)
    added = [item for item in new if item not in old_set]
    removed = [item for item in old if item not in new_set]
    # a physical interface's section stays: what was set in it is negated line by line
    added_sections = {
        (*parents, line) for parents, line in added if not _PHYSICAL_INTERFACE.match(line)
    }
    kept_headers = {(*parents, line) for parents, line in added} - added_sections
    left_out: list[str] = []
    if old_banners != new_banners:
        left_out.append("a banner (banners are never pushed back)")
    groups: dict[tuple[str, ...], list[str]] = {}
    for parents, line in added:
        if any(parents[: i + 1] in added_sections for i in range(len(parents))):
            continue  # inside a section the push created: removing the section removes it
        if (*parents, line) in kept_headers:
            continue  # its lines are negated under it
        groups.setdefault(parents, []).append(_negate(line))
    for parents, line in removed:
        if SCRUBBED in line:
            left_out.append(f"a line with a hidden secret ({line.split(SCRUBBED)[0].strip()}…)")
            continue
        groups.setdefault(parents, []).append(line)
    lines: list[str] = []
    for parents in sorted(groups, key=len):  # global lines first, then each section
        lines += [*parents, *groups[parents]]
    return RestoreLines(lines, left_out)


# --- Junos ------------------------------------------------------------------------------------


def _junos_restore(before: str, after: str) -> RestoreLines:
    def sets(text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if line.strip().startswith("set ")]

    old, new = sets(before), sets(after)
    left_out: list[str] = []
    lines = ["delete " + line[4:] for line in new if line not in set(old)]
    for line in old:
        if line not in set(new):
            if SCRUBBED in line:
                left_out.append(f"a line with a hidden secret ({line.split(SCRUBBED)[0].strip()}…)")
            else:
                lines.append(line)
    return RestoreLines(lines, left_out)


# --- VPCS -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VpcsSettings:
    """What ``show ip`` shows of a VPCS that a push can change."""

    name: str | None
    address: ipaddress.IPv4Interface | None
    gateway: str | None


def vpcs_settings(output: str) -> VpcsSettings:
    """The name, address and gateway in VPCS ``show ip`` output (None when absent or zero)."""
    name = re.search(r"^NAME\s*:\s*(\S+?)(?:\[\d+\])?\s*$", output, re.MULTILINE)
    found = re.search(r"IP/MASK\s*:\s*(\d+\.\d+\.\d+\.\d+/\d+)", output)
    gateway = re.search(r"GATEWAY\s*:\s*(\d+\.\d+\.\d+\.\d+)", output)
    address = None
    if found:
        try:
            address = ipaddress.IPv4Interface(found.group(1))
        except ValueError:
            address = None
    if address is not None and int(address.ip) == 0:
        address = None
    gw = gateway.group(1) if gateway and gateway.group(1) != "0.0.0.0" else None
    return VpcsSettings(name.group(1) if name else None, address, gw)


def _vpcs_restore(before: str, after: str) -> RestoreLines:
    old, new = vpcs_settings(before), vpcs_settings(after)
    lines: list[str] = []
    left_out: list[str] = []
    if old.name != new.name and old.name is not None:
        if _WORD.match(old.name):
            lines.append(f"set pcname {old.name}")
        else:
            left_out.append("the name (not a plain word)")
    if (old.address, old.gateway) != (new.address, new.gateway):
        if old.address is None:
            lines.append("clear ip")
        else:
            if old.gateway is None and new.gateway is not None:
                lines.append("clear ip")  # ``ip a/m`` alone would keep the gateway set since
            gateway = f" {old.gateway}" if old.gateway else ""
            lines.append(f"ip {old.address.with_prefixlen}{gateway}")
    return RestoreLines(lines, left_out)
