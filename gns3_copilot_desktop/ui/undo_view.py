"""Undo under a finished change's tool card, and the question asked before undoing.

The card offers Undo when the change's result holds an undo record (`core.undo.record`): a
configuration push offers "Restore this configuration…". Clicking asks the copilot to plan the
undo against the project as it is now; the user then reads every action (and every line that
would be pushed) and what no longer applies, and approves or cancels. Texts from the core go
through `core_text`; lab names and configuration lines are shown as plain text, never markup.
"""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QCoreApplication, pyqtSignal
from PyQt6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from gns3_copilot_desktop.core.undo.apply import UndoOutcome, UndoPlan
from gns3_copilot_desktop.core.undo.record import RestoreConfig, UndoRecord
from gns3_copilot_desktop.ui.core_text import core_text

MAX_SHOWN_LINES = 40
"""Configuration lines listed per action in the question (the rest are counted)."""


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
    """The confirmation's text: each action (with its lines), then what no longer applies."""
    parts = [QCoreApplication.translate("UndoView", "This will:")]
    for action in plan.actions:
        parts.append(f"• {core_text(action.text)}")
        shown = list(action.lines[:MAX_SHOWN_LINES])
        parts += [f"      {line}" for line in shown]
        if len(action.lines) > len(shown):
            parts.append(
                "      "
                + QCoreApplication.translate("UndoView", "(+%1 more lines)").replace(
                    "%1", str(len(action.lines) - len(shown))
                )
            )
    if plan.skipped:
        parts.append("")
        parts.append(
            QCoreApplication.translate("UndoView", "No longer applies, left as it is now:")
        )
        parts += [f"• {core_text(reason)}" for reason in plan.skipped]
    return "\n".join(parts)


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
