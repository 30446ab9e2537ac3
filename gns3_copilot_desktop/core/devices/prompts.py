"""Recognise the prompts of the consoles a GNS3 lab exposes.

A prompt is recognised on the last, unterminated line of what the console sent (see
`terminal.last_line`). Supported families:

- VPCS: ``PC1> `` (name, ``>`` and one space).
- Cisco IOS / IOS-XE and look-alikes (Arista EOS, many switches): ``R1>``, ``R1#``,
  ``R1(config)#``, ``R1(config-if)#``.
- Juniper Junos (bonus): ``user@router> `` (operational), ``user@router# `` (configuration).
- Linux shells: ``user@host:~$ ``, ``root@host:/# ``, ``[user@host ~]$ ``, ``bash-5.2# ``,
  ``/ # ``, ``# ``, ``$ ``.

With `DeviceKind.AUTO` the families are tried in the order above. VPCS and IOS user mode differ
only by the trailing space (``PC1> `` vs ``R1>``); callers that know the node type (the GNS3 node
says ``vpcs``, ``dynamips``, ``iou``, ``docker``...) should pass it instead of relying on that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class DeviceKind(StrEnum):
    """The console family; decides how prompts are read and how configuration is pushed."""

    AUTO = "auto"
    VPCS = "vpcs"
    IOS = "ios"
    JUNOS = "junos"
    LINUX = "linux"


class PromptMode(StrEnum):
    """Where the CLI is: what a command sent now would do."""

    USER = "user"  # IOS ">" / Junos operational / Linux non-root / VPCS
    PRIVILEGED = "privileged"  # IOS "#" / Linux root shell
    CONFIG = "config"  # IOS "(config...)#" / Junos "#"


@dataclass(frozen=True)
class Prompt:
    """A recognised prompt: family, mode, the host name it shows and its exact text."""

    kind: DeviceKind
    mode: PromptMode
    hostname: str
    text: str
    config_context: str = ""  # "config", "config-if", ... for IOS configuration modes


_NAME = r"[A-Za-z0-9_.\-/:]{1,63}"
_VPCS_RE = re.compile(rf"^(?P<host>{_NAME})> $")
_IOS_RE = re.compile(rf"^(?P<host>{_NAME})(?:\((?P<ctx>[A-Za-z0-9_.\-/: ]+)\))?(?P<sig>[>#])\s?$")
_JUNOS_RE = re.compile(r"^(?P<user>[\w.\-]+)@(?P<host>[\w.\-]+)(?P<sig>[>#%]) ?$")
_LINUX_RES = (
    re.compile(r"^(?P<user>[\w.\-]+)@(?P<host>[\w.\-]+):[^\n]*?(?P<sig>[$#]) ?$"),
    re.compile(r"^\[(?P<user>[\w.\-]+)@(?P<host>[\w.\-]+)[^\]\n]*\](?P<sig>[$#]) ?$"),
    re.compile(r"^(?P<host>[\w.\-]*sh(?:-[\d.]+)?|/\S*|~\S*)?\s?(?P<sig>[$#]) $"),
)

USERNAME_RE = re.compile(r"(?i)(?:user ?name|login)\s*:\s*$")
PASSWORD_RE = re.compile(r"(?i)pass(?:word|code|phrase)?(?: for [^:]+)?\s*:\s*$")
LOGIN_FAILED_RE = re.compile(
    r"(?i)(login incorrect|authentication failed|login invalid|access denied|bad secrets?"
    r"|bad passwords?|permission denied)"
)
# IOS first boot: answer "no" to the setup wizard; older images ask to press RETURN.
SETUP_DIALOG_RE = re.compile(r"(?i)initial configuration dialog\?\s*\[yes/no\]:\s*$")
PRESS_RETURN_RE = re.compile(r"(?i)press return to get started")
# Pagers: IOS " --More-- ", NX-OS/others "-- More --", Junos "---(more 52%)---", more(1).
PAGER_RE = re.compile(
    r"(?i)(?:\s*-{1,3}\s*\(?more(?:\s*\d{1,3}%)?\)?\s*-{1,3}(?:\(\d{1,3}%\))?"
    r"|\s*<---\s*more\s*--->|\s*press any key to continue[^\n]*)\s*$"
)
# less(1), the pager of vtysh (``terminal paginate``) and of many Linux tools: ":" between pages
# and "(END)" at the start of the line at the end of the text (drawn over the pager prompt that
# stood there, whose rest may show after it). Only there: a "q" answered to a device's own text
# would wait in its input and spoil the next command.
LESS_PAGE_RE = re.compile(r"^\s*:\s*$")
LESS_END_RE = re.compile(r"^\s*(?:lines \d+-\d+(?:/\d+)?\s+)?\(END\)")
VPCS_BANNER_RE = re.compile(r"(?i)virtual pc simulator|\bvpcs\b")
# A device that is booting (or reloading): firmware, boot loader and kernel lines. Seeing one, the
# console waits for the end of the boot instead of giving up after the login timeout.
BOOT_OUTPUT_RE = re.compile(
    r"(?im)seabios|ipxe|booting (?:from|the kernel)|linux version \d|^\s*\[\s*\d+\.\d{6}\]"
    r"|loading (?:linux|initial ramdisk)|system bootstrap|rommon|self decompressing the image"
    r"|restricted rights legend|reload requested|proceed with reload"
)
# Questions a command may ask before it runs (IOS "copy", "clear counters"...).
_CONFIRM_RE = re.compile(r"(?i)\[confirm\]\s*$|\[[^\]\n]*\]\?\s*$")
_YES_NO_RE = re.compile(r"(?i)\[yes/no\]:?\s*$|\(y/n\)\??\s*$|\[y/n\]:?\s*$")


def confirmation_reply(line: str) -> str | None:
    """What to answer a confirmation question on `line`, or None when it is not one.

    ``[confirm]`` and a question with a default in brackets (``Destination filename
    [startup-config]?``) get Enter: the user asked for the command, and destructive commands are
    refused before they are sent. Yes/no questions get ``no``: they usually offer something extra
    (save before reload, enter the setup dialog), never the command itself.
    """
    if _CONFIRM_RE.search(line):
        return ""
    if _YES_NO_RE.search(line):
        return "no"
    return None


def _ios(match: re.Match[str], line: str) -> Prompt:
    ctx = match.group("ctx") or ""
    if ctx:
        mode = PromptMode.CONFIG
    else:
        mode = PromptMode.PRIVILEGED if match.group("sig") == "#" else PromptMode.USER
    return Prompt(DeviceKind.IOS, mode, match.group("host"), line, ctx)


def _junos(match: re.Match[str], line: str) -> Prompt:
    mode = PromptMode.CONFIG if match.group("sig") == "#" else PromptMode.USER
    return Prompt(DeviceKind.JUNOS, mode, match.group("host"), line)


def _linux(line: str) -> Prompt | None:
    for regex in _LINUX_RES:
        match = regex.match(line)
        if match:
            mode = PromptMode.PRIVILEGED if match.group("sig") == "#" else PromptMode.USER
            return Prompt(DeviceKind.LINUX, mode, match.group("host") or "", line)
    return None


def match_prompt(line: str, kind: DeviceKind = DeviceKind.AUTO) -> Prompt | None:
    """Return the prompt `line` shows for a console of `kind`, or None if it is not a prompt."""
    if kind in (DeviceKind.AUTO, DeviceKind.VPCS):
        vpcs = _VPCS_RE.match(line) or (kind is DeviceKind.VPCS and _IOS_RE.match(line))
        if vpcs:
            return Prompt(DeviceKind.VPCS, PromptMode.USER, vpcs.group("host"), line)
        if kind is DeviceKind.VPCS:
            return None
    if kind in (DeviceKind.AUTO, DeviceKind.JUNOS):
        junos = _JUNOS_RE.match(line)
        # "user@host# " is also a root shell: only an explicit JUNOS kind reads it as Junos.
        if junos and (kind is DeviceKind.JUNOS or junos.group("sig") == ">"):
            return _junos(junos, line)
        if kind is DeviceKind.JUNOS:
            return None
    if kind in (DeviceKind.AUTO, DeviceKind.LINUX):
        linux = _linux(line)
        if linux or kind is DeviceKind.LINUX:
            return linux
    if kind in (DeviceKind.AUTO, DeviceKind.IOS):
        ios = _IOS_RE.match(line)
        if ios:
            return _ios(ios, line)
    return None


def pager_key(line: str) -> str | None:
    """The key a pager on `line` (visible text of the last line) waits for: a space for the next
    page; ``q`` where less(1) waits at the end of the text (it stays there, the console with it,
    until told to quit); None when the line is no pager."""
    if len(line.strip()) >= 60:
        return None
    if LESS_END_RE.search(line):
        return "q"
    if PAGER_RE.search(line) or LESS_PAGE_RE.match(line):
        return " "
    return None
