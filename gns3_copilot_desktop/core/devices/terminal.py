"""Turn the raw byte stream of a device console into the text a person would see on screen.

Consoles talk to a terminal, not to a program: they colour prompts with ANSI escapes, end lines with
``\\r\\n`` (or ``\\r\\r\\n``), and erase a pager prompt by writing backspaces, spaces and backspaces
over it. `screen_text` replays those control characters line by line, so what is left is the text
that remains visible, with ``\\n`` line ends.
"""

from __future__ import annotations

import re

# CSI (colours, cursor moves, bracketed-paste switches), OSC (window titles) and two-byte escapes.
_ANSI_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI ... final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC ... BEL or ST
    r"|\x1b[@-Z\\-_]"  # two-byte escapes
)
_LINE_END_RE = re.compile(r"\r+\n")
_DROP = str.maketrans("", "", "\x00\x07\x7f")


def strip_ansi(text: str) -> str:
    """Remove ANSI escape sequences (colours, cursor control, titles)."""
    return _ANSI_RE.sub("", text)


def _replay_line(line: str) -> str:
    """Apply backspaces and carriage returns inside one line the way a terminal does."""
    cells: list[str] = []
    cursor = 0
    for char in line:
        if char == "\b":
            cursor = max(0, cursor - 1)
        elif char == "\r":
            cursor = 0
        elif cursor < len(cells):
            cells[cursor] = char
            cursor += 1
        else:
            cells.append(char)
            cursor += 1
    return "".join(cells)


def screen_text(raw: str) -> str:
    """Return what stays visible of `raw`: escapes removed, overwrites applied, ``\\n`` line ends.

    Trailing spaces are kept (a VPCS prompt ends with one); callers strip lines they output.
    """
    text = _LINE_END_RE.sub("\n", strip_ansi(raw).translate(_DROP))
    return "\n".join(_replay_line(line) for line in text.split("\n"))


def last_line(raw: str) -> str:
    """The visible text of the last (unterminated) line of `raw`: where a prompt appears."""
    cut = raw.rfind("\n")
    return screen_text(raw[cut + 1 :])
