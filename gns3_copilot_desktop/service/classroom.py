"""The classroom on the trainer's service: tasks, exams for a GNS3 group, students' attempts.

A trainer (a GNS3 administrator, or a member of the service's ``--trainer-group``) adds task
files and opens an exam for a GNS3 group. A student of that group starts a task on their own
GNS3 project: the service injects the task's faults there **with the student's own GNS3
login**, proves the injection (its checks must fail; otherwise it is undone and reported as
"could not inject"), and the clock starts. Submit runs the checks once and records the result;
a second submit, from any replica, is refused with the recorded result. A submit that finds a
check's device stopped or unreachable (the GNS3 server was restarted, the lab is closed) records
nothing and says so: the student starts the lab and submits again, or the end of time collects
the lab as it is. The fault list and the
injected values stay in the service's database: no answer to a student names them until the
trainer releases the answers.

Checks never pass on a device that is gone, stopped or unreachable: that is "cannot-check", worth
nothing (see `core.practice.task_checks`).
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass

from gns3_copilot_desktop.core.devices.console_data import ConsoleOptions
from gns3_copilot_desktop.core.errors import (
    CopilotError,
    Gns3AuthError,
    Gns3NotFoundError,
    Gns3PermissionError,
)
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.practice.task import Task, TaskFileError, parse_task
from gns3_copilot_desktop.core.practice.task_checks import CheckResult, TaskRunner, score
from gns3_copilot_desktop.service.auth import Caller
from gns3_copilot_desktop.service.classroom_store import (
    GRADING,
    RUNNING,
    SUBMITTED,
    Attempt,
    ClassroomStore,
    ExamRecord,
    TaskRecord,
)
from gns3_copilot_desktop.service.console_logins import ServiceLogins
from gns3_copilot_desktop.service.errors import HttpError

_log = logging.getLogger(__name__)

GRACE_S = 60.0
"""A submission this long after the deadline still counts as on time (a slow network)."""
STALE_GRADING_S = 300.0
"""A grading cut off (a replica killed while checking) may be taken again after this."""
ROLE_TTL_S = 30.0
HINT_TRIES = 5
"""How often a hint request reads the count again after another request took that hint."""


@dataclass(frozen=True)
class ExamPlan:
    """What a trainer asks for when opening an exam."""

    title: str
    task_ids: list[str]
    group: str
    starts_at: float
    duration_min: int
    assist: str
    kind: str = "exam"


class Classroom:
    """The classroom's work behind its routes (see the module docstring)."""

    def __init__(
        self,
        store: ClassroomStore,
        gns3_url: str,
        *,
        trainer_group: str | None = None,
        options: ConsoleOptions | None = None,
        logins: ServiceLogins | None = None,
    ) -> None:
        self.store = store
        self.gns3_url = gns3_url
        self._trainer_group = trainer_group
        self.options = options
        self._logins = logins
        self._roles: dict[str, tuple[float, bool]] = {}
        self._tasks: dict[str, Task] = {}

    def client_for(self, caller: Caller) -> Gns3Client:
        return Gns3Client(self.gns3_url, token=caller.token)

    def runner(self, client: Gns3Client, project_id: str) -> TaskRunner:
        """A task runner on a student's project with the caller's GNS3 login and the class's
        console logins (a router's CLI asks for one)."""
        logins = self._logins.for_client(client) if self._logins is not None else None
        return TaskRunner(client, project_id, self.gns3_url, options=self.options, logins=logins)

    # --- who -------------------------------------------------------------------------------

    async def is_trainer(self, caller: Caller) -> bool:
        """A GNS3 administrator, or a member of the trainer group (GNS3 must let them read
        their own groups: the Group.Audit privilege of its "User manager" role)."""
        now = time.monotonic()
        cached = self._roles.get(caller.token_key)
        if cached is not None and cached[0] > now:
            return cached[1]
        trainer = caller.is_superadmin  # the login already told (no second /users/me)
        if not trainer and self._trainer_group:
            async with self.client_for(caller) as client:
                try:
                    groups = await client.user_groups(caller.user_id)
                except Gns3PermissionError:
                    groups = []
            trainer = any(g.name == self._trainer_group for g in groups)
        if len(self._roles) > 1024:
            self._roles.clear()
        self._roles[caller.token_key] = (now + ROLE_TTL_S, trainer)
        return trainer

    async def require_trainer(self, caller: Caller) -> None:
        if not await self.is_trainer(caller):
            raise HttpError(403, "Only a trainer may do this.")

    # --- tasks -----------------------------------------------------------------------------

    async def add_task(self, caller: Caller, text: str, name: str) -> tuple[TaskRecord, Task]:
        await self.require_trainer(caller)
        try:
            task = parse_task(text, name)
        except TaskFileError as exc:
            raise HttpError(422, exc.user_message) from None
        record = TaskRecord(uuid.uuid4().hex, task.title, text, caller.username, time.time())
        await self.store.add_task(record)
        self._tasks[record.task_id] = task
        return record, task

    async def task(self, task_id: str) -> Task:
        if task_id not in self._tasks:
            record = await self.store.task(task_id)
            if record is None:
                raise HttpError(404, f"No task {task_id}.")
            self._tasks[task_id] = parse_task(record.text, record.title)
        return self._tasks[task_id]

    # --- exams -----------------------------------------------------------------------------

    async def open_exam(self, caller: Caller, plan: ExamPlan) -> ExamRecord:
        """An exam for the members of a GNS3 group, as they are now."""
        await self.require_trainer(caller)
        for task_id in plan.task_ids:
            await self.task(task_id)
        async with self.client_for(caller) as client:
            groups = {g.name: g for g in await client.list_groups()}
            if plan.group not in groups:
                raise HttpError(422, f"GNS3 has no user group {plan.group!r}.")
            members = await client.group_members(groups[plan.group].user_group_id)
        if not members:
            raise HttpError(422, f"The group {plan.group!r} has no members.")
        exam = ExamRecord(
            exam_id=uuid.uuid4().hex,
            title=plan.title,
            task_ids=list(plan.task_ids),
            group_name=plan.group,
            roster={m.user_id: m.username for m in members},
            starts_at=plan.starts_at,
            ends_at=plan.starts_at + plan.duration_min * 60.0,
            assist=plan.assist,
            kind=plan.kind,
            released=False,
            created_by=caller.username,
            created_at=time.time(),
        )
        await self.store.add_exam(exam)
        return exam

    async def exam_for(self, caller: Caller, exam_id: str) -> tuple[ExamRecord, bool]:
        """The exam and whether the caller is a trainer; 404 for a student not on its roster
        (an exam of another group does not exist for them)."""
        exam = await self.store.exam(exam_id)
        trainer = await self.is_trainer(caller)
        if exam is None or not (trainer or caller.user_id in exam.roster):
            raise HttpError(404, f"No exam {exam_id}.")
        return exam, trainer

    async def exams_for(self, caller: Caller) -> tuple[list[ExamRecord], bool]:
        trainer = await self.is_trainer(caller)
        exams = await self.store.exams()
        return [e for e in exams if trainer or caller.user_id in e.roster], trainer

    async def release(self, caller: Caller, exam_id: str) -> None:
        await self.require_trainer(caller)
        await self.exam_for(caller, exam_id)
        await self.store.release(exam_id)

    # --- a student's attempt ---------------------------------------------------------------

    async def student_exam(self, caller: Caller, exam_id: str, task_id: str) -> ExamRecord:
        exam, _trainer = await self.exam_for(caller, exam_id)
        if caller.user_id not in exam.roster:
            raise HttpError(403, "Only a student of the exam's group takes it.")
        if task_id not in exam.task_ids:
            raise HttpError(404, f"No task {task_id} in this exam.")
        return exam

    async def start(self, caller: Caller, exam_id: str, task_id: str, project_id: str) -> Attempt:
        """Inject the task into the student's project and start the clock (once)."""
        exam = await self.student_exam(caller, exam_id, task_id)
        now = time.time()
        if not exam.is_open(now):
            raise HttpError(409, "The exam is not open now.")
        key = (exam_id, task_id, caller.user_id)
        existing = await self.store.attempt(key)
        if existing is not None:
            if existing.project_id != project_id:
                raise HttpError(409, "You started this task in another project.")
            return existing
        task = await self.task(task_id)
        async with self.client_for(caller) as client:
            await client.get_project(project_id)  # the student's own login must see it
            begun = Attempt(
                exam_id, task_id, caller.user_id, caller.username, project_id, "", now,
                now, None, 0, total=task.total_points,
            )  # fmt: skip
            if not await self.store.begin(begun):
                raise HttpError(409, "This task is being started already.")
            try:
                await self._inject_and_prove(client, project_id, task)
            except BaseException:
                await self.store.drop(key)
                raise
        started = time.time()
        deadline = min(exam.ends_at, started + task.time_limit_min * 60.0)
        await self.store.started(key, started, deadline)
        attempt = await self.store.attempt(key)
        assert attempt is not None
        return attempt

    async def _inject_and_prove(self, client: Gns3Client, project_id: str, task: Task) -> None:
        runner = self.runner(client, project_id)
        try:
            await runner.inject(task)
            results = await runner.check(task)
        except TaskFileError as exc:
            await self.undo_quietly(runner, task)
            raise HttpError(409, f"Could not inject the task: {exc.user_message}") from None
        problem = None
        if any(r.state == "cannot-check" for r in results):
            problem = "a check cannot read its device in your lab"
        elif not any(r.state == "fail" for r in results):
            problem = "every check still passes with the fault in (is this the task's lab?)"
        if problem is not None:
            await self.undo_quietly(runner, task)
            raise HttpError(409, f"Could not inject the task: {problem}. Nothing was changed.")

    @staticmethod
    async def undo_quietly(runner: TaskRunner, task: Task) -> None:
        try:
            await runner.undo(task)
        except CopilotError as exc:
            _log.warning("undoing a task that could not be injected failed: %s", type(exc).__name__)

    async def hint(self, caller: Caller, exam_id: str, task_id: str) -> tuple[str, int]:
        """The next hint of the task and how many remain; counted in the attempt."""
        exam = await self.student_exam(caller, exam_id, task_id)
        if exam.assist == "off":
            raise HttpError(403, "Hints are off in this exam.")
        hints = (await self.task(task_id)).hints
        for _ in range(HINT_TRIES):
            attempt = await self.running_attempt(caller, exam_id, task_id)
            used = attempt.hints_used
            if used >= len(hints):
                raise HttpError(409, "There are no more hints for this task.")
            if await self.store.take_hint(attempt_key(attempt), used):
                return hints[used], len(hints) - used - 1
        raise HttpError(409, "Hints were asked for faster than they could be given: ask again.")

    async def running_attempt(self, caller: Caller, exam_id: str, task_id: str) -> Attempt:
        attempt = await self.store.attempt((exam_id, task_id, caller.user_id))
        if attempt is None:
            raise HttpError(409, "You have not started this task.")
        if attempt.status != RUNNING:
            raise HttpError(409, "This task is submitted: its result cannot change.")
        return attempt

    async def submit(self, caller: Caller, exam_id: str, task_id: str) -> Attempt:
        """Run the checks once and record the result; the result never changes afterwards."""
        exam = await self.student_exam(caller, exam_id, task_id)
        if exam.kind != "exam":
            raise HttpError(409, "This is practice: check your fix, or give up to see the answer.")
        attempt = await self.running_attempt(caller, exam_id, task_id)
        return await self.grade(self.client_for(caller), attempt, note="", unreadable_final=False)

    async def collect(self, caller: Caller, exam_id: str) -> tuple[int, list[str]]:
        """Grade, with the trainer's login, every attempt whose time is over and that was not
        submitted (a student who closed the dock); how many were graded, and the students whose
        lab that login cannot read (left as they are: a result is final, so a lab the trainer
        cannot see is never graded as zero)."""
        await self.require_trainer(caller)
        await self.exam_for(caller, exam_id)
        now = time.time()
        graded, unreadable = 0, []
        for attempt in await self.store.attempts(exam_id):
            over = attempt.status == RUNNING and now > attempt.deadline
            cut = attempt.status == GRADING and (attempt.submitted_at or 0) < now - STALE_GRADING_S
            if not (over or cut):
                continue
            if not await self.can_read(caller, attempt.project_id):
                unreadable.append(attempt.username)
                continue
            await self.grade(self.client_for(caller), attempt, note="collected at end of time")
            graded += 1
        return graded, unreadable

    async def can_read(self, caller: Caller, project_id: str) -> bool:
        """Whether GNS3 lets the caller read the project (a trainer of a group GNS3 gave no
        right on the students' projects cannot)."""
        async with self.client_for(caller) as client:
            try:
                await client.get_project(project_id)
            except (Gns3AuthError, Gns3PermissionError, Gns3NotFoundError):
                return False
        return True

    async def grade(
        self, client: Gns3Client, attempt: Attempt, *, note: str, unreadable_final: bool = True
    ) -> Attempt:
        """Run the checks and record the result. ``unreadable_final`` false (a student's own
        submit): when a check cannot read its device, nothing is recorded and the attempt runs
        on (a final zero for a lab the GNS3 server's restart stopped would lose the work)."""
        key = attempt_key(attempt)
        if not await self.store.take_for_grading(key, time.time() - STALE_GRADING_S):
            raise HttpError(409, "This task is submitted: its result cannot change.")
        task = await self.task(attempt.task_id)
        late = time.time() > attempt.deadline + GRACE_S and not note
        async with client:
            runner = self.runner(client, attempt.project_id)
            try:
                results = await runner.check(task)
            except CopilotError as exc:
                results = [
                    CheckResult(c.title, "cannot-check", exc.user_message, 0) for c in task.checks
                ]
        unread = [r for r in results if r.state == "cannot-check"]
        if unread and not unreadable_final:
            await self.store.back_to_running(key)
            why = "; ".join(dict.fromkeys(r.message for r in unread))
            raise HttpError(
                409,
                f"Nothing was recorded: {len(unread)} of {len(results)} checks cannot read "
                f"your lab ({why}). Start your lab and submit again; at the end of time it is "
                "collected as it is.",
            )
        checks = student_checks(task, results)
        await self.store.graded(key, checks, score(results), late=late, note=note)
        done = await self.store.attempt(key)
        assert done is not None and done.status == SUBMITTED
        return done

    async def assist_in(self, caller: Caller, project_id: str) -> tuple[str, str] | None:
        """While the caller takes an exam in this project: (the exam's title, its assist
        setting), else None."""
        for attempt in await self.store.running_in(caller.user_id, project_id):
            exam = await self.store.exam(attempt.exam_id)
            if exam is not None and time.time() < attempt.deadline + GRACE_S:
                return exam.title, exam.assist
        return None


def attempt_key(attempt: Attempt) -> tuple[str, str, str]:
    return (attempt.exam_id, attempt.task_id, attempt.user_id)


def student_checks(task: Task, results: list[CheckResult]) -> list[dict[str, object]]:
    """The checks' results as a student may read them: the trainer's words, never the check's
    condition (which would be the answer)."""
    return [
        {
            "title": r.title,
            "state": r.state,
            "message": r.message if r.state != "fail" or c.on_fail else "does not pass",
            "points": r.points,
        }
        for c, r in zip(task.checks, results, strict=True)
    ]
