"""The transcript and search half of the SQLite `SessionStore`: appending messages, reading them
back in pages, and full-text search over titles and messages; with the one translation of SQLite
errors into sentences a user can act on."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Sequence
from typing import Any

import aiosqlite
from pydantic import TypeAdapter

from gns3_copilot_desktop.core.errors import SessionStoreError
from gns3_copilot_desktop.core.sessions.base import not_found as _not_found
from gns3_copilot_desktop.core.sessions.models import (
    HIGHLIGHT_END,
    HIGHLIGHT_START,
    SessionInfo,
    SessionSearchHit,
    TranscriptMessage,
)
from gns3_copilot_desktop.core.sessions.rows import merge_hits, message_row
from gns3_copilot_desktop.core.sessions.search import build_match_query

PAGE_MESSAGES = 100
"""Transcript messages read and validated per step (bounds the event loop's longest stall)."""

_MESSAGE_COLUMNS = (
    "seq, message_id, role, content, name, tool_call_id, tool_calls, metadata, created_at"
)
# Rows are turned into JSON by SQLite (in the connection's thread) and validated by pydantic's
# core in one call: for 800 messages that is 2.3x less event-loop CPU than building them in Python.
_MESSAGE_JSON = """json_object(
    'seq', seq, 'id', message_id, 'role', role, 'content', content, 'name', name,
    'tool_call_id', tool_call_id, 'tool_calls', json(coalesce(tool_calls, '[]')),
    'metadata', json(coalesce(metadata, '{}')), 'created_at', created_at)"""
_MESSAGES = TypeAdapter(list[TranscriptMessage])

_TITLE_SEARCH_SQL = """
SELECT s.thread_id, s.title FROM copilot_title_fts f JOIN copilot_sessions s ON s.id = f.rowid
WHERE copilot_title_fts MATCH ? ORDER BY f.rank LIMIT ?
"""
# The best-ranked message of each session first (no snippets: those cost), then snippets for
# the few messages kept.
_BEST_MESSAGE_SQL = """
SELECT t.thread_id, m.rid, min(m.r) AS best FROM (
    SELECT rowid AS rid, rank AS r FROM copilot_transcript_fts WHERE copilot_transcript_fts MATCH ?
) AS m
JOIN copilot_transcript t ON t.id = m.rid
GROUP BY t.thread_id ORDER BY best LIMIT ?
"""
_SNIPPET_SQL = """
SELECT m.rid, t.thread_id, s.title, m.snip, t.message_id, t.seq, t.role FROM (
    SELECT rowid AS rid, snippet(copilot_transcript_fts, 0, ?, ?, '…', 12) AS snip
    FROM copilot_transcript_fts WHERE copilot_transcript_fts MATCH ? AND rowid IN ({marks})
) AS m
JOIN copilot_transcript t ON t.id = m.rid
JOIN copilot_sessions s ON s.thread_id = t.thread_id
"""


@contextlib.contextmanager
def db_errors(action: str) -> Iterator[None]:
    """Re-raise SQLite errors as `SessionStoreError` with a sentence a user can act on."""
    try:
        yield
    except sqlite3.Error as exc:
        text = str(exc)
        if "locked" in text or "busy" in text:
            text = "the database is busy (is another GNS3 Copilot using this project?)"
        raise SessionStoreError(f"Could not {action}: {text}.") from exc


class SqliteTranscript:
    """Transcript and search for `SessionStore` (which provides the connection, the write
    transaction and `get_session`)."""

    _conn: aiosqlite.Connection

    def _write(self) -> contextlib.AbstractAsyncContextManager[aiosqlite.Connection]:
        """One write transaction (the store's)."""
        raise NotImplementedError

    async def get_session(self, sid: str) -> SessionInfo:
        """The session's row (the store's)."""
        raise NotImplementedError

    async def append_messages(
        self, sid: str, messages: Sequence[TranscriptMessage]
    ) -> list[TranscriptMessage]:
        """Append messages to the session's transcript; returns them with their ``seq`` set."""
        if not messages:
            return []
        with db_errors("save the conversation"):
            async with self._write() as conn:
                cur = await conn.execute(
                    "UPDATE copilot_sessions SET updated_at = ? WHERE thread_id = ?",
                    (time.time(), sid),
                )
                if cur.rowcount == 0:
                    raise _not_found(sid)
                rows = await conn.execute_fetchall(
                    "SELECT coalesce(max(seq), 0) FROM copilot_transcript WHERE thread_id = ?",
                    (sid,),
                )
                first = next(iter(rows))[0] + 1
                stored = [m.model_copy(update={"seq": first + i}) for i, m in enumerate(messages)]
                await conn.executemany(
                    f"INSERT INTO copilot_transcript (thread_id, {_MESSAGE_COLUMNS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [message_row(sid, m) for m in stored],
                )
        return stored

    async def read_transcript(
        self, sid: str, limit: int | None = None, before_seq: int | None = None
    ) -> list[TranscriptMessage]:
        """The session's messages in order: all, or the last ``limit`` before ``before_seq``.

        Read newest first in pages of `PAGE_MESSAGES`: each page is validated in one call on the
        event loop, so a long session (800 messages) never stalls the loop for more than one
        page's worth (bench: `python -m bench sessions`)."""
        pages: list[list[TranscriptMessage]] = []
        count = 0
        while limit is None or count < limit:
            size = PAGE_MESSAGES if limit is None else min(PAGE_MESSAGES, limit - count)
            page = await self._read_page(sid, size, before_seq)
            if page:
                pages.append(page)
                count += len(page)
                before_seq = page[0].seq
            if len(page) < size:
                break
        if not pages:
            await self.get_session(sid)  # raises SessionNotFoundError for an unknown id
            return []
        return [m for page in reversed(pages) for m in page]

    async def _read_page(
        self, sid: str, size: int, before_seq: int | None
    ) -> list[TranscriptMessage]:
        """Up to ``size`` messages before ``before_seq`` (all when None), oldest first."""
        sql = "SELECT * FROM copilot_transcript WHERE thread_id = ?"
        params: list[Any] = [sid]
        if before_seq is not None:
            sql += " AND seq < ?"
            params.append(before_seq)
        sql += " ORDER BY seq DESC LIMIT ?"
        params.append(size)
        with db_errors("read the conversation"):
            rows = await self._conn.execute_fetchall(
                f"SELECT json_group_array({_MESSAGE_JSON}) FROM ({sql})", params
            )
        messages = _MESSAGES.validate_json(next(iter(rows))[0])
        messages.sort(key=lambda m: m.seq)
        return messages

    async def search(self, query: str, limit: int = 50) -> list[SessionSearchHit]:
        """Sessions whose title or messages contain every word of ``query``; one hit per session.

        Title matches come first, then message matches by relevance. User input is quoted, so
        FTS5 operators and punctuation in it are searched as text and never raise.
        """
        match = build_match_query(query)
        if match is None or limit <= 0:
            return []
        with db_errors("search the conversations"):
            title_rows = list(await self._conn.execute_fetchall(_TITLE_SEARCH_SQL, (match, limit)))
            message_rows = await self._best_messages(match, limit + len(title_rows))
        return merge_hits(title_rows, message_rows, limit)

    async def _best_messages(self, match: str, limit: int) -> list[Sequence[Any]]:
        """Per session, its best-ranked matching message (with a snippet), best sessions first."""
        best = await self._conn.execute_fetchall(_BEST_MESSAGE_SQL, (match, limit))
        order = [row[1] for row in best]
        if not order:
            return []
        rows = await self._conn.execute_fetchall(
            _SNIPPET_SQL.format(marks=", ".join("?" * len(order))),
            (HIGHLIGHT_START, HIGHLIGHT_END, match, *order),
        )
        by_rowid = {row[0]: row[1:] for row in rows}
        return [by_rowid[rid] for rid in order if rid in by_rowid]
