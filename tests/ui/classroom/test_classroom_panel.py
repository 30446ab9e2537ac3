"""The Classroom panel without a copilot service, and the service's text shown as text."""

from __future__ import annotations

import asyncio
import time

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.classroom_client import Exam
from gns3_copilot_desktop.ui.classroom.student import StudentExam
from gns3_copilot_desktop.ui.classroom.toggle import ClassroomToggle


class LocalOnly:
    """A backend whose agent runs on this computer: it has no classroom."""

    project_id = None

    def classroom(self) -> None:
        return None


def test_without_a_copilot_service_there_is_no_class_button(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    column = QWidget()
    layout = QVBoxLayout(column)
    qtbot.addWidget(column)
    toggle = ClassroomToggle(LocalOnly(), column, layout, [])
    qtbot.addWidget(toggle)
    column.show()
    assert toggle.isHidden()
    toggle.panel.show()
    qtbot.waitUntil(lambda: "Settings → Copilot service" in toggle.panel.status_label.text())
    assert toggle.panel.exam_combo.isHidden() and toggle.panel.student.isHidden()


def test_the_services_text_is_shown_as_text_and_the_clock_follows_the_state(qtbot: QtBot) -> None:
    now = time.time()
    exam = Exam.model_validate(
        {
            "exam_id": "e1",
            "title": "Quiz",
            "starts_at": now - 10,
            "ends_at": now + 600,
            "assist": "off",
            "tasks": [
                {
                    "task_id": "t1",
                    "title": "<b>bold</b>",
                    "ticket": '<img src="x">PC1 is down',
                    "points": 100,
                    "time_limit_min": 15,
                    "hints": 2,
                }
            ],
            "attempts": [],
        }
    )
    student = StudentExam(lambda _t: None, lambda _t: None, lambda _t: None)
    qtbot.addWidget(student)
    student.show()
    student.show_task(exam, exam.tasks[0])
    assert student.ticket_label.textFormat() == Qt.TextFormat.PlainText
    assert student.ticket_label.text() == '<img src="x">PC1 is down'
    assert student.start_button.isVisible() and student.start_button.isEnabled()
    assert not student.hint_button.isVisible() and not student.submit_button.isVisible()
    running = exam.model_copy(
        update={
            "attempts": [
                Exam.model_validate(
                    {
                        **exam.model_dump(),
                        "attempts": [
                            {
                                "task_id": "t1",
                                "status": "running",
                                "started_at": now,
                                "deadline": now + 90,
                                "points": 100,
                            }
                        ],
                    }
                ).attempts[0]
            ]
        }
    )
    student.show_task(running, running.tasks[0])
    assert student.submit_button.isVisible() and not student.start_button.isVisible()
    assert not student.hint_button.isVisible(), "hints are off in this exam"
    student.refresh_state(running, now)
    assert student.time_label.text() == "1 min 30 s left"
    student.refresh_state(running, now + 200)
    assert student.time_label.text() == "Time is over"
