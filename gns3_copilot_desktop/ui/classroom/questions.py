"""The questions the Classroom panel asks, as methods a test can replace (answered without a
modal loop): submit now, and where to save the results."""

from __future__ import annotations

from pathlib import Path

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QFileDialog, QFrame, QMessageBox

from gns3_copilot_desktop.ui.practice.dialogs import answer


class ClassroomQuestions(QFrame):
    """The questions of `ClassroomPanel`."""

    async def ask_submit(self) -> bool:
        """Whether to submit now: the result cannot change afterwards."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("ClassroomPanel", "Submit the task?"),
            QCoreApplication.translate(
                "ClassroomPanel",
                "The checks run once and your result is recorded; it cannot change afterwards.",
            ),
            QMessageBox.StandardButton.Cancel,
            self.window(),
        )
        submit = box.addButton(
            QCoreApplication.translate("ClassroomPanel", "Submit"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        return await answer(box, submit)

    async def ask_give_up(self) -> bool:
        """Whether to give up: the lab is restored and the answer shown; it scores 0."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            QCoreApplication.translate("ClassroomPanel", "Give up this exercise?"),
            QCoreApplication.translate(
                "ClassroomPanel",
                "Your lab is put back as it was before the fault, the answer is shown and the "
                "exercise scores 0.",
            ),
            QMessageBox.StandardButton.Cancel,
            self.window(),
        )
        give_up = box.addButton(
            QCoreApplication.translate("ClassroomPanel", "Give up"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        return await answer(box, give_up)

    def ask_export_path(self, fmt: str) -> Path | None:
        """Where to save the results."""
        chosen, _filter = QFileDialog.getSaveFileName(
            self,
            QCoreApplication.translate("ClassroomPanel", "Export the results"),
            f"results.{fmt}",
            f"{fmt.upper()} (*.{fmt})",
        )
        return Path(chosen) if chosen else None
