"""What practice reads from a Linux shell is data: hostile names and values are left out."""

from __future__ import annotations

import ipaddress

from gns3_copilot_desktop.core.practice.linux_facts import (
    interface_order,
    linux_facts,
    linux_params,
)

BRIEF = """ip -br -4 addr show
lo               UNKNOWN        127.0.0.1/8
eth0             UP             192.0.2.254/24
eth1             UP             198.51.100.254/24 198.51.100.9/24
x;reboot         UNKNOWN        203.0.113.1/24
eth2@if7         UP             10.9.0.1/30
"""
LINKS = """1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast state UP mode DEFAULT
3: eth1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc pfifo_fast state UP mode DEFAULT
"""
RUNNING = """frr version 8.4.4
hostname router
interface eth1
 ip ospf hello-interval 2
exit
interface x;reboot
 ip ospf hello-interval 3
exit
interface eth2
 ip ospf hello-interval 2;reboot
 ip ospf hello-interval 99999
exit
ip route 203.0.113.0/24 198.51.100.1
ip route 203.0.114.0/24 198.51.100.1;reboot
!
router bgp 65001
 neighbor 198.51.100.1 remote-as 65002
 neighbor 10.0.0.1 remote-as $(reboot)
exit
!
router ospf
 network 198.51.100.0/24 area 0.0.0.1
 network 192.0.2.0/24 area 0;reboot
exit
!
end
"""


def test_the_shell_read_gives_interfaces_routes_ospf_and_bgp() -> None:
    facts = linux_facts([BRIEF, LINKS, "default via 198.51.100.1 dev eth1 proto static", RUNNING])
    assert facts is not None
    assert facts.interfaces == {
        "eth0": ipaddress.IPv4Interface("192.0.2.254/24"),
        "eth1": ipaddress.IPv4Interface("198.51.100.254/24"),
        "eth2": ipaddress.IPv4Interface("10.9.0.1/30"),
    }  # "x;reboot" is not a name a command is built with
    assert facts.mtus == {"lo": 65536, "eth0": 1500, "eth1": 9000}
    assert facts.gateway == "198.51.100.1"
    assert facts.ospf == {ipaddress.IPv4Network("198.51.100.0/24"): "0.0.0.1"}
    assert facts.asn == "65001" and facts.neighbors == {"198.51.100.1": "65002"}
    assert facts.static == {"203.0.113.0/24": "198.51.100.1"}
    assert facts.hellos == {"eth1": "2"}  # a hostile name or value is no fact
    assert interface_order(facts) == ["eth1", "eth0", "eth2"]  # OSPF's first

    others = {"PC1": [ipaddress.IPv4Interface("192.0.2.1/24")],
              "R2": [ipaddress.IPv4Interface("198.51.100.1/24")]}  # fmt: skip
    params = linux_params("R1", facts, "eth1", others)
    assert params["peer"] == "R2" and params["peer_address"] == "198.51.100.1"
    assert params["area"] == "0.0.0.1" and params["network"] == "198.51.100.0"
    assert params["wrong_area"] == "0.0.0.2"
    assert (params["hello"], params["wrong_hello"]) == ("2", "5")
    assert (params["route"], params["next_hop"]) == ("203.0.113.0/24", "198.51.100.1")
    assert params["wrong_address"] == "198.51.101.254" and params["mtu"] == "9000"
    assert params["wrong_mtu"] == "8900"  # below the link's: the neighbour's DBDs are refused
    assert (params["asn"], params["neighbor"], params["neighbor_asn"], params["wrong_asn"]) == (
        "65001", "198.51.100.1", "65002", "65003",
    )  # fmt: skip
    on_eth0 = linux_params("R1", facts, "eth0", others)
    assert "area" not in on_eth0 and "neighbor" not in on_eth0 and "hello" not in on_eth0
    assert "wrong_mtu" not in on_eth0  # no OSPF on it: no adjacency for an MTU to stall
    assert on_eth0["peer"] == "PC1"


def test_a_console_that_is_not_a_shell_is_not_a_linux_node() -> None:
    assert linux_facts(["% Unknown command: ip -br -4 addr show", "", "", ""]) is None
    assert linux_facts([]) is None
    hostile = linux_facts(["eth0 UP 192.0.2.1/24", "", "default via `reboot`", ""])
    assert hostile is not None and hostile.gateway == ""
