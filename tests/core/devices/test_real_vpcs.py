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


VPCS_READS = [
    "show ip", "show ip all", "show arp", "show history", "show version", "show ipv6",
    "sho ip", "arp", "ping 192.0.2.2 -c 1", "ping 192.0.2.1 -c 1 -l 64", "trace 192.0.2.2 -m 2",
    "ping 192.0.2.9 -c 1 -w 200", "ip addr", "ip address show", "ip route", "ip link show",
    "ip neigh", "ip addr show dev eth0", "ls", "cat notes", "pwd", "date", "hostname", "uname -a",
    "who", "display ip", "show ip | include IP", "show ip | grep MAC", "whoami", "uptime", "df",
    "free", "ps", "netstat -rn", "ss -tln", "ifconfig", "traceroute 192.0.2.2 -m 1",
    "tracert 192.0.2.2 -m 1", "tracepath 192.0.2.2", "disp ip", "cat /etc/hostname",
]  # fmt: skip
VPCS_CHANGES = ["ip 10.9.9.9/24", "ip dhcp", "ip auto", "ip a", "clear ip", "set pcname X",
                "save x", "load x", "sh ip", "dis arp"]  # fmt: skip


def test_every_read_the_gate_allows_leaves_a_real_vpcs_as_it_was(vpcs: Path) -> None:
    from gns3_copilot_desktop.core.devices.command_risk import is_read_only_command

    assert all(is_read_only_command(c) for c in VPCS_READS)
    assert not any(is_read_only_command(c) for c in VPCS_CHANGES)
    # one console session: configure, every read, then read the address back
    stage = [
        {
            "device": "PC1",
            "config_lines": ["ip 192.0.2.1/24"],
            "commands": [*VPCS_READS, "show ip"],
        }
    ]
    [[ran]] = run_lab({"vpcs": str(vpcs), "pcs": PCS, "stages": [stage]}, timeout_s=120)
    assert ran["error"] is None, ran
    commands = [r["command"] for r in ran["results"]]
    assert commands == [*VPCS_READS, "show ip"]  # the process answered them all
    assert "IP/MASK     : 192.0.2.1/24" in ran["results"][-1]["output"]


def test_vpcs_bang_is_refused_and_runs_nothing_on_the_host(vpcs: Path, tmp_path: Path) -> None:
    """VPCS ``!`` runs its line on the machine that runs VPCS (GNS3's host): refused as a command
    and as a configuration line, with the reason, and the marker file never appears; typed into
    the same real VPCS past the app, it does appear (the attack is real)."""
    marker = tmp_path / "MARKER"
    proof = tmp_path / "PROOF"
    attempts = [f"!touch {marker}", f"! touch {marker}", "!", f"save {marker}",
                f"load {tmp_path}/x"]  # fmt: skip
    stages = [
        [{"device": "PC1", "commands": [attempt]} for attempt in attempts[:1]]
        + [{"device": "PC2", "config_lines": ["ip 192.0.2.2/24", *attempts[1:]]}],
        [{"device": "PC1", "commands": ["show ip"]}],
    ]
    refused, [after] = run_lab({"vpcs": str(vpcs), "pcs": PCS, "stages": stages})
    pc1, pc2 = refused
    assert [r["command"] for r in pc1["refused"]] == attempts[:1]
    assert "machine that runs GNS3" in pc1["refused"][0]["reason"]
    assert pc1["results"] == [] and pc2["config"] is None  # nothing of either request was sent
    assert sorted(r["command"] for r in pc2["refused"]) == sorted(attempts[1:])
    assert after["error"] is None and "IP/MASK" in after["results"][0]["output"]
    assert not marker.exists() and not (tmp_path / "x").exists()

    [[typed]] = run_lab(
        {"vpcs": str(vpcs), "pcs": PCS, "stages": [[{"device": "PC1", "raw": [f"!touch {proof}"]}]]}
    )
    assert proof.exists(), f"VPCS did not run '!' on the host: {typed}"
