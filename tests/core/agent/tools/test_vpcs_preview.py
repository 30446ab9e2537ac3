"""A VPCS push's ``+`` preview compares the state the lines would set with ``show ip``.

The text below has the shape VPCS prints (the live proof on real VPCS consoles is
tests/ui/cards/test_approval_card_live.py); IOS-like lines keep the line-by-line comparison.
"""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.tools.device_results import config_preview, vpcs_ip_target

SHOW_IP = "\n".join(
    [
        "NAME        : PC3[1]",
        "IP/MASK     : 10.1.1.3/24",
        "GATEWAY     : 10.1.1.1",
        "DNS         : ",
        "MAC         : 00:50:79:66:68:02",
        "LPORT       : 20004",
        "RHOST:PORT  : 127.0.0.1:20005",
        "MTU         : 1500",
    ]
)


@pytest.mark.parametrize(
    ("line", "mark"),
    [
        ("ip 10.1.1.3/24 10.1.1.1", "  "),  # the state it sets is there: not new
        ("ip 10.1.1.3 255.255.255.0 10.1.1.1", "  "),  # the same, written otherwise
        ("ip 10.1.1.3 10.1.1.1 24", "  "),  # gateway before the mask
        ("ip 10.1.1.3", "  "),  # /24 by default; no gateway given keeps the gateway
        ("ip 10.1.1.30/24 10.1.1.1", "+ "),  # another address
        ("ip 10.1.1.3/25 10.1.1.1", "+ "),  # another mask
        ("ip 10.1.1.3/24 10.1.1.254", "+ "),  # another gateway
        ("ip dhcp", "+ "),  # sets nothing known in advance: it runs
        ("set pcname PC3", "  "),
        ("set pcname PC9", "+ "),
        ("save", "+ "),
        ("ip 10.1.1.3/24 10.1.1.1 extra words", "+ "),  # not a form VPCS takes
    ],
)
def test_each_line_is_compared_with_the_state_show_ip_shows(line: str, mark: str) -> None:
    marked, new, there = config_preview([line], SHOW_IP, "show ip")
    assert marked == mark + line
    assert (new, there) == ((1, 0) if mark == "+ " else (0, 1))


def test_each_line_meets_the_state_the_lines_before_it_leave() -> None:
    lines = ["clear ip", "ip 10.1.1.3/24 10.1.1.1", "ip 10.1.1.3/24"]
    marked, new, there = config_preview(lines, SHOW_IP, "show ip")
    assert marked.splitlines() == [
        "+ clear ip",
        "+ ip 10.1.1.3/24 10.1.1.1",  # cleared by the line before
        "  ip 10.1.1.3/24",  # set by the line before
    ]
    assert (new, there) == (2, 1)


def test_ios_lines_are_still_compared_as_lines() -> None:
    running = "interface Gi0/0\n ip address 10.0.0.1 255.0.0.0"
    marked, new, there = config_preview(
        ["interface Gi0/0", " no shutdown"], running, "show running-config"
    )
    assert marked.splitlines() == ["  interface Gi0/0", "+  no shutdown"]
    assert (new, there) == (1, 1)


@pytest.mark.parametrize(
    "args", [[], ["dns", "8.8.8.8"], ["2001:db8::1/64"], ["10.1.1.3/33"], ["10.1.1.3", "a", "b"]]
)
def test_forms_that_set_no_known_address_are_not_read_as_one(args: list[str]) -> None:
    assert vpcs_ip_target(args) is None
