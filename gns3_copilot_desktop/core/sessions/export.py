"""Export a session's transcript as Markdown (to read or share) or JSON (OpenAI's message shape).

Qt-free: the UI asks the store for the `SessionInfo` and the transcript, then writes the text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gns3_copilot_desktop.core.protocol import ToolCall
from gns3_copilot_desktop.core.sessions.models import SessionInfo, TranscriptMessage

_ROLE_HEADINGS = {"user": "User", "assistant": "Assistant", "tool": "Tool", "system": "System"}


def export_markdown(info: SessionInfo, messages: list[TranscriptMessage]) -> str:
    """The session as Markdown: title, date, then each message under its role.

    An assistant's tool calls are fenced ``json`` blocks with the tool name and its arguments;
    a tool's result is a fenced block of its output.
    """
    lines = [f"# {info.display_title}", "", f"*{info.created_at:%Y-%m-%d %H:%M} UTC*", ""]
    for m in messages:
        lines += _markdown_message(m)
    return "\n".join(lines).rstrip() + "\n"


def export_json(info: SessionInfo, messages: list[TranscriptMessage]) -> str:
    """The session as JSON: ``{"session": info, "messages": [OpenAI-shaped messages]}``."""
    payload = {
        "session": info.model_dump(mode="json"),
        "messages": [m.model_dump(mode="json") for m in messages],
    }
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


def _markdown_message(m: TranscriptMessage) -> list[str]:
    heading = _ROLE_HEADINGS.get(m.role, m.role)
    if m.role == "tool":
        heading += f" result ({m.name})" if m.name else " result"
    lines = [f"## {heading}", ""]
    if m.role == "tool":
        lines += [_fence(m.content), ""]
        return lines
    if m.content:
        lines += [_escape_headings(m.content), ""]
    for call in m.tool_calls:
        lines += [f"Tool call `{call.function.name}`:", "", _fence(_call_json(call), "json"), ""]
    return lines


_HEADING_LINE = re.compile(r"^(\\*)(## )", re.MULTILINE)


def _escape_headings(text: str) -> str:
    r"""A message line that starts like a role heading gets one more backslash (Markdown shows
    ``\## `` as ``## ``), so that import never reads it as the start of another message."""
    return _HEADING_LINE.sub(r"\\\1\2", text)


def _call_json(call: ToolCall) -> str:
    try:
        arguments: Any = json.loads(call.function.arguments or "{}")
    except json.JSONDecodeError:
        arguments = call.function.arguments
    body = {"tool": call.function.name, "arguments": arguments}
    return json.dumps(body, ensure_ascii=False, indent=2)


def _fence(text: str, lang: str = "") -> str:
    """A fenced block long enough that backticks inside ``text`` cannot close it."""
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text}\n{fence}"
