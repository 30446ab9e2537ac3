"""Where the export and import dialogs open: the folder used last for that kind of file
(remembered in the settings), else the documents folder; and the file name an export proposes
(the project's name and today's date)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from PyQt6.QtCore import QStandardPaths

from gns3_copilot_desktop.core.settings import Settings


def documents_folder() -> Path:
    """The user's documents folder (their home when there is none)."""
    found = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(found) if found else Path.home()


def safe_file_name(text: str, fallback: str) -> str:
    """`text` as a file name: letters, digits, spaces, ``-`` and ``_`` kept, the rest ``_``."""
    safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in text).strip()
    return safe[:80] or fallback


class FileFolders:
    """The folders the file dialogs start in, remembered per kind ("sessions", "exercises")."""

    def __init__(
        self,
        settings: Callable[[], Settings],
        save: Callable[[], object],
        project_name: Callable[[], str],
    ) -> None:
        self._settings = settings
        self._save = save
        self._project_name = project_name

    def folder(self, kind: str) -> Path:
        """The folder last used for `kind` when it still exists, else the documents folder."""
        last = self._settings().last_folders.get(kind)
        if last and Path(last).is_dir():
            return Path(last)
        return documents_folder()

    def proposed(self, kind: str, fallback: str, suffix: str, today: date | None = None) -> Path:
        """The file an export proposes: ``<project> <yyyy-mm-dd><suffix>`` in `kind`'s folder."""
        name = safe_file_name(self._project_name(), fallback)
        return self.folder(kind) / f"{name} {(today or date.today()).isoformat()}{suffix}"

    def remember(self, kind: str, chosen: Path) -> None:
        """`chosen` (a file) was picked: its folder is where `kind`'s dialogs open next time."""
        self._settings().last_folders[kind] = str(chosen.parent)
        self._save()
