"""Typed records of the session store: sessions, transcript messages and search hits.

`TranscriptMessage` is the OpenAI-shaped history message (the design's ``get_history`` shape) plus
the ``seq`` the store gives it; `SessionInfo` is one row of the sessions index.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from gns3_copilot_desktop.core.protocol import ApprovalRequest, ToolCall

Role = Literal["user", "assistant", "tool", "system"]

DEFAULT_TITLE = "New conversation"


def _now() -> datetime:
    return datetime.now(UTC)


def _new_message_id() -> str:
    return uuid.uuid4().hex


class SessionInfo(BaseModel):
    """One conversation of a project, as the session list shows it."""

    id: str
    title: str | None = None
    created_at: datetime
    updated_at: datetime
    message_count: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    pinned: bool = False
    mode: str = "assistant"
    pending_approvals: list[ApprovalRequest] = Field(default_factory=list)

    @property
    def display_title(self) -> str:
        """The title, or a neutral placeholder while none was generated yet."""
        return self.title or DEFAULT_TITLE

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens of the whole session."""
        return self.input_tokens + self.output_tokens


class TranscriptMessage(BaseModel):
    """One message of the full conversation, in OpenAI's chat shape.

    ``seq`` is given by the store when the message is appended (1, 2, 3... per session); the value
    passed to `SessionStore.append_messages` is ignored.
    """

    id: str = Field(default_factory=_new_message_id)
    role: Role
    content: str = ""
    name: str | None = None
    tool_call_id: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=_now)
    seq: int = 0


class SessionSearchHit(BaseModel):
    """A session that matched a search, with where and why.

    ``message_id`` and ``seq`` are None when the title matched. ``snippet`` is plain text; matched
    words are wrapped in `HIGHLIGHT_START` / `HIGHLIGHT_END` (never markup, so it is safe to show).
    """

    session_id: str
    title: str
    snippet: str
    message_id: str | None = None
    seq: int | None = None
    role: Role | None = None


HIGHLIGHT_START = "\u00ab"
HIGHLIGHT_END = "\u00bb"
