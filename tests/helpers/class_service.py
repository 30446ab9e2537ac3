"""`FakeClassService`: a trainer's copilot service as the dock's `ClassroomClient` meets it,
over httpx.MockTransport. One exam; its live view (``…/events``) streams what the test pushes;
every request is recorded. The real service is met in tests/service/test_classroom_live.py."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx

from gns3_copilot_desktop.core.chat_service_http import ServiceConnection
from gns3_copilot_desktop.core.classroom_client import ClassroomClient

EXAM_ID = "e1"


class FakeClassService:
    """See the module docstring."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.streams: list[asyncio.Queue[bytes | None]] = []
        self.closed_streams = 0
        self.client = ClassroomClient(
            ServiceConnection(
                "http://service.test",
                lambda: "jwt",
                timeout=10.0,
                transport=httpx.MockTransport(self._answer),
                ca_file=None,
                reconnect_s=0.5,
            )
        )

    project_id = None

    def classroom(self) -> ClassroomClient:
        return self.client

    def push(self, version: int, rows: list[dict[str, Any]]) -> None:
        """An event on the live view opened last."""
        data = json.dumps({"version": version, "exam": {"exam_id": EXAM_ID}, "rows": rows})
        self.streams[-1].put_nowait(f"data: {data}\n\n".encode())

    def end_stream(self) -> None:
        """The service ends the live view opened last (a replica restarting)."""
        self.streams[-1].put_nowait(None)

    async def _answer(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.requests.append(f"{request.method} {path}")
        if path == "/v3/classroom/me":
            return httpx.Response(200, json={"username": "teacher", "trainer": True})
        if path == "/v3/classroom/exams":
            now = time.time()
            exam = {"exam_id": EXAM_ID, "title": "Quiz", "group": "class-a", "students": 1,
                    "starts_at": now - 60, "ends_at": now + 600}  # fmt: skip
            return httpx.Response(200, json=[exam])
        if path == f"/v3/classroom/exams/{EXAM_ID}/events":
            queue: asyncio.Queue[bytes | None] = asyncio.Queue()
            self.streams.append(queue)
            return httpx.Response(
                200, headers={"Content-Type": "text/event-stream"}, content=self._body(queue)
            )
        return httpx.Response(404, json={"message": "Not found."})

    async def _body(self, queue: asyncio.Queue[bytes | None]) -> AsyncIterator[bytes]:
        try:
            while (piece := await queue.get()) is not None:
                yield piece
        finally:
            self.closed_streams += 1
