"""The rows both session stores (SQLite and PostgreSQL) write and read the same way."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from gns3_copilot_desktop.core.sessions.models import (
    DEFAULT_TITLE,
    SessionSearchHit,
    TranscriptMessage,
)


def message_row(sid: str, m: TranscriptMessage) -> tuple[Any, ...]:
    """The ``copilot_messages`` row of a transcript message (SQLite and PostgreSQL)."""
    tool_calls = (
        json.dumps([c.model_dump(mode="json") for c in m.tool_calls]) if m.tool_calls else None
    )
    metadata = json.dumps(m.metadata, default=str) if m.metadata else None
    return (
        sid,
        m.seq,
        m.id,
        m.role,
        m.content,
        m.name,
        m.tool_call_id,
        tool_calls,
        metadata,
        m.created_at.isoformat(),
    )


def merge_hits(
    title_rows: Iterable[Sequence[Any]], message_rows: Iterable[Sequence[Any]], limit: int
) -> list[SessionSearchHit]:
    """Search hits: sessions whose title matched first, then those with a matching message,
    one hit per session, at most ``limit``."""
    hits: dict[str, SessionSearchHit] = {}
    for sid, title in title_rows:
        display = title or DEFAULT_TITLE
        hits.setdefault(sid, SessionSearchHit(session_id=sid, title=display, snippet=display))
    for sid, title, snip, mid, seq, role in message_rows:
        if len(hits) >= limit:
            break
        if sid not in hits:
            hits[sid] = SessionSearchHit(
                session_id=sid,
                title=title or DEFAULT_TITLE,
                snippet=snip,
                message_id=mid,
                seq=seq,
                role=role,
            )
    return list(hits.values())[:limit]
