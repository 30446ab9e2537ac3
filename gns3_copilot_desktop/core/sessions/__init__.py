"""Per-project session database: checkpoints, sessions index, transcript and search."""

from __future__ import annotations

from gns3_copilot_desktop.core.sessions.location import resolve_db_path
from gns3_copilot_desktop.core.sessions.models import (
    DEFAULT_TITLE,
    HIGHLIGHT_END,
    HIGHLIGHT_START,
    SessionInfo,
    SessionSearchHit,
    TranscriptMessage,
)
from gns3_copilot_desktop.core.sessions.store import SessionStore

__all__ = [
    "DEFAULT_TITLE",
    "HIGHLIGHT_END",
    "HIGHLIGHT_START",
    "SessionInfo",
    "SessionSearchHit",
    "SessionStore",
    "TranscriptMessage",
    "resolve_db_path",
]
