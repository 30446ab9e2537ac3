"""Device configuration rendered from a plan's addressing: VPCS, IOS-like and Linux/FRR.

Only values that passed the spec's checks reach here (addresses are `ipaddress` objects, interface
names are plain words), so no line can carry text the model chose freely.
"""

from __future__ import annotations

import ipaddress
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.devices.targets import kind_for_node_type
from gns3_copilot_desktop.core.lab_plan.spec import Platform

PLATFORM_OF_NODE_TYPE: dict[str, Platform] = {"vpcs": "vpcs", "dynamips": "ios", "iou": "ios"}


@dataclass(frozen=True)
class InterfaceAddress:
    """One address of a device, on the interface the device calls ``interface``."""

    interface: str
    address: ipaddress.IPv4Interface
    gateway: ipaddress.IPv4Address | None = None


def platform_for(node_type: str, chosen: Platform) -> Platform:
    """The platform to render for: the spec's choice, else the node type's, else none."""
    if chosen != "auto":
        return chosen
    return PLATFORM_OF_NODE_TYPE.get(node_type, "none")


def render_config(
    platform: Platform,
    addresses: Sequence[InterfaceAddress],
    *,
    ospf: bool = False,
    node_type: str = "",
) -> tuple[str, ...]:
    """The configuration lines of one device (empty when there is nothing to configure).

    FRR is configured in vtysh's own lines where the console lands in vtysh (the project's
    router appliance, a QEMU node); where it is a Linux shell (a Docker FRR image) the same lines
    go through one ``vtysh -c`` command."""
    if not addresses and not ospf:
        return ()
    if platform == "vpcs":
        return _vpcs(addresses)
    if platform == "ios":
        return _ios(addresses, ospf)
    if platform == "frr":
        if kind_for_node_type(node_type) is DeviceKind.LINUX:
            return _frr_from_shell(addresses, ospf)
        return _frr_in_vtysh(addresses, ospf)
    return ()


def _vpcs(addresses: Sequence[InterfaceAddress]) -> tuple[str, ...]:
    if not addresses:
        return ()
    first = addresses[0]
    gateway = f" {first.gateway}" if first.gateway else ""
    # ``save`` keeps the address over a stop/start (a snapshot stops the nodes).
    return (f"ip {first.address.with_prefixlen}{gateway}", "save")


def _ios(addresses: Sequence[InterfaceAddress], ospf: bool) -> tuple[str, ...]:
    lines: list[str] = []
    for item in addresses:
        ip = item.address
        lines += [
            f"interface {item.interface}",
            f"ip address {ip.ip} {ip.netmask}",
            "no shutdown",
            "exit",
        ]
    if ospf:
        lines.append("router ospf 1")
        for net in _networks(addresses):
            lines.append(f"network {net.network_address} {net.hostmask} area 0")
        lines.append("exit")
    gateways = {a.gateway for a in addresses if a.gateway}
    lines += [f"ip route 0.0.0.0 0.0.0.0 {gw}" for gw in sorted(gateways)[:1]]
    return tuple(lines)


def frr_lines(addresses: Sequence[InterfaceAddress], ospf: bool) -> tuple[str, ...]:
    """The vtysh configuration lines of a Linux/FRR device."""
    lines: list[str] = []
    for item in addresses:
        lines += [
            f"interface {item.interface}",
            f"ip address {item.address.with_prefixlen}",
            "exit",
        ]
    if ospf:
        lines.append("router ospf")
        lines += [f"network {net.with_prefixlen} area 0" for net in _networks(addresses)]
        lines.append("exit")
    gateways = sorted({a.gateway for a in addresses if a.gateway})
    lines += [f"ip route 0.0.0.0/0 {gw}" for gw in gateways[:1]]
    return tuple(lines)


def _frr_in_vtysh(addresses: Sequence[InterfaceAddress], ospf: bool) -> tuple[str, ...]:
    """The vtysh lines, pushed in vtysh's configuration mode as an IOS device's are (kept by
    the plan's explicit snapshot, `write memory`, as IOS's are)."""
    return frr_lines(addresses, ospf)


def _frr_from_shell(addresses: Sequence[InterfaceAddress], ospf: bool) -> tuple[str, ...]:
    """One shell command that runs the vtysh lines (the console is a Linux shell)."""
    lines = frr_lines(addresses, ospf)
    if not lines:
        return ()
    args = " ".join(f"-c {shlex.quote(line)}" for line in ("configure terminal", *lines, "end"))
    return (f"vtysh {args}", "vtysh -c 'write memory'")


def _networks(addresses: Sequence[InterfaceAddress]) -> list[ipaddress.IPv4Network]:
    seen: list[ipaddress.IPv4Network] = []
    for item in addresses:
        if item.address.network not in seen:
            seen.append(item.address.network)
    return seen
