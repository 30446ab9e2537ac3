"""The questions the Practice panel asks: trust a trainer's key, give up, a passphrase, a file.

The two yes/no questions are answered without a nested event loop (a modal exec inside a
coroutine would wedge the GNS3 GUI's tasks): `answer` opens the box and awaits its button. The
panel keeps each open box in an attribute so that tests can answer it. Texts keep the
"PracticePanel" translation context.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PyQt6.QtCore import QCoreApplication, Qt
from PyQt6.QtWidgets import (
    QAbstractButton,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QWidget,
)

from gns3_copilot_desktop.core.practice.package import SUFFIX, TrainerKey
from gns3_copilot_desktop.ui.file_folders import FileFolders, documents_folder


def trust_question(
    key: TrainerKey, parent: QWidget | None
) -> tuple[QMessageBox, QAbstractButton | None]:
    """ "Trust this trainer's key?" with its fingerprint, and its "Trust and import" button."""
    text = (
        QCoreApplication.translate(
            "PracticePanel",
            "This exercise is signed by %1, whose key this computer has not seen before.\n\n"
            "Key fingerprint: %2\n\nCompare it with the fingerprint your trainer gave you. "
            "If you trust it, files from %1 signed by any other key will be refused.",
        )
        .replace("%1", key.trainer)
        .replace("%2", key.fingerprint)
    )
    box = QMessageBox(
        QMessageBox.Icon.Question,
        QCoreApplication.translate("PracticePanel", "Trust this trainer's key?"),
        text,
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setTextFormat(Qt.TextFormat.PlainText)  # the trainer's name is the file's data
    trust = box.addButton(
        QCoreApplication.translate("PracticePanel", "Trust and import"),
        QMessageBox.ButtonRole.AcceptRole,
    )
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box, trust


def give_up_question(parent: QWidget | None) -> tuple[QMessageBox, QAbstractButton | None]:
    """ "Give up this exercise?" and its "Give up and show the answer" button."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        QCoreApplication.translate("PracticePanel", "Give up this exercise?"),
        QCoreApplication.translate(
            "PracticePanel",
            "The answer will be shown and the exercise scores 0. You can then undo the "
            "faults in the lab.",
        ),
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    give_up = box.addButton(
        QCoreApplication.translate("PracticePanel", "Give up and show the answer"),
        QMessageBox.ButtonRole.AcceptRole,
    )
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box, give_up


async def answer(box: QMessageBox, accept: QAbstractButton | None) -> bool:
    """Open `box` and wait until it closes: whether `accept` was the button clicked."""
    answered: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def finished(_result: int) -> None:
        if not answered.done():
            answered.set_result(box.clickedButton() is accept)

    box.finished.connect(finished)
    box.open()
    try:
        return await answered
    finally:
        box.deleteLater()


def ask_passphrase(parent: QWidget, confirm: bool, mismatch: Callable[[str], None]) -> str | None:
    """The passphrase (asked twice to export); None when cancelled or not the same (then
    `mismatch` gets the text to show)."""
    title = QCoreApplication.translate("PracticePanel", "Exercise passphrase")
    first, ok = QInputDialog.getText(
        parent,
        title,
        QCoreApplication.translate(
            "PracticePanel", "Passphrase (at least 8 characters; students need it to import):"
        )
        if confirm
        else QCoreApplication.translate("PracticePanel", "The passphrase from your trainer:"),
        QLineEdit.EchoMode.Password,
    )
    if not ok:
        return None
    if confirm:
        second, ok = QInputDialog.getText(
            parent,
            title,
            QCoreApplication.translate("PracticePanel", "The same passphrase again:"),
            QLineEdit.EchoMode.Password,
        )
        if not ok:
            return None
        if second != first:
            mismatch(
                QCoreApplication.translate(
                    "PracticePanel", "The two passphrases differ: nothing was exported."
                )
            )
            return None
    return first


def _exercise_files() -> str:
    return QCoreApplication.translate("PracticePanel", "GNS3 Copilot exercises (*%1)").replace(
        "%1", SUFFIX
    )


def ask_export_path(parent: QWidget, folders: FileFolders | None) -> Path | None:
    """Where to save the exercise file (the documents folder is proposed)."""
    path, _ = QFileDialog.getSaveFileName(
        parent,
        QCoreApplication.translate("PracticePanel", "Export the exercise"),
        str(
            folders.proposed("exercises", "exercise", SUFFIX)
            if folders is not None
            else documents_folder() / f"exercise{SUFFIX}"
        ),
        _exercise_files(),
    )
    if path and folders is not None:
        folders.remember("exercises", Path(path))
    return Path(path) if path else None


def ask_import_path(parent: QWidget, folders: FileFolders | None) -> Path | None:
    """The exercise file to import."""
    path, _ = QFileDialog.getOpenFileName(
        parent,
        QCoreApplication.translate("PracticePanel", "Import an exercise"),
        str(folders.folder("exercises")) if folders is not None else "",
        _exercise_files(),
    )
    if path and folders is not None:
        folders.remember("exercises", Path(path))
    return Path(path) if path else None
