"""Tool cards: lazy body, head and tail with "Show all", truncated badge, compact groups."""

from __future__ import annotations

from PyQt6.QtCore import QPoint, QPointF, Qt
from PyQt6.QtGui import QWheelEvent
from PyQt6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QScrollArea,
    QScrollBar,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.cards.tool_card import ToolCard, ToolGroup, ToolState
from gns3_copilot_desktop.ui.cards.tool_text import (
    HEAD_LINES,
    TAIL_LINES,
    format_duration,
    head_and_tail,
)


def _card(qtbot: QtBot, **kwargs: object) -> ToolCard:
    card = ToolCard("c1", "start_node", {"node": "R1", "wait": True}, "Start R1", **kwargs)  # type: ignore[arg-type]
    qtbot.addWidget(card)
    card.resize(360, 80)
    card.show()
    return card


def test_expand_builds_the_body_once_and_shows_arguments_and_output(qtbot: QtBot) -> None:
    card = _card(qtbot, state=ToolState.RUNNING)
    card.finish("ok", "R1 is started", 80)
    assert not card.body_built
    qtbot.mouseClick(card.toggle, Qt.MouseButton.LeftButton)
    assert card.expanded and card.body_built
    assert '"node": "R1"' in card.arguments_view.toPlainText()
    assert card.output_view is not None
    assert card.output_view.toPlainText() == "R1 is started"
    body = card.output_view.parentWidget()
    card.set_expanded(False)
    assert body is not None and not body.isVisible()
    card.set_expanded(True)
    assert card.output_view.parentWidget() is body  # not rebuilt


def test_long_output_shows_head_and_tail_then_all(qtbot: QtBot) -> None:
    lines = [f"line {i}" for i in range(500)]
    card = _card(qtbot)
    card.finish("ok", "\n".join(lines), 10)
    card.set_expanded(True)
    assert card.output_view is not None and card.show_all_button is not None
    shown = card.output_view.toPlainText().split("\n")
    assert shown[:HEAD_LINES] == lines[:HEAD_LINES]
    assert shown[-TAIL_LINES:] == lines[-TAIL_LINES:]
    assert "460 lines hidden" in shown[HEAD_LINES]
    assert "line 250" not in shown
    assert card.show_all_button.isVisible()
    card.show_all_button.click()
    assert card.output_view.toPlainText().split("\n") == lines
    assert not card.show_all_button.isVisible()


def test_short_output_has_no_show_all() -> None:
    assert head_and_tail("a\nb\nc") is None


def test_truncated_badge_and_error_state(qtbot: QtBot) -> None:
    card = _card(qtbot, state=ToolState.RUNNING)
    assert not card.badge.isVisible()
    card.finish("error", "boom", 2500, truncated=True)
    assert card.badge.isVisible()
    assert card.state is ToolState.ERROR
    assert "error" in card.state_label.text()
    assert card.duration_label.text() == "2.5 s"


def test_running_card_ticks_its_elapsed_time(qtbot: QtBot) -> None:
    card = _card(qtbot)
    card.set_state(ToolState.RUNNING)
    card._started_at -= 3.2  # type: ignore[operator]
    assert card.duration_label.text() == "0 s"

    def ticked() -> bool:
        value, unit = card.duration_label.text().split()
        return unit == "s" and int(value) >= 4

    qtbot.waitUntil(ticked, timeout=2500)


def test_compact_group_hides_cards_behind_a_count(qtbot: QtBot) -> None:
    group = ToolGroup(compact=False)
    qtbot.addWidget(group)
    group.show()
    cards = [ToolCard(f"c{i}", "list_nodes", {}, "", ToolState.DONE) for i in range(3)]
    for card in cards:
        group.add_card(card)
    assert all(c.isVisible() for c in cards) and not group.count_button.isVisible()
    group.set_compact(True)
    assert not any(c.isVisible() for c in cards)
    assert group.count_button.isVisible()
    assert "3 tool call(s)" in group.count_button.text()
    group.count_button.click()
    assert all(c.isVisible() for c in cards)


def test_format_duration() -> None:
    assert format_duration(80) == "80 ms"
    assert format_duration(1234) == "1.2 s"
    assert format_duration(65_000) == "1 min 5 s"


def test_at_360_px_the_title_keeps_its_summary_and_never_cuts_the_tool_name(qtbot: QtBot) -> None:
    summary = "start R1, R2, R3, R4, R5, R6, R7 and R8 and wait up to 120 s"
    card = ToolCard("c1", "start_nodes", {}, summary, ToolState.DONE)
    qtbot.addWidget(card)
    card.resize(360, card.sizeHint().height())
    card.show()
    qtbot.waitExposed(card)
    label = card.title_label
    metrics = label.fontMetrics()
    assert label.text() == f"Start nodes · {summary}"
    assert metrics.horizontalAdvance(label.text()) > label.width()  # the whole title cannot fit
    shown = label.shown_text()
    # the name is whole or absent (never "Sta…"); the summary is cut at its end
    assert shown.startswith("start R1") and shown.endswith("…")
    assert "Start nodes" not in shown
    assert metrics.horizontalAdvance(shown) <= label.width()
    assert "Start nodes" in label.toolTip() and summary in label.toolTip()


def test_a_title_that_fits_shows_the_tool_name_whole(qtbot: QtBot) -> None:
    card = ToolCard("c1", "start_nodes", {}, "start R1", ToolState.DONE)
    qtbot.addWidget(card)
    label = card.title_label
    label.resize(label.fontMetrics().horizontalAdvance("start R1 ·"), 20)
    assert label.shown_text() == "start R1"
    label.resize(label.fontMetrics().horizontalAdvance(label.text()), 20)
    assert label.shown_text() == "Start nodes · start R1"


def _in_chat(qtbot: QtBot, card: ToolCard) -> QScrollArea:
    """`card` in a scrolling column taller than its window, as the chat shows it."""
    chat = QScrollArea()
    qtbot.addWidget(chat)
    column = QWidget()
    layout = QVBoxLayout(column)
    layout.addSpacing(800)
    layout.addWidget(card)
    layout.addSpacing(800)
    chat.setWidget(column)
    chat.setWidgetResizable(True)
    chat.resize(360, 500)
    chat.show()
    qtbot.waitExposed(chat)
    return chat


def _wheel(box: QWidget, notches: int) -> bool:
    """Turn the wheel over `box` (negative: towards the end); whether `box` kept it.

    A real wheel event that a widget ignores goes on to its parents (QApplication::notify does
    that only for spontaneous events, which a test cannot make): the walk up is done here the
    same way, so the chat around the box receives what the box hands on.
    """
    viewport = box.viewport() if isinstance(box, QAbstractScrollArea) else box
    assert viewport is not None
    widget: QWidget | None = viewport
    at = QPointF(viewport.rect().center())
    kept = True
    while widget is not None:
        event = QWheelEvent(
            at,
            widget.mapToGlobal(at),
            QPoint(),
            QPoint(0, 120 * notches),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        if QApplication.sendEvent(widget, event) and event.isAccepted():
            return kept
        parent = widget.parentWidget()
        if parent is None or widget.isWindow():
            return False
        at = QPointF(widget.mapToParent(at.toPoint()))
        widget = parent
        kept = kept and widget is box
    return False


def _bar(area: QAbstractScrollArea) -> QScrollBar:
    bar = area.verticalScrollBar()
    assert bar is not None
    return bar


def test_the_wheel_over_a_box_that_cannot_scroll_scrolls_the_chat(qtbot: QtBot) -> None:
    card = _card(qtbot)
    card.finish("ok", "R1 is started", 80)
    card.set_expanded(True)
    chat = _in_chat(qtbot, card)
    chat.ensureWidgetVisible(card)
    box = card.output_view
    assert box is not None and _bar(box).maximum() == 0
    before = _bar(chat).value()
    _wheel(box, -1)
    assert _bar(chat).value() > before
    _wheel(card.arguments_view, 1)
    assert _bar(chat).value() == before


def test_a_long_box_scrolls_itself_then_hands_the_wheel_to_the_chat(qtbot: QtBot) -> None:
    card = _card(qtbot)
    card.finish("ok", "\n".join(f"line {i}" for i in range(500)), 80)
    card.set_expanded(True)
    card.show_all()
    chat = _in_chat(qtbot, card)
    box = card.output_view
    assert box is not None
    chat.ensureWidgetVisible(box)
    qtbot.waitUntil(lambda: _bar(box).maximum() > 0)
    chat_at = _bar(chat).value()
    _wheel(box, -1)  # the box can scroll down: it does, the chat stays
    assert _bar(box).value() > 0 and _bar(chat).value() == chat_at
    _bar(box).setValue(_bar(box).maximum())
    _wheel(box, -1)  # at its end: the chat scrolls on
    assert _bar(box).value() == _bar(box).maximum() and _bar(chat).value() > chat_at
    chat_at = _bar(chat).value()
    _wheel(box, 1)  # back up: the box scrolls first again
    assert _bar(box).value() < _bar(box).maximum() and _bar(chat).value() == chat_at
    _bar(box).setValue(0)
    _wheel(box, 1)  # at its top: the chat scrolls up
    assert _bar(box).value() == 0 and _bar(chat).value() < chat_at


def test_a_long_line_wraps_in_the_box_at_360_px(qtbot: QtBot) -> None:
    line = "interface GigabitEthernet0/0 description " + "uplink-to-core-" * 30
    card = _card(qtbot)
    card.finish("ok", line, 80)
    card.set_expanded(True)
    box = card.output_view
    assert box is not None
    qtbot.waitUntil(lambda: box.width() > 0)
    document = box.document()
    assert document is not None
    layout = document.firstBlock().layout()
    assert layout is not None and layout.lineCount() > 3  # one line, shown on several rows
    viewport = box.viewport()
    assert viewport is not None
    for row in range(layout.lineCount()):  # nothing hides to the right of the box
        assert layout.lineAt(row).naturalTextWidth() <= viewport.width()
    assert box.height() >= layout.lineCount() * box.fontMetrics().lineSpacing()  # all of it seen
    assert box.width() <= card.width()
