"""The capture summary reads pcap and pcapng files built here byte by byte."""

from __future__ import annotations

import struct
from ipaddress import IPv4Address, IPv6Address

import pytest

from gns3_copilot_desktop.core.agent.tools.pcap import CaptureFormatError, summarize_capture

MAC_A = bytes.fromhex("005079666800")
MAC_B = bytes.fromhex("005079666801")


def eth(ethertype: int, payload: bytes, src: bytes = MAC_A, vlan: int | None = None) -> bytes:
    tag = struct.pack("!HH", 0x8100, vlan) if vlan is not None else b""
    return MAC_B + src + tag + struct.pack("!H", ethertype) + payload


def ipv4(src: str, dst: str, proto: int, payload: bytes) -> bytes:
    header = struct.pack(
        "!BBHHHBBH4s4s",
        0x45,
        0,
        20 + len(payload),
        1,
        0,
        64,
        proto,
        0,
        IPv4Address(src).packed,
        IPv4Address(dst).packed,
    )
    return header + payload


def ipv6(src: str, dst: str, proto: int, payload: bytes) -> bytes:
    header = struct.pack("!IHBB", 6 << 28, len(payload), proto, 64)
    return header + IPv6Address(src).packed + IPv6Address(dst).packed + payload


def arp(sender: str, target: str) -> bytes:
    return (
        struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1)
        + MAC_A
        + IPv4Address(sender).packed
        + b"\0" * 6
        + IPv4Address(target).packed
    )


def frames() -> list[bytes]:
    icmp = b"\x08\x00\x00\x00\x00\x01\x00\x01" + b"x" * 8
    return [
        eth(0x0806, arp("192.0.2.1", "192.0.2.2")),
        eth(0x0800, ipv4("192.0.2.1", "192.0.2.2", 1, icmp)),
        eth(0x0800, ipv4("192.0.2.2", "192.0.2.1", 1, icmp), src=MAC_B),
        eth(0x0800, ipv4("192.0.2.1", "192.0.2.9", 6, struct.pack("!HH", 50000, 22) + b"\0" * 16)),
        eth(
            0x0800,
            ipv4("192.0.2.1", "192.0.2.53", 17, struct.pack("!HHHH", 40000, 53, 8, 0)),
            vlan=10,
        ),
        eth(0x86DD, ipv6("2001:db8::1", "2001:db8::2", 58, b"\x80\x00\x00\x00")),
    ]


def pcap(packets: list[bytes], *, big_endian: bool = False) -> bytes:
    e = ">" if big_endian else "<"
    out = struct.pack(e + "IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for i, frame in enumerate(packets):
        out += struct.pack(e + "IIII", 1000 + i, 500, len(frame), len(frame)) + frame
    return out


def pcapng(packets: list[bytes]) -> bytes:
    def block(kind: int, body: bytes) -> bytes:
        body += b"\0" * (-len(body) % 4)
        size = len(body) + 12
        return struct.pack("<II", kind, size) + body + struct.pack("<I", size)

    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", 1, 0, 65535))
    for i, frame in enumerate(packets):
        ts = (2000 + i) * 1_000_000
        out += block(
            6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, len(frame), len(frame)) + frame
        )
    return out


def check(summary_dict: dict[str, object]) -> None:
    protocols = summary_dict["protocols"]
    assert isinstance(protocols, dict)
    assert protocols["ARP"] == 1 and protocols["ICMP"] == 2 and protocols["IPv4"] == 4
    assert protocols["TCP"] == 1 and protocols["SSH"] == 1
    assert protocols["UDP"] == 1 and protocols["DNS"] == 1 and protocols["802.1Q"] == 1
    assert protocols["IPv6"] == 1 and protocols["ICMPv6"] == 1
    talkers = summary_dict["top_talkers"]
    assert isinstance(talkers, dict)
    assert next(iter(talkers)) == "192.0.2.1" and talkers["192.0.2.1"] == 4


@pytest.mark.parametrize("big_endian", [False, True])
def test_pcap_counts_protocols_and_talkers(big_endian: bool) -> None:
    packets = frames()
    summary = summarize_capture(pcap(packets, big_endian=big_endian))
    assert summary.packets == 6 and summary.bytes == sum(len(f) for f in packets)
    assert summary.link_type == "Ethernet" and summary.duration_s == pytest.approx(5.0)
    check(summary.as_dict())
    assert "6 packet(s)" in summary.text() and "Top talkers" in summary.text()
    assert "192.0.2.1 <-> 192.0.2.2 (2)" in summary.text()


def test_pcapng_counts_the_same() -> None:
    summary = summarize_capture(pcapng(frames()))
    assert summary.file_format == "pcapng" and summary.packets == 6
    assert summary.duration_s == pytest.approx(5.0)
    check(summary.as_dict())


def test_a_file_cut_inside_a_packet_is_read_up_to_it() -> None:
    data = pcap(frames())
    summary = summarize_capture(data[:-10])
    assert summary.packets == 5 and summary.truncated_file
    assert "ended inside a packet" in summary.text()
    ng = summarize_capture(pcapng(frames())[:-7])
    assert ng.packets == 5 and ng.truncated_file


def test_header_only_and_garbage() -> None:
    empty = summarize_capture(pcap([]))
    assert empty.packets == 0 and not empty.truncated_file
    assert empty.text().startswith("0 packet(s)")
    with pytest.raises(CaptureFormatError, match="empty"):
        summarize_capture(b"")
    with pytest.raises(CaptureFormatError, match="neither"):
        summarize_capture(b"<html>not a capture</html>")
