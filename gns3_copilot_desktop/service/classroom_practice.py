"""Practice through the trainer's service: the same tasks, but the student checks their fix as
often as they like and may give up, which restores their lab and shows them the answer.

An exercise of kind ``practice`` is started as an exam task is (injected with the student's own
login, proved before the clock starts). **Check** runs the task's checks and answers their
results; when every check passes the attempt is recorded as solved, with its score. **Give up**
runs the task's undo lines on the student's lab with the student's login, records the attempt
(score 0, "gave up") and answers the task's answer key to that student only. Nothing here works
in an exam (its checks run once, at Submit).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.practice.task_checks import score
from gns3_copilot_desktop.service.auth import Caller
from gns3_copilot_desktop.service.classroom import (
    STALE_GRADING_S,
    Classroom,
    attempt_key,
    student_checks,
)
from gns3_copilot_desktop.service.classroom_store import Attempt, ExamRecord
from gns3_copilot_desktop.service.classroom_views import answers
from gns3_copilot_desktop.service.errors import HttpError

_log = logging.getLogger(__name__)
SOLVED, GAVE_UP = "solved", "gave up"


class ServicePractice:
    """Check and give up, for the practice exercises of a `Classroom`."""

    def __init__(self, room: Classroom) -> None:
        self._room = room

    async def _practice(self, caller: Caller, exam_id: str, task_id: str) -> ExamRecord:
        exam = await self._room.student_exam(caller, exam_id, task_id)
        if exam.kind != "practice":
            raise HttpError(409, "In an exam the checks run once, when you submit.")
        return exam

    async def check(
        self, caller: Caller, exam_id: str, task_id: str
    ) -> tuple[list[dict[str, object]], Attempt]:
        """The task's checks on the student's lab now; every check passing ends the exercise
        as solved (recorded with its score)."""
        await self._practice(caller, exam_id, task_id)
        attempt = await self._room.running_attempt(caller, exam_id, task_id)
        task = await self._room.task(task_id)
        async with self._room.client_for(caller) as client:
            runner = self._room.runner(client, attempt.project_id)
            results = await runner.check(task)
        checks = student_checks(task, results)
        key = attempt_key(attempt)
        if all(r.state == "pass" for r in results) and await self._room.store.take_for_grading(
            key, time.time() - STALE_GRADING_S
        ):
            await self._room.store.graded(key, checks, score(results), late=False, note=SOLVED)
        done = await self._room.store.attempt(key)
        assert done is not None
        return checks, done

    async def give_up(
        self, caller: Caller, exam_id: str, task_id: str
    ) -> tuple[Attempt, list[dict[str, Any]], str]:
        """Restore the student's lab with the task's undo lines, record the attempt, and the
        answer key for this student; the third item says when the lab could not be restored."""
        await self._practice(caller, exam_id, task_id)
        attempt = await self._room.running_attempt(caller, exam_id, task_id)
        key = attempt_key(attempt)
        if not await self._room.store.take_for_grading(key, time.time() - STALE_GRADING_S):
            raise HttpError(409, "This exercise has ended already.")
        task = await self._room.task(task_id)
        problem = ""
        async with self._room.client_for(caller) as client:
            runner = self._room.runner(client, attempt.project_id)
            try:
                await runner.undo(task)
            except CopilotError as exc:
                problem = exc.user_message
                _log.info("giving up: the lab could not be restored (%s)", type(exc).__name__)
        await self._room.store.graded(key, [], 0, late=False, note=GAVE_UP)
        done = await self._room.store.attempt(key)
        assert done is not None
        return done, answers(task), problem
