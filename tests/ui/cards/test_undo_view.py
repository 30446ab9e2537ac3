"""The question before an undo: every action and every line it pushes, in a scrolling box."""

from __future__ import annotations

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QDialogButtonBox, QMessageBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.undo.apply import UndoAction, UndoPlan
from gns3_copilot_desktop.ui.cards.undo_view import question_box, question_text


async def _nothing() -> None:
    return None


def test_the_undo_question_lists_every_line_in_a_scrolling_box(qtbot: QtBot) -> None:
    """64 restore lines from a device with an EEM reload at line 51 (the old question showed 40
    and "(+24 more lines)", the reload among the hidden): every line is in the question, in
    order, in a read-only box that scrolls, and the box stays on a screen."""
    lines = tuple(f"interface Loopback{i}" for i in range(50))
    lines += ("event manager applet BOOT", "action 1.0 reload")
    lines += tuple(f"ip host h{i} 10.0.0.{i}" for i in range(12))
    assert len(lines) == 64
    plan = UndoPlan(
        [UndoAction("push back 64 line(s) to <b>R1</b>", _nothing, lines)], ["PC9 is already gone"]
    )
    text = question_text(plan)
    assert "more lines" not in text
    assert [line.strip() for line in text.splitlines()[2:66]] == list(lines)

    box = question_box("Restore this configuration", plan)
    qtbot.addWidget(box)
    view = box.findChild(QPlainTextEdit, "undoQuestion")
    assert view is not None and view.isReadOnly()
    assert view.toPlainText() == text  # plain text: a name never becomes markup
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    box.show()
    qtbot.waitExposed(box)
    assert box.height() < 900
    scroll = view.verticalScrollBar()
    assert scroll is not None and scroll.maximum() > 0  # it scrolls: the rest is not cut
    scroll.setValue(scroll.maximum())
    assert view.firstVisibleBlock().blockNumber() > 0  # the end of the list is reachable
    # the list sits between the heading and the buttons
    buttons = box.findChild(QDialogButtonBox)
    assert buttons is not None and view.geometry().bottom() <= buttons.geometry().top()
    box.done(QMessageBox.StandardButton.Cancel.value)
