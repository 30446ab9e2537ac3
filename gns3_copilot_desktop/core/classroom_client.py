"""The classroom of a trainer's copilot service, as the dock calls it (``/v3/classroom``).

A student lists the exams of their GNS3 group, starts a task in their own project, asks for a
hint and submits; a trainer reads the class's results and exports them. The answers come typed;
what the service adds later is ignored, not refused. Errors are the project's own (see
`chat_service_http`): 403 `Gns3PermissionError` for a trainer's route, 409 `CopilotServiceError`
with the service's sentence ("This task is submitted: its result cannot change.").
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any, Literal, TypeVar

import httpx
from pydantic import BaseModel, ConfigDict, Field

from gns3_copilot_desktop.core.chat_service_http import (
    LOST_TEXT,
    TOO_LARGE_TEXT,
    ServiceConnection,
    transport_reason,
)
from gns3_copilot_desktop.core.chat_service_sse import EventTooLargeError, sse_data, sse_lines
from gns3_copilot_desktop.core.errors import CopilotServiceError

PREFIX = "/v3/classroom"
UNREADABLE_TEXT = "The copilot service sent a classroom answer the dock cannot read."
LIVE_READ_TIMEOUT_S = 60.0
"""Longest silence on a live view: the service sends a heartbeat every 15 s, so a connection
quiet for this long is gone (a laptop that slept) and is opened again."""


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class CheckOutcome(_Answer):
    title: str
    state: str
    message: str = ""
    points: int = 0


class ExamTask(_Answer):
    """A task as a student reads it (the ticket, never the faults)."""

    task_id: str
    title: str
    ticket: str
    level: str = ""
    time_limit_min: int = 0
    points: int = 0
    hints: int = 0
    answers: list[dict[str, Any]] | None = None
    """The answer key: a trainer's view, or a student's once the trainer released it."""


class ExamAttempt(_Answer):
    task_id: str
    status: str
    started_at: float
    deadline: float
    submitted_at: float | None = None
    hints_used: int = 0
    points: int = 0
    score: int | None = None
    late: bool = False
    note: str = ""
    """How an exercise ended: "solved", "gave up", "collected at end of time" or ""."""
    checks: list[CheckOutcome] = Field(default_factory=list)


class Exam(_Answer):
    exam_id: str
    title: str
    group: str = ""
    starts_at: float
    ends_at: float
    assist: str = "off"
    kind: str = "exam"
    """``exam`` (Submit once) or ``practice`` (Check any time, Give up for the answer)."""
    released: bool = False
    tasks: list[ExamTask] = Field(default_factory=list)
    attempts: list[ExamAttempt] = Field(default_factory=list)
    students: int | None = None

    def attempt(self, task_id: str) -> ExamAttempt | None:
        return next((a for a in self.attempts if a.task_id == task_id), None)


class ResultRow(_Answer):
    """One student and task of an exam, as a trainer sees it."""

    student: str
    task: str
    task_id: str
    status: str
    started_at: float | None = None
    submitted_at: float | None = None
    minutes: float | None = None
    checks_passed: int = 0
    checks_total: int = 0
    hints_used: int = 0
    score: int | None = None
    points: int = 0
    late: bool = False
    checks: list[CheckOutcome] = Field(default_factory=list)


class LiveResults(_Answer):
    """One event of a trainer's live view: the exam's results after a change."""

    version: int
    rows: list[ResultRow]


_A = TypeVar("_A", bound=_Answer)


def _read(model: type[_A], data: Any) -> _A:
    try:
        return model.model_validate(data)
    except ValueError as exc:
        raise CopilotServiceError(UNREADABLE_TEXT) from exc


class ClassroomClient:
    """The classroom routes of one copilot service, over the dock's connection to it."""

    def __init__(self, connection: ServiceConnection) -> None:
        self._connection = connection

    async def me(self) -> tuple[str, bool]:
        """The caller's GNS3 user name and whether the service takes them for a trainer."""
        answer = await self._connection.json("GET", f"{PREFIX}/me")
        if not isinstance(answer, dict):
            raise CopilotServiceError(UNREADABLE_TEXT)
        return str(answer.get("username", "")), answer.get("trainer") is True

    async def exams(self) -> list[Exam]:
        """The caller's exams (a trainer: every exam), each with the caller's attempts."""
        answer = await self._connection.json("GET", f"{PREFIX}/exams")
        if not isinstance(answer, list):
            raise CopilotServiceError(UNREADABLE_TEXT)
        return [_read(Exam, e) for e in answer]

    def _task(self, exam_id: str, task_id: str, action: str) -> str:
        return f"{PREFIX}/exams/{exam_id}/tasks/{task_id}/{action}"

    async def start(self, exam_id: str, task_id: str, project_id: str) -> ExamAttempt:
        """Start a task in the caller's project: the service injects it and starts the clock."""
        answer = await self._connection.json(
            "POST", self._task(exam_id, task_id, "start"), json={"project_id": project_id}
        )
        return _read(ExamAttempt, answer)

    async def hint(self, exam_id: str, task_id: str) -> tuple[str, int]:
        """The next hint and how many are left."""
        answer = await self._connection.json("POST", self._task(exam_id, task_id, "hint"))
        if not isinstance(answer, dict) or not isinstance(answer.get("hint"), str):
            raise CopilotServiceError(UNREADABLE_TEXT)
        return answer["hint"], int(answer.get("left", 0))

    async def submit(self, exam_id: str, task_id: str) -> ExamAttempt:
        """Run the checks once and record the result."""
        answer = await self._connection.json("POST", self._task(exam_id, task_id, "submit"))
        return _read(ExamAttempt, answer)

    async def check(self, exam_id: str, task_id: str) -> list[CheckOutcome]:
        """Practice: the checks on the caller's lab now (all passing ends it as solved)."""
        answer = await self._connection.json("POST", self._task(exam_id, task_id, "check"))
        if not isinstance(answer, dict) or not isinstance(answer.get("checks"), list):
            raise CopilotServiceError(UNREADABLE_TEXT)
        return [_read(CheckOutcome, c) for c in answer["checks"]]

    async def give_up(self, exam_id: str, task_id: str) -> str:
        """Practice: restore the caller's lab and end the exercise; what went wrong restoring
        it ("" when nothing did). The answer comes with the exam from then on."""
        answer = await self._connection.json("POST", self._task(exam_id, task_id, "give-up"))
        if not isinstance(answer, dict):
            raise CopilotServiceError(UNREADABLE_TEXT)
        return str(answer.get("problem") or "")

    async def results(self, exam_id: str) -> list[ResultRow]:
        """A trainer's view: every student and task of the exam."""
        answer = await self._connection.json("GET", f"{PREFIX}/exams/{exam_id}/results")
        if not isinstance(answer, dict) or not isinstance(answer.get("rows"), list):
            raise CopilotServiceError(UNREADABLE_TEXT)
        return [_read(ResultRow, r) for r in answer["rows"]]

    async def live_results(self, exam_id: str) -> AsyncIterator[LiveResults]:
        """A trainer's live view of the exam: its results now, then after each change, until
        the service ends the stream (the iterator ends: open it again). A connection lost or
        an unreadable event raises `CopilotServiceError`; 403 and 404 as `results` does."""
        response = await self._connection.open_stream(
            f"{PREFIX}/exams/{exam_id}/events", None, read_timeout=LIVE_READ_TIMEOUT_S
        )
        try:
            async for data in sse_data(sse_lines(response.aiter_text())):
                try:
                    raw = json.loads(data)
                except ValueError as exc:
                    raise CopilotServiceError(UNREADABLE_TEXT) from exc
                yield _read(LiveResults, raw)
        except httpx.TransportError as exc:
            raise CopilotServiceError(LOST_TEXT.format(reason=transport_reason(exc))) from exc
        except EventTooLargeError as exc:
            raise CopilotServiceError(TOO_LARGE_TEXT) from exc
        finally:
            await response.aclose()

    async def export(self, exam_id: str, fmt: Literal["csv", "json"]) -> str:
        """The exam's results as the service exports them, for an LMS."""
        return await self._connection.text(
            "GET", f"{PREFIX}/exams/{exam_id}/results", params={"format": fmt}
        )

    async def add_task(self, name: str, text: str) -> str:
        """Upload a task file (a trainer); its id on the service."""
        answer = await self._connection.json(
            "POST", f"{PREFIX}/tasks", json={"name": name, "text": text}
        )
        if not isinstance(answer, dict) or not isinstance(answer.get("task_id"), str):
            raise CopilotServiceError(UNREADABLE_TEXT)
        return str(answer["task_id"])
