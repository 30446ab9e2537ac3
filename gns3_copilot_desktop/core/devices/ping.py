"""Reading a ping's output, whichever device printed it: VPCS, Linux (iputils or BusyBox, as in
the FRR router's shell) and Cisco IOS. The practice checks and a trainer's task checks both
judge reachability with these, so a lab is scored the same way by either."""

from __future__ import annotations

import re

_SUMMARY = re.compile(r"(\d+) packets transmitted, (\d+) (?:packets )?received")
_IOS_RATE = re.compile(r"Success rate is (\d+) percent")
_VPCS_TIMEOUT = re.compile(r"icmp_seq=\d+ timeout")
_UNREACHABLE = re.compile(
    r"host \(\S+\) not reachable|Destination (?:host|net) unreachable|not reachable", re.IGNORECASE
)


_BOUNDS = frozenset({"-c", "-w", "repeat", "count", "timeout"})


def endless_ping(command: str) -> bool:
    """Whether ``command`` is a ping that may run until stopped: no count nor deadline. Linux's
    ``ping HOST`` and FRR vtysh's (which takes no count: it runs the shell's ping) never end by
    themselves; VPCS and IOS stop after five echoes."""
    words = command.split()
    if not words or words[0].lower() != "ping":
        return False
    return not any(w.lower() in _BOUNDS or re.fullmatch(r"-[cw]\d+", w) for w in words[1:])


def ping_times(output: str, to: str | None = None) -> list[float | None]:
    """One entry per echo answered (from ``to`` when it is given): its round-trip time in ms,
    or None where the line shows none. VPCS ``84 bytes from 10.0.0.2 icmp_seq=1 ttl=64 time=0.4
    ms``, iputils ``64 bytes from 10.0.0.2: icmp_seq=1 ttl=64 time=0.05 ms``, BusyBox ``64 bytes
    from 10.0.0.2: seq=0 ttl=64 time=0.1 ms``. Each answer counts once."""
    source = re.escape(to) if to else r"[0-9A-Fa-f.:]+?"
    pattern = rf"(?:^|\s){source}:? (?:icmp_)?seq=\d+ ttl=\d+(?: time=([\d.]+) ?ms)?"
    return [float(t) if t else None for t in re.findall(pattern, output, re.MULTILINE)]


def ping_answered(output: str, to: str) -> bool:
    """Whether ``to`` answered at least one echo (IOS names no source: a success rate above 0)."""
    if ping_times(output, to):
        return True
    rate = _IOS_RATE.search(output)
    return rate is not None and int(rate.group(1)) > 0


def ping_loss(output: str) -> int | None:
    """The percentage of echoes lost, or None when the output is no ping's. A summary line is
    believed first (iputils and BusyBox print no line for an echo lost), then IOS's success
    rate, then VPCS's answer and timeout lines; an unreachable host loses everything."""
    summary = _SUMMARY.search(output)
    if summary and int(summary.group(1)):
        sent, got = int(summary.group(1)), int(summary.group(2))
        return 100 * (sent - got) // sent
    rate = _IOS_RATE.search(output)
    if rate:
        return 100 - int(rate.group(1))
    answered, missed = len(ping_times(output)), len(_VPCS_TIMEOUT.findall(output))
    if answered + missed:
        return 100 * missed // (answered + missed)
    if _UNREACHABLE.search(output):
        return 100
    return None
