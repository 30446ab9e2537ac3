"""The sessions panel's Export and Import actions: a session to a file the user chose, and an
exported file back in as a new conversation (the files themselves: `session_files`)."""

from __future__ import annotations

from pathlib import Path

from PyQt6 import sip
from PyQt6.QtCore import pyqtSignal
from PyQt6.QtWidgets import QListWidget, QWidget

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.ui.backends.base import ChatBackend, SessionEntry
from gns3_copilot_desktop.ui.file_folders import FileFolders
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.sessions.list_rows import shown_title
from gns3_copilot_desktop.ui.sessions.session_files import (
    ask_export_target,
    ask_import_file,
    read_export,
    write_export,
)


class SessionFileActions(QWidget):
    """Export and Import for `SessionsPanel` (which provides the list, the backend, the selection
    and `refresh`)."""

    folders: FileFolders | None = None
    """Where the export and import dialogs open (set by the composition root)."""

    session_selected = pyqtSignal(str)
    refresh_failed = pyqtSignal(str, str)  # user message, error kind (the copilot header shows it)

    _backend: ChatBackend
    list: QListWidget

    def selected_entry(self) -> SessionEntry | None:
        """The session the list has selected (the panel's)."""
        raise NotImplementedError

    async def refresh(self) -> None:
        """Read the sessions again (the panel's)."""
        raise NotImplementedError

    def export_selected(self, *_: object) -> None:
        """Ask for a file and write the selected session to it as Markdown or JSON."""
        entry = self.selected_entry()
        if entry is None:
            return
        chosen = ask_export_target(self, entry.title, shown_title(entry.title), self.folders)
        if chosen is not None:
            target, fmt = chosen
            spawn(write_export(self._backend, entry.session_id, target, fmt))

    def import_file(self, *_: object) -> None:
        """Ask for an exported session (Markdown or JSON) and add it as a new conversation.

        Opened from the button's plain Qt callback, like Export's dialog (never from a
        coroutine: a nested event loop there would run other tasks inside it)."""
        path = ask_import_file(self, self.folders)
        if path is not None:
            spawn(self.import_path(path), name="import-session")

    async def import_path(self, path: Path) -> str | None:
        """Import the file at ``path``; the new session's id (None when refused: the header
        says why)."""
        try:
            data = await read_export(path)
            entry = await self._backend.import_session(data)
        except CopilotError as exc:
            if not sip.isdeleted(self.list):
                self.refresh_failed.emit(exc.user_message, type(exc).__name__)
            return None
        await self.refresh()
        if not sip.isdeleted(self.list):
            self.session_selected.emit(entry.session_id)
        return str(entry.session_id)
