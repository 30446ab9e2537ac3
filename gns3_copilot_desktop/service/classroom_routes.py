"""The classroom's routes, beside the Chat API's::

    POST /v3/classroom/login                    {"username", "password"} -> GNS3's token (the page)
    GET  /v3/classroom/me                       {"username", "trainer"}
    POST /v3/classroom/tasks                    trainer: {"name", "text"} (a task file, TOML)
    GET  /v3/classroom/tasks                    trainer: the tasks with their answers
    POST /v3/classroom/exams                    trainer: {"title", "task_ids", "group",
                                                "duration_min", "assist", "kind"?, "starts_at"?}
    GET  /v3/classroom/exams                    the caller's exams (a trainer: every exam)
    GET  /v3/classroom/exams/{exam}             one exam, the caller's attempts in it
    POST /v3/classroom/exams/{exam}/tasks/{task}/start    student: {"project_id"}
    POST /v3/classroom/exams/{exam}/tasks/{task}/hint     student
    POST /v3/classroom/exams/{exam}/tasks/{task}/submit   student (an exam: once)
    POST /v3/classroom/exams/{exam}/tasks/{task}/check    student (practice: any time)
    POST /v3/classroom/exams/{exam}/tasks/{task}/give-up  student (practice: restore, answer)
    GET  /v3/classroom/exams/{exam}/results     trainer: ?format=json|csv
    GET  /v3/classroom/exams/{exam}/events      trainer: the results, live (Server-Sent Events:
                                                one on connecting, one per change; see
                                                `classroom_events`)
    POST /v3/classroom/exams/{exam}/collect     trainer: grade attempts whose time is over (the
                                                students whose lab GNS3 lets the trainer's login
                                                read; the others are named in "unreadable")
    POST /v3/classroom/exams/{exam}/release     trainer: students may now see the answers
    GET  /classroom                             the class page (HTML; its script asks the API)

A student is 404 for an exam of another group and 403 for a trainer's route.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.paths import resource_path
from gns3_copilot_desktop.core.practice.task import MAX_TASK_BYTES, Task
from gns3_copilot_desktop.service.classroom import Classroom, ExamPlan
from gns3_copilot_desktop.service.classroom_events import EventStream, StreamSlots, exam_events
from gns3_copilot_desktop.service.classroom_practice import ServicePractice
from gns3_copilot_desktop.service.classroom_store import ExamRecord
from gns3_copilot_desktop.service.classroom_views import (
    answers,
    attempt_view,
    exam_view,
    result_rows,
    to_csv,
)
from gns3_copilot_desktop.service.errors import HttpError
from gns3_copilot_desktop.service.requests import MAX_ID_CHARS, canonical_project_id, parse_body

PREFIX = "/v3/classroom"
_ID = Field(min_length=1, max_length=MAX_ID_CHARS, pattern=r"^[A-Za-z0-9-]+$")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class TaskUpload(_Body):
    name: str = Field(min_length=1, max_length=200)
    text: str = Field(min_length=1, max_length=MAX_TASK_BYTES)


class ExamCreate(_Body):
    title: str = Field(min_length=3, max_length=200)
    task_ids: list[str] = Field(min_length=1, max_length=20)
    group: str = Field(min_length=1, max_length=100)
    duration_min: int = Field(ge=1, le=600)
    assist: Literal["off", "hints", "tutor"] = "off"
    kind: Literal["exam", "practice"] = "exam"
    starts_at: float | None = Field(default=None, ge=0, allow_inf_nan=False)


class StartRequest(_Body):
    project_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)


class LoginRequest(_Body):
    username: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=500)


def _classroom(request: Request) -> Classroom:
    classroom: Classroom = request.app.state.chat.classroom
    return classroom


async def _caller(request: Request) -> Any:
    return await request.app.state.chat.auth.caller(request.headers.get("authorization"))


def _path_id(request: Request, name: str) -> str:
    value: str = request.path_params[name]
    if len(value) > MAX_ID_CHARS or not value.replace("-", "").isalnum():
        raise HttpError(404, f"No {name.removesuffix('_id')} {value[:40]!r}.")
    return value


async def _tasks_of(classroom: Classroom, task_ids: list[str]) -> dict[str, Task]:
    return {tid: await classroom.task(tid) for tid in task_ids}


async def login(request: Request) -> Response:
    """The class page's login: GNS3 checks the password; the token goes back to the page only."""
    body: LoginRequest = await parse_body(request, LoginRequest)
    url = request.app.state.chat.config.gns3_url
    async with Gns3Client(url) as client:
        token = await client.authenticate(body.username, body.password)
    return JSONResponse({"access_token": token.access_token}, headers={"Cache-Control": "no-store"})


async def me(request: Request) -> Response:
    caller = await _caller(request)
    trainer = await _classroom(request).is_trainer(caller)
    return JSONResponse({"username": caller.username, "trainer": trainer})


async def add_task(request: Request) -> Response:
    caller = await _caller(request)
    body: TaskUpload = await parse_body(request, TaskUpload)
    record, task = await _classroom(request).add_task(caller, body.text, body.name)
    return JSONResponse(
        {"task_id": record.task_id, "title": task.title, "points": task.total_points},
        status_code=201,
    )


async def list_tasks(request: Request) -> Response:
    caller = await _caller(request)
    classroom = _classroom(request)
    await classroom.require_trainer(caller)
    out = []
    for record in await classroom.store.tasks():
        task = await classroom.task(record.task_id)
        out.append(
            {
                "task_id": record.task_id,
                "title": task.title,
                "ticket": task.ticket,
                "points": task.total_points,
                "checks": [c.title for c in task.checks],
                "answers": answers(task),
                "created_by": record.created_by,
            }
        )
    return JSONResponse(out)


async def open_exam(request: Request) -> Response:
    caller = await _caller(request)
    body: ExamCreate = await parse_body(request, ExamCreate)
    classroom = _classroom(request)
    plan = ExamPlan(
        body.title,
        body.task_ids,
        body.group,
        body.starts_at if body.starts_at is not None else time.time(),
        body.duration_min,
        body.assist,
        body.kind,
    )
    exam = await classroom.open_exam(caller, plan)
    tasks = await _tasks_of(classroom, exam.task_ids)
    return JSONResponse(exam_view(exam, tasks, [], trainer=True), status_code=201)


async def list_exams(request: Request) -> Response:
    caller = await _caller(request)
    classroom = _classroom(request)
    exams, trainer = await classroom.exams_for(caller)
    out = []
    for exam in exams:
        tasks = await _tasks_of(classroom, exam.task_ids)
        mine = await classroom.store.attempts(exam.exam_id, caller.user_id)
        out.append(exam_view(exam, tasks, mine, trainer=trainer))
    return JSONResponse(out)


async def get_exam(request: Request) -> Response:
    caller = await _caller(request)
    classroom = _classroom(request)
    exam, trainer = await classroom.exam_for(caller, _path_id(request, "exam_id"))
    tasks = await _tasks_of(classroom, exam.task_ids)
    mine = await classroom.store.attempts(exam.exam_id, caller.user_id)
    return JSONResponse(exam_view(exam, tasks, mine, trainer=trainer))


async def start(request: Request) -> Response:
    caller = await _caller(request)
    body: StartRequest = await parse_body(request, StartRequest)
    try:
        project_id = canonical_project_id(body.project_id)
    except ValueError as exc:
        raise HttpError(422, f"The {exc}.") from None
    attempt = await _classroom(request).start(
        caller, _path_id(request, "exam_id"), _path_id(request, "task_id"), project_id
    )
    return JSONResponse(attempt_view(attempt))


async def hint(request: Request) -> Response:
    caller = await _caller(request)
    text, left = await _classroom(request).hint(
        caller, _path_id(request, "exam_id"), _path_id(request, "task_id")
    )
    return JSONResponse({"hint": text, "left": left})


async def submit(request: Request) -> Response:
    caller = await _caller(request)
    attempt = await _classroom(request).submit(
        caller, _path_id(request, "exam_id"), _path_id(request, "task_id")
    )
    return JSONResponse(attempt_view(attempt))


def _practice(request: Request) -> ServicePractice:
    return ServicePractice(_classroom(request))


async def check(request: Request) -> Response:
    caller = await _caller(request)
    checks, attempt = await _practice(request).check(
        caller, _path_id(request, "exam_id"), _path_id(request, "task_id")
    )
    return JSONResponse({"checks": checks, "attempt": attempt_view(attempt)})


async def give_up(request: Request) -> Response:
    caller = await _caller(request)
    attempt, key, problem = await _practice(request).give_up(
        caller, _path_id(request, "exam_id"), _path_id(request, "task_id")
    )
    return JSONResponse({"attempt": attempt_view(attempt), "answers": key, "problem": problem})


async def _trainers_exam(request: Request) -> tuple[Any, ExamRecord, dict[str, Task]]:
    """The caller and the exam of a trainer's route (403 for a student, then 404 for none)."""
    caller = await _caller(request)
    classroom = _classroom(request)
    await classroom.require_trainer(caller)
    exam, _trainer = await classroom.exam_for(caller, _path_id(request, "exam_id"))
    return caller, exam, await _tasks_of(classroom, exam.task_ids)


async def results(request: Request) -> Response:
    _who, exam, tasks = await _trainers_exam(request)
    classroom = _classroom(request)
    rows = result_rows(exam, tasks, await classroom.store.attempts(exam.exam_id))
    kind = request.query_params.get("format", "json")
    if kind == "csv":
        name = f"results-{exam.exam_id[:8]}.csv"
        return Response(
            to_csv(rows),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
    if kind != "json":
        raise HttpError(422, "format is json or csv.")
    return JSONResponse({"exam": exam_view(exam, tasks, [], trainer=True), "rows": rows})


async def events(request: Request) -> Response:
    caller, exam, tasks = await _trainers_exam(request)
    classroom = _classroom(request)
    state = request.app.state
    if not hasattr(state, "classroom_streams"):
        state.classroom_streams = StreamSlots()
    slots: StreamSlots = state.classroom_streams
    give_back = slots.take(caller.user_id)
    heartbeat_s = state.chat.config.heartbeat_interval_s
    header = request.headers.get("authorization")

    async def still_a_trainer() -> bool:
        """The login still works and is still a trainer's (a token that ended, or a trainer
        taken out of the group, ends the stream; the page's reconnect then hears why)."""
        try:
            again = await state.chat.auth.caller(header)
        except CopilotError:
            return False
        return bool(again.user_id == caller.user_id and await classroom.is_trainer(again))

    body = exam_events(classroom, exam, tasks, heartbeat_s=heartbeat_s, allowed=still_a_trainer)
    return EventStream(body, give_back)


async def collect(request: Request) -> Response:
    caller = await _caller(request)
    graded, unreadable = await _classroom(request).collect(caller, _path_id(request, "exam_id"))
    return JSONResponse({"graded": graded, "unreadable": unreadable})


async def release(request: Request) -> Response:
    caller = await _caller(request)
    await _classroom(request).release(caller, _path_id(request, "exam_id"))
    return Response(status_code=204)


_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


async def page(request: Request) -> Response:
    name = request.path_params.get("asset", "page.html")
    kinds = {"page.html": "text/html", "page.js": "text/javascript", "page.css": "text/css"}
    if name not in kinds:
        raise HttpError(404, "Not found.")
    text = resource_path("classroom", name).read_text(encoding="utf-8")
    return Response(text, media_type=f"{kinds[name]}; charset=utf-8", headers=_PAGE_HEADERS)


def classroom_routes() -> list[Route]:
    exam = f"{PREFIX}/exams/{{exam_id}}"
    task = f"{exam}/tasks/{{task_id}}"
    return [
        Route(f"{PREFIX}/login", login, methods=["POST"]),
        Route(f"{PREFIX}/me", me, methods=["GET"]),
        Route(f"{PREFIX}/tasks", add_task, methods=["POST"]),
        Route(f"{PREFIX}/tasks", list_tasks, methods=["GET"]),
        Route(f"{PREFIX}/exams", open_exam, methods=["POST"]),
        Route(f"{PREFIX}/exams", list_exams, methods=["GET"]),
        Route(exam, get_exam, methods=["GET"]),
        Route(f"{task}/start", start, methods=["POST"]),
        Route(f"{task}/hint", hint, methods=["POST"]),
        Route(f"{task}/submit", submit, methods=["POST"]),
        Route(f"{task}/check", check, methods=["POST"]),
        Route(f"{task}/give-up", give_up, methods=["POST"]),
        Route(f"{exam}/results", results, methods=["GET"]),
        Route(f"{exam}/events", events, methods=["GET"]),
        Route(f"{exam}/collect", collect, methods=["POST"]),
        Route(f"{exam}/release", release, methods=["POST"]),
        Route("/classroom", page, methods=["GET"]),
        Route("/classroom/{asset}", page, methods=["GET"]),
    ]
