"""Server-Sent Events as a copilot service sends them, parsed into the core's chat chunks.

Plain text in, chunks out, with no HTTP here: lines end only where the SSE format says they do,
a line is bounded (`MAX_LINE_CHARS`), and an event that is not a chunk is reported as None rather
than guessed at.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

from gns3_copilot_desktop.core.protocol import ChatChunk

MAX_LINE_CHARS = 16 * 1024 * 1024
"""Longest line of a stream: a service that never ends a line cannot fill the dock's memory."""

_SSE_LINE_END = re.compile(r"\r\n|\r|\n")


class EventTooLargeError(Exception):
    """A stream's line is longer than `MAX_LINE_CHARS`."""


async def sse_lines(
    texts: AsyncIterator[str], max_chars: int = MAX_LINE_CHARS
) -> AsyncIterator[str]:
    """The lines of a Server-Sent Events stream, ended by ``\\r\\n``, ``\\r`` or ``\\n`` only.

    Not `str.splitlines` (nor httpx's line iterator, built on it): U+2028, U+0085 and the other
    Unicode line breaks are text inside an event's JSON, and model or device text holds them.
    """
    pending: list[str] = []  # the start of a line not ended yet, in the pieces it came in
    size = 0
    for_cr = False  # the previous piece ended with \r: a \n that starts this one belongs to it
    async for text in texts:
        if for_cr and text.startswith("\n"):
            text = text[1:]
        for_cr = text.endswith("\r")
        pieces = _SSE_LINE_END.split(text)  # only the new text is scanned: linear in the stream
        if len(pieces) > 1:
            yield "".join(pending) + pieces[0]
            for line in pieces[1:-1]:
                yield line
            pending, size = [], 0
        pending.append(pieces[-1])
        size += len(pieces[-1])
        if size > max_chars:
            raise EventTooLargeError()
    if pending and any(pending):
        yield "".join(pending)


async def sse_data(lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """The ``data`` of each Server-Sent Event (multi-line data joined with newlines).

    Comments (``: ping``), ``event:``/``id:``/``retry:`` fields and empty events are skipped.
    """
    data: list[str] = []
    async for raw in lines:
        line = raw
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)


def parse_chunk(data: str) -> ChatChunk | None:
    """One event's data as a chunk; None when it is not one. Fields this version does not know
    (a newer service) are left out rather than refused."""
    try:
        raw = json.loads(data)
    except ValueError:
        return None
    if not isinstance(raw, dict):
        return None
    known = {k: v for k, v in raw.items() if k in ChatChunk.model_fields}
    try:
        return ChatChunk.model_validate(known)
    except ValueError:
        return None
