"""Marks the core's fixed words that the user reads so the UI can translate them.

The core knows nothing of Qt: `QT_TRANSLATE_NOOP` here only returns its text. pylupdate6 finds the
calls by that name in the whole package, so a tool's display name written in the core lands in the
translation file under its context, and the UI translates it where it is shown.
"""

from __future__ import annotations

TOOL_NAME_CONTEXT = "ToolName"
"""The translation context of the tools' display names."""


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text
