"""Which device commands only read: ``run_device_commands`` runs those without approval.

An allowlist by grammar. A command is a read only when it parses completely as one of the forms
below; anything the parser does not fully understand needs the user's approval. It must be safe on
every console it may reach (VPCS, Cisco IOS-like, Linux shells: the tool decides before it knows
the device), so:

- every character is printable, and only letters, digits and ``. _ : / @ % + , = -`` appear in a
  word (no quotes, backslashes, ``$``, backticks, ``; & < > ( ) { } ~ * ? [ ]``, control
  characters: those are where shells and line editors change what runs);
- the first part is a known read form, word by word: the verb, its sub-commands, its options with
  their values, and at most the positional arguments the form takes;
- every ``|`` part is an output filter that cannot write or run anything, with its own options
  (``sort -o``, ``tee``, ``xargs``, ``find``, IOS ``redirect``/``append``/``tee`` are not filters).

The read forms (see `_READ_FORMS`): ``show``/``display`` and their abbreviations with plain
words (not ``sh``, a shell on Linux); ``ping``/``traceroute``/``trace``/``tracepath`` to one
target with counted options; Linux
``ip addr|address|route|link|neigh [show|list] [dev NAME]`` in full words (VPCS's own ``ip``
configures, and it accepts abbreviations); ``ifconfig [NAME]``, ``arp [-a|-n]``,
``netstat``/``ss`` with listing flags, ``uname``, ``uptime``, ``hostname``, ``whoami``, ``who``,
``date``, ``df``, ``free``, ``ps``, ``pwd``, ``ls`` with listing flags, ``cat`` of plain paths.
``ip`` also takes the listing options ``-br``, ``-4``, ``-6``, ``-s``, ``-d``, ``-o`` before the
object; Junos ``| display set`` (and ``xml``, ``json``, ``inheritance``) is a filter.

What is classified is what is sent: the command as `policy.console_bytes` turns it into bytes, so
a character outside printable ASCII (U+200A, which ``str.split`` takes for a space and a console
that drops the 8th bit takes for a new line) is never a read. ``cat`` does not read device files
nor the kernel files whose reading changes something (``/dev/*``, ``/proc/kmsg``, tracing's
``trace_pipe``, ``/sys/kernel/debug``): a watchdog reboots when opened and closed, and the log
and trace pipes are emptied by whoever reads them.

`command_hazards` names what a command that is not a read may do (``may reboot the device``,
``hides the command it runs``...) for the approval card.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gns3_copilot_desktop.core.devices.policy import console_bytes
from gns3_copilot_desktop.core.errors import DeviceError

_WORD_RE = re.compile(r"[A-Za-z0-9._:/@%+,=-]+")
# IOS output filters take a regular expression: these characters are regex there, and only reach
# a shell as arguments of words no shell knows (include, exclude...).
_REGEX_WORD_RE = re.compile(r"[A-Za-z0-9._:/@%+,=^.*?\[\]-]+")
_NUMBER_RE = re.compile(r"\d{1,6}(?:\.\d{1,3})?")
_NAME_RE = re.compile(r"[A-Za-z0-9._:/@-]{1,64}")
_HOST_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:%-]{0,252}")
_PATH_RE = re.compile(r"[A-Za-z0-9._/@%+,=-]{1,256}")

_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def control_characters(text: str) -> list[str]:
    """The non-printing characters in ``text`` (C0 and C1 controls, DEL, format and separator
    characters), as ``U+0008`` names. A device's line editor applies them: a backspace or
    Ctrl-U in a command changes what the device runs."""
    found = []
    for char in text:
        if char != " " and unicodedata.category(char) in _UNSAFE_CATEGORIES:
            name = unicodedata.name(char, "control character")
            found.append(f"U+{ord(char):04X} {name}")
    return found


@dataclass(frozen=True)
class _Form:
    """One read form: its options (with or without a value) and how many positionals."""

    flags: frozenset[str] = frozenset()
    valued: dict[str, re.Pattern[str]] = field(default_factory=dict)
    positionals: tuple[int, int] = (0, 0)
    positional: re.Pattern[str] = _WORD_RE
    check: Callable[[list[str]], bool] | None = None


def _flags(*names: str) -> frozenset[str]:
    return frozenset(names)


_PING_VALUED = {
    opt: _NUMBER_RE for opt in ("-c", "-i", "-W", "-w", "-s", "-t", "-l", "-T", "-m", "-p", "-P")
}
_PING = _Form(
    flags=_flags("-n", "-q", "-4", "-6", "-D", "-1", "-2", "-3", "df-bit", "verbose"),
    valued={
        **_PING_VALUED,
        "repeat": _NUMBER_RE,
        "size": _NUMBER_RE,
        "timeout": _NUMBER_RE,
        "source": _NAME_RE,
        "vrf": _NAME_RE,
        "count": _NUMBER_RE,
    },
    positionals=(1, 1),
    positional=_HOST_RE,
)
_TRACE = _Form(
    flags=_flags("-n", "-4", "-6", "-I", "-T", "-U", "numeric"),
    valued={
        "-m": _NUMBER_RE,
        "-w": _NUMBER_RE,
        "-q": _NUMBER_RE,
        "-P": _NAME_RE,
        "source": _NAME_RE,
        "vrf": _NAME_RE,
        "timeout": _NUMBER_RE,
        "ttl": _NUMBER_RE,
    },
    positionals=(1, 1),
    positional=_HOST_RE,
)
_LS = _Form(
    flags=_flags(*(f"-{c}" for c in "laAhRtrS1dinFG"), "-la", "-al", "-lh", "-lah", "-ltr"),
    positionals=(0, 8),
    positional=_PATH_RE,
)
_SHOW = _Form(positionals=(1, 12), positional=_WORD_RE)
_NO_ARGS = _Form()
_IP_OBJECTS = frozenset({"addr", "address", "route", "link", "neigh"})


_IP_OPTIONS = frozenset(
    {"-br", "-brief", "-4", "-6", "-s", "-stats", "-d", "-details", "-o", "-oneline"}
)


def _ip_read(args: list[str]) -> bool:
    """``ip [-br|-4|-6|-s|-d|-o]... OBJECT [show|list] [dev NAME]``, full words only."""
    while args and args[0] in _IP_OPTIONS:
        args = args[1:]
    if not args or args[0] not in _IP_OBJECTS:
        return False
    rest = args[1:]
    if rest[:1] in (["show"], ["list"]):
        rest = rest[1:]
    if not rest:
        return True
    return len(rest) == 2 and rest[0] == "dev" and _NAME_RE.fullmatch(rest[1]) is not None


# Files whose reading changes something: a watchdog device reboots the host when it is opened
# and closed without the magic character, the kernel log and trace pipes are emptied by the
# reader, and every other device file is a driver that may act on an open or a read.
_STATEFUL_ROOTS = ("/dev", "/proc/kmsg", "/proc/sysrq-trigger", "/sys/kernel/debug",
                   "/sys/kernel/tracing", "/sys/kernel/security")  # fmt: skip
_STATEFUL_PROC_RE = re.compile(r"^/proc/[^/]+/(?:fd|fdinfo|map_files|mem|task)(?:/|$)")
_STATEFUL_NAMES_RE = re.compile(
    r"^(?:trace_pipe(?:_raw)?|kmsg|watchdog\d*|sysrq-trigger|mem|kmem|port|stdin|console|tty\S*)$"
)


def _plain_file(path: str) -> bool:
    """Whether ``cat`` of ``path`` only reads: not a device file, not a kernel file that
    changes on read, and not a ``..`` path (where it lands depends on the working folder)."""
    if ".." in path.split("/"):
        return False
    if _STATEFUL_NAMES_RE.match(path.rstrip("/").rsplit("/", 1)[-1]):
        return False
    if not path.startswith("/"):
        return True
    real = posixpath.normpath("/" + path.lstrip("/"))
    if any(real == root or real.startswith(root + "/") for root in _STATEFUL_ROOTS):
        return False
    return not _STATEFUL_PROC_RE.match(real)


def _cat_read(args: list[str]) -> bool:
    """``cat`` of one to four plain paths that only read (`_plain_file`)."""
    return (
        1 <= len(args) <= 4
        and all(_PATH_RE.fullmatch(a) and not a.startswith("-") for a in args)
        and all(_plain_file(a) for a in args)
    )


_READ_FORMS: dict[str, _Form] = {
    # IOS / IOS-XE / NX-OS / EOS / Junos / VPCS / Huawei: the read verb and its abbreviations
    # (not "sh": on a Linux console that runs a script file)
    # (nor "dis": VPCS takes it for "disconnect")
    **{verb: _SHOW for verb in ("show", "sho", "display", "disp")},
    "ping": _PING,
    "traceroute": _TRACE,
    "trace": _TRACE,
    "tracert": _TRACE,
    "tracepath": _TRACE,
    "ip": _Form(positionals=(1, 4), check=_ip_read),
    "ifconfig": _Form(flags=_flags("-a", "-s"), positionals=(0, 1), positional=_NAME_RE),
    "arp": _Form(flags=_flags("-a", "-n", "-e", "-an", "-na")),
    "netstat": _Form(
        flags=_flags(
            *(f"-{c}" for c in "rntulaspie"), "-rn", "-tulpn", "-an", "-tln", "-tuln", "-nr", "-i"
        )
    ),
    "ss": _Form(flags=_flags(*(f"-{c}" for c in "tulnaps4"), "-tulpn", "-tln", "-tuln", "-s")),
    "uname": _Form(flags=_flags(*(f"-{c}" for c in "asnrvmpio"))),
    "uptime": _NO_ARGS,
    "hostname": _NO_ARGS,
    "whoami": _NO_ARGS,
    "who": _NO_ARGS,
    "date": _NO_ARGS,
    "pwd": _NO_ARGS,
    "df": _Form(flags=_flags("-h", "-T", "-i", "-hT", "-Th")),
    "free": _Form(flags=_flags("-h", "-m", "-g", "-k", "-t")),
    "ps": _Form(flags=_flags("aux", "-ef", "-e", "-f", "ax", "-A")),
    "ls": _LS,
    "cat": _Form(positionals=(1, 4), check=_cat_read),
}

# Output filters after ``|``: IOS/Junos modifiers (the rest of the line is their pattern) and
# shell filters that only read standard input, with the options they may take.
# (not "find" nor "ex": on a Linux console those are programs that delete and edit files)
_IOS_FILTERS = frozenset(
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
        "exc",
        "excl",
        "b",
        "be",
        "beg",
        "s",
        "se",
        "sec",
        "match",
        "except",
    }
)
_SHELL_FILTERS: dict[str, _Form] = {
    "grep": _Form(
        flags=_flags(
            "-i", "-v", "-n", "-c", "-w", "-E", "-F", "-o", "-x", "-iv", "-vi", "-in", "-ni", "-ic"
        ),
        valued={"-A": _NUMBER_RE, "-B": _NUMBER_RE, "-C": _NUMBER_RE, "-m": _NUMBER_RE},
        positionals=(1, 1),
    ),
    "head": _Form(flags=_flags(*(f"-{n}" for n in range(1, 101))), valued={"-n": _NUMBER_RE}),
    "tail": _Form(flags=_flags(*(f"-{n}" for n in range(1, 101))), valued={"-n": _NUMBER_RE}),
    "wc": _Form(flags=_flags("-l", "-w", "-c", "-m")),
    "sort": _Form(
        flags=_flags("-n", "-r", "-u", "-h", "-V", "-nr", "-rn"),
        valued={"-k": _NAME_RE, "-t": re.compile(r"[,:=.@/%+-]")},
    ),
    "uniq": _Form(flags=_flags("-c", "-d", "-u", "-i")),
    "no-more": _NO_ARGS,
}


def _matches(form: _Form, args: Sequence[str]) -> bool:
    """Whether ``args`` are exactly the form's options and positionals."""
    if form.check is not None:
        return form.check(list(args))
    positionals: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in form.flags:
            index += 1
        elif arg in form.valued:
            if index + 1 >= len(args) or not form.valued[arg].fullmatch(args[index + 1]):
                return False
            index += 2
        elif arg.startswith("-") and len(arg) > 1:
            return False  # an option the form does not know
        else:
            positionals.append(arg)
            index += 1
    low, high = form.positionals
    if not low <= len(positionals) <= high:
        return False
    return all(form.positional.fullmatch(p) for p in positionals)


_JUNOS_DISPLAYS = frozenset({"set", "xml", "json", "inheritance"})


def _filter_reads(part: str) -> bool:
    words = part.split()
    if not words:
        return False
    name, args = words[0].lower(), words[1:]
    if name == "display":  # Junos: the configuration as set commands, XML, JSON
        return len(args) == 1 and args[0].lower() in _JUNOS_DISPLAYS
    if name in _IOS_FILTERS:
        return bool(args) and all(_REGEX_WORD_RE.fullmatch(a) for a in args)
    form = _SHELL_FILTERS.get(name)
    return form is not None and all(_WORD_RE.fullmatch(a) for a in args) and _matches(form, args)


def is_read_only_command(command: str) -> bool:
    """True when `command` parses completely as a read form (see the module docstring)."""
    try:
        command = console_bytes(command).decode("ascii")  # exactly what the console receives
    except DeviceError:
        return False
    if control_characters(command):
        return False
    first, *pipes = command.split("|")
    words = first.split()
    if not words or not all(_WORD_RE.fullmatch(w) for w in words):
        return False
    form = _READ_FORMS.get(words[0].lower())
    if form is None:
        return False
    args = words[1:] if form is not _SHOW else [w.lower() for w in words[1:]]
    return _matches(form, args) and all(_filter_reads(p) for p in pipes)


# --- what a change may do, for the approval card -----------------------------------------------

_EXPANSION_RE = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|[\\'\"]")
_HAZARDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"\b(?:reboot|reload|poweroff|halt|kexec|sysrq|init\s+[06]|shutdown\s+-[rh])\b"),
        "may reboot the device",
    ),
    (
        re.compile(
            r"\$\(|`|\$\{|\$[A-Za-z_]|\beval\b|\bbase64\b|\bxxd\b|\\x[0-9a-f]{2}|\\[0-7]{3}"
            r"|\|\s*(?:sudo\s+)?(?:sh|bash|dash|zsh|ksh|ash|busybox|python\S*|perl|ruby|php|node)\b"
            r"|\b(?:sh|bash|dash|zsh|ksh)\s+-\w*c\b|\b(?:python\S*|perl|ruby|node)\s+-[ce]\b"
            r"|\bsource\b|(?:^|[;&|]\s*)\.\s|\bxargs\b|[*?]"
        ),
        "hides the command it runs",
    ),
    (
        re.compile(r"\bmkfs|\bwipefs\b|\bshred\b|\bdd\b|/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-)"),
        "may overwrite a disk",
    ),
    (re.compile(r"\(\s*\)\s*\{"), "defines a shell function (a fork bomb takes the host down)"),
    (re.compile(r"^\s*!"), "'!' runs a command on the machine that runs GNS3 (VPCS)"),
)


def command_hazards(command: str) -> list[str]:
    """What a command may do beyond an ordinary change, in the words of the approval card
    (``may reboot the device``, ``hides the command it runs``); empty when nothing stands out.
    Quoting and ``${x}`` are taken out first, so ``r${x}eb''oot`` still names a reboot."""
    lowered = command.lower()
    bare = _EXPANSION_RE.sub("", lowered)
    return [why for regex, why in _HAZARDS if regex.search(lowered) or regex.search(bare)]
