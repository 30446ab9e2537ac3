"""Ping output of every family the labs run (VPCS, iputils, BusyBox, IOS), read one way for the
practice checks and a trainer's task checks."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.devices.ping import (
    endless_ping,
    ping_answered,
    ping_loss,
    ping_times,
)


@pytest.mark.parametrize(
    ("output", "loss"),
    [
        (
            "84 bytes from 10.1.1.2 icmp_seq=1 ttl=64 time=0.4 ms\n"
            "84 bytes from 10.1.1.2 icmp_seq=2 ttl=64 time=0.3 ms",
            0,
        ),
        ("84 bytes from 10.1.1.2 icmp_seq=1 ttl=64 time=0.4 ms\n10.1.1.2 icmp_seq=2 timeout", 50),
        ("10.1.1.2 icmp_seq=1 timeout\n10.1.1.2 icmp_seq=2 timeout", 100),
        ("host (10.1.1.2) not reachable", 100),
        ("2 packets transmitted, 1 received, 50% packet loss", 50),
        ("Success rate is 80 percent (4/5)", 20),
        ("IP/MASK : 10.1.1.1/24", None),
        # iputils prints nothing for an echo lost: its summary, not its answer lines, counts
        (
            "64 bytes from 10.1.1.2: icmp_seq=1 ttl=64 time=0.05 ms\n"
            "--- 10.1.1.2 ping statistics ---\n"
            "4 packets transmitted, 1 received, 75% packet loss, time 3050ms",
            75,
        ),
        (
            "64 bytes from 10.1.1.2: seq=0 ttl=64 time=0.101 ms\n"
            "--- 10.1.1.2 ping statistics ---\n"
            "2 packets transmitted, 1 packets received, 50% packet loss",
            50,
        ),  # BusyBox
        ("From 10.1.1.1 icmp_seq=1 Destination Host Unreachable", 100),
    ],
)
def test_ping_loss_from_each_family(output: str, loss: int | None) -> None:
    assert ping_loss(output) == loss


@pytest.mark.parametrize(
    ("output", "answered"),
    [
        ("192.0.2.2 icmp_seq=1 ttl=64 time=1.0 ms", True),  # VPCS
        ("64 bytes from 192.0.2.2: icmp_seq=1 ttl=64", True),  # Linux
        ("Success rate is 66 percent (2/3)", True),  # IOS
        ("192.0.2.2 icmp_seq=1 timeout\n192.0.2.2 icmp_seq=2 timeout", False),
        ("host (192.0.2.2) not reachable", False),
        ("192.0.2.25 icmp_seq=1 ttl=64", False),  # another address
        ("Success rate is 0 percent (0/5)", False),
        ("64 bytes from 192.0.2.2: seq=0 ttl=64 time=0.101 ms", True),  # BusyBox (FRR's shell)
        ("84 bytes from 192.0.2.21 icmp_seq=1 ttl=64 time=0.4 ms", False),  # a longer address
    ],
)
def test_a_ping_answer_is_recognised(output: str, answered: bool) -> None:
    assert ping_answered(output, "192.0.2.2") is answered


def test_each_answer_counts_once_with_its_time() -> None:
    """iputils' answer line names the source twice over ("bytes from A:" and "A: icmp_seq"):
    it is one answer, not two (two counted made half the echoes lost look like none)."""
    output = "64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.05 ms"
    assert ping_times(output, "10.0.0.2") == [0.05]
    assert ping_times("84 bytes from 10.0.0.2 icmp_seq=1 ttl=64 time=12.5 ms") == [12.5]


@pytest.mark.parametrize(
    ("command", "endless"),
    [
        ("ping 10.0.0.1", True),  # vtysh's and a shell's: until Ctrl-C
        ("PING 10.0.0.1", True),
        ("ping -n 10.0.0.1", True),
        ("ping 10.0.0.1 -c 3", False),
        ("ping -c3 10.0.0.1", False),
        ("ping -w 5 10.0.0.1", False),
        ("ping 10.0.0.1 repeat 3", False),
        ("ping 10.0.0.1 count 2", False),
        ("ping 10.0.0.1 timeout 1", False),
        ("pingall", False),
        ("show ip route", False),
        ("", False),
    ],
)
def test_a_ping_without_a_count_or_deadline_is_endless(command: str, endless: bool) -> None:
    assert endless_ping(command) is endless
