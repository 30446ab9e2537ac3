"""The message view's history and scrolling: a loaded session builds its latest turns now and
earlier ones when the user scrolls to the top (the view kept still meanwhile); the view follows
new content only while it is at the bottom, else a "Jump to latest" button shows."""

from __future__ import annotations

from collections.abc import Sequence

from PyQt6.QtCore import QEvent, QTimer
from PyQt6.QtGui import QResizeEvent
from PyQt6.QtWidgets import (
    QApplication,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.ui.backends.base import (
    AssistantTurn,
    HistoryItem,
    ToolRecord,
    UserTurn,
)
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard
from gns3_copilot_desktop.ui.chat.messages import AssistantMessage, UserBubble
from gns3_copilot_desktop.ui.chat.view_cards import ViewCards

HISTORY_BATCH = 20


class ViewHistory(ViewCards):
    """History batches and scrolling of `MessageView` (which provides its layout, buttons,
    `clear` and `_append`)."""

    _layout: QVBoxLayout
    _compact: bool
    _follow: bool
    _earlier_pending: list[list[list[HistoryItem]]]
    _keep_distance_from_bottom: int | None
    earlier_button: QPushButton
    jump_button: QToolButton

    def clear(self) -> None:
        """Empty the view (the view's)."""
        raise NotImplementedError

    def _append(self, widget: QWidget) -> None:
        """Add a message at the end (the view's)."""
        raise NotImplementedError

    def load_history(self, items: Sequence[HistoryItem]) -> None:
        """Show a session: the latest turns now, earlier ones on demand."""
        self.clear()
        turns = _group_turns(items)
        batches = [
            turns[max(0, i - HISTORY_BATCH) : i] for i in range(len(turns), 0, -HISTORY_BATCH)
        ]
        if not batches:
            return
        latest = batches.pop(0)
        self._earlier_pending = batches
        for turn in latest:
            self._append(self._build_turn(turn))
        self.earlier_button.setVisible(bool(self._earlier_pending))
        self._current = None
        self.jump_to_latest()

    @property
    def unrendered_batches(self) -> int:
        """How many batches of earlier turns are not built yet."""
        return len(self._earlier_pending)

    def load_earlier(self, *_: object) -> None:
        """Build the previous batch of turns above the current ones, keeping the view still."""
        if not self._earlier_pending:
            return
        bar = self.verticalScrollBar()
        assert bar is not None
        self._keep_distance_from_bottom = bar.maximum() - bar.value()
        batch = self._earlier_pending.pop(0)
        for offset, turn in enumerate(batch):
            widget = self._build_turn(turn)
            self._layout.insertWidget(1 + offset, widget)
            widget.show()
        self.earlier_button.setVisible(bool(self._earlier_pending))
        # Lay out now, so the scroll range grows in this call and the view can stay still.
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)
        self._container.layout().activate()  # type: ignore[union-attr]
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)

    def _build_turn(self, turn: list[HistoryItem]) -> QWidget:
        first = turn[0]
        if isinstance(first, UserTurn):
            return UserBubble(first.text, self._container)
        message = AssistantMessage(self._compact, self._container)
        for item in turn:
            if isinstance(item, AssistantTurn):
                message.feed(item.text)
                message.close_text()
                if item.incomplete:
                    message.mark_incomplete(item.incomplete)
            elif isinstance(item, ToolRecord):
                card = ToolCard(item.tool_call_id, item.tool_name, item.arguments, item.summary)
                card.finish(item.status, item.output, item.duration_ms, item.truncated)
                card.set_structured(item.structured)
                if item.structured and item.tool_name != "plan_lab":
                    self._offer_undo(card, item.structured)
                message.add_card(card)
        return message

    @property
    def following(self) -> bool:
        """True while the view sticks to the bottom."""
        return self._follow

    def jump_to_latest(self, *_: object) -> None:
        """Scroll to the bottom and follow new content again."""
        self._follow = True
        self.jump_button.hide()
        bar = self.verticalScrollBar()
        assert bar is not None
        bar.setValue(bar.maximum())

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        bar = self.verticalScrollBar()
        assert bar is not None
        if self._keep_distance_from_bottom is not None:
            bar.setValue(maximum - self._keep_distance_from_bottom)
            self._keep_distance_from_bottom = None
        elif self._follow:
            bar.setValue(maximum)
        self._update_jump()

    def _value_changed(self, value: int) -> None:
        bar = self.verticalScrollBar()
        assert bar is not None
        self._follow = value >= bar.maximum() - 8
        if value <= bar.minimum() and self._earlier_pending and bar.maximum() > 0:
            QTimer.singleShot(0, self.load_earlier)
        self._update_jump()

    def _update_jump(self) -> None:
        bar = self.verticalScrollBar()
        visible = not self._follow and bar is not None and bar.maximum() > 0
        self.jump_button.setVisible(visible)
        if visible:
            self._place_jump()
            self.jump_button.raise_()

    def _place_jump(self) -> None:
        hint = self.jump_button.sizeHint()
        viewport = self.viewport()
        assert viewport is not None
        x = viewport.width() - hint.width() - 12
        y = viewport.height() - hint.height() - 10
        self.jump_button.setGeometry(max(x, 0), max(y, 0), hint.width(), hint.height())

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        """Keep the jump button in the corner."""
        super().resizeEvent(event)
        self._place_jump()


def _group_turns(items: Sequence[HistoryItem]) -> list[list[HistoryItem]]:
    """User messages alone; consecutive assistant text and tool records as one turn."""
    turns: list[list[HistoryItem]] = []
    for item in items:
        if isinstance(item, UserTurn) or not turns or isinstance(turns[-1][0], UserTurn):
            turns.append([item])
        else:
            turns[-1].append(item)
    return turns
