"""The classroom's records on SQLite and on a real PostgreSQL: one submission wins however many
arrive at once, an attempt whose injection failed is forgotten, a cut-off grading can be taken
again only once it is stale; the results table and its CSV (formulas kept as text)."""

from __future__ import annotations

import asyncio
import csv
import io
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.practice.task import parse_task
from gns3_copilot_desktop.service.classroom_store import (
    GRADING,
    INJECTING,
    RUNNING,
    SUBMITTED,
    Attempt,
    ClassroomStore,
    ExamRecord,
)
from gns3_copilot_desktop.service.classroom_views import result_rows, to_csv
from tests.helpers.classroom import TASK

pytestmark = pytest.mark.asyncio


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_server").dsn)
    return "sqlite"


@pytest_asyncio.fixture
async def store(database: str, tmp_path: Path) -> AsyncIterator[ClassroomStore]:
    opened = await ClassroomStore.open(database, tmp_path)
    try:
        yield opened
    finally:
        await opened.close()


def _exam(roster: dict[str, str]) -> ExamRecord:
    now = time.time()
    return ExamRecord(
        uuid.uuid4().hex, "Quiz", ["t1"], "class-a", roster, now, now + 600, "off", False,
        "admin", now,
    )  # fmt: skip


def _attempt(exam: ExamRecord, user_id: str, name: str) -> Attempt:
    now = time.time()
    return Attempt(exam.exam_id, "t1", user_id, name, "p-" + user_id, "", now, now + 60, None, 0,
                   total=100)  # fmt: skip


async def test_one_submission_wins_and_a_failed_start_is_forgotten(store: ClassroomStore) -> None:
    exam = _exam({"u1": "ann"})
    await store.add_exam(exam)
    assert (await store.exam(exam.exam_id)) == exam
    attempt = _attempt(exam, "u1", "ann")
    key = (exam.exam_id, "t1", "u1")
    assert await store.begin(attempt)
    assert not await store.begin(attempt), "a second start while the first injects"
    assert (await store.attempt(key)).status == INJECTING  # type: ignore[union-attr]
    await store.drop(key)
    assert await store.attempt(key) is None
    assert await store.begin(attempt)
    await store.started(key, time.time(), time.time() + 60)
    assert [a.status for a in await store.running_in("u1", "p-u1")] == [RUNNING]
    # two hint requests that read the same count: one takes that hint, none is charged twice
    taken = await asyncio.gather(*(store.take_hint(key, 0) for _ in range(6)))
    assert sorted(taken) == [False] * 5 + [True]
    assert await store.take_hint(key, 1) and not await store.take_hint(key, 1)
    assert (await store.attempt(key)).hints_used == 2  # type: ignore[union-attr]

    taken = await asyncio.gather(*(store.take_for_grading(key, 0.0) for _ in range(8)))
    assert sorted(taken) == [False] * 7 + [True]
    assert (await store.attempt(key)).status == GRADING  # type: ignore[union-attr]
    # a grading cut off by a killed process is taken again only once it is stale
    assert not await store.take_for_grading(key, time.time() - 300)
    assert await store.take_for_grading(key, time.time() + 1)
    # a grading that could not read the lab records nothing: the attempt runs on, once more
    await store.back_to_running(key)
    back = await store.attempt(key)
    assert back is not None and back.status == RUNNING and back.submitted_at is None
    assert back.hints_used == 2 and back.score is None
    assert await store.take_for_grading(key, 0.0)
    checks = [{"title": "c", "state": "pass", "message": "ok", "points": 100}]
    await store.graded(key, checks, 100, late=False, note="")
    await store.back_to_running(key)  # submitted: a result never runs again
    await store.graded(key, [], 0, late=True, note="again")  # not grading any more: no change
    done = await store.attempt(key)
    assert done is not None and done.status == SUBMITTED and done.score == 100
    assert done.checks == checks and not done.late
    assert await store.running_in("u1", "p-u1") == []
    assert not await store.take_hint(key, 2)  # submitted: no more hints
    assert (await store.attempt(key)).hints_used == 2  # type: ignore[union-attr]


async def test_a_change_counts_in_its_own_exams_version_on_every_replica(
    store: ClassroomStore, database: str, tmp_path: Path
) -> None:
    """What the trainer's live stream reads: each change of an exam's results bumps that exam's
    version (not another's), and a second replica on the same database reads it at once."""
    replica = await ClassroomStore.open(database, tmp_path)
    try:
        exam, other = _exam({"u1": "ann"}), _exam({"u1": "ann"})
        for made in (exam, other):
            await store.add_exam(made)
        key = (exam.exam_id, "t1", "u1")
        assert await replica.version(exam.exam_id) == 0
        signal = store.change_signal()
        assert await store.begin(_attempt(exam, "u1", "ann"))
        assert signal.is_set(), "this process's streams are woken at once"
        assert await replica.version(exam.exam_id) == 1
        await replica.started(key, time.time(), time.time() + 60)  # through the other replica
        assert await store.version(exam.exam_id) == 2
        assert not await store.take_hint(key, 5), "no such hint"
        assert await store.version(exam.exam_id) == 2, "nothing changed: nothing counted"
        assert await store.take_for_grading(key, 0.0)
        await replica.graded(key, [], 0, late=False, note="")
        await store.release(other.exam_id)
        assert [await replica.version(e.exam_id) for e in (exam, other)] == [4, 1]
    finally:
        await replica.close()


async def test_results_list_every_student_and_the_csv_keeps_formulas_as_text(
    store: ClassroomStore,
) -> None:
    exam = _exam({"u1": "ann", "u2": '=HYPERLINK("x")'})
    await store.add_exam(exam)
    key = (exam.exam_id, "t1", "u1")
    await store.begin(_attempt(exam, "u1", "ann"))
    await store.started(key, 1_700_000_000.0, 1_700_000_600.0)
    await store.take_for_grading(key, 0.0)
    checks = [{"title": "@SUM(A1)", "state": "fail", "message": "-1+1", "points": 0}]
    await store.graded(key, checks, 0, late=False, note="")
    task = parse_task(TASK)
    rows = result_rows(exam, {"t1": task}, await store.attempts(exam.exam_id))
    assert [(r["student"], r["status"]) for r in rows] == [
        ("=HYPERLINK(\"x\")", "not started"), ("ann", "submitted")
    ]  # fmt: skip
    table = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert table[0]["student"] == '\'=HYPERLINK("x")'
    assert table[1]["started_at"] == "2023-11-14T22:13:20Z"
    assert table[1]["messages"].startswith("'@SUM(A1): fail (-1+1)")
    assert table[1]["checks_total"] == "2" and table[1]["points"] == "100"


async def test_the_per_turn_exam_question_reads_an_index(tmp_path: Path) -> None:
    """Every chat turn asks whether its user takes an exam in its project: SQLite answers it
    from an index, not a scan of every attempt."""
    opened = await ClassroomStore.open("sqlite", tmp_path)
    await opened.close()
    async with aiosqlite.connect(tmp_path / "classroom.db") as conn:
        cursor = await conn.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM classroom_attempts WHERE user_id = ?"
            " AND project_id = ? AND status IN (?, ?)",
            ("u1", "p1", RUNNING, INJECTING),
        )
        plan = " ".join(str(row[-1]) for row in await cursor.fetchall())
    assert "USING INDEX classroom_attempts_by_project" in plan, plan


async def test_a_live_view_ends_once_its_caller_is_no_longer_a_trainer(
    store: ClassroomStore,
) -> None:
    """The stream asks again, on its own timer, whether its caller may still watch: a token
    that ended or a trainer taken out of the group ends it, however quiet the exam is."""
    from types import SimpleNamespace

    from gns3_copilot_desktop.service.classroom_events import exam_events

    exam = _exam({"u1": "alice"})
    await store.add_exam(exam)
    answers = iter([True, False])
    asked: list[bool] = []

    async def allowed() -> bool:
        asked.append(next(answers))
        return asked[-1]

    room: Any = SimpleNamespace(store=store)
    events = exam_events(
        room, exam, {"t1": parse_task(TASK)}, heartbeat_s=60, allowed=allowed,
        poll_s=0.01, recheck_s=0.05,
    )  # fmt: skip
    received = []
    async with asyncio.timeout(10):
        async for event in events:
            received.append(event)
    assert asked == [True, False]
    assert len(received) == 1 and received[0].startswith(b"data: "), received
