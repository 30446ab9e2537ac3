"""Whether a session database was made by this installation.

A database beside a GNS3 project travels with "export portable project": one that arrives with a
project shared by a classmate or downloaded from a course site was made elsewhere, by anyone. Each
database this app creates carries a random id and an HMAC of it under a key only this installation
holds (`SecretStore.database_key`, in the OS keyring). A file whose mark is missing or wrong is
*foreign*: it is never opened as a checkpointer (nor written to); its conversations can be read as
plain text (`read_foreign_sessions`), and the app keeps its own database beside it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from gns3_copilot_desktop.core.sessions.models import TranscriptMessage

OWNER_TABLE = "copilot_owner"
_MAX_FOREIGN_SESSIONS = 500
_MAX_FOREIGN_MESSAGES = 20_000


class Ownership(Enum):
    """What a database file is to this installation."""

    MISSING = "missing"
    OURS = "ours"
    FOREIGN = "foreign"
    UNREADABLE = "unreadable"
    """Not a database, or a damaged one: nothing can be read from it (recovery moves it aside)."""


def mark(key: bytes, db_id: str) -> str:
    """The HMAC that marks database ``db_id`` as made with ``key``."""
    return hmac.new(key, f"gns3-copilot-db:{db_id}".encode(), hashlib.sha256).hexdigest()


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write (nor create a -wal/-shm pair) to ``path``."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def ownership(path: Path, key: bytes) -> Ownership:
    """Read ``path``'s mark (read-only) and check it against ``key``. Blocking: use a thread."""
    if not path.exists():
        return Ownership.MISSING
    try:
        conn = _read_only(path)
        try:
            row = conn.execute(f"SELECT db_id, mac FROM {OWNER_TABLE} WHERE id = 1").fetchone()
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return Ownership.FOREIGN  # a database without our mark
        return Ownership.UNREADABLE
    except sqlite3.Error:
        return Ownership.UNREADABLE
    if row is None or not isinstance(row[0], str) or not isinstance(row[1], str):
        return Ownership.FOREIGN
    return Ownership.OURS if hmac.compare_digest(mark(key, row[0]), row[1]) else Ownership.FOREIGN


def sign_sql(key: bytes) -> tuple[str, str, tuple[str, str]]:
    """The statements that mark a database as ours: create the table, then insert."""
    db_id = secrets.token_hex(16)
    create = (
        f"CREATE TABLE IF NOT EXISTS {OWNER_TABLE} "
        "(id INTEGER PRIMARY KEY CHECK (id = 1), db_id TEXT NOT NULL, mac TEXT NOT NULL)"
    )
    insert = f"INSERT OR REPLACE INTO {OWNER_TABLE} (id, db_id, mac) VALUES (1, ?, ?)"
    return create, insert, (db_id, mark(key, db_id))


def own_path_beside(foreign: Path) -> Path:
    """Where this installation keeps its own database next to a foreign one."""
    return foreign.with_name(f"{foreign.stem}.this-computer{foreign.suffix}")


@dataclass
class ForeignSession:
    """One conversation of a foreign database, as plain validated text."""

    session_id: str
    title: str
    messages: list[TranscriptMessage] = field(default_factory=list)


_MESSAGES = TypeAdapter(TranscriptMessage)


def read_foreign_sessions(path: Path) -> list[ForeignSession]:
    """The conversations of a foreign database, read-only, each row validated; rows that do not
    validate are skipped. Nothing in it is imported or run. Blocking: use a thread."""
    try:
        conn = _read_only(path)
    except sqlite3.Error:
        return []
    try:
        sessions = {
            str(sid): ForeignSession(str(sid), str(title or "Untitled"))
            for sid, title in conn.execute(
                "SELECT thread_id, title FROM copilot_sessions ORDER BY created_at LIMIT ?",
                (_MAX_FOREIGN_SESSIONS,),
            )
            if isinstance(sid, str)
        }
        rows = conn.execute(
            "SELECT thread_id, seq, message_id, role, content, name, tool_call_id, created_at "
            "FROM copilot_transcript ORDER BY thread_id, seq LIMIT ?",
            (_MAX_FOREIGN_MESSAGES,),
        )
        for sid, seq, message_id, role, content, name, tool_call_id, created_at in rows:
            if sid not in sessions:
                continue
            try:
                message = _MESSAGES.validate_python(
                    {
                        "seq": seq,
                        "id": message_id,
                        "role": role,
                        "content": content if isinstance(content, str) else "",
                        "name": name,
                        "tool_call_id": tool_call_id,
                        "created_at": created_at,
                    }
                )
            except ValidationError:
                continue
            sessions[sid].messages.append(message)
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    return list(sessions.values())
