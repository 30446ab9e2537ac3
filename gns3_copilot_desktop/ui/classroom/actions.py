"""What a student does in the Classroom panel: start, hint, check, give up, submit. One action
runs at a time; the student's part is disabled meanwhile and the panel shows the outcome (an
error stays shown after the refresh that follows)."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QLabel

from gns3_copilot_desktop.core.classroom_client import ClassroomClient, Exam
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.ui.classroom.questions import ClassroomQuestions
from gns3_copilot_desktop.ui.classroom.student import StudentExam
from gns3_copilot_desktop.ui.qt_async import spawn


class StudentActions(ClassroomQuestions):
    """The student's actions of `ClassroomPanel` (which provides what is declared here)."""

    _backend: object
    _busy: bool
    student: StudentExam
    status_label: QLabel

    def _client(self) -> ClassroomClient | None:
        raise NotImplementedError

    def _exam(self) -> Exam | None:
        raise NotImplementedError

    def _error(self, text: str) -> None:
        raise NotImplementedError

    async def refresh(self) -> None:
        raise NotImplementedError

    def _start(self, task_id: str) -> None:
        spawn(self._run(self._do_start(task_id)), name="exam-start")

    def _hint(self, task_id: str) -> None:
        spawn(self._run(self._do_hint(task_id)), name="exam-hint")

    def _check(self, task_id: str) -> None:
        spawn(self._run(self._do_check(task_id)), name="exam-check")

    def _give_up(self, task_id: str) -> None:
        spawn(self._run(self._do_give_up(task_id)), name="exam-give-up")

    def _submit(self, task_id: str) -> None:
        spawn(self._run(self._ask_and_submit(task_id)), name="exam-submit")

    async def _run(self, work: Coroutine[Any, Any, None]) -> None:
        if self._busy:
            work.close()
            return
        self._busy = True
        self.student.setEnabled(False)  # one action at a time, and the student sees it
        self._error("")
        try:
            await work
        except CopilotError as exc:
            self._error(exc.user_message)
        finally:
            self._busy = False
            self.student.setEnabled(True)

    async def _do_start(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        project_id = getattr(self._backend, "project_id", None)
        if exam is None or client is None:
            return
        if project_id is None:
            self._error(
                QCoreApplication.translate(
                    "ClassroomPanel",
                    "Open your lab's project in GNS3 first: the task goes into it.",
                )
            )
            return
        self.status_label.setText(
            QCoreApplication.translate(
                "ClassroomPanel", "Starting… the service prepares the task in your lab."
            )
        )
        await client.start(exam.exam_id, task_id, project_id)
        await self.refresh()

    async def _do_hint(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        if exam is None or client is None:
            return
        text, _left = await client.hint(exam.exam_id, task_id)
        self.student.add_hint(text)
        await self.refresh()

    async def _do_check(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        if exam is None or client is None:
            return
        self.student.show_checks(await client.check(exam.exam_id, task_id))
        await self.refresh()

    async def _do_give_up(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        if exam is None or client is None or not await self.ask_give_up():
            return
        problem = await client.give_up(exam.exam_id, task_id)
        await self.refresh()
        self._error(problem)

    async def _ask_and_submit(self, task_id: str) -> None:
        if await self.ask_submit():
            await self._do_submit(task_id)

    async def _do_submit(self, task_id: str) -> None:
        exam, client = self._exam(), self._client()
        if exam is None or client is None:
            return
        self.status_label.setText(
            QCoreApplication.translate("ClassroomPanel", "Checking your lab…")
        )
        try:
            await client.submit(exam.exam_id, task_id)
        finally:
            await self.refresh()  # the result, or the state the service keeps
