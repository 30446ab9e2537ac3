"""Refuse commands that destroy a device's state before they are sent.

Every command and configuration line passes `check_command` first; a refused one never reaches the
device, whatever the user approved. The built-in list targets what cannot be undone from inside the
lab or takes the device away:

- Cisco IOS / IOS-XE / NX-OS / EOS (abbreviations accepted the way IOS accepts them, ``do`` prefix
  in configuration mode included): ``reload`` (also ``reload in``/``reload cancel``: the tool does
  not schedule reboots), ``write erase``, ``erase ...`` (startup-config, nvram:, flash:),
  ``format ...``, ``delete`` of files (``delete flash:x``, ``delete /force /recursive ...``),
  ``squeeze``, ``configure replace``, ``copy /erase``, ``crypto key zeroize``.
- Junos: ``request system reboot|halt|power-off|zeroize``, ``load override|factory-default``,
  a bare ``delete`` in configuration mode (deletes the whole configuration).
- Linux shells (each part of ``;``, ``&&``, ``||``, ``|`` checked, ``sudo``/``doas`` prefixes
  ignored): recursive ``rm`` of ``/``, a top-level directory or the home directory, ``poweroff``,
  ``halt``, ``reboot``, ``init 0|6``, ``systemctl poweroff|halt|reboot|kexec``,
  ``shutdown -h|-r|-P|now|+N|hh:mm`` (a bare ``shutdown`` only on a Linux console, because on IOS it
  is the ordinary interface command), ``mkfs*``, ``mke2fs``, ``mkswap``, ``wipefs``, ``sfdisk``,
  ``shred``, ``blkdiscard``, ``dd of=/dev/...``, redirection into a disk device, ``kill`` of PID 1,
  recursive ``chmod``/``chown`` of ``/``, the classic fork bomb.
- VPCS: ``quit`` (it ends the VPCS process, so the node stops); ``!`` (it runs the rest of the
  line on the machine that runs GNS3, not on the node: refused on every console but a known IOS
  one, where a ``!`` line is a comment; on a Linux shell it is history expansion); ``save`` and
  ``load`` with a path (they write and run files of that machine, outside the node's folder).
- Any console: a character outside printable ASCII (`ascii_problems`). Consoles receive ASCII
  only: a console that drops the 8th bit (Cisco IOS by default, a serial line, ``stty istrip``)
  turns U+200A into a newline, so ``show version<U+200A>reload`` would reload.
- Commands that hide what they run: a command word built by expansion or a glob (``$(echo
  reboot)``, ``r${x}eboot``, `` `reboot` ``, ``/???/reb??t``), text piped into a shell (``echo
  reboot | sh``, ``base64 -d | bash``, ``xargs sh -c``), ``eval``, a shell function that calls
  itself (fork bombs of any name), writes into a device file (``> /dev/sda``, ``tee /dev/sda``).
- IOS configuration-mode forms that carry a command: an EEM ``action ... reload``, ``event ...
  reload``, ``action ... cli command "reload"``, ``alias exec NAME reload``, kron ``cli reload``,
  ``tclsh`` (runs scripts the gate cannot read).

Deliberately *not* refused: commands that change state reversibly and are approved by the user as
device-config changes — interface ``shutdown``, ``no ip address``, VPCS ``clear ip``, ``clear ip
bgp *``, ``write memory``. The user extends the list with regular expressions (matched
case-insensitively anywhere in the whitespace-normalised command); an entry that is not a valid
regular expression is matched as literal text, so a typo cannot switch the check off.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.errors import DeviceError


@dataclass(frozen=True)
class RefusedCommand:
    """A command the policy will not send, with the reason shown to the model and the user."""

    command: str
    reason: str


class CommandRefusedError(DeviceError):
    """One or more commands of a request were refused; nothing of the request was sent."""

    def __init__(self, device: str, refused: Sequence[RefusedCommand]) -> None:
        listed = "; ".join(f"'{r.command}': {r.reason}" for r in refused)
        super().__init__(f"Refused on {device}, nothing was sent: {listed}")
        self.device = device
        self.refused = list(refused)


MAX_LINE_CHARS = 4096
"""Longest command or configuration line sent to a console (IOS takes about this many)."""


_CONTROL_NAMES = {
    "\x00": "NULL",
    "\x08": "BACKSPACE",
    "\t": "CHARACTER TABULATION",
    "\n": "LINE FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
    "\x85": "NEXT LINE",
}


def ascii_problems(text: str) -> list[str]:
    """Every character of ``text`` that a console must not receive, named with its column
    (``U+200A HAIR SPACE at column 3``): anything but printable ASCII. A tab is refused too:
    IOS and shells complete the word on it, so the device would run another line."""
    found = []
    for column, char in enumerate(text, start=1):
        if not " " <= char <= "~":
            name = _CONTROL_NAMES.get(char) or unicodedata.name(char, "CONTROL CHARACTER")
            found.append(f"U+{ord(char):04X} {name} at column {column}")
    return found


def console_bytes(line: str) -> bytes:
    """The bytes a console receives for ``line`` (without the line end): the one place a
    command becomes bytes, so what the gate classifies is exactly what is sent. Raises
    `DeviceError` naming the first character outside printable ASCII."""
    problems = ascii_problems(line)
    if problems:
        raise DeviceError(f"{problems[0]}: {ASCII_ONLY}")
    return line.encode("ascii")


ASCII_ONLY = (
    "consoles receive printable ASCII only (a console that drops the 8th bit turns such a "
    "character into others, even a new line that runs what follows as a second command)"
)


@dataclass(frozen=True)
class _Keywords:
    """An IOS-style command: each word may be abbreviated down to its minimum length."""

    words: tuple[tuple[str, int], ...]
    reason: str
    needs_target: bool = False  # only when an argument names a file system or an option


_IOS_RULES = (
    _Keywords((("reload", 3),), "reload reboots the device"),
    _Keywords((("write", 2), ("erase", 2)), "write erase deletes the startup configuration"),
    _Keywords((("erase", 3),), "erase deletes a file system or the startup configuration"),
    _Keywords((("format", 3),), "format wipes a file system"),
    _Keywords((("delete", 3),), "delete removes files from the device", needs_target=True),
    _Keywords((("squeeze", 3),), "squeeze permanently removes deleted files"),
    _Keywords((("configure", 4), ("replace", 3)), "configure replace replaces the whole config"),
    _Keywords((("crypto", 3), ("key", 3), ("zeroize", 3)), "crypto key zeroize destroys keys"),
    _Keywords((("request", 3), ("system", 3), ("reboot", 3)), "request system reboot reboots"),
    _Keywords((("request", 3), ("system", 3), ("halt", 3)), "request system halt halts"),
    _Keywords((("request", 3), ("system", 3), ("power-off", 3)), "request system power-off"),
    _Keywords((("request", 3), ("system", 3), ("zeroize", 3)), "zeroize wipes the device"),
    _Keywords((("load", 4), ("override", 4)), "load override replaces the whole configuration"),
    _Keywords((("load", 4), ("factory-default", 4)), "load factory-default wipes the config"),
    _Keywords((("tclsh", 4),), "tclsh runs Tcl scripts whose commands the gate cannot read"),
)
# IOS configuration lines that carry a command run later or under another name.
_EEM_RELOAD_RE = re.compile(r"^(?:action|event)\b.*\breload\b")
_EEM_CLI_RE = re.compile(r"^action\s+\S+\s+cli\s+command\s+(.+)$")
_HOST_ESCAPE = (
    "on VPCS '!' runs the rest of the line on the machine that runs GNS3, not on the node "
    "(and on a Linux shell it replays a command from the history): never sent"
)
_VPCS_FILE_RE = re.compile(r"^(?:sa|sav|save|lo|loa|load)$")

_SHELL_SPLIT_RE = re.compile(r"\s*(?:;|&&|\|\||\||&(?!>)|\n|`|\$\(|\))\s*")
_COMMAND_SPLIT_RE = re.compile(r"\s*(?:;|&&|\|\||\||&(?!>)|\n)\s*")
_PREFIXES = frozenset(
    {"sudo", "doas", "nohup", "exec", "busybox", "command", "env", "builtin", "xargs", "time",
     "nice", "ionice", "setsid", "stdbuf", "chroot", "unbuffer", "then", "do", "else", "timeout",
     "!", "{", "("}
)  # fmt: skip
# Prefixes that take a value before the command (timeout 5 reboot, nice -n 5 reboot).
_VALUED_PREFIXES = {"timeout": 1, "nice": 0, "ionice": 0, "stdbuf": 0, "chroot": 1}
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ash", "ksh", "busybox"})
_SYSTEMD_STOP_RE = re.compile(
    r"^(?:poweroff|halt|reboot|kexec|rescue|emergency|soft-reboot)(?:\.target)?$"
)
_HALTERS = frozenset({"poweroff", "halt", "reboot"})
_DISK_TOOLS = frozenset({"mke2fs", "mkswap", "wipefs", "sfdisk", "shred", "blkdiscard"})
_ROOTISH_RE = re.compile(r"^(?:/+\.?|/\*|/[^/\s]+/?\*?|~/?\*?|\$home/?\*?|\$\{home\}/?)$")
_SHUTDOWN_ARG_RE = re.compile(r"^(?:-[hrpHP]\w*|--(?:halt|reboot|poweroff)|now|\+\d+|\d+:\d+)$")
_HARMLESS_DEV = r"(?!null\b|zero\b|stdout\b|stderr\b|tty\b|fd/\d)"
_PLAIN_COMMAND_RE = re.compile(r"^[A-Za-z0-9_./:+@,%=-]+$")
_SHELL_SOURCES = frozenset({"-", "/dev/stdin", "-s", "/proc/self/fd/0", "/dev/fd/0"})
_INTERPRETERS_RE = re.compile(r"^(?:python[0-9.]*|perl|ruby|php|node|lua|tclsh|wish|awk|gawk)$")
_FUNCTION_RE = re.compile(r"(?:^|[;&|\s(])(?:function\s+)?([^\s(){};&|]+)\s*\(\s*\)\s*\{(.*)")
_LINE_RULES = (
    (re.compile(r"\bdd\b.*\bof=/dev/(?!null\b|zero\b)"), "dd onto a device overwrites a disk"),
    (
        re.compile(r"(?:>|>>|>\||&>)\s*/dev/" + _HARMLESS_DEV),
        "writing into a device file can overwrite a disk or reset the device",
    ),
    (
        re.compile(r"\btee\b(?:\s+-\S+)*(?:\s+\S+)*\s+/dev/" + _HARMLESS_DEV),
        "writing into a device file can overwrite a disk or reset the device",
    ),
    (
        re.compile(r">\s*/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|disk)"),
        "redirecting into a disk device overwrites it",
    ),
    (re.compile(r":\(\)\s*\{.*:\s*\|\s*:\s*&.*\}"), "a fork bomb takes the host down"),
    (re.compile(r"^copy\b.*\s/erase\b"), "copy /erase erases the destination file system"),
    (re.compile(r"/proc/sysrq-trigger"), "sysrq triggers reboot, power off or crash the host"),
    (re.compile(r"/sys/power/state|/proc/sys/kernel/panic"), "that file powers off the host"),
)


def _normalise(command: str) -> str:
    return " ".join(command.split()).lower()


def _word_matches(token: str, word: str, minimum: int) -> bool:
    return len(token) >= min(minimum, len(word)) and word.startswith(token)


def _check_ios(words: list[str], depth: int = 0) -> str | None:
    if len(words) > 1 and words[0] in ("do", "do-exec"):  # exec command from configuration mode
        words = words[1:]
    embedded = _ios_embedded(words)
    if embedded is not None and depth < 3:
        reason = _check_ios(embedded, depth + 1)
        if reason:
            return f"it runs another command: {reason}"
    for rule in _IOS_RULES:
        size = len(rule.words)
        if len(words) < size:
            continue
        if all(_word_matches(t, w, m) for t, (w, m) in zip(words, rule.words, strict=False)):
            args = words[size:]
            if rule.needs_target and args and not any(a.startswith("/") or ":" in a for a in args):
                continue
            return rule.reason
    return None


def _ios_embedded(words: list[str]) -> list[str] | None:
    """The command an IOS configuration line carries to run later or under another name: an
    EEM ``action N cli command "..."``, ``alias MODE NAME COMMAND``, kron ``cli COMMAND``."""
    if _EEM_CLI_RE.match(" ".join(words)):
        return " ".join(words[4:]).replace('"', " ").split()
    if len(words) > 3 and words[0] == "alias":
        return words[3:]
    if len(words) > 1 and words[0] == "cli":
        return words[1:]
    return None


def _hides_command(words: list[str], kind: DeviceKind) -> str | None:
    """Why a shell part hides the command it runs, or None: its command word is built by
    expansion or a glob, or it runs text from its input (``| sh``, ``xargs sh -c``, eval)."""
    while words and words[0].lstrip("({") != words[0]:  # a subshell or a group
        words = [words[0].lstrip("({"), *words[1:]] if words[0].lstrip("({") else words[1:]
    if not words or words[0].startswith("#"):
        return None  # a comment
    program = words[0].rstrip(")}")  # the end of a subshell or group
    if not program:
        return None
    if kind is not DeviceKind.IOS and not _PLAIN_COMMAND_RE.match(program):
        return "it hides the command it runs (built by expansion, quoting or a glob)"
    name, args = program.rsplit("/", 1)[-1], words[1:]
    if name == "eval" or (name in (".", "source") and (not args or args[0] in _SHELL_SOURCES)):
        return f"{name} runs text as a command, which hides the command it runs"
    if name in _SHELLS:
        options = [a for a in args if a.startswith("-")]
        script = [a for a in args if not a.startswith("-")]
        if not script or script[0] in _SHELL_SOURCES or options[-1:] == ["-c"] == args[-1:]:
            return f"{name} runs the text it is given as commands, which hides what it runs"
    if _INTERPRETERS_RE.match(name) and (not args or any(a in _SHELL_SOURCES for a in args)):
        return f"{name} runs the program it reads from its input, which hides what it runs"
    return None


def _host_path(arg: str) -> bool:
    return "/" in arg or "\\" in arg or ".." in arg or arg.startswith("~")


def _strip_prefixes(words: list[str]) -> list[str]:
    while words:
        head = words[0]
        if head in _PREFIXES:
            words = words[1:]
            # a prefix's own options and value (timeout 5, nice -n 10, env -i, sudo -u root)
            while words and words[0].startswith("-"):
                words = words[2:] if words[0] in ("-n", "-u", "-g", "-c", "-s") else words[1:]
            skip = _VALUED_PREFIXES.get(head, 0)
            words = words[skip:]
        elif "=" in head and head[0] != "-":
            words = words[1:]  # VAR=value before the command
        else:
            break
    return words


def _shell_words(part: str) -> list[str]:
    """The words a shell would see: quotes and backslashes removed (``'rm'``, ``\\rm``,
    ``"r"m`` are all ``rm``); unbalanced quoting falls back to dropping the quote marks."""
    try:
        return shlex.split(part, posix=True)
    except ValueError:
        return part.replace("'", "").replace('"', "").replace("\\", "").split()


def _check_shell_part(words: list[str], kind: DeviceKind, depth: int = 0) -> str | None:
    words = _strip_prefixes(words)
    if not words:
        return None
    hidden = _hides_command(words, kind)
    if hidden:
        return hidden
    program, args = words[0].rsplit("/", 1)[-1], words[1:]
    if program in _SHELLS and depth < 3:
        for index, arg in enumerate(args[:-1]):
            if arg.startswith("-") and "c" in arg:  # sh -c '...'
                return _check_line(args[index + 1], kind, depth + 1)
    if program == "eval" and depth < 3:
        return _check_line(" ".join(args), kind, depth + 1)
    flags = "".join(a.lstrip("-") for a in args if a.startswith("-") and not a.startswith("--"))
    recursive = "r" in flags.lower() or "--recursive" in args
    rootish = "--no-preserve-root" in args or any(_ROOTISH_RE.match(a) for a in args)
    if program == "rm" and recursive and rootish:
        return "recursive rm of / , a top-level directory or home wipes the system"
    if program in _HALTERS:
        return f"{program} stops or restarts the host"
    if program in ("init", "telinit") and args[:1] in (["0"], ["6"]):
        return "init 0/6 halts or reboots the host"
    if program in ("systemctl", "loginctl") and any(_SYSTEMD_STOP_RE.match(a) for a in args):
        return f"{program} power actions and rescue targets stop or restart the host"
    if program in ("init", "telinit") and args[:1] in (["1"], ["s"]):
        return "init 1/S drops the host to single-user mode"
    if program == "killall5" or (
        program in ("pkill", "killall")
        and any(a in ("init", "systemd", "vpcs", "sshd") for a in args)
    ):
        return f"{program} ends the processes the node runs on"
    timed = any(_SHUTDOWN_ARG_RE.match(a) for a in args)
    if program == "shutdown" and (timed or (not args and kind is DeviceKind.LINUX)):
        return "shutdown halts or reboots the host"
    if program.startswith("mkfs") or program in _DISK_TOOLS:
        return f"{program} destroys a file system or disk"
    if program == "kill" and any(a in ("1", "-1", "--", "-- -1") for a in args[-2:]):
        return "killing PID 1 (or every process) stops the node"
    if program in ("chmod", "chown") and recursive and "/" in args:
        return f"recursive {program} of / breaks the system"
    if program in ("cp", "mv", "install", "ln", "truncate") and any(
        re.match(r"^/dev/" + _HARMLESS_DEV, a) for a in args
    ):
        return "writing into a device file can overwrite a disk or reset the device"
    vpcs = kind in (DeviceKind.VPCS, DeviceKind.AUTO)
    if vpcs and _VPCS_FILE_RE.match(program) and any(_host_path(a) for a in args):
        return (
            f"on VPCS '{program}' with a path reads or writes a file of the machine that "
            "runs GNS3, outside the node's folder"
        )
    if (
        kind in (DeviceKind.VPCS, DeviceKind.AUTO)
        and len(program) >= 1
        and "quit".startswith(program)
        and not args
    ):
        return "quit ends the VPCS process and stops the node (VPCS takes q, qu, qui too)"
    return None


def _compile(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error:
        return re.compile(re.escape(pattern), re.IGNORECASE)


def check_command(
    command: str, extra_patterns: Sequence[str] = (), kind: DeviceKind = DeviceKind.AUTO
) -> RefusedCommand | None:
    """Return why `command` must not be sent to a device of `kind`, or None when it may be."""
    problems = ascii_problems(command)
    if problems:
        return RefusedCommand(command, f"{', '.join(problems[:3])}: {ASCII_ONLY}")
    if len(command) > MAX_LINE_CHARS:
        return RefusedCommand(command, f"longer than {MAX_LINE_CHARS} characters")
    text = _normalise(command)
    if not text:
        return None
    if text.startswith("!") and kind is not DeviceKind.IOS:
        return RefusedCommand(command, _HOST_ESCAPE)
    for pattern in extra_patterns:
        if pattern.strip() and _compile(pattern.strip()).search(text):
            return RefusedCommand(command, f"matches the user's refused pattern '{pattern}'")
    reason = _check_line(text, kind)
    return RefusedCommand(command, reason) if reason else None


def _check_line(text: str, kind: DeviceKind, depth: int = 0) -> str | None:
    """The refusal reason for one normalised line (IOS words, whole-line rules, shell parts)."""
    reason = _check_ios(text.split())
    if _EEM_RELOAD_RE.search(text):
        reason = reason or "an EEM applet action or event that reloads the device"
    unquoted = " ".join(_shell_words(text))
    bomb = _FUNCTION_RE.search(text)
    if bomb and re.search(
        rf"(?:^|[\s;&|{{(]){re.escape(bomb.group(1))}(?:$|[\s;&|}})])", bomb.group(2)
    ):
        reason = reason or "a shell function that calls itself (a fork bomb) takes the host down"
    for regex, why in _LINE_RULES:
        reason = reason or (why if regex.search(text) or regex.search(unquoted) else None)
    for part in _SHELL_SPLIT_RE.split(text):
        reason = reason or _check_shell_part(_shell_words(part), kind, depth)
    for part in _COMMAND_SPLIT_RE.split(text):  # $( and ` kept: a command word made by them
        reason = reason or _hides_command(_strip_prefixes(_shell_words(part)), kind)
    return reason


def check_commands(
    device: str,
    commands: Sequence[str],
    extra_patterns: Sequence[str] = (),
    kind: DeviceKind = DeviceKind.AUTO,
) -> None:
    """Raise `CommandRefusedError` listing every refused command of a request, if any."""
    refused = [r for c in commands if (r := check_command(c, extra_patterns, kind)) is not None]
    if refused:
        raise CommandRefusedError(device, refused)
