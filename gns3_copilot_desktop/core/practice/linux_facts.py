"""What practice reads from a Linux node's shell and the faults' parameters on it.

A Linux node is one whose console is a shell: a Docker host, or a router such as the project's
FRR appliance logged in with a saved console login that lands in a shell. From ``ip`` it learns
the interfaces with their IPv4 addresses and MTUs and the default route; from FRR's running
configuration (``vtysh``, where FRR runs) the OSPF networks with their areas and the BGP
neighbours.

Everything read here comes from a device and is filled into commands that later run in a root
shell, so it is data of a known shape or nothing: addresses go through `ipaddress`, numbers
through `int`, and an interface name, an area or an AS number that is not of its plain form is
left out (a hostile node can name an interface ``eth0;reboot``).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

LINUX_READS = (
    "ip -br -4 addr show",
    "ip -o link show",
    "ip route show default",
    "vtysh -c 'show running-config'",
)
"""The commands that read a Linux node for practice, in the order `linux_facts` takes them."""

FRR_HELLO_S = "10"
"""FRR's OSPF hello interval where the configuration sets none."""
MIN_OSPF_MTU = 576
"""The smallest MTU an IPv4 host must take: a fault never sets an interface's below it."""
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,14}")
_AREA = re.compile(r"\d{1,10}|\d{1,3}(?:\.\d{1,3}){3}")
_ASN = re.compile(r"\d{1,10}")
_BRIEF = re.compile(
    r"^(\S+?)(?:@\S+)?\s+(?:UP|DOWN|UNKNOWN|LOWERLAYERDOWN|DORMANT)\b[ \t]*(.*)$", re.MULTILINE
)
_LINK = re.compile(r"^\d+:\s+([^:@\s]+)(?:@\S+)?:.*?\smtu\s+(\d+)", re.MULTILINE)
_DEFAULT = re.compile(r"^default via (\S+)", re.MULTILINE)
_IPV4_PREFIX = re.compile(r"\b(\d{1,3}(?:\.\d{1,3}){3}/\d{1,2})\b")


@dataclass
class LinuxFacts:
    """A Linux node as its shell showed it."""

    interfaces: dict[str, ipaddress.IPv4Interface]
    """Each interface with an IPv4 address (its first), but the loopback."""
    mtus: dict[str, int] = field(default_factory=dict)
    gateway: str = ""
    ospf: dict[ipaddress.IPv4Network, str] = field(default_factory=dict)
    """FRR's OSPF ``network`` statements and their areas."""
    asn: str = ""
    """FRR's BGP AS number ("" without BGP)."""
    neighbors: dict[str, str] = field(default_factory=dict)
    """BGP neighbour address -> its remote AS."""
    static: dict[str, str] = field(default_factory=dict)
    """FRR's static routes: destination (``203.0.113.0/24``) -> next hop."""
    hellos: dict[str, str] = field(default_factory=dict)
    """FRR's ``ip ospf hello-interval`` per interface (absent: FRR's default, 10 s)."""


def linux_facts(outputs: Sequence[str]) -> LinuxFacts | None:
    """The facts in the outputs of `LINUX_READS`; None when the first is not ``ip`` output (the
    console is not a shell, or ``ip`` is missing)."""
    brief, links, default, running = [*outputs, "", "", "", ""][:4]
    rows = _BRIEF.findall(brief)
    if not rows:
        return None
    interfaces: dict[str, ipaddress.IPv4Interface] = {}
    for name, rest in rows:
        found = _IPV4_PREFIX.search(rest)
        if name == "lo" or found is None or not _SAFE_NAME.fullmatch(name):
            continue
        address = _interface(found.group(1))
        if address is not None:
            interfaces[name] = address
    facts = LinuxFacts(interfaces)
    facts.mtus = {n: int(m) for n, m in _LINK.findall(links) if _SAFE_NAME.fullmatch(n)}
    gateway = _DEFAULT.search(default)
    if gateway is not None and _address(gateway.group(1)) is not None:
        facts.gateway = gateway.group(1)
    _read_frr(running, facts)
    return facts


def _read_frr(running: str, facts: LinuxFacts) -> None:
    section = ""
    for raw in running.splitlines():
        line = raw.strip()
        if raw[:1] not in (" ", "\t"):
            section = line
            bgp = re.fullmatch(r"router bgp (\S+)", line)
            if bgp and _ASN.fullmatch(bgp.group(1)):
                facts.asn = bgp.group(1)
            static = re.fullmatch(r"ip route (\S+) (\S+)", line)
            if static and _network(static.group(1)) and _address(static.group(2)):
                facts.static[str(_network(static.group(1)))] = static.group(2)
            continue
        words = line.split()
        interface = re.fullmatch(r"interface (\S+)", section)
        if interface and _SAFE_NAME.fullmatch(interface.group(1)) and _is_hello(words):
            facts.hellos[interface.group(1)] = words[3]
        if section == "router ospf" and len(words) == 4 and words[0] == "network":
            network = _network(words[1])
            if network is not None and words[2] == "area" and _AREA.fullmatch(words[3]):
                facts.ospf[network] = words[3]
        elif section.startswith("router bgp") and _is_neighbor(words):
            facts.neighbors[words[1]] = words[3]


def _is_hello(words: list[str]) -> bool:
    """``ip ospf hello-interval <1-65535>``."""
    return (
        words[:3] == ["ip", "ospf", "hello-interval"]
        and len(words) == 4
        and re.fullmatch(r"\d{1,5}", words[3]) is not None
        and 1 <= int(words[3]) <= 65535
    )


def _is_neighbor(words: list[str]) -> bool:
    """``neighbor <address> remote-as <number>``."""
    return (
        len(words) == 4
        and words[0] == "neighbor"
        and words[2] == "remote-as"
        and _address(words[1]) is not None
        and _ASN.fullmatch(words[3]) is not None
    )


def linux_params(
    node: str, facts: LinuxFacts, interface: str, others: dict[str, list[ipaddress.IPv4Interface]]
) -> dict[str, str]:
    """The faults' parameters on ``node`` through ``interface``; ``others`` are the addresses
    of the lab's other nodes (a peer is one in the interface's subnet)."""
    here = facts.interfaces[interface]
    size = here.network.num_addresses
    params = {
        "node": node,
        "interface": interface,
        "address": str(here.ip),
        "prefix": str(here.network.prefixlen),
        "mask": str(here.network.netmask),
        "network": str(here.network.network_address),
        "wrong_address": str(ipaddress.IPv4Address((int(here.ip) + size) % 2**32)),
        "gateway": facts.gateway,
    }
    if interface in facts.mtus:
        params["mtu"] = str(facts.mtus[interface])
    peers = sorted(
        (name, a) for name, addresses in others.items() for a in addresses if a.ip in here.network
    )
    if peers:
        params["peer"], params["peer_address"] = peers[0][0], str(peers[0][1].ip)
    area = facts.ospf.get(here.network)
    if area is not None:
        params["area"], params["wrong_area"] = area, _other_area(area)
        hello = int(facts.hellos.get(interface, FRR_HELLO_S))
        # another hello the dead interval still allows to be sent: the neighbour refuses it
        params["hello"], params["wrong_hello"] = (
            str(hello),
            str(hello * 2 + 1 if hello < 30000 else hello - 1),
        )
        mtu = facts.mtus.get(interface, 0)
        if mtu >= MIN_OSPF_MTU + 100:
            # below the neighbour's (the link's own): this router refuses the neighbour's
            # database descriptions as too large, and the adjacency stays in ExStart
            params["wrong_mtu"] = str(mtu - 100)
    routes = sorted(facts.static.items())
    route = next((r for r, hop in routes if ipaddress.IPv4Address(hop) in here.network), None)
    if route is not None:
        params["route"], params["next_hop"] = route, facts.static[route]
    neighbor = next(
        (a for a in sorted(facts.neighbors) if ipaddress.IPv4Address(a) in here.network), None
    )
    if facts.asn and neighbor is not None:
        remote = facts.neighbors[neighbor]
        params.update(
            asn=facts.asn,
            neighbor=neighbor,
            neighbor_asn=remote,
            wrong_asn=str(int(remote) + 1 if int(remote) < 4294967295 else int(remote) - 1),
        )
    return params


def _other_area(area: str) -> str:
    """The next area in the same spelling (``0`` -> ``1``, ``0.0.0.1`` -> ``0.0.0.2``)."""
    if "." not in area:
        return str((int(area) + 1) % 2**32)
    return str(ipaddress.IPv4Address((int(ipaddress.IPv4Address(area)) + 1) % 2**32))


def interface_order(facts: LinuxFacts) -> list[str]:
    """The interfaces to bind a fault on, in order: those OSPF runs on first, then by name."""
    return sorted(
        facts.interfaces, key=lambda n: (facts.interfaces[n].network not in facts.ospf, n)
    )


def _interface(text: str) -> ipaddress.IPv4Interface | None:
    try:
        return ipaddress.IPv4Interface(text)
    except ValueError:
        return None


def _network(text: str) -> ipaddress.IPv4Network | None:
    try:
        return ipaddress.IPv4Network(text, strict=False)
    except ValueError:
        return None


def _address(text: str) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(text)
    except ValueError:
        return None
