"""The classroom's records, in the service's own database: the trainer's tasks, the exams and
every student's attempt (started, injected, submitted, checks, score, hints).

The answer key (a task's faults) is kept here, on the service, and only here: what a student is
sent is built from the fields named in `classroom.student_task`. The same SQL runs on the SQLite
file of a one-process service and on the PostgreSQL database replicas share; a submission is
taken by one conditional update, so two requests submitting the same attempt (through one
replica or two) record one result.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from gns3_copilot_desktop.core.errors import SessionStoreError
from gns3_copilot_desktop.core.platform import detect_platform
from gns3_copilot_desktop.core.sessions.pg_store import is_postgres_url

SCHEMA = """
CREATE TABLE IF NOT EXISTS classroom_tasks (
    task_id TEXT PRIMARY KEY, title TEXT NOT NULL, text TEXT NOT NULL,
    created_by TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS classroom_exams (
    exam_id TEXT PRIMARY KEY, title TEXT NOT NULL, task_ids TEXT NOT NULL,
    group_name TEXT NOT NULL, roster TEXT NOT NULL, starts_at DOUBLE PRECISION NOT NULL,
    ends_at DOUBLE PRECISION NOT NULL, assist TEXT NOT NULL, released INTEGER NOT NULL,
    created_by TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, kind TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS classroom_attempts (
    exam_id TEXT NOT NULL, task_id TEXT NOT NULL, user_id TEXT NOT NULL,
    username TEXT NOT NULL, project_id TEXT NOT NULL, status TEXT NOT NULL,
    started_at DOUBLE PRECISION NOT NULL, deadline DOUBLE PRECISION NOT NULL,
    submitted_at DOUBLE PRECISION, hints_used INTEGER NOT NULL, checks TEXT,
    score INTEGER, total INTEGER NOT NULL, late INTEGER NOT NULL, note TEXT NOT NULL,
    PRIMARY KEY (exam_id, task_id, user_id)
);
CREATE INDEX IF NOT EXISTS classroom_attempts_by_project
    ON classroom_attempts (user_id, project_id);
CREATE TABLE IF NOT EXISTS classroom_exam_versions (
    exam_id TEXT PRIMARY KEY, version INTEGER NOT NULL
)
"""
"""Every chat turn asks whether its user takes an exam in its project (`running_in`): an index,
not a scan of a semester of attempts. An exam's version counts the changes of its results (see
`ClassroomStore.version`); a table of its own, so a database made before it needs no migration."""

_BUMP = (
    "INSERT INTO classroom_exam_versions VALUES (?, 1) ON CONFLICT (exam_id)"
    " DO UPDATE SET version = classroom_exam_versions.version + 1"
)

RUNNING, GRADING, SUBMITTED, INJECTING = "running", "grading", "submitted", "injecting"


@dataclass(frozen=True)
class TaskRecord:
    task_id: str
    title: str
    text: str
    created_by: str
    created_at: float


@dataclass(frozen=True)
class ExamRecord:
    exam_id: str
    title: str
    task_ids: list[str]
    group_name: str
    roster: dict[str, str]
    """GNS3 user id -> user name: the group's members when the exam was opened."""
    starts_at: float
    ends_at: float
    assist: str
    released: bool
    created_by: str
    created_at: float
    kind: str = "exam"
    """``exam`` (submit once) or ``practice`` (check any time, give up to see the answer)."""

    def is_open(self, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        return self.starts_at <= now < self.ends_at


@dataclass(frozen=True)
class Attempt:
    exam_id: str
    task_id: str
    user_id: str
    username: str
    project_id: str
    status: str
    started_at: float
    deadline: float
    submitted_at: float | None
    hints_used: int
    checks: list[dict[str, Any]] = field(default_factory=list)
    score: int | None = None
    total: int = 0
    late: bool = False
    note: str = ""


class _Db(Protocol):
    async def run(self, sql: str, params: tuple[Any, ...] = ()) -> int: ...
    async def change(self, exam_id: str, sql: str, params: tuple[Any, ...]) -> int:
        """Run ``sql``; when it changed a row, bump the exam's version in the same transaction
        (a stream that reads the new version then reads the change, whichever replica made it)."""
        ...

    async def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]: ...
    async def close(self) -> None: ...


class _SqliteDb:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    async def run(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        async with self._lock:
            cursor = await self._conn.execute(sql, params)
            await self._conn.commit()
            return cursor.rowcount

    async def change(self, exam_id: str, sql: str, params: tuple[Any, ...]) -> int:
        async with self._lock:  # sqlite3 opened the transaction at the first statement
            try:
                count = (await self._conn.execute(sql, params)).rowcount
                if count > 0:
                    await self._conn.execute(_BUMP, (exam_id,))
            except BaseException:
                await self._conn.rollback()
                raise
            await self._conn.commit()
            return count

    async def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        async with self._conn.execute(sql, params) as cursor:
            names = [d[0] for d in cursor.description or ()]
            return [dict(zip(names, row, strict=True)) for row in await cursor.fetchall()]

    async def close(self) -> None:
        await self._conn.close()


class _PostgresDb:
    def __init__(self, pool: Any) -> None:
        self._pool = pool

    async def run(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(sql.replace("?", "%s"), params)
            return int(cursor.rowcount)

    async def change(self, exam_id: str, sql: str, params: tuple[Any, ...]) -> int:
        async with self._pool.connection() as conn, conn.transaction():
            cursor = await conn.execute(sql.replace("?", "%s"), params)
            count = int(cursor.rowcount)
            if count > 0:
                await conn.execute(_BUMP.replace("?", "%s"), (exam_id,))
            return count

    async def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(sql.replace("?", "%s"), params)
            return [dict(r) for r in await cursor.fetchall()]

    async def close(self) -> None:
        await self._pool.close()


async def _open_postgres(dsn: str) -> _PostgresDb:
    from psycopg.rows import dict_row
    from psycopg_pool import AsyncConnectionPool

    pool: Any = AsyncConnectionPool(
        dsn,
        min_size=1,
        max_size=4,
        open=False,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
    await pool.open(wait=True, timeout=15)
    async with pool.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (0x6E55,))
        for statement in filter(str.strip, SCHEMA.split(";")):
            await conn.execute(statement)
    return _PostgresDb(pool)


async def _open_sqlite(data_dir: Path) -> _SqliteDb:
    path = data_dir / "classroom.db"
    await asyncio.to_thread(detect_platform().private_file, path)
    conn = await aiosqlite.connect(path)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.executescript(SCHEMA)
    await conn.commit()
    return _SqliteDb(conn)


class ClassroomStore:
    """Tasks, exams and attempts (see the module docstring)."""

    def __init__(self, db: _Db) -> None:
        self._db = db
        self._changed = asyncio.Event()

    async def _change(self, exam_id: str, sql: str, params: tuple[Any, ...]) -> int:
        count = await self._db.change(exam_id, sql, params)
        if count > 0:  # wake this process's streams now; other replicas' read the version
            self._changed.set()
            self._changed = asyncio.Event()
        return count

    # --- changes ---------------------------------------------------------------------------

    async def version(self, exam_id: str) -> int:
        """How often the exam's results changed (0: never), through any replica: each change
        counts in the transaction that makes it."""
        rows = await self._db.rows(
            "SELECT version FROM classroom_exam_versions WHERE exam_id = ?", (exam_id,)
        )
        return int(rows[0]["version"]) if rows else 0

    def change_signal(self) -> asyncio.Event:
        """Set at the next change this process makes (take it before reading the version: a
        change made in between is then not missed)."""
        return self._changed

    @classmethod
    async def open(cls, database: str, data_dir: Path) -> ClassroomStore:
        try:
            if is_postgres_url(database):
                return cls(await _open_postgres(database))
            return cls(await _open_sqlite(data_dir))
        except Exception as exc:
            raise SessionStoreError(f"Could not open the classroom's records: {exc}.") from exc

    async def close(self) -> None:
        await self._db.close()

    # --- tasks -----------------------------------------------------------------------------

    async def add_task(self, record: TaskRecord) -> None:
        await self._db.run(
            "INSERT INTO classroom_tasks VALUES (?, ?, ?, ?, ?)",
            (record.task_id, record.title, record.text, record.created_by, record.created_at),
        )

    async def tasks(self) -> list[TaskRecord]:
        rows = await self._db.rows("SELECT * FROM classroom_tasks ORDER BY created_at")
        return [TaskRecord(**r) for r in rows]

    async def task(self, task_id: str) -> TaskRecord | None:
        rows = await self._db.rows("SELECT * FROM classroom_tasks WHERE task_id = ?", (task_id,))
        return TaskRecord(**rows[0]) if rows else None

    # --- exams -----------------------------------------------------------------------------

    async def add_exam(self, exam: ExamRecord) -> None:
        await self._db.run(
            "INSERT INTO classroom_exams VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                exam.exam_id,
                exam.title,
                json.dumps(exam.task_ids),
                exam.group_name,
                json.dumps(exam.roster),
                exam.starts_at,
                exam.ends_at,
                exam.assist,
                int(exam.released),
                exam.created_by,
                exam.created_at,
                exam.kind,
            ),
        )

    async def exams(self) -> list[ExamRecord]:
        rows = await self._db.rows("SELECT * FROM classroom_exams ORDER BY created_at")
        return [_exam(r) for r in rows]

    async def exam(self, exam_id: str) -> ExamRecord | None:
        rows = await self._db.rows("SELECT * FROM classroom_exams WHERE exam_id = ?", (exam_id,))
        return _exam(rows[0]) if rows else None

    async def release(self, exam_id: str) -> None:
        await self._change(
            exam_id, "UPDATE classroom_exams SET released = 1 WHERE exam_id = ?", (exam_id,)
        )

    # --- attempts --------------------------------------------------------------------------

    async def begin(self, attempt: Attempt) -> bool:
        """Record an attempt being injected; False when the student already has one."""
        return (
            await self._change(
                attempt.exam_id,
                "INSERT INTO classroom_attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, NULL,"
                " NULL, ?, 0, '') ON CONFLICT DO NOTHING",
                (
                    attempt.exam_id,
                    attempt.task_id,
                    attempt.user_id,
                    attempt.username,
                    attempt.project_id,
                    INJECTING,
                    attempt.started_at,
                    attempt.deadline,
                    attempt.total,
                ),
            )
            == 1
        )

    async def started(self, key: tuple[str, str, str], started_at: float, deadline: float) -> None:
        """The injection is verified: the clock starts now."""
        await self._change(
            key[0],
            "UPDATE classroom_attempts SET status = ?, started_at = ?, deadline = ?"
            " WHERE exam_id = ? AND task_id = ? AND user_id = ?",
            (RUNNING, started_at, deadline, *key),
        )

    async def drop(self, key: tuple[str, str, str]) -> None:
        """Forget an attempt whose injection failed (the student may start again)."""
        await self._change(
            key[0],
            "DELETE FROM classroom_attempts WHERE exam_id = ? AND task_id = ? AND user_id = ?"
            " AND status = ?",
            (*key, INJECTING),
        )

    async def take_for_grading(self, key: tuple[str, str, str], stale_before: float) -> bool:
        """Take a running attempt (or one whose grading was cut off before ``stale_before``)
        for grading; only one request wins."""
        return (
            await self._change(
                key[0],
                "UPDATE classroom_attempts SET status = ?, submitted_at = ?"
                " WHERE exam_id = ? AND task_id = ? AND user_id = ?"
                " AND (status = ? OR (status = ? AND submitted_at < ?))",
                (GRADING, time.time(), *key, RUNNING, GRADING, stale_before),
            )
            == 1
        )

    async def graded(
        self,
        key: tuple[str, str, str],
        checks: list[dict[str, Any]],
        score: int,
        *,
        late: bool,
        note: str,
    ) -> None:
        await self._change(
            key[0],
            "UPDATE classroom_attempts SET status = ?, checks = ?, score = ?, late = ?, note = ?"
            " WHERE exam_id = ? AND task_id = ? AND user_id = ? AND status = ?",
            (SUBMITTED, json.dumps(checks), score, int(late), note, *key, GRADING),
        )

    async def back_to_running(self, key: tuple[str, str, str]) -> None:
        """A grading that recorded nothing (the lab could not be read): the attempt runs on."""
        await self._db.run(
            "UPDATE classroom_attempts SET status = ?, submitted_at = NULL"
            " WHERE exam_id = ? AND task_id = ? AND user_id = ? AND status = ?",
            (RUNNING, *key, GRADING),
        )

    async def take_hint(self, key: tuple[str, str, str], seen: int) -> bool:
        """Count hint number ``seen`` (0-based) as used, only if the attempt still runs and had
        used ``seen`` hints: of two requests that read the same count, one takes that hint and
        the other reads again (neither is charged for a hint it was not given)."""
        return (
            await self._change(
                key[0],
                "UPDATE classroom_attempts SET hints_used = hints_used + 1"
                " WHERE exam_id = ? AND task_id = ? AND user_id = ? AND status = ?"
                " AND hints_used = ?",
                (*key, RUNNING, seen),
            )
            == 1
        )

    async def attempt(self, key: tuple[str, str, str]) -> Attempt | None:
        rows = await self._db.rows(
            "SELECT * FROM classroom_attempts WHERE exam_id = ? AND task_id = ? AND user_id = ?",
            key,
        )
        return _attempt(rows[0]) if rows else None

    async def attempts(self, exam_id: str, user_id: str | None = None) -> list[Attempt]:
        sql = "SELECT * FROM classroom_attempts WHERE exam_id = ?"
        params: tuple[Any, ...] = (exam_id,)
        if user_id is not None:
            sql += " AND user_id = ?"
            params += (user_id,)
        rows = await self._db.rows(sql + " ORDER BY username, task_id", params)
        return [_attempt(r) for r in rows]

    async def running_in(self, user_id: str, project_id: str) -> list[Attempt]:
        rows = await self._db.rows(
            "SELECT * FROM classroom_attempts WHERE user_id = ? AND project_id = ?"
            " AND status IN (?, ?)",
            (user_id, project_id, RUNNING, INJECTING),
        )
        return [_attempt(r) for r in rows]


def _exam(row: dict[str, Any]) -> ExamRecord:
    return ExamRecord(
        exam_id=row["exam_id"],
        title=row["title"],
        task_ids=list(json.loads(row["task_ids"])),
        group_name=row["group_name"],
        roster=dict(json.loads(row["roster"])),
        starts_at=float(row["starts_at"]),
        ends_at=float(row["ends_at"]),
        assist=row["assist"],
        released=bool(row["released"]),
        created_by=row["created_by"],
        created_at=float(row["created_at"]),
        kind=row["kind"],
    )


def _attempt(row: dict[str, Any]) -> Attempt:
    return Attempt(
        exam_id=row["exam_id"],
        task_id=row["task_id"],
        user_id=row["user_id"],
        username=row["username"],
        project_id=row["project_id"],
        status=row["status"],
        started_at=float(row["started_at"]),
        deadline=float(row["deadline"]),
        submitted_at=None if row["submitted_at"] is None else float(row["submitted_at"]),
        hints_used=int(row["hints_used"]),
        checks=list(json.loads(row["checks"])) if row["checks"] else [],
        score=None if row["score"] is None else int(row["score"]),
        total=int(row["total"]),
        late=bool(row["late"]),
        note=row["note"],
    )
