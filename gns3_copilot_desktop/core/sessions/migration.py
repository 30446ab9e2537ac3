"""Move a project's databases out of its folder, where older versions kept them.

Older versions kept the conversations (``copilot_checkpoints.db``) and the exercises
(``copilot_practice.db``) in ``{project}/.gns3-copilot/``, so a GNS3 snapshot zipped them with the
project and restoring it rewound them. On first open each is moved to the project's private
folder in the app's data folder (`location.project_data_dir`):

1. copied with SQLite's backup API from a read-only connection (the copy includes what is still
   in the -wal file) to a temporary file beside the destination;
2. verified: ``integrity_check`` is ``ok`` and every table has as many rows as in the original;
3. the conversations must be this installation's own (`ownership`): a database that came with
   an imported project is left where it is, never opened;
4. put in place without ever replacing a file (a second app instance may have made one), then the
   original and its -wal/-shm are removed.

Any failure leaves the original as it was and removes the half-made copy; each outcome the user
must hear of is returned as a `MigrationNotice`. When the destination already exists it wins and
the file in the project folder is left, and said so.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gns3_copilot_desktop.core.platform import detect_platform
from gns3_copilot_desktop.core.sessions.location import (
    DB_NAME,
    PRACTICE_DB_NAME,
)
from gns3_copilot_desktop.core.sessions.ownership import Ownership, ownership

log = logging.getLogger(__name__)

NoticeKind = Literal["migration_failed", "kept_both", "foreign_in_project"]
_SIDECARS = ("-wal", "-shm")


@dataclass(frozen=True)
class MigrationNotice:
    """Something the user must be told about a database found in the project folder."""

    kind: NoticeKind
    path: Path
    """The file left in the project folder."""
    reason: str = ""


class _MigrationError(Exception):
    """A copy that cannot be trusted; the original stays."""


def migrate_project_databases(legacy: Path, target_dir: Path, key: bytes) -> list[MigrationNotice]:
    """Move the databases of ``legacy`` (a project's ``.gns3-copilot`` folder) into
    ``target_dir`` (see the module docstring). Blocking: run it in a thread."""
    if not legacy.is_dir():
        return []
    notices: list[MigrationNotice] = []
    ours_found = False
    for candidate in _conversation_files(legacy):
        if ours_found:
            notices.append(MigrationNotice("kept_both", candidate))
            continue
        outcome = _move(candidate, target_dir / DB_NAME, key)
        ours_found = outcome is None or outcome.kind == "kept_both"
        if outcome is not None:
            notices.append(outcome)
    practice = legacy / PRACTICE_DB_NAME
    if ours_found and practice.is_file():
        outcome = _move(practice, target_dir / PRACTICE_DB_NAME, None)
        if outcome is not None:
            notices.append(outcome)
    with contextlib.suppress(OSError):
        legacy.rmdir()  # only when nothing else is left in it
    return notices


def _conversation_files(legacy: Path) -> list[Path]:
    """The conversation databases of the folder: the usual name first, then the ones an older
    version made beside a foreign database (``copilot_checkpoints.this-computer.db``)."""
    stem = Path(DB_NAME).stem
    found = [p for p in legacy.glob(f"{stem}*.db") if p.is_file()]
    return sorted(found, key=lambda p: (len(p.name), p.name))


def _move(source: Path, target: Path, key: bytes | None) -> MigrationNotice | None:
    """Copy, verify and put ``source`` in place at ``target``, then remove it. ``key``: check that
    it is a conversation database of ours first. None when it was moved."""
    if target.exists() and target.stat().st_size > 0:
        return MigrationNotice("kept_both", source)
    detect_platform().private_dir(target.parent)
    temporary = target.with_name(f".{target.name}.moving-{uuid.uuid4().hex}")
    try:
        try:
            _copy(source, temporary)
            _verify(source, temporary)
        except sqlite3.Error as exc:
            raise _MigrationError(str(exc)) from exc
        if key is not None and ownership(temporary, key) is not Ownership.OURS:
            return MigrationNotice("foreign_in_project", source)
        try:
            os.link(temporary, target)  # never replaces a file another instance just made
        except FileExistsError:
            return MigrationNotice("kept_both", source)
    except (_MigrationError, OSError) as exc:
        log.warning("could not move %s to %s: %s", source, target, exc)
        return MigrationNotice("migration_failed", source, str(exc))
    finally:
        _remove(temporary)
    _fsync_dir(target.parent)
    try:
        _remove(source, strict=True)
    except OSError as exc:
        return MigrationNotice("migration_failed", source, f"the copy is in use; {exc}")
    log.info("moved %s to %s", source, target)
    return None


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that reads the database with its -wal, and cannot write to it."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)


def _copy(source: Path, temporary: Path) -> None:
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    src = _read_only(source)
    try:
        dst = sqlite3.connect(temporary)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one file, nothing left beside it
            dst.commit()
        finally:
            dst.close()
    finally:
        src.close()
    with open(temporary, "rb+") as handle:
        os.fsync(handle.fileno())


def _verify(source: Path, copy: Path) -> None:
    """The copy is sound and holds every row of the original."""
    src = _read_only(source)
    dst = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
    try:
        check = [row[0] for row in dst.execute("PRAGMA integrity_check")]
        if check != ["ok"]:
            raise _MigrationError(f"the copy is damaged: {'; '.join(map(str, check[:3]))}")
        tables = [
            str(row[0])
            for row in src.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for table in tables:
            quoted = '"' + table.replace('"', '""') + '"'
            before = src.execute(f"SELECT count(*) FROM {quoted}").fetchone()[0]
            after = dst.execute(f"SELECT count(*) FROM {quoted}").fetchone()[0]
            if before != after:
                raise _MigrationError(f"table {table}: {after} rows copied of {before}")
    finally:
        dst.close()
        src.close()


def _remove(path: Path, *, strict: bool = False) -> None:
    """Remove a database, then its -wal/-shm (``strict``: the database itself must go; when it
    cannot, its -wal is kept with it)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError:
        if strict:
            raise
        return
    for sidecar in (path.with_name(path.name + s) for s in _SIDECARS):
        with contextlib.suppress(OSError):
            sidecar.unlink()


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
