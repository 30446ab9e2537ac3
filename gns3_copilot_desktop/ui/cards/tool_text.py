"""A tool call's words: its title, a short form of its arguments, its duration, and the head and
tail of long output (what a `ToolCard` shows; plain text, no widgets)."""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.ui.core_text import call_summary, core_text

HEAD_LINES = 20
TAIL_LINES = 20
_LONG_LINES = HEAD_LINES + TAIL_LINES + 10
_LONG_CHARS = 6000


def format_duration(ms: float) -> str:
    """1234 -> '1.2 s', 65000 -> '1 min 5 s', 80 -> '80 ms'."""
    if ms < 1000:
        return QCoreApplication.translate("ToolCard", "%1 ms").replace("%1", str(int(ms)))
    seconds = ms / 1000
    if seconds < 60:
        return QCoreApplication.translate("ToolCard", "%1 s").replace("%1", f"{seconds:.1f}")
    minutes, rest = divmod(int(seconds), 60)
    return (
        QCoreApplication.translate("ToolCard", "%1 min %2 s")
        .replace("%1", str(minutes))
        .replace("%2", str(rest))
    )


def head_and_tail(text: str) -> tuple[str, int] | None:
    """(shortened text, number of hidden lines) when `text` is long, else None."""
    lines = text.split("\n")
    if len(lines) > _LONG_LINES:
        hidden = len(lines) - HEAD_LINES - TAIL_LINES
        marker = QCoreApplication.translate("ToolCard", "… %1 lines hidden …").replace(
            "%1", str(hidden)
        )
        return "\n".join([*lines[:HEAD_LINES], marker, *lines[-TAIL_LINES:]]), hidden
    if len(text) > _LONG_CHARS:
        half = _LONG_CHARS // 2
        hidden_lines = text[half:-half].count("\n")
        marker = QCoreApplication.translate("ToolCard", "\n… %1 characters hidden …\n").replace(
            "%1", str(len(text) - 2 * half)
        )
        return text[:half] + marker + text[-half:], hidden_lines
    return None


def brief_arguments(arguments: dict[str, Any], limit: int = 60) -> str:
    """The names a call is about, for a card whose tool gave no summary (yet): ``Switch1, PC2``
    from ``{"nodes": ["Switch1"], ...}``; never JSON, ids or ``key=value``."""
    found: list[str] = []

    def walk(value: Any, depth: int) -> None:
        if isinstance(value, str) and value.strip():
            found.append(value.strip())
        elif isinstance(value, dict) and depth < 3:
            for key in ("name", "node", "template", "text"):
                if key in value:
                    walk(value[key], depth + 1)
                    return
        elif isinstance(value, list) and depth < 3:
            for item in value:
                walk(item, depth + 1)

    for key, value in arguments.items():
        if key in ("credential", "color") or key.endswith("_id"):
            continue  # internals and secrets' names are not what the call is about
        walk(value, 0)
    text = ", ".join(dict.fromkeys(found))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def call_title(tool_name: str, arguments: dict[str, Any], summary: str = "") -> str:
    """What a call does, in the user's language: the tool's summary (as sent, or computed from
    the arguments), else the names it is about."""
    return core_text(summary) or call_summary(tool_name, arguments) or brief_arguments(arguments)
