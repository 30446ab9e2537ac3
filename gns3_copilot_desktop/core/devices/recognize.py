"""Recognizing what a device console shows: a prompt or a login question on the last line, the
echo of a command, and the output between that echo and the next prompt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gns3_copilot_desktop.core.devices.prompts import (
    PASSWORD_RE,
    PRESS_RETURN_RE,
    SETUP_DIALOG_RE,
    USERNAME_RE,
    DeviceKind,
    Prompt,
    match_prompt,
)
from gns3_copilot_desktop.core.devices.terminal import screen_text


@dataclass
class ConsoleEvent:
    kind: Literal["prompt", "username", "password", "setup", "press_return"]
    raw: str
    prompt: Prompt | None = None


CTRL_C_ECHO = "^C"


def classify(
    raw: str, line: str, kind: DeviceKind, *, login: bool, echo: str | None
) -> ConsoleEvent | None:
    """What the console waits for now, judged by its last ``line``: a prompt (once ``echo`` was
    echoed, when given) or, with ``login``, a login question; None while it is still talking."""
    prompt = match_prompt(line, kind)
    if prompt is None and line.startswith(CTRL_C_ECHO):
        # the tty echoes a Ctrl-C as "^C", and not always before what the program prints on
        # it: after a stopped ping's summary, glued to the prompt that follows
        prompt = match_prompt(line[len(CTRL_C_ECHO) :], kind)
    if prompt is not None and (echo is None or echo_seen(raw, echo)):
        return ConsoleEvent("prompt", raw, prompt)
    if not login:
        return None
    if USERNAME_RE.search(line):
        return ConsoleEvent("username", raw)
    if PASSWORD_RE.search(line):
        return ConsoleEvent("password", raw)
    if SETUP_DIALOG_RE.search(line):
        return ConsoleEvent("setup", raw)
    if PRESS_RETURN_RE.search(line):
        return ConsoleEvent("press_return", raw)
    return None


def printed_before_prompt(raw: str) -> bool:
    """Whether the device printed something of its own before its prompt (a banner, a startup
    script's output), not just the answer to a newline."""
    lines = screen_text(raw).splitlines()
    return any(line.strip() for line in lines[:-1])


def without_bare_prompts(output: str, prompt: Prompt) -> str:
    """The output without the prompts that end it on lines of their own: a serial console whose
    line discipline turns the CR and the LF of an Enter into two Enters (vtysh, a Linux getty)
    answers a command with its output, a prompt, and the same prompt again."""
    lines = output.split("\n")
    bare = prompt.text.strip()
    while lines and bare and lines[-1].strip() in (bare, ""):
        lines.pop()
    return "\n".join(lines)


def _squash(text: str) -> str:
    return "".join(text.split())


def echo_seen(raw: str, command: str) -> bool:
    """Whether the device echoed `command` on a line before the last one."""
    wanted = _squash(command)[-24:]
    if not wanted:
        return "\n" in raw
    lines = screen_text(raw).split("\n")[:-1]
    return any(_squash(line).endswith(wanted) for line in lines)


def is_echo(line: str, command: str) -> bool:
    """Whether `line` is `command` echoed again: alone or after a redrawn prompt. An error that
    quotes the command (vtysh's ``% Unknown command: show frobnicate``) is output, not an echo."""
    text, typed = line.rstrip(), command.strip()
    if not typed or not text.endswith(typed):
        return False
    before = text[: len(text) - len(typed)].rstrip()
    return not before or before[-1] in "#>$]"


def output_of(screen: str, command: str) -> str:
    """The lines between the command's echo and the final prompt, blank edges removed.

    A console that was still printing when the command arrived echoes it twice (the typed
    characters, then the redrawn prompt and line), sometimes with blank lines between: every echo
    and blank line before the first line of output goes.
    """
    lines = [line.rstrip() for line in screen.split("\n")[:-1]]
    wanted = _squash(command)[-24:]
    if wanted:
        echoes = [i for i, line in enumerate(lines) if _squash(line).endswith(wanted)]
        if echoes:
            lines = lines[echoes[0] + 1 :]
            while lines and (not lines[0] or is_echo(lines[0], command)):
                lines.pop(0)
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
