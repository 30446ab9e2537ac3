"""The routing readers on the shapes FRR (vtysh), Cisco IOS and Linux print; the same readers run
on the real FRR router's output in `test_frr_ospf_link` (neighbour Full, routes in the table)."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.devices.routing import (
    bgp_established,
    established_bgp_neighbors,
    full_ospf_neighbors,
    interface_up,
    learned_routes,
    ospf_neighbor_full,
    route_present,
)
from gns3_copilot_desktop.core.practice.task import PassCondition

FRR_ROUTES = """\
Codes: K - kernel route, C - connected, S - static, R - RIP,
       O - OSPF, I - IS-IS, B - BGP, E - EIGRP, N - NHRP,
       > - selected route, * - FIB route, q - queued, r - rejected, b - backup

O   10.0.12.0/24 [110/10] is directly connected, eth0, weight 1, 00:01:10
C>* 10.0.12.0/24 is directly connected, eth0, 00:01:20
O>* 192.0.2.2/32 [110/20] via 10.0.12.2, eth0, weight 1, 00:00:40
B>* 198.51.100.0/24 [20/0] via 10.0.12.2, eth0, weight 1, 00:00:10
"""
IOS_ROUTES = """\
Gateway of last resort is not set

      10.0.0.0/8 is variably subnetted, 2 subnets, 2 masks
C        10.0.12.0/24 is directly connected, GigabitEthernet0/0
O        10.0.23.0/24 [110/2] via 10.0.12.2, 00:00:12, GigabitEthernet0/0
"""
LINUX_ROUTES = "default via 10.0.12.1 dev eth0\n10.0.34.0/24 via 10.0.12.2 dev eth0 proto ospf\n"
FRR_NEIGHBORS = """\
Neighbor ID     Pri State           Up Time         Dead Time Address         Interface
2.2.2.2           1 Full/DR         1m02s             38.119s 10.0.12.2       eth0:10.0.12.1
3.3.3.3           1 Init/DROther    0.511s            39.488s 10.0.13.3       eth1:10.0.13.1
"""
IOS_NEIGHBORS = """\
Neighbor ID     Pri   State           Dead Time   Address         Interface
2.2.2.2           1   FULL/BDR        00:00:33    10.0.12.2       GigabitEthernet0/0
"""
FRR_BGP = """\
Neighbor     V    AS MsgRcvd MsgSent TblVer InQ OutQ  Up/Down State/PfxRcd PfxSnt Desc
10.0.12.2    4 65002       6       6      0   0    0 00:02:13            1      2 N/A
10.0.13.3    4 65003       0       0      0   0    0    never       Active      0 N/A
10.0.14.4    4 65004       8      11      0   0    0 00:01:40     (Policy) (Policy) N/A
"""
IOS_BGP = """\
Neighbor        V           AS MsgRcvd MsgSent   TblVer  InQ OutQ Up/Down  State/PfxRcd
10.0.12.2       4        65002      10      11        3    0    0 00:05:12        2
10.0.14.4       4        65004       0       0        1    0    0 never    Idle
"""


def test_a_route_is_that_prefix_exactly_in_every_shape() -> None:
    assert route_present(FRR_ROUTES, "192.0.2.2/32")
    assert route_present(FRR_ROUTES, "198.51.100.0/24")
    assert not route_present(FRR_ROUTES, "192.0.2.0/24"), "a shorter prefix is another route"
    assert not route_present(FRR_ROUTES, "10.0.2.0/24")
    assert route_present(IOS_ROUTES, "10.0.23.0/24")
    assert not route_present(IOS_ROUTES, "10.0.0.0/8"), "a heading, not a route"
    assert route_present(LINUX_ROUTES, "10.0.34.0/24")
    assert route_present('Routing entry for 192.0.2.2/32\n  Known via "ospf"', "192.0.2.2/32")
    assert not route_present("% Network not in table", "192.0.2.2/32")


def test_an_ospf_neighbour_is_full_only_in_that_state() -> None:
    assert ospf_neighbor_full(FRR_NEIGHBORS, "2.2.2.2")
    assert not ospf_neighbor_full(FRR_NEIGHBORS, "3.3.3.3"), "Init is not Full"
    assert ospf_neighbor_full(FRR_NEIGHBORS)
    assert ospf_neighbor_full(IOS_NEIGHBORS, "2.2.2.2")
    assert not ospf_neighbor_full("", None)
    # a plan knows the neighbour's address on the link, not the router id it chose
    assert ospf_neighbor_full(FRR_NEIGHBORS, address="10.0.12.2")
    assert not ospf_neighbor_full(FRR_NEIGHBORS, address="10.0.13.3"), "Init is not Full"
    assert not ospf_neighbor_full(FRR_NEIGHBORS, address="10.0.12.1"), "its own end"
    assert ospf_neighbor_full(IOS_NEIGHBORS, address="10.0.12.2")
    assert not ospf_neighbor_full(IOS_NEIGHBORS, address="2.2.2.2"), "an id is no address"


def test_a_bgp_session_is_established_when_it_counts_prefixes() -> None:
    assert bgp_established(FRR_BGP, "10.0.12.2")
    assert not bgp_established(FRR_BGP, "10.0.13.3"), "Active is not Established"
    # FRR 8.4's eBGP without a policy: up 1:40, its prefixes held back (the real router's line)
    assert bgp_established(FRR_BGP, "10.0.14.4")
    assert bgp_established(IOS_BGP, "10.0.12.2")
    assert not bgp_established(IOS_BGP, "10.0.14.4")
    assert not bgp_established(IOS_BGP, "10.0.99.9"), "an unknown neighbour"


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("route", "10.0.2/24x", "not a prefix"),
        ("ospf_full", "router2", "not an address"),
        ("bgp_established", "10.0.0", "not an address"),
    ],
)
def test_a_task_condition_with_a_wrong_prefix_or_address_is_refused(
    field: str, value: str, said: str
) -> None:
    with pytest.raises(ValueError, match=said):
        PassCondition.model_validate({field: value})


def test_what_a_working_router_shows_is_listed_for_a_trainer_to_check() -> None:
    """The task editor proposes checks from these lists: only what a protocol (or a static
    route) brought, never a connected subnet, which stays whatever the protocol does."""
    assert learned_routes(FRR_ROUTES) == ["192.0.2.2/32", "198.51.100.0/24"]
    assert learned_routes(IOS_ROUTES) == ["10.0.23.0/24"]
    assert full_ospf_neighbors(FRR_NEIGHBORS) == ["2.2.2.2"]
    assert full_ospf_neighbors(IOS_NEIGHBORS) == ["2.2.2.2"]
    assert established_bgp_neighbors(FRR_BGP) == ["10.0.12.2", "10.0.14.4"]
    assert established_bgp_neighbors(IOS_BGP) == ["10.0.12.2"]
    # each listed state passes its own check on the same output
    assert all(route_present(FRR_ROUTES, p) for p in learned_routes(FRR_ROUTES))
    assert all(bgp_established(FRR_BGP, n) for n in established_bgp_neighbors(FRR_BGP))


def test_a_hostile_banner_lists_nothing_that_is_not_an_address() -> None:
    banner = (
        "O>* 10.0.0.0/99 [110/20] via x\n"
        "S>* $(reboot)/24 via 1.1.1.1\n"
        "x;reboot   1 Full/DR  1m  38s 10.0.12.2 eth0\n"
        "reboot     4 65002  6  6  0  0  0 00:02:13  1  2 N/A\n"
    )
    assert learned_routes(banner) == []
    assert full_ospf_neighbors(banner) == []
    assert established_bgp_neighbors(banner) == []


IOS_BRIEF = """\
Interface              IP-Address      OK? Method Status                Protocol
Ethernet0/0            10.0.12.1       YES manual up                    up
Ethernet0/1            unassigned      YES unset  administratively down down
Ethernet0/2            10.0.13.1       YES manual up                    down
"""
FRR_BRIEF = """\
Interface       Status  VRF             Addresses
---------       ------  ---             ---------
eth0            up      default         10.0.12.1/24
eth1            down    default
eth10           up      default         10.0.99.1/24
lo              up      default
"""
LINUX_BRIEF = "lo               UNKNOWN        00:00:00:00:00:00\neth0@if5  UP  52:54:00:12:34:56\n"


def test_an_interface_is_up_only_when_the_device_says_so_for_that_interface() -> None:
    assert interface_up(IOS_BRIEF, "Ethernet0/0")
    assert not interface_up(IOS_BRIEF, "Ethernet0/1"), "administratively down"
    assert not interface_up(IOS_BRIEF, "Ethernet0/2"), "up, but its line is down"
    assert interface_up(FRR_BRIEF, "eth0") and not interface_up(FRR_BRIEF, "eth1")
    assert interface_up(FRR_BRIEF, "eth10") and not interface_up(FRR_BRIEF, "eth2")
    assert interface_up(LINUX_BRIEF, "eth0") and not interface_up(LINUX_BRIEF, "lo")
    detail = "GigabitEthernet0/0 is up, line protocol is down\n"
    assert not interface_up(detail, "GigabitEthernet0/0")
    assert interface_up("Interface eth0 is up, line protocol is up\n", "eth0")
    assert not interface_up("Interface eth0 is down\n", "eth0")
    assert condition_holds_text(FRR_BRIEF, {"interface_up": "eth0"})


def condition_holds_text(output: str, passes: dict[str, str]) -> bool:
    from gns3_copilot_desktop.core.practice.task_checks import condition_holds

    return condition_holds(PassCondition.model_validate(passes), output)


@pytest.mark.parametrize("name", ["eth0;reboot", "$(reboot)", "eth0 up", ""])
def test_an_interface_check_names_a_plain_interface(name: str) -> None:
    with pytest.raises(ValueError):
        PassCondition.model_validate({"interface_up": name})
