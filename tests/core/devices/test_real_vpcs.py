"""The console layer against a REAL VPCS CLI (Debian's vpcs 0.5b2) in a private namespace.

Two VPCS instances joined by VPCS's UDP tunnel: configure addresses on both at once, read them
back, ping across. Skips, saying why, where vpcs cannot be fetched or namespaces are not allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.vpcs_lab import lab_unavailable, run_lab, vpcs_binary

PCS = [
    {"name": "PC1", "console": 5001, "udp_local": 20000, "udp_remote": 20001},
    {"name": "PC2", "console": 5002, "udp_local": 20001, "udp_remote": 20000},
]


@pytest.fixture(scope="module")
def vpcs() -> Path:
    reason = lab_unavailable()
    if reason is not None:
        pytest.skip(reason)
    binary = vpcs_binary()
    assert isinstance(binary, Path)
    return binary


def test_configure_show_and_ping_between_two_real_vpcs(vpcs: Path) -> None:
    configure = [
        {"device": "PC1", "config_lines": ["ip 192.0.2.1/24", "bogus"], "commands": ["show ip"]},
        {"device": "PC2", "config_lines": ["ip 192.0.2.2/24"], "commands": ["show ip"]},
    ]
    verify = [
        {"device": "PC2", "commands": ["ping 192.0.2.1 -c 2"]},
        {"device": "PC1", "commands": ["show ip", "rel"]},
    ]
    stages = run_lab({"vpcs": str(vpcs), "pcs": PCS, "stages": [configure, verify]})

    pc1, pc2 = stages[0]
    assert pc1["error"] is None and pc2["error"] is None
    assert [r["line"] for r in pc1["config"]["rejected"]] == ["bogus"]
    assert pc1["config"]["rejected"][0]["message"].startswith("Bad command")
    assert pc2["config"]["rejected"] == []
    assert "IP/MASK     : 192.0.2.1/24" in pc1["results"][0]["output"]
    assert "IP/MASK     : 192.0.2.2/24" in pc2["results"][0]["output"]
    assert pc1["results"][0]["prompt"].endswith("> ")

    ping, refused = stages[1]
    assert ping["error"] is None
    assert ping["results"][0]["output"].count("192.0.2.1 icmp_seq=") == 2, ping
    assert not ping["results"][0]["output"].startswith("ping")  # the echo is stripped
    assert refused["refused"][0]["command"] == "rel" and refused["results"] == []
