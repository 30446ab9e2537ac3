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
- VPCS: ``quit`` (it ends the VPCS process, so the node stops).

Deliberately *not* refused: commands that change state reversibly and are approved by the user as
device-config changes — interface ``shutdown``, ``no ip address``, VPCS ``clear ip``, ``clear ip
bgp *``, ``write memory``. The user extends the list with regular expressions (matched
case-insensitively anywhere in the whitespace-normalised command); an entry that is not a valid
regular expression is matched as literal text, so a typo cannot switch the check off.
"""

from __future__ import annotations

import re
import shlex
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
)

_SHELL_SPLIT_RE = re.compile(r"\s*(?:;|&&|\|\||\||&(?!>)|\n|`|\$\(|\))\s*")
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
_LINE_RULES = (
    (re.compile(r"\bdd\b.*\bof=/dev/(?!null\b|zero\b)"), "dd onto a device overwrites a disk"),
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


def _check_ios(words: list[str]) -> str | None:
    if len(words) > 1 and words[0] == "do":  # exec command run from configuration mode
        words = words[1:]
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
    text = _normalise(command)
    if not text:
        return None
    for pattern in extra_patterns:
        if pattern.strip() and _compile(pattern.strip()).search(text):
            return RefusedCommand(command, f"matches the user's refused pattern '{pattern}'")
    reason = _check_line(text, kind)
    return RefusedCommand(command, reason) if reason else None


def _check_line(text: str, kind: DeviceKind, depth: int = 0) -> str | None:
    """The refusal reason for one normalised line (IOS words, whole-line rules, shell parts)."""
    reason = _check_ios(text.split())
    unquoted = " ".join(_shell_words(text))
    for regex, why in _LINE_RULES:
        reason = reason or (why if regex.search(text) or regex.search(unquoted) else None)
    for part in _SHELL_SPLIT_RE.split(text):
        reason = reason or _check_shell_part(_shell_words(part), kind, depth)
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
