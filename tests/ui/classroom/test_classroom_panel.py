"""The Classroom panel without a copilot service, the service's text shown as text, and a
trainer's table following what the service pushes (no poll)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from PyQt6.QtCore import Qt, QTimer
from PyQt6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.classroom_client import Exam
from gns3_copilot_desktop.ui.classroom import panel as panel_module
from gns3_copilot_desktop.ui.classroom.panel import ClassroomPanel
from gns3_copilot_desktop.ui.classroom.student import StudentExam
from gns3_copilot_desktop.ui.classroom.toggle import ClassroomToggle
from gns3_copilot_desktop.ui.qt_async import pending_tasks
from tests.helpers.class_service import FakeClassService


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


def _row(status: str, score: int | None = None) -> dict[str, Any]:
    return {"student": "ann", "task": "PC1 moved", "task_id": "t1", "status": status,
            "score": score, "points": 100}  # fmt: skip


def test_the_trainers_table_follows_what_the_service_pushes_and_stops_when_hidden(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(panel_module, "RECONNECT_FIRST_S", 0.05)
    service = FakeClassService()
    panel = ClassroomPanel(service)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: len(service.streams) == 1 and panel.table.isVisible())
    table = panel.table.table
    service.push(1, [_row("running")])
    qtbot.waitUntil(lambda: table.rowCount() == 1 and _cell(table, 1) == "working")
    service.push(2, [_row("submitted", 80)])
    qtbot.waitUntil(lambda: _cell(table, 2) == "80 / 100")
    assert panel.table.summary_label.text() == "1 of 1 submitted"
    # the service ends the stream (a replica restarting): the panel opens it again
    service.end_stream()
    qtbot.waitUntil(lambda: len(service.streams) == 2)
    service.push(3, [_row("submitted", 90)])
    qtbot.waitUntil(lambda: _cell(table, 2) == "90 / 100")
    assert not [r for r in service.requests if r.endswith("/results")], "the table polled"
    assert {t.interval() for t in panel.findChildren(QTimer)} <= {1000}, "a reload timer"

    live = panel.live_task
    assert live is not None
    panel.hide()  # hidden: nothing is read any more
    qtbot.waitUntil(lambda: live.done() and service.closed_streams == 2)
    panel.show()
    qtbot.waitUntil(lambda: len(service.streams) == 3)
    live = panel.live_task
    assert live is not None
    panel.close()
    qtbot.waitUntil(lambda: live.done() and service.closed_streams == 3)
    assert not [t for t in pending_tasks() if t.get_name() == "class-live"]


def _cell(table: Any, column: int) -> str:
    item = table.item(0, column)
    return "" if item is None else str(item.text())
