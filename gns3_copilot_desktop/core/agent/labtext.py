"""Text from the lab reaches the model as data, never as instructions.

Node, link, port, project, template and snapshot names, notes, banners and device output are
written by whoever made the project (a shared project, a course download) or by the devices. A
node name with newlines once forged extra topology lines and a "Rules" section in the system
prompt. So:

- every name is a JSON string (`quote`): quotes, backslashes, newlines, control characters, Unicode
  line separators and escape sequences are escaped, and long names are cut;
- the topology sits in a data section between markers that carry a random tag chosen for each
  model call (`data_section`), which planted text cannot guess to close the section early;
- tool results are framed the same way when sent to the model (`frame_tool_results`); what is
  stored and shown to the user stays as the tool returned it.

The system prompt tells the model that everything between the markers is data.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence

from langchain_core.messages import BaseMessage, ToolMessage

MAX_NAME_CHARS = 120
_EXTRA_ESCAPES = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}


def new_tag() -> str:
    """A fresh tag for one model call's markers."""
    return secrets.token_hex(6)


def quote(text: object, limit: int = MAX_NAME_CHARS) -> str:
    """``text`` as a JSON string on one line, cut to ``limit`` characters (marked ``…``)."""
    value = str(text)
    if len(value) > limit:
        value = value[:limit] + "…"
    encoded = json.dumps(value, ensure_ascii=False)
    for char, escape in _EXTRA_ESCAPES.items():
        encoded = encoded.replace(char, escape)
    return "".join(c if c.isprintable() or c == " " else f"\\u{ord(c):04x}" for c in encoded)


def data_section(title: str, body: str, tag: str) -> str:
    """``body`` between the markers of one model call."""
    return f"<<<{title} {tag}>>>\n{body}\n<<<END {title} {tag}>>>"


def frame_tool_results(messages: Sequence[BaseMessage], tag: str) -> list[BaseMessage]:
    """The messages for one model call, tool results framed as data (copies, not stored)."""
    framed: list[BaseMessage] = []
    for message in messages:
        if isinstance(message, ToolMessage) and isinstance(message.content, str):
            text = data_section("TOOL RESULT", message.content, tag)
            framed.append(message.model_copy(update={"content": text}))
        else:
            framed.append(message)
    return framed
