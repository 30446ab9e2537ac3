"""The transcript and search half of `PostgresSessionStore`: appending messages (distinct
sequence numbers under concurrent appends), reading them back, and full-text search in the
project's sessions (PostgreSQL's ``simple`` configuration, the user's words quoted)."""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Sequence
from typing import Any

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
from gns3_copilot_desktop.core.sessions.search import MAX_WORDS

_MESSAGE_COLUMNS = (
    "seq, message_id AS id, role, content, name, tool_call_id,"
    " coalesce(tool_calls, '[]'::jsonb) AS tool_calls,"
    " coalesce(metadata, '{}'::jsonb) AS metadata, created_at"
)


_APPEND_ROW = (
    "(%s::int, %s::text, %s::text, %s::text, %s::text, %s::text, %s::jsonb, %s::jsonb, %s::text)"
)
_APPEND = """
WITH reserved AS (
    UPDATE copilot_sessions SET updated_at = %s, last_seq = last_seq + %s
    WHERE project_id = %s AND thread_id = %s
    RETURNING thread_id, last_seq
)
INSERT INTO copilot_transcript (thread_id, seq, message_id, role, content, name, tool_call_id,
    tool_calls, metadata, created_at)
SELECT r.thread_id, r.last_seq - %s + v.ord, v.message_id, v.role, v.content, v.name,
    v.tool_call_id, v.tool_calls, v.metadata, v.created_at
FROM reserved r CROSS JOIN (VALUES {values}) AS v(ord, message_id, role, content, name,
    tool_call_id, tool_calls, metadata, created_at)
RETURNING seq
"""
"""Appends messages in one statement: the session's row reserves their sequence numbers
(``last_seq``, incremented under the row's lock, so concurrent appends get distinct ones) and
they are inserted; none when the session is not this project's."""
_RESYNC = (
    "UPDATE copilot_sessions SET last_seq = (SELECT coalesce(max(seq), 0)"
    " FROM copilot_transcript WHERE thread_id = %s) WHERE thread_id = %s"
)
"""``last_seq`` caught up with the transcript (a replica of an older version appends without
it: its next reserved number is taken, and the append is tried again)."""
LAST_SEQ_MIGRATION = (
    "ALTER TABLE copilot_sessions ADD COLUMN IF NOT EXISTS last_seq INTEGER",
    "UPDATE copilot_sessions s SET last_seq = (SELECT coalesce(max(t.seq), 0)"
    " FROM copilot_transcript t WHERE t.thread_id = s.thread_id) WHERE s.last_seq IS NULL",
    "ALTER TABLE copilot_sessions ALTER COLUMN last_seq SET DEFAULT 0",
)
"""Adds ``last_seq`` to a database made before it (run once, under the schema's lock)."""


def tsquery_text(text: str) -> str | None:
    """A ``to_tsquery('simple', ...)`` expression for what the user typed: every word quoted as
    a lexeme (so ``&``, ``|``, ``!``, ``:``, parentheses are text), ANDed, the last a prefix."""
    words = [w for w in text.split() if any(unicodedata.category(c)[0] in "LNM" for c in w)]
    if not words:
        return None
    lexemes = []
    for word in words[:MAX_WORDS]:
        # what to_tsvector('simple') keeps of it: its letters and digits, lower-cased
        for part in "".join(
            c if unicodedata.category(c)[0] in "LNM" else " " for c in word
        ).split():
            lexemes.append("'" + part.lower().replace("'", "''").replace("\\", "\\\\") + "'")
    if not lexemes:
        return None
    lexemes[-1] += ":*"
    return " & ".join(lexemes)


def pg_error(action: str, exc: Exception) -> SessionStoreError:
    return SessionStoreError(f"Could not {action}: {exc}.")


class PostgresTranscript:
    """Transcript and search for `PostgresSessionStore` (which provides the pool, the project,
    `get_session` and `_select`)."""

    _pool: Any
    project_id: str

    async def get_session(self, sid: str) -> SessionInfo:
        """The session's row (the store's)."""
        raise NotImplementedError

    async def _select(self, action: str, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        """Rows of a query (the store's)."""
        raise NotImplementedError

    async def append_messages(
        self, sid: str, messages: Sequence[TranscriptMessage]
    ) -> list[TranscriptMessage]:
        """Append messages; returns them with their ``seq`` set."""
        if not messages:
            return []
        from psycopg.errors import UniqueViolation

        rows = [message_row(sid, m)[2:] for m in messages]  # without thread_id and seq
        values = ", ".join([_APPEND_ROW] * len(rows))
        params: list[Any] = [time.time(), len(rows), self.project_id, sid, len(rows)]
        params += [v for i, row in enumerate(rows, 1) for v in (i, *row)]
        try:
            async with self._pool.connection() as conn:
                try:
                    cur = await conn.execute(_APPEND.format(values=values), params)
                except UniqueViolation:  # a seq taken without last_seq (an older replica's)
                    await conn.execute(_RESYNC, (sid, sid))
                    cur = await conn.execute(_APPEND.format(values=values), params)
                seqs = sorted(int(r["seq"]) for r in await cur.fetchall())
        except Exception as exc:
            raise pg_error("save the conversation", exc) from exc
        if not seqs:
            raise _not_found(sid)
        return [m.model_copy(update={"seq": seqs[0] + i}) for i, m in enumerate(messages)]

    async def read_transcript(
        self, sid: str, limit: int | None = None, before_seq: int | None = None
    ) -> list[TranscriptMessage]:
        """All messages in order, or the last ``limit`` before ``before_seq``."""
        await self.get_session(sid)  # another project's session is not found here
        sql = f"SELECT {_MESSAGE_COLUMNS} FROM copilot_transcript WHERE thread_id = %s"
        params: list[Any] = [sid]
        if before_seq is not None:
            sql += " AND seq < %s"
            params.append(before_seq)
        sql += " ORDER BY seq DESC LIMIT %s"
        params.append(limit)
        rows = await self._select("read the conversation", sql, params)
        messages = [TranscriptMessage.model_validate(r) for r in rows]
        messages.sort(key=lambda m: m.seq)
        return messages

    async def search(self, query: str, limit: int = 50) -> list[SessionSearchHit]:
        """Titles first, then each session's best message, with a highlighted snippet."""
        match = tsquery_text(query)
        if match is None or limit <= 0:
            return []
        titles = await self._select(
            "search the conversations",
            "SELECT thread_id, title FROM copilot_sessions"
            " WHERE project_id = %s AND title_tsv @@ to_tsquery('simple', %s)"
            " ORDER BY ts_rank(title_tsv, to_tsquery('simple', %s)) DESC, id LIMIT %s",
            (self.project_id, match, match, limit),
        )
        options = (
            f"StartSel={HIGHLIGHT_START}, StopSel={HIGHLIGHT_END}, MaxWords=12, MinWords=4,"
            " ShortWord=1, FragmentDelimiter=…, MaxFragments=1"
        )
        messages = await self._select(
            "search the conversations",
            """
            SELECT best.thread_id, s.title,
                   ts_headline('simple', t.content, to_tsquery('simple', %s), %s) AS snip,
                   t.message_id, t.seq, t.role
            FROM (
                SELECT DISTINCT ON (t.thread_id) t.thread_id, t.id,
                       ts_rank(t.tsv, to_tsquery('simple', %s)) AS rank
                FROM copilot_transcript t JOIN copilot_sessions s ON s.thread_id = t.thread_id
                WHERE s.project_id = %s AND t.tsv @@ to_tsquery('simple', %s)
                ORDER BY t.thread_id, rank DESC, t.id
            ) AS best
            JOIN copilot_transcript t ON t.id = best.id
            JOIN copilot_sessions s ON s.thread_id = best.thread_id
            ORDER BY best.rank DESC, best.id LIMIT %s
            """,
            (match, options, match, self.project_id, match, limit + len(titles)),
        )
        return merge_hits(
            [(r["thread_id"], r["title"]) for r in titles],
            [
                (r["thread_id"], r["title"], r["snip"], r["message_id"], r["seq"], r["role"])
                for r in messages
            ],
            limit,
        )
