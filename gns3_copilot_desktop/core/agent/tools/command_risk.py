"""Which device commands only read: ``run_device_commands`` needs no approval for those.

Conservative on purpose: a command is read-only when its verb is a known reading one (``show``,
``display``, ``ping``, ``traceroute``, ``ip addr``...), it has no shell control characters, its
arguments do not turn the verb into a change (``ifconfig eth0 10.0.0.1``, ``arp -d``) and every
``|`` filter is a known output filter. Anything else is a device-config change.
"""

from __future__ import annotations

import re

_READ_VERBS = frozenset(
    {
        "show",
        "sh",
        "sho",
        "display",
        "dis",
        "disp",
        "ping",
        "traceroute",
        "trace",
        "tracert",
        "tracepath",
        "arp",
        "who",
        "whoami",
        "uname",
        "uptime",
        "hostname",
        "ifconfig",
        "netstat",
        "ss",
        "cat",
        "ls",
        "pwd",
        "date",
        "df",
        "free",
        "ps",
        "dir",
        "more",
    }
)
_IP_READ_RE = re.compile(
    r"^ip\s+(?:-\w+\s+)*(?:a|addr|address|r|route|l|link|n|neigh|-?br\w*)(?:\s+(?:show|list|ls))?(?:\s+dev\s+\S+)?$"
)
_FILTERS = frozenset(
    {
        "include",
        "exclude",
        "begin",
        "section",
        "count",
        "i",
        "in",
        "inc",
        "incl",
        "e",
        "ex",
        "exc",
        "excl",
        "b",
        "be",
        "beg",
        "s",
        "se",
        "sec",
        "c",
        "co",
        "cou",
        "grep",
        "head",
        "tail",
        "wc",
        "sort",
        "uniq",
        "less",
        "no-more",
        "match",
        "except",
        "find",
    }
)
_SHELL_META_RE = re.compile(r"[;&<>`]|\$\(")
# Arguments that make an otherwise reading verb change something (VPCS "arp" clears nothing,
# but "ifconfig eth0 10.0.0.1" configures; "show" has none).
_CHANGING_ARGS = {
    "ifconfig": re.compile(r"\s\S+\s+\S"),
    "hostname": re.compile(r"\s\S"),
    "arp": re.compile(r"\s-[a-z]*[dsf]"),
    "date": re.compile(r"\s(?:-s|--set)"),
    "ss": re.compile(r"\s-[a-z]*K"),
}


def is_read_only_command(command: str) -> bool:
    """True when `command` only reads state: show/display, ping, traceroute and the like.

    Conservative: anything with shell control characters, an unknown verb, or a reading verb
    with arguments that would configure (``ifconfig eth0 10.0.0.1``) is not read-only.
    """
    text = " ".join(command.split())
    if not text or _SHELL_META_RE.search(text):
        return False
    first, *pipes = text.split("|")
    words = first.strip().lower().split()
    if not words:
        return False
    verb = words[0]
    if verb == "ip":
        reads = _IP_READ_RE.match(first.strip().lower()) is not None
    else:
        changing = _CHANGING_ARGS.get(verb)
        reads = verb in _READ_VERBS and not (changing and changing.search(first.strip()))
    return reads and all((p.strip().lower().split() or [""])[0] in _FILTERS for p in pipes)
