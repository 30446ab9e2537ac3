"""What the classroom's routes answer: a student's view of an exam (never the faults before the
answers are released), a trainer's results table, and its CSV for an LMS.

Every field a student is sent is named here; a task's faults appear only in `answers`, which the
routes send to a student after the trainer released them.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

from gns3_copilot_desktop.core.practice.task import Task
from gns3_copilot_desktop.service.classroom_store import SUBMITTED, Attempt, ExamRecord

CSV_COLUMNS = (
    "student",
    "task",
    "status",
    "started_at",
    "submitted_at",
    "minutes",
    "checks_passed",
    "checks_total",
    "hints_used",
    "score",
    "points",
    "late",
    "messages",
)


def student_task(task_id: str, task: Task) -> dict[str, Any]:
    """A task as a student reads it: the ticket, never the faults."""
    return {
        "task_id": task_id,
        "title": task.title,
        "ticket": task.ticket,
        "level": task.level,
        "time_limit_min": task.time_limit_min,
        "points": task.total_points,
        "hints": len(task.hints),
    }


def attempt_view(attempt: Attempt) -> dict[str, Any]:
    """A student's attempt: its state and, once submitted, the checks' results."""
    view: dict[str, Any] = {
        "task_id": attempt.task_id,
        "status": attempt.status,
        "started_at": attempt.started_at,
        "deadline": attempt.deadline,
        "submitted_at": attempt.submitted_at,
        "hints_used": attempt.hints_used,
        "points": attempt.total,
        "note": attempt.note,
    }
    if attempt.status == SUBMITTED:
        view.update(score=attempt.score, late=attempt.late, checks=attempt.checks)
    return view


def answers(task: Task) -> list[dict[str, Any]]:
    """The answer key: every fault's device, the lines that injected it and those that undo it."""
    key: list[dict[str, Any]] = []
    for fault in task.faults:
        item: dict[str, Any] = {"device": fault.device, "inject": fault.inject, "undo": fault.undo}
        if fault.catalog is not None:
            item.update(catalog=fault.catalog, params=fault.params)
        key.append(item)
    return key


def exam_view(
    exam: ExamRecord, tasks: dict[str, Task], attempts: list[Attempt], *, trainer: bool
) -> dict[str, Any]:
    view: dict[str, Any] = {
        "exam_id": exam.exam_id,
        "title": exam.title,
        "group": exam.group_name,
        "starts_at": exam.starts_at,
        "ends_at": exam.ends_at,
        "assist": exam.assist,
        "kind": exam.kind,
        "released": exam.released,
        "tasks": [student_task(tid, tasks[tid]) for tid in exam.task_ids],
        "attempts": [attempt_view(a) for a in attempts],
    }
    if trainer:
        view["students"] = len(exam.roster)
    given_up = {a.task_id for a in attempts if exam.kind == "practice" and a.note == "gave up"}
    for item in view["tasks"]:
        if exam.released or trainer or item["task_id"] in given_up:
            item["answers"] = answers(tasks[item["task_id"]])
    return view


def result_rows(
    exam: ExamRecord, tasks: dict[str, Task], attempts: list[Attempt]
) -> list[dict[str, Any]]:
    """One row per student of the roster and task of the exam, not started ones included."""
    by_key = {(a.user_id, a.task_id): a for a in attempts}
    rows: list[dict[str, Any]] = []
    for user_id, username in sorted(exam.roster.items(), key=lambda item: item[1]):
        for task_id in exam.task_ids:
            task = tasks[task_id]
            attempt = by_key.get((user_id, task_id))
            row: dict[str, Any] = {
                "student": username,
                "task": task.title,
                "task_id": task_id,
                "status": "not started" if attempt is None else attempt.status,
                "started_at": None,
                "submitted_at": None,
                "minutes": None,
                "checks_passed": 0,
                "checks_total": len(task.checks),
                "hints_used": 0,
                "score": None,
                "points": task.total_points,
                "late": False,
                "checks": [],
            }
            if attempt is not None:
                row.update(
                    started_at=attempt.started_at,
                    submitted_at=attempt.submitted_at,
                    hints_used=attempt.hints_used,
                    score=attempt.score,
                    late=attempt.late,
                    checks=attempt.checks,
                    checks_passed=sum(c["state"] == "pass" for c in attempt.checks),
                )
                if attempt.submitted_at is not None:
                    minutes = (attempt.submitted_at - attempt.started_at) / 60.0
                    row["minutes"] = round(max(0.0, minutes), 1)
            rows.append(row)
    return rows


def _cell(value: Any) -> str:
    """A CSV cell a spreadsheet shows as text: a leading = + - @ (or tab/CR) would make it a
    formula, so it gets a quote in front."""
    text = "" if value is None else str(value)
    if text and text[0] in "=+-@\t\r":
        return "'" + text
    return text


def _iso(stamp: float | None) -> str:
    if stamp is None:
        return ""
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        messages = "; ".join(f"{c['title']}: {c['state']} ({c['message']})" for c in row["checks"])
        values = {
            **row,
            "messages": messages,
            "late": "yes" if row["late"] else "no",
            "started_at": _iso(row["started_at"]),
            "submitted_at": _iso(row["submitted_at"]),
        }
        writer.writerow([_cell(values[c]) for c in CSV_COLUMNS])
    return out.getvalue()
