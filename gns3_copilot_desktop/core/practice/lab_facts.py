"""What the practice engine knows without a lab: its constants, a lab node and a fault bound to
it, and the pure pieces (filling a fault's placeholders, building and reading device commands
and output, the sealed approval, the score).
"""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from gns3_copilot_desktop.core.devices import DeviceCredentials, DeviceOutcome
from gns3_copilot_desktop.core.devices.ping import ping_answered, ping_loss, ping_times
from gns3_copilot_desktop.core.gns3.archive_check import (
    ArchiveLimits,
    CheckedArchive,
    check_project_archive,
)
from gns3_copilot_desktop.core.gns3.models import Link, Node
from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.catalog import (
    Check,
    Fault,
    Steps,
    placeholders,
)
from gns3_copilot_desktop.core.practice.linux_facts import (
    LinuxFacts,
    interface_order,
    linux_params,
)
from gns3_copilot_desktop.core.practice.package import ExercisePackage
from gns3_copilot_desktop.core.practice.store import (
    ExerciseRecord,
    InjectedFault,
    now,
)
from gns3_copilot_desktop.core.protocol import ApprovalRequest

log = logging.getLogger(__name__)

INJECT_TOOL = "inject_practice_faults"


RESTORE_TOOL = "restore_practice_lab"


STATIC_ADDRESS = re.compile(
    r"^[ \t]*ip[ \t]+(\d{1,3}(\.\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:]*)", re.MULTILINE
)
"""A VPCS startup line that sets a static IPv4 or IPv6 address (not ``ip dhcp``)."""
PLATFORM_OF_NODE_TYPE = {"vpcs": "vpcs", "dynamips": "ios", "iou": "ios", "docker": "linux"}


BOUND_PLATFORMS = frozenset({"vpcs", "link", "linux"})
"""The platforms whose parameters the engine can read from a lab today; faults of the others
stay in the catalog and are not picked."""


ALWAYS_ON = frozenset(
    {"ethernet_switch", "ethernet_hub", "cloud", "nat", "frame_relay_switch", "atm_switch"}
)
"""Node types GNS3 reports as started and never stops: they are not powered or waited on."""

NO_LOGIN = ALWAYS_ON | {"vpcs"}
"""Node types whose console never asks for a login."""

Logins = Callable[[Node], Awaitable[DeviceCredentials | None]]
"""The console login of a node (the user's saved console logins), None when it has none."""


HINT_COST = 15


START_WAIT_S = 120.0


RECHECK_DELAY_S = 3.0


@dataclass
class _LabNode:
    node: Node
    platform: str | None
    address: ipaddress.IPv4Interface | None = None
    gateway: str = ""
    linux: LinuxFacts | None = None
    """What a Linux node's shell showed (`linux_facts`)."""

    def addresses(self) -> list[ipaddress.IPv4Interface]:
        """The node's IPv4 addresses: a host's one, a Linux node's per interface."""
        if self.linux is not None:
            return list(self.linux.interfaces.values())
        return [self.address] if self.address is not None else []


@dataclass
class _Candidate:
    fault: Fault
    platform: str
    target: str
    devices: list[str]
    params: dict[str, str]
    node: str | None = None
    link: Link | None = None
    link_name: str | None = None
    excluded: set[str] = field(default_factory=set)


def _inject_approval(record: ExerciseRecord) -> ApprovalRequest:
    """The sealed card: how many faults of which level on how many devices, never which."""
    devices = {d for f in record.sealed for d in f.devices}
    faults = "fault" if record.fault_count == 1 else "faults"
    on = "device" if len(devices) == 1 else "devices"
    summary = f"inject {record.fault_count} {record.difficulty} {faults} on {len(devices)} {on}"
    return ApprovalRequest(
        tool_call_id=f"practice-inject-{record.exercise_id}",
        tool_name=INJECT_TOOL,
        arguments={"exercise": record.exercise_id},
        summary=summary,
        risk="change",
        destructive=True,
        consequence="The faults are injected into the running lab by their own steps (device "
        "consoles, the GNS3 link settings) and saved where the device keeps a startup "
        "configuration; no node is stopped. The exercise starts once each fault is confirmed; "
        "if one cannot be, everything injected is undone. Giving up runs the faults' undo steps. "
        "What is injected stays sealed until the exercise ends.",
    )


def _sealed(candidate: _Candidate) -> InjectedFault:
    return InjectedFault(
        fault_id=candidate.fault.id,
        title=candidate.fault.title,
        platform=candidate.platform,
        node=candidate.node,
        link_id=candidate.link.link_id if candidate.link else None,
        link_name=candidate.link_name,
        devices=candidate.devices,
        params=candidate.params,
    )


def _node_binding(fault: Fault, lab: _LabNode, nodes: dict[str, _LabNode]) -> _Candidate | None:
    """The fault's parameters on ``lab`` (a started VPCS with an address), or None when the
    fault needs what this lab lacks: a peer in the host's subnet for most faults, a host beyond
    its gateway for a wrong gateway (a host alone in its subnet behind a router has only that)."""
    if lab.node.status != "started" or lab.address is None:
        return None
    here = lab.address
    size = here.network.num_addresses
    wrong = ipaddress.IPv4Address((int(here.ip) + size) % 2**32)
    params = {
        "node": lab.node.name,
        "address": str(here.ip),
        "prefix": str(here.network.prefixlen),
        "mask": str(here.network.netmask),
        "gateway": lab.gateway,
        "wrong_address": str(wrong),
    }
    peers = [
        n for n in nodes.values()
        if n is not lab and n.address is not None and n.address.ip in here.network
    ]  # fmt: skip
    if peers:
        peer = sorted(peers, key=lambda n: n.node.name)[0]
        assert peer.address is not None
        params["peer"], params["peer_address"] = peer.node.name, str(peer.address.ip)
        for longer in range(here.network.prefixlen + 1, 31):
            if peer.address.ip not in ipaddress.ip_interface(f"{here.ip}/{longer}").network:
                params["wrong_prefix"] = str(longer)
                break
    # not a host's address, nor the gateway itself (a router's address is no host's: on a lab
    # whose router holds the subnet's last address, that address was drawn as the "wrong" one)
    taken = {str(n.address.ip) for n in nodes.values() if n.address is not None}
    taken |= {n.gateway for n in nodes.values() if n.gateway}
    spare = [str(h) for h in reversed(list(here.network.hosts())[-8:]) if str(h) not in taken]
    if lab.gateway and spare:
        params["wrong_gateway"] = spare[0]
    beyond = sorted(
        (n for n in nodes.values() if n.address is not None and n.address.ip not in here.network),
        key=lambda n: n.node.name,
    )
    if lab.gateway and beyond:  # a host only the gateway leads to
        assert beyond[0].address is not None
        params["beyond"], params["beyond_node"] = str(beyond[0].address.ip), beyond[0].node.name
    if not _bound(fault, "vpcs", params):
        return None
    return _Candidate(
        fault, "vpcs", f"node:{lab.node.name}", [lab.node.name], params, node=lab.node.name
    )


def _linux_binding(fault: Fault, lab: _LabNode, nodes: dict[str, _LabNode]) -> _Candidate | None:
    """The fault's parameters on a Linux node, through the first of its interfaces (those OSPF
    runs on first) where every placeholder has a value; None when none fits."""
    facts, name = lab.linux, lab.node.name
    if lab.node.status != "started" or facts is None:
        return None
    others = {n.node.name: n.addresses() for n in nodes.values() if n is not lab}
    for interface in interface_order(facts):
        params = {k: v for k, v in linux_params(name, facts, interface, others).items() if v}
        if _bound(fault, "linux", params):
            return _Candidate(fault, "linux", f"node:{name}", [name], params, node=name)
    return None


def _across(host: _LabNode, middle: _LabNode, nodes: dict[str, _LabNode]) -> _LabNode | None:
    """The host a link from ``host`` to an always-on ``middle`` (a switch, a hub) leads to: the
    first other host of ``host``'s subnet, by name; None when there is none."""
    if host.address is None or middle.node.node_type not in ALWAYS_ON:
        return None
    others = [
        n for n in nodes.values()
        if n is not host and n.address is not None and n.address.ip in host.address.network
    ]  # fmt: skip
    return min(others, key=lambda n: n.node.name, default=None)


def _bound(fault: Fault, platform: str, params: dict[str, str]) -> bool:
    """Whether every placeholder the fault uses on ``platform`` has a value (checks need a
    non-empty one; a step may leave ``gateway`` empty)."""
    steps = [fault.inject[platform], fault.undo[platform]]
    in_steps = {p for s in steps for t in s.texts() for p in placeholders(t)}
    in_checks = {p for c in fault.checks for t in c.texts() for p in placeholders(t)}
    in_checks |= placeholders(fault.ticket)
    return all(p in params for p in in_steps) and all(params.get(p) for p in in_checks)


def _fill(text: str, params: dict[str, str]) -> str:
    return " ".join(text.format_map(params).split())


def vpcs_address(output: str) -> tuple[ipaddress.IPv4Interface | None, str]:
    """The address and gateway in VPCS ``show ip`` output (``IP/MASK : 10.0.0.1/24``)."""
    found = re.search(r"IP/MASK\s*:\s*(\d+\.\d+\.\d+\.\d+/\d+)", output)
    gateway = re.search(r"GATEWAY\s*:\s*(\d+\.\d+\.\d+\.\d+)", output)
    address = ipaddress.IPv4Interface(found.group(1)) if found else None
    if address is not None and int(address.ip) == 0:
        address = None
    gw = gateway.group(1) if gateway and gateway.group(1) != "0.0.0.0" else ""
    return address, gw


def _ping_command(node: Node, to: str, count: int = 2) -> str:
    platform = PLATFORM_OF_NODE_TYPE.get(node.node_type)
    if platform == "vpcs":
        return f"ping {to} -c {count}"
    if platform == "ios":
        return f"ping {to} repeat {max(count, 3)}"
    return f"ping -c {count} -W 1 {to}"


def _ping_passes(output: str, to: str, check: Check) -> bool:
    """Whether a ping's answers meet the check: at most ``max_loss`` percent lost of
    ``count``, and every answer within ``max_rtt_ms`` when it is set."""
    if not ping_answered(output, to):
        return False
    answers = ping_times(output, to)
    if not answers:  # IOS: a success rate only
        loss = ping_loss(output)
        return loss is not None and loss <= check.max_loss
    lost = 100 * max(0, check.count - len(answers)) // check.count
    slow = check.max_rtt_ms is not None and any(
        t is not None and t > check.max_rtt_ms for t in answers
    )
    return lost <= check.max_loss and not slow


def _vpcs_expected(command: str) -> tuple[ipaddress.IPv4Interface | None, str] | None:
    """What VPCS ``show ip`` reads once ``command`` took effect (None: nothing to compare)."""
    if command.strip() == "clear ip":
        return None, ""
    words = command.split()
    if len(words) in (2, 3) and words[0] == "ip" and "/" in words[1]:
        try:
            return ipaddress.IPv4Interface(words[1]), words[2] if len(words) == 3 else ""
        except ValueError:
            return None
    return None


def _vpcs_summary(output: str) -> str:
    address, gateway = vpcs_address(output)
    text = f"the address {address}" if address else "no address"
    return f"{text} and the gateway {gateway}" if gateway else text


def _device_answer(outcome: DeviceOutcome, commands: int) -> str:
    """What a device printed back to the fault's commands (its refusals), prompt and echo
    left out, on one line."""
    lines: list[str] = []
    for result in outcome.results[:commands]:
        for line in result.output.splitlines():
            line = line.strip()
            if line and not line.endswith(">") and line != result.command.strip():
                lines.append(line)
    return " ".join(lines)[:200]


def _ticket(chosen: Sequence[_Candidate]) -> str:
    """The report the learner starts from: each fault's ticket, filled from the lab."""
    return " ".join(_fill(c.fault.ticket, c.params) for c in chosen)


def _public_title(check: Check, number: int, params: dict[str, str]) -> str:
    """Reachability says nothing of the fault; other checks would, so they stay numbered."""
    return _fill(check.title, params) if check.kind == "ping" else f"Lab check {number}"


def _link_text(steps: Steps, link_name: str) -> str:
    action = steps.link
    assert action is not None
    if action.suspend is False:
        return f"resume the link {link_name}"
    return f"remove the packet filters of the link {link_name}"


def _score(record: ExerciseRecord) -> int:
    """100, less 15 a hint and a point a minute beyond 10 minutes a fault; at least 10."""
    minutes = ((record.ended_at or now()) - (record.started_at or now())).total_seconds() / 60
    late = max(0, int(minutes) - 10 * record.fault_count)
    return max(10, 100 - HINT_COST * record.hints_used - late)


def _checked_lab(
    data: bytes, passphrase: str, trusted: package.TrainerKey, limits: ArchiveLimits | None = None
) -> tuple[ExercisePackage, CheckedArchive]:
    """Open a signed exercise file and check its lab archive the way an import does."""
    exercise, archive = package.open_sealed(data, passphrase, trusted)
    return exercise, check_project_archive(archive, limits)
