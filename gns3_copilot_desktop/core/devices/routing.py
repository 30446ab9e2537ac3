"""Reading routing state from a router's own output, as FRR (vtysh) and Cisco IOS print it: a
route present, an OSPF neighbour Full, a BGP session Established. A trainer's task checks use
these ("the check goes beyond ping"), so a lab is judged on what the router says, not on a
substring that could match elsewhere (a neighbour's id in another column, a prefix inside a
longer one).
"""

from __future__ import annotations

import ipaddress
import re

_ROUTE_CODES = re.compile(r"^[A-Za-z][A-Za-z0-9>*+% ]{0,6}\s")
"""The start of a route line of ``show ip route``: its codes (FRR ``O>*``, IOS ``O``,
``D EX``, ``C``)."""


def _prefix(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    return ipaddress.ip_network(text, strict=False)


def route_present(output: str, prefix: str) -> bool:
    """Whether ``prefix`` (``10.0.2.0/24``) is a route in ``show ip route`` output: a table line
    (FRR ``O>* 10.0.2.0/24 [110/20] via 10.0.12.2, eth0``, IOS ``O  10.0.2.0/24 [110/2] via``,
    Linux ``ip route`` ``10.0.2.0/24 via 10.0.12.2 dev eth0``) or the detail of one route
    (``Routing entry for 10.0.2.0/24``). A longer or shorter prefix is another route."""
    wanted = _prefix(prefix)
    for line in output.splitlines():
        detail = re.match(r"\s*Routing entry for (\S+)", line)
        if detail:
            candidates = [detail.group(1)]
        elif "subnetted" in line:
            continue  # an IOS heading ("10.0.0.0/8 is variably subnetted"), not a route
        elif _ROUTE_CODES.match(line) or re.match(r"^[0-9a-fA-F:.]+/\d+\s", line):
            candidates = re.findall(r"(?<![\w.:/])([0-9a-fA-F:.]+/\d{1,3})(?![\w.:/])", line)
        else:
            continue
        for candidate in candidates[:1]:  # the route's own prefix comes first on its line
            try:
                if _prefix(candidate) == wanted:
                    return True
            except ValueError:
                continue
    return False


def ospf_neighbor_full(
    output: str, neighbor: str | None = None, *, address: str | None = None
) -> bool:
    """Whether ``show ip ospf neighbor`` shows the neighbour (its router id, or its ``address``
    on the shared link; neither: any) in the Full state (FRR ``2.2.2.2  1 Full/DR  30.1s  35.2s
    10.0.12.2  eth0:10.0.12.1 ...``, IOS ``2.2.2.2  1 FULL/BDR  00:00:33  10.0.12.2
    GigabitEthernet0/0``)."""
    for line in output.splitlines():
        fields = line.split()
        if len(fields) < 3 or (neighbor is not None and fields[0] != neighbor):
            continue
        if address is not None and address not in fields[3:6]:
            continue
        if re.match(r"^\d+\.\d+\.\d+\.\d+$", fields[0]) and any(
            f.lower().split("/")[0] == "full" for f in fields[1:4]
        ):
            return True
    return False


def bgp_established(output: str, neighbor: str) -> bool:
    """Whether ``show ip bgp summary`` shows the session with ``neighbor`` Established. Its line
    is ``Neighbor V AS MsgRcvd MsgSent TblVer InQ OutQ Up/Down State/PfxRcd ...`` (FRR and IOS):
    the tenth column is the number of prefixes received when Established, or FRR's
    ``(Policy)``: Established, with every prefix held back because an eBGP session has no
    policy yet (``bgp ebgp-requires-policy``, FRR's default); the state's name (Idle, Active,
    Connect, OpenSent, OpenConfirm) otherwise."""
    for line in output.splitlines():
        fields = line.split()
        if len(fields) >= 10 and fields[0] == neighbor:
            return re.fullmatch(r"\d+|\(Policy\)", fields[9]) is not None
    return False


_LEARNED = re.compile(r"^([OSBRDEi])[A-Za-z0-9>*+ ]{0,6}\s+([0-9.]+/\d{1,2})\s")
"""A route line learned from a protocol or set statically (OSPF, static, BGP, RIP, EIGRP,
IS-IS): its code, then its prefix."""


def learned_routes(output: str) -> list[str]:
    """The prefixes ``show ip route`` holds from a routing protocol or a static route, in
    order, each once: what a working lab shows that a broken one may lose. A subnet the
    router is attached to (``C``, ``L``, ``K``, or an OSPF line "directly connected") is left
    out: it stays whatever the protocol does."""
    found: list[str] = []
    for line in output.splitlines():
        match = _LEARNED.match(line)
        if match is None or "directly connected" in line:
            continue
        try:
            prefix = str(_prefix(match.group(2)))
        except ValueError:
            continue
        if prefix not in found:
            found.append(prefix)
    return found


def full_ospf_neighbors(output: str) -> list[str]:
    """The router ids ``show ip ospf neighbor`` shows in the Full state, each once."""
    found: list[str] = []
    for line in output.splitlines():
        fields = line.split()
        if (
            len(fields) >= 3
            and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", fields[0])
            and fields[0] not in found
            and ospf_neighbor_full(line, fields[0])
        ):
            found.append(fields[0])
    return found


def established_bgp_neighbors(output: str) -> list[str]:
    """The neighbours whose session ``show ip bgp summary`` shows Established, each once."""
    found: list[str] = []
    for line in output.splitlines():
        fields = line.split()
        if not fields or fields[0] in found:
            continue
        try:
            ipaddress.ip_address(fields[0])
        except ValueError:
            continue
        if bgp_established(line, fields[0]):
            found.append(fields[0])
    return found


_DETAIL_UP = re.compile(
    r"^\s*(?:Interface\s+)?(?P<name>\S+) is (?P<status>administratively down|up|down)"
    r"(?:, line protocol is (?P<protocol>up|down))?",
    re.IGNORECASE,
)


def interface_up(output: str, interface: str) -> bool:
    """Whether ``interface`` is up (administratively and its line) as the device prints it:
    IOS ``show ip interface brief`` (``Ethernet0/0 10.0.0.1 YES manual up up``), FRR ``show
    interface brief`` (``eth0 up default 10.0.12.1/24``), Linux ``ip -br link`` (``eth0@if5
    UP …``), or one interface's detail (``GigabitEthernet0/0 is up, line protocol is up``;
    FRR ``Interface eth0 is up, line protocol is up``). Another interface's line never counts,
    nor a name that merely starts the same (``eth1`` is not ``eth10``)."""
    wanted = interface.lower()
    for line in output.splitlines():
        detail = _DETAIL_UP.match(line)
        if detail and detail.group("name").lower().rstrip(",") == wanted:
            return detail.group("status").lower() == "up" and (
                detail.group("protocol") in (None, "up")
            )
        fields = line.split()
        if len(fields) < 2 or fields[0].split("@")[0].lower() != wanted:
            continue
        if len(fields) >= 6 and fields[2].upper() in ("YES", "NO"):  # IOS brief: status, protocol
            return fields[-2].lower() == "up" and fields[-1].lower() == "up"
        return fields[1].lower() == "up"  # FRR brief, Linux ip -br
    return False
