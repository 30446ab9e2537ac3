"""Where exercises are kept: a small SQLite file of their own, apart from the sessions.

The sealed answer (which faults were injected, where, and how to undo them) is written here and
nowhere else: never into a session's checkpoint, transcript or export, so the model that talks
with the learner cannot receive it. `ExerciseRecord.sealed` is the only field that holds it, and
it is written encrypted (AES-GCM) with a key derived from this installation's key in the OS
keyring (`sealing_key`): copying the file, or reading it with any SQLite tool, shows the
exercise's level, times and score but not its faults. Someone who can read this user's keyring
can open it; only a trainer's service that never sends the answer can keep it from them.
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.platform import detect_platform
from gns3_copilot_desktop.core.secrets import SecretStore

ExerciseStatus = Literal["planned", "cancelled", "active", "solved", "given_up"]
_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS practice_exercises (
    exercise_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS practice_by_project ON practice_exercises (project_id, created_at);
"""


class PracticeError(CopilotError):
    """An exercise cannot be prepared, found or moved on (the text says why)."""


class InjectedFault(BaseModel):
    """One fault as injected: the sealed part of an exercise."""

    model_config = ConfigDict(extra="forbid")
    fault_id: str
    title: str
    platform: str
    node: str | None = None
    """The node the fault is on (None for a link fault)."""
    link_id: str | None = None
    link_name: str | None = None
    devices: list[str] = Field(default_factory=list)
    params: dict[str, str] = Field(default_factory=dict)
    node_ids: dict[str, str] = Field(default_factory=dict)
    """The GNS3 ids of the fault's nodes when it was injected: a node deleted and made again,
    or brought back by a snapshot (which renews ids), is not the one the fault is on."""


class ExerciseRecord(BaseModel):
    """Everything about one exercise. ``sealed`` is the answer; `public` leaves it out."""

    model_config = ConfigDict(extra="forbid")
    exercise_id: str
    project_id: str
    session_id: str
    difficulty: str
    topic: str | None = None
    fault_count: int
    status: ExerciseStatus = "planned"
    created_at: datetime
    started_at: datetime | None = None
    ended_at: datetime | None = None
    snapshot_id: str | None = None
    snapshot_name: str | None = None
    started_nodes: list[str] = Field(default_factory=list)
    """(Kept so records of earlier versions, which took a snapshot, still read.)"""
    ticket: str = ""
    """What the learner hears first ("PC1 cannot reach PC2 since this morning"): public."""
    hints_used: int = 0
    checks_run: int = 0
    score: int | None = None
    sealed: list[InjectedFault] = Field(default_factory=list)
    imported: bool = False
    """Prepared by a trainer and imported from an exercise file (waits for a Practice session)."""

    @property
    def ended(self) -> bool:
        """Whether the answer may be shown (solved or given up)."""
        return self.status in ("solved", "given_up")

    def public(self) -> ExerciseRecord:
        """The record without the answer, unless the exercise ended."""
        return self if self.ended else self.model_copy(update={"sealed": []})


_SEALED = TypeAdapter(list[InjectedFault])
_BOX = "sealed_box"
_INFO = b"gns3-copilot-desktop practice store sealing key v1"


async def sealing_key(secrets_store: SecretStore) -> bytes:
    """The key that seals answers in this installation's practice stores: derived from the
    installation's key in the OS keyring, so it never sits in a file."""
    root = await secrets_store.database_key()
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(root)


class ExerciseStore:
    """The exercises of every project of one database file; answers sealed with ``key``."""

    def __init__(self, path: Path, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("the practice store needs a 32-byte key")
        self._path = path
        self._aead = AESGCM(key)
        self._lock = asyncio.Lock()
        self._ready = False

    def _seal(self, record: ExerciseRecord) -> str:
        data = record.model_dump(mode="json", exclude={"sealed"})
        nonce = secrets.token_bytes(12)
        plain = _SEALED.dump_json(record.sealed)
        box = nonce + self._aead.encrypt(nonce, plain, record.exercise_id.encode())
        data[_BOX] = base64.b64encode(box).decode()
        return json.dumps(data)

    def _open(self, text: str) -> ExerciseRecord:
        data = json.loads(text)
        box = base64.b64decode(data.pop(_BOX, "") or b"")
        record = ExerciseRecord.model_validate(data)
        if box:
            try:
                plain = self._aead.decrypt(box[:12], box[12:], record.exercise_id.encode())
            except InvalidTag as exc:
                raise PracticeError(
                    "This exercise was sealed by another installation of GNS3 Copilot (or its "
                    "keyring was reset): its answer cannot be read here."
                ) from exc
            record.sealed = _SEALED.validate_json(plain)
        return record

    async def save(self, record: ExerciseRecord) -> None:
        """Insert or replace an exercise."""
        text = self._seal(record)

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT OR REPLACE INTO practice_exercises VALUES (?, ?, ?, ?, ?)",
                (
                    record.exercise_id,
                    record.project_id,
                    record.session_id,
                    text,
                    record.created_at.isoformat(),
                ),
            )

        await self._run(write)

    async def get(self, exercise_id: str) -> ExerciseRecord:
        """One exercise; `PracticeError` when there is none."""

        def read(conn: sqlite3.Connection) -> Any:
            return conn.execute(
                "SELECT record FROM practice_exercises WHERE exercise_id = ?", (exercise_id,)
            ).fetchone()

        row = await self._run(read)
        if row is None:
            raise PracticeError(f"There is no exercise {exercise_id}.")
        return self._open(row[0])

    async def list_for_project(self, project_id: str) -> list[ExerciseRecord]:
        """The project's exercises, newest first (answers included: for the engine)."""

        def read(conn: sqlite3.Connection) -> Any:
            return conn.execute(
                "SELECT record FROM practice_exercises WHERE project_id = ? "
                "ORDER BY created_at DESC",
                (project_id,),
            ).fetchall()

        return [self._open(r[0]) for r in await self._run(read)]

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        async with self._lock:
            return await asyncio.to_thread(self._in_thread, work)

    def _in_thread(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        if not self._ready:
            detect_platform().private_file(self._path)
        conn = sqlite3.connect(self._path)
        try:
            if not self._ready:
                conn.executescript(_SCHEMA)
                self._ready = True
            with conn:
                return work(conn)
        finally:
            conn.close()


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)
