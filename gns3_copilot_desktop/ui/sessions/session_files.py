"""A session as a file: export it as Markdown or JSON, read an export back to import it.

The dialogs open where that kind of file went last (`FileFolders`), else in the documents
folder. Writing and reading run in a thread; a file that cannot be written or read becomes a
`CopilotError` with its text. Texts keep the "SessionsPanel" translation context.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QFileDialog, QWidget

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.platform import detect_platform
from gns3_copilot_desktop.ui.backends.base import ChatBackend
from gns3_copilot_desktop.ui.file_folders import FileFolders, documents_folder

MAX_IMPORT_BYTES = 8 * 1024 * 1024
"""The largest session export read (the core refuses larger ones with a clear message)."""


def ask_export_target(
    parent: QWidget, title: str, shown: str, folders: FileFolders | None
) -> tuple[Path, Literal["markdown", "json"]] | None:
    """Ask where to export the session titled `title` (`shown` as the user reads it): the file
    and its format, or None when cancelled."""
    markdown = QCoreApplication.translate("SessionsPanel", "Markdown (*.md)")
    start = (
        folders.proposed("sessions", _file_name(shown), ".md")
        if folders is not None
        else proposed_export_path(title, documents_folder())
    )
    path, chosen = QFileDialog.getSaveFileName(
        parent,
        QCoreApplication.translate("SessionsPanel", "Export session"),
        str(start),
        ";;".join((markdown, QCoreApplication.translate("SessionsPanel", "JSON (*.json)"))),
    )
    if not path:
        return None
    target, fmt = export_target(path, chosen)
    if folders is not None:
        folders.remember("sessions", target)
    return target, fmt


async def write_export(
    backend: ChatBackend, session_id: str, path: Path, fmt: Literal["markdown", "json"]
) -> None:
    """Write the session's export to `path`."""
    text = await backend.export_session(session_id, fmt)
    try:
        # UTF-8 with \n line ends on every system (Windows' text mode would write \r\n)
        await asyncio.to_thread(detect_platform().write_export, path, text)
    except OSError as exc:
        raise CopilotError(
            QCoreApplication.translate("SessionsPanel", "Could not write %1: %2")
            .replace("%1", str(path))
            .replace("%2", exc.strerror or str(exc))
        ) from exc


def ask_import_file(parent: QWidget, folders: FileFolders | None) -> Path | None:
    """Ask for an exported session (Markdown or JSON); None when cancelled."""
    path, _chosen = QFileDialog.getOpenFileName(
        parent,
        QCoreApplication.translate("SessionsPanel", "Import session"),
        str(folders.folder("sessions") if folders is not None else documents_folder()),
        QCoreApplication.translate("SessionsPanel", "Session exports (*.md *.json)"),
    )
    if not path:
        return None
    if folders is not None:
        folders.remember("sessions", Path(path))
    return Path(path)


async def read_export(path: Path) -> bytes:
    """The export at `path`, at most one byte over `MAX_IMPORT_BYTES` (the core refuses more)."""
    return await asyncio.to_thread(_read_at_most, path, MAX_IMPORT_BYTES + 1)


def _file_name(title: str) -> str:
    """A file name suggested from the session's title."""
    safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip()
    return safe or "session"


def _read_at_most(path: Path, limit: int) -> bytes:
    """The file's first ``limit`` bytes (a huge file is never read whole)."""
    try:
        with path.open("rb") as handle:
            return handle.read(limit)
    except OSError as exc:
        raise CopilotError(
            QCoreApplication.translate("SessionsPanel", "Could not read %1: %2")
            .replace("%1", str(path))
            .replace("%2", exc.strerror or str(exc))
        ) from exc


def proposed_export_path(title: str, documents: Path) -> Path:
    """Where the export dialog starts: the documents folder, a file named after the session."""
    return documents / f"{_file_name(title)}.md"


def export_target(path: str, chosen_filter: str) -> tuple[Path, Literal["markdown", "json"]]:
    """The file to write and its format.

    A ``.md`` or ``.json`` suffix typed by the user decides the format; otherwise the chosen
    filter does, and its extension is added (``lab`` with JSON -> ``lab.json``; ``lab.v2`` with
    Markdown -> ``lab.v2.md``).
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix in (".md", ".json"):
        return target, "json" if suffix == ".json" else "markdown"
    fmt: Literal["markdown", "json"] = "json" if "*.json" in chosen_filter else "markdown"
    return target.with_name(target.name + (".json" if fmt == "json" else ".md")), fmt
