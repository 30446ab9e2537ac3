"""A trainer's live view of one exam: ``GET /v3/classroom/exams/{exam}/events``.

Server-Sent Events, each ``data: {"version", "exam", "rows"}`` with what the results route
answers, sent on connecting and then each time the exam's results change; a ``: ping`` comment
every `heartbeat_s` of silence keeps proxies from closing the stream.

How a change is noticed: every change of an exam's results counts in that exam's version in
the transaction that makes it (`ClassroomStore.version`). A stream reads its exam's version
when the process that serves it made a change (at once) or every `POLL_S` (a change through
another replica on the same PostgreSQL). That is one primary-key read a second per open
stream, and the same code on SQLite and PostgreSQL; LISTEN/NOTIFY would need a connection held
per replica outside the pool for a gain of under a second.

A stream only ever reads its own exam (the id checked before the first byte), and an event
whose exam and rows are what the last one said is not sent. The caller's login and trainer
role are asked again every `RECHECK_S`: a token that ended or a trainer taken out of the group
ends the stream. A caller has at most
`MAX_STREAMS_PER_CALLER` streams open (a page left open in many tabs): one more is 429.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from gns3_copilot_desktop.core.practice.task import Task
from gns3_copilot_desktop.service.classroom import Classroom
from gns3_copilot_desktop.service.classroom_store import ExamRecord
from gns3_copilot_desktop.service.classroom_views import exam_view, result_rows
from gns3_copilot_desktop.service.errors import HttpError

POLL_S = 1.0
"""How often a stream reads its exam's version (a change made through another replica)."""
RECHECK_S = 30.0
"""How often a stream asks again whether its caller is still a trainer (the login cache's
lifetime: the answer is fresh each time)."""
MAX_STREAMS_PER_CALLER = 4
TOO_MANY_TEXT = (
    "The class is open live in {count} places already for this login: close one of them."
)


class StreamSlots:
    """How many live streams each caller has open."""

    def __init__(self, limit: int = MAX_STREAMS_PER_CALLER) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def take(self, user_id: str) -> Callable[[], None]:
        """A slot for the caller (429 past the limit) and the function that gives it back."""
        count = self._open.get(user_id, 0)
        if count >= self.limit:
            raise HttpError(429, TOO_MANY_TEXT.format(count=count))
        self._open[user_id] = count + 1
        given_back = False

        def give_back() -> None:
            nonlocal given_back
            if given_back:
                return
            given_back = True
            left = self._open[user_id] - 1
            if left:
                self._open[user_id] = left
            else:
                del self._open[user_id]

        return give_back


class EventStream(StreamingResponse):
    """A Server-Sent Events response that calls ``on_close`` however it ends (the client
    leaving cancels it), even when its body was never started."""

    def __init__(self, body: AsyncIterator[bytes], on_close: Callable[[], None]) -> None:
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        super().__init__(body, media_type="text/event-stream", headers=headers)
        self._on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()


async def exam_events(
    classroom: Classroom,
    exam: ExamRecord,
    tasks: dict[str, Task],
    *,
    heartbeat_s: float,
    allowed: Callable[[], Awaitable[bool]],
    poll_s: float = POLL_S,
    recheck_s: float = RECHECK_S,
) -> AsyncIterator[bytes]:
    """The exam's results now and at each change; a comment after `heartbeat_s` of silence;
    the end once ``allowed`` says no (asked every `recheck_s`)."""
    store = classroom.store
    last: Any = None
    quiet_since = checked = time.monotonic()
    seen = -1
    while True:
        if time.monotonic() - checked >= recheck_s:
            if not await allowed():
                return
            checked = time.monotonic()
        signal = store.change_signal()  # before the read: a change made meanwhile wakes us
        version = await store.version(exam.exam_id)
        if version != seen:
            seen = version
            current = await store.exam(exam.exam_id) or exam
            attempts = await store.attempts(exam.exam_id)
            view = {
                "exam": exam_view(current, tasks, [], trainer=True),
                "rows": result_rows(current, tasks, attempts),
            }
            if view != last:
                last = view
                quiet_since = time.monotonic()
                text = json.dumps({"version": version, **view}, ensure_ascii=False)
                yield f"data: {text}\n\n".encode()
        if time.monotonic() - quiet_since >= heartbeat_s:
            quiet_since = time.monotonic()
            yield b": ping\n\n"
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(poll_s):
                await signal.wait()
