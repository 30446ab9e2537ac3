"""Detect a corrupt session database and move it aside, so the app starts with a fresh one.

Only real corruption counts (not a database, malformed image, failed ``quick_check``); a database
that is merely locked by another app instance is left alone. The files are renamed, never deleted.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_SIDECARS = ("-wal", "-shm")
_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100


@dataclass(frozen=True)
class Recovery:
    """What was moved aside and why (shown to the user)."""

    moved_to: Path
    reason: str

    @property
    def message(self) -> str:
        """A sentence for the UI."""
        return (
            f"The conversation database was damaged ({self.reason}). It was moved to "
            f"{self.moved_to} and a new, empty one was created."
        )


def corruption_reason(db_path: Path, busy_timeout_s: float) -> str | None:
    """Why ``db_path`` is unusable, or None when it is healthy, empty or absent.

    The header is read by hand and the check runs on a read-only connection, so a damaged file's
    -wal is not checkpointed into it or deleted before it is moved aside. Blocking: call it in a
    worker thread.
    """
    if not db_path.exists() or db_path.stat().st_size == 0:
        return None
    with db_path.open("rb") as fh:
        header = fh.read(_HEADER_SIZE)
    if len(header) < _HEADER_SIZE or not header.startswith(_MAGIC):
        return "file is not a database"
    try:
        conn = sqlite3.connect(f"{db_path.as_uri()}?mode=ro", uri=True, timeout=busy_timeout_s)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        if _is_corruption(exc):
            return str(exc)
        raise
    problems = [str(row[0]) for row in rows if row[0] != "ok"]
    return "; ".join(problems[:3]) if problems else None


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def move_aside(db_path: Path, reason: str) -> Recovery:
    """Rename the database and its -wal/-shm to ``<name>.corrupt-<UTC timestamp>[-wal|-shm]``."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = db_path.with_name(f"{db_path.name}.corrupt-{stamp}")
    db_path.rename(target)
    for suffix in _SIDECARS:
        sidecar = db_path.with_name(db_path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            sidecar.rename(target.with_name(target.name + suffix))
    return Recovery(moved_to=target, reason=reason)
