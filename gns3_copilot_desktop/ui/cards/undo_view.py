"""Undo under a finished change's tool card, and the question asked before undoing.

The card offers Undo when the change's result holds an undo record (`core.undo.record`): a
configuration push offers "Restore this configuration…". Clicking asks the copilot to plan the
undo against the project as it is now; the user then reads every action (and every line that
would be pushed) and what no longer applies, and approves or cancels. Texts from the core go
through `core_text`; lab names and configuration lines are shown as plain text, never markup.
The question lists every action and every line in a scrolling box (`question_box`): a restore's
lines come from what a device printed, so none is ever cut from what the user approves.
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtGui import QFontDatabase
from PyQt6.QtWidgets import (
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from gns3_copilot_desktop.core.undo.apply import UndoOutcome, UndoPlan
from gns3_copilot_desktop.core.undo.record import RestoreConfig, UndoRecord
from gns3_copilot_desktop.ui.core_text import core_text

QUESTION_MIN_WIDTH = 460
QUESTION_MIN_HEIGHT = 240
"""The scrolling list's least size in the question (it scrolls past that, never cuts)."""


class ChangeUndo(QWidget):
    """Under a finished change's card: Undo (or Restore this configuration) and what came of it."""

    undo_requested = pyqtSignal(object)  # the tool's structured result

    def __init__(
        self, structured: dict[str, Any], record: UndoRecord, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.structured = structured
        self.record = record
        layout = QHBoxLayout(self)
        layout.setContentsMargins(22, 0, 0, 4)
        if self.restores:
            text = QCoreApplication.translate("UndoView", "Restore this configuration…")
            tip = QCoreApplication.translate(
                "UndoView",
                "Push back the lines that take the devices to the configuration they ran before "
                "this change (you see every line first)",
            )
        else:
            text = QCoreApplication.translate("UndoView", "Undo…")
            tip = QCoreApplication.translate(
                "UndoView", "Undo this change (you see what will happen first)"
            )
        self.button = QPushButton(text, self)
        self.button.setAutoDefault(False)
        self.button.setToolTip(tip)
        self.button.setAccessibleName(text.rstrip("…"))
        self.button.clicked.connect(lambda *_: self.undo_requested.emit(self.structured))
        self.state = QLabel(self)
        self.state.setObjectName("muted")
        self.state.setWordWrap(True)
        self.state.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.button)
        layout.addWidget(self.state, 1)

    @property
    def restores(self) -> bool:
        """Whether the change was a configuration push (every step restores a device)."""
        return all(isinstance(step, RestoreConfig) for step in self.record.steps)

    def set_busy(self, busy: bool) -> None:
        """While the undo is planned or carried out, the button cannot be clicked again."""
        self.button.setEnabled(not busy)
        if busy:
            self.state.setText(QCoreApplication.translate("UndoView", "Reading the project…"))

    def set_result(self, text: str, *, done: bool) -> None:
        """What came of the undo; once done, Undo is not offered again."""
        self.state.setText(text)
        self.button.setEnabled(not done)


def undo_call_id(view: ChangeUndo) -> str | None:
    """The tool call whose change ``view`` undoes (its card's), for the decision log."""
    card = view.parentWidget()
    call_id = getattr(card, "tool_call_id", None)
    return call_id if isinstance(call_id, str) and call_id else None


def already_undone_text() -> str:
    """Why a change offers no Undo: it was undone before (the decision log says so)."""
    return QCoreApplication.translate("UndoView", "Already undone.")


def question_text(plan: UndoPlan) -> str:
    """The confirmation's text: each action with every line it pushes, then what no longer
    applies."""
    parts = [QCoreApplication.translate("UndoView", "This will:")]
    for action in plan.actions:
        parts.append(f"• {core_text(action.text)}")
        parts += [f"      {line}" for line in action.lines]
    if plan.skipped:
        parts.append("")
        parts.append(
            QCoreApplication.translate("UndoView", "No longer applies, left as it is now:")
        )
        parts += [f"• {core_text(reason)}" for reason in plan.skipped]
    return "\n".join(parts)


def question_box(title: str, plan: UndoPlan, parent: QWidget | None = None) -> QMessageBox:
    """The question asked before an undo: `question_text` whole, in a read-only scrolling box
    between the heading and the buttons (Cancel is the default)."""
    heading = QCoreApplication.translate(
        "UndoView", "Read every action and every line below before you approve."
    )
    buttons = QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel
    box = QMessageBox(QMessageBox.Icon.Warning, title, heading, buttons, parent)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setTextFormat(Qt.TextFormat.PlainText)
    view = QPlainTextEdit(box)
    view.setObjectName("undoQuestion")
    view.setReadOnly(True)
    view.setPlainText(question_text(plan))  # plain text: lab names and device lines are data
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    view.setMinimumSize(QUESTION_MIN_WIDTH, QUESTION_MIN_HEIGHT)
    view.setAccessibleName(title)
    grid = box.layout()
    button_box = box.findChild(QDialogButtonBox)
    if isinstance(grid, QGridLayout) and button_box is not None:
        grid.removeWidget(button_box)
        row, span = grid.rowCount(), grid.columnCount()
        grid.addWidget(view, row, 0, 1, span)
        grid.addWidget(button_box, row + 1, 0, 1, span)
    return box


def nothing_text(plan: UndoPlan) -> str:
    """Why there is nothing to undo any more."""
    reasons = "; ".join(core_text(reason) for reason in plan.skipped)
    return QCoreApplication.translate("UndoView", "Nothing to undo: %1").replace("%1", reasons)


def outcome_text(outcome: UndoOutcome) -> str:
    """What the undo did, in one short paragraph."""
    if outcome.ok:
        return QCoreApplication.translate("UndoView", "Undone: %1").replace(
            "%1", "; ".join(core_text(t) for t in outcome.done)
        )
    text = QCoreApplication.translate("UndoView", "Undo stopped: %1").replace(
        "%1", core_text(outcome.failed or "")
    )
    if outcome.done:
        text += " " + QCoreApplication.translate("UndoView", "Done before: %1.").replace(
            "%1", "; ".join(core_text(t) for t in outcome.done)
        )
    if outcome.not_done:
        text += " " + QCoreApplication.translate("UndoView", "Not done: %1.").replace(
            "%1", "; ".join(core_text(t) for t in outcome.not_done)
        )
    return text
