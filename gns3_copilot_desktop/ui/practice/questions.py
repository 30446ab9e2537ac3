"""The questions the Practice panel asks, as methods a test can replace (answering them without
a modal loop): trust a trainer's key, give up, a passphrase, an exercise file, the trainer's name.
The dialogs themselves are in `dialogs`."""

from __future__ import annotations

import getpass
from pathlib import Path

from PyQt6.QtWidgets import QFrame, QMessageBox

from gns3_copilot_desktop.core.practice.package import TrainerKey
from gns3_copilot_desktop.ui.file_folders import FileFolders
from gns3_copilot_desktop.ui.practice import dialogs
from gns3_copilot_desktop.ui.practice.status_lines import StatusLines


class PanelQuestions(QFrame):
    """The questions of `PracticePanel` (which provides the backend and the status lines)."""

    folders: FileFolders | None = None
    """Where the exercise file dialogs open (set by the composition root)."""

    _backend: object
    status: StatusLines
    trust_box: QMessageBox | None
    give_up_box: QMessageBox | None

    async def ask_trust(self, key: TrainerKey) -> bool:
        """Whether to trust ``key`` for its trainer from now on (the first file from them).
        Asked without a nested event loop (a modal exec would wedge the GNS3 GUI's tasks)."""
        box, trust = dialogs.trust_question(key, self.window())
        self.trust_box = box
        try:
            return await dialogs.answer(box, trust)
        finally:
            self.trust_box = None

    async def ask_give_up(self) -> bool:
        """Whether the learner really gives up (the answer is shown and the score is 0).
        Asked without a nested event loop, like `ask_trust`."""
        box, give_up = dialogs.give_up_question(self.window())
        self.give_up_box = box
        try:
            return await dialogs.answer(box, give_up)
        finally:
            self.give_up_box = None

    def ask_passphrase(self, confirm: bool) -> str | None:
        """The passphrase (asked twice to export); None when cancelled or not the same."""
        return dialogs.ask_passphrase(self, confirm, self.status.error)

    def ask_export_path(self) -> Path | None:
        """Where to save the exercise file (the documents folder is proposed)."""
        return dialogs.ask_export_path(self, self.folders)

    def ask_import_path(self) -> Path | None:
        """The exercise file to import."""
        return dialogs.ask_import_path(self, self.folders)

    def trainer_name(self) -> str:
        """The name exercise files are signed with: the GNS3 login, else the computer's user."""
        workspace = getattr(self._backend, "workspace", None)
        name = workspace.saved_username() if workspace is not None else ""
        return name or getpass.getuser() or "trainer"
