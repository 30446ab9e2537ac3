"""A packet-capture summary without Wireshark: pcap and pcapng parsed with `struct`.

`summarize_capture` reads the file GNS3 writes for a link capture (classic pcap from dynamips and
ubridge, pcapng from other tools) and counts packets, bytes, protocols (Ethernet/802.1Q, ARP, IPv4,
IPv6, ICMP, ICMPv6, TCP, UDP and well-known application ports) and the top talkers by source
address. A file cut in the middle of a packet (the capture is still being written) is read up to
the last whole packet and flagged, never an error.
"""

from __future__ import annotations

import struct
from collections import Counter
from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv6Address

PCAP_MAGICS = {
    b"\xd4\xc3\xb2\xa1": ("<", False),
    b"\xa1\xb2\xc3\xd4": (">", False),
    b"\x4d\x3c\xb2\xa1": ("<", True),  # nanosecond timestamps
    b"\xa1\xb2\x3c\x4d": (">", True),
}
PCAPNG_SHB = 0x0A0D0D0A
LINKTYPE_ETHERNET = 1
LINKTYPE_RAW = 101
LINKTYPE_NAMES = {1: "Ethernet", 101: "raw IP", 104: "Cisco HDLC", 9: "PPP", 107: "Frame Relay"}

WELL_KNOWN_PORTS = {
    20: "FTP-data",
    21: "FTP",
    22: "SSH",
    23: "Telnet",
    25: "SMTP",
    53: "DNS",
    67: "DHCP",
    68: "DHCP",
    69: "TFTP",
    80: "HTTP",
    123: "NTP",
    161: "SNMP",
    162: "SNMP-trap",
    179: "BGP",
    443: "HTTPS",
    500: "IKE",
    514: "Syslog",
    520: "RIP",
    521: "RIPng",
    546: "DHCPv6",
    547: "DHCPv6",
    646: "LDP",
    1812: "RADIUS",
    1985: "HSRP",
    3784: "BFD",
    4789: "VXLAN",
}
IP_PROTOCOLS = {
    1: "ICMP",
    2: "IGMP",
    6: "TCP",
    17: "UDP",
    47: "GRE",
    50: "ESP",
    58: "ICMPv6",
    88: "EIGRP",
    89: "OSPF",
    103: "PIM",
    112: "VRRP",
}
ETHERTYPES = {0x0806: "ARP", 0x0800: "IPv4", 0x86DD: "IPv6", 0x8847: "MPLS", 0x88CC: "LLDP"}


class CaptureFormatError(ValueError):
    """The bytes are not a pcap or pcapng file."""


@dataclass
class CaptureSummary:
    """What a capture holds."""

    file_format: str
    link_type: str
    packets: int = 0
    bytes: int = 0
    protocols: Counter[str] = field(default_factory=Counter)
    talkers: Counter[str] = field(default_factory=Counter)
    conversations: Counter[str] = field(default_factory=Counter)
    first_ts: float | None = None
    last_ts: float | None = None
    truncated_file: bool = False

    @property
    def duration_s(self) -> float:
        """Seconds between the first and the last packet."""
        if self.first_ts is None or self.last_ts is None:
            return 0.0
        return max(0.0, self.last_ts - self.first_ts)

    def as_dict(self, top: int = 5) -> dict[str, object]:
        """JSON-able form for the UI card."""
        return {
            "format": self.file_format,
            "link_type": self.link_type,
            "packets": self.packets,
            "bytes": self.bytes,
            "duration_s": round(self.duration_s, 3),
            "protocols": dict(self.protocols.most_common()),
            "top_talkers": dict(self.talkers.most_common(top)),
            "top_conversations": dict(self.conversations.most_common(top)),
            "truncated_file": self.truncated_file,
        }

    def text(self, top: int = 5) -> str:
        """A few lines for the model."""
        lines = [
            f"{self.packets} packet(s), {self.bytes} bytes over {self.duration_s:.1f} s "
            f"({self.file_format}, {self.link_type})."
        ]
        if self.truncated_file:
            lines.append("The file ended inside a packet (still being written); counted up to it.")
        if self.protocols:
            lines.append(
                "Protocols: " + ", ".join(f"{k} {v}" for k, v in self.protocols.most_common())
            )
        if self.talkers:
            lines.append(
                "Top talkers (packets sent): "
                + ", ".join(f"{k} {v}" for k, v in self.talkers.most_common(top))
            )
        if self.conversations:
            lines.append(
                "Top conversations: "
                + ", ".join(f"{k} ({v})" for k, v in self.conversations.most_common(top))
            )
        return "\n".join(lines)


def summarize_capture(data: bytes) -> CaptureSummary:
    """Parse a pcap or pcapng file; `CaptureFormatError` when it is neither."""
    if len(data) >= 4 and data[:4] in PCAP_MAGICS:
        return _parse_pcap(data)
    if len(data) >= 12 and struct.unpack("<I", data[:4])[0] == PCAPNG_SHB:
        return _parse_pcapng(data)
    if not data:
        raise CaptureFormatError("the capture file is empty (nothing written yet)")
    raise CaptureFormatError("the capture is neither a pcap nor a pcapng file")


def _parse_pcap(data: bytes) -> CaptureSummary:
    endian, nano = PCAP_MAGICS[data[:4]]
    if len(data) < 24:
        return CaptureSummary("pcap", "unknown", truncated_file=True)
    link = struct.unpack(endian + "I", data[20:24])[0] & 0x0FFFFFFF
    summary = CaptureSummary("pcap", LINKTYPE_NAMES.get(link, f"link type {link}"))
    offset, divisor = 24, 1e9 if nano else 1e6
    record = struct.Struct(endian + "IIII")
    while offset < len(data):
        if offset + 16 > len(data):
            summary.truncated_file = True
            break
        sec, frac, incl, orig = record.unpack_from(data, offset)
        end = offset + 16 + incl
        if end > len(data):
            summary.truncated_file = True
            break
        _count(summary, link, data[offset + 16 : end], orig, sec + frac / divisor)
        offset = end
    return summary


def _parse_pcapng(data: bytes) -> CaptureSummary:
    summary = CaptureSummary("pcapng", "unknown")
    endian = "<"
    links: list[tuple[int, float]] = []  # per interface: link type, timestamp divisor
    offset = 0
    while offset + 12 <= len(data):
        block_type = struct.unpack_from(endian + "I", data, offset)[0]
        if block_type == PCAPNG_SHB:
            endian = "<" if data[offset + 8 : offset + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            links = []
        length = struct.unpack_from(endian + "I", data, offset + 4)[0]
        if length < 12 or offset + length > len(data):
            summary.truncated_file = True
            break
        body = data[offset + 8 : offset + length - 4]
        if block_type == 1 and len(body) >= 8:  # interface description
            link = struct.unpack_from(endian + "H", body, 0)[0]
            links.append((link, _if_tsresol(body[8:], endian)))
            if summary.link_type == "unknown":
                summary.link_type = LINKTYPE_NAMES.get(link, f"link type {link}")
        elif block_type == 6 and len(body) >= 20:  # enhanced packet
            iface, high, low, incl, orig = struct.unpack_from(endian + "IIIII", body, 0)
            link, divisor = links[iface] if iface < len(links) else (LINKTYPE_ETHERNET, 1e6)
            _count(summary, link, body[20 : 20 + incl], orig, ((high << 32) | low) / divisor)
        elif block_type == 3 and len(body) >= 4:  # simple packet
            link = links[0][0] if links else LINKTYPE_ETHERNET
            orig = struct.unpack_from(endian + "I", body, 0)[0]
            _count(summary, link, body[4 : 4 + orig], orig, None)
        offset += length
    if 0 < len(data) - offset < 12:
        summary.truncated_file = True
    return summary


def _if_tsresol(options: bytes, endian: str) -> float:
    """The interface's timestamp divisor (option 9, if_tsresol); microseconds by default."""
    offset = 0
    while offset + 4 <= len(options):
        code, size = struct.unpack_from(endian + "HH", options, offset)
        if code == 0:
            break
        if code == 9 and size >= 1:
            value = options[offset + 4]
            return float(2 ** (value & 0x7F)) if value & 0x80 else float(10 ** (value & 0x7F))
        offset += 4 + size + (-size % 4)
    return 1e6


# --- one packet -----------------------------------------------------------------------------------


def _count(summary: CaptureSummary, link: int, frame: bytes, size: int, ts: float | None) -> None:
    summary.packets += 1
    summary.bytes += size
    if ts is not None:
        summary.first_ts = ts if summary.first_ts is None else min(summary.first_ts, ts)
        summary.last_ts = ts if summary.last_ts is None else max(summary.last_ts, ts)
    if link == LINKTYPE_ETHERNET:
        _ethernet(summary, frame)
    elif link == LINKTYPE_RAW and frame:
        _ip(summary, frame, frame[0] >> 4)
    else:
        summary.protocols[LINKTYPE_NAMES.get(link, "other")] += 1


def _mac(raw: bytes) -> str:
    return ":".join(f"{b:02x}" for b in raw)


def _ethernet(summary: CaptureSummary, frame: bytes) -> None:
    if len(frame) < 14:
        summary.protocols["malformed"] += 1
        return
    ethertype = struct.unpack_from("!H", frame, 12)[0]
    offset = 14
    while ethertype in (0x8100, 0x88A8) and len(frame) >= offset + 4:
        summary.protocols["802.1Q"] += 1
        ethertype = struct.unpack_from("!H", frame, offset + 2)[0]
        offset += 4
    payload = frame[offset:]
    if ethertype <= 1500:  # an 802.3 length: LLC (STP, CDP...)
        name = "STP" if payload[:3] == b"\x42\x42\x03" else "LLC"
        name = "CDP" if payload[:8] == b"\xaa\xaa\x03\x00\x00\x0c\x20\x00" else name
        summary.protocols[name] += 1
        summary.talkers[_mac(frame[6:12])] += 1
    elif ethertype == 0x0806:
        _arp(summary, payload, frame)
    elif ethertype in (0x0800, 0x86DD):
        _ip(summary, payload, 4 if ethertype == 0x0800 else 6)
    else:
        summary.protocols[ETHERTYPES.get(ethertype, f"ethertype 0x{ethertype:04x}")] += 1
        summary.talkers[_mac(frame[6:12])] += 1


def _arp(summary: CaptureSummary, payload: bytes, frame: bytes) -> None:
    summary.protocols["ARP"] += 1
    if len(payload) >= 28 and payload[4:6] == b"\x06\x04":
        summary.talkers[str(IPv4Address(payload[14:18]))] += 1
    else:
        summary.talkers[_mac(frame[6:12])] += 1


def _ip(summary: CaptureSummary, packet: bytes, version: int) -> None:
    if version == 4 and len(packet) >= 20:
        header = (packet[0] & 0x0F) * 4
        proto = packet[9]
        src, dst = str(IPv4Address(packet[12:16])), str(IPv4Address(packet[16:20]))
        summary.protocols["IPv4"] += 1
    elif version == 6 and len(packet) >= 40:
        header, proto = 40, packet[6]
        src, dst = str(IPv6Address(packet[8:24])), str(IPv6Address(packet[24:40]))
        summary.protocols["IPv6"] += 1
    else:
        summary.protocols["malformed"] += 1
        return
    summary.talkers[src] += 1
    pair = sorted((src, dst))
    summary.conversations[f"{pair[0]} <-> {pair[1]}"] += 1
    name = IP_PROTOCOLS.get(proto, f"IP proto {proto}")
    summary.protocols[name] += 1
    if proto in (6, 17) and len(packet) >= header + 4:
        sport, dport = struct.unpack_from("!HH", packet, header)
        app = WELL_KNOWN_PORTS.get(min(sport, dport)) or WELL_KNOWN_PORTS.get(max(sport, dport))
        if app:
            summary.protocols[app] += 1
