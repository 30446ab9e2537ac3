"""The scrolling list of messages, tool cards, approvals and errors of one session (the messages
themselves are in `messages`, their text blocks in `text_blocks`).

Smoothness rules (shared/notes/stack.md): streamed text is buffered and painted at most ~30 times a
second; each Markdown block is rendered once when it finishes and only the open block is
re-rendered; a loaded session builds only its latest turns and adds earlier ones when the user
scrolls to the top (or presses "Show earlier messages"). Auto-scroll follows only while the view
is at the bottom; otherwise a "Jump to latest" button appears.
"""

from __future__ import annotations

from html import escape

from PyQt6.QtCore import QCoreApplication, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QPalette
from PyQt6.QtWidgets import (
    QFrame,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.ui.backends.base import (
    HistoryItem,
)
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard, ToolState
from gns3_copilot_desktop.ui.chat.messages import AssistantMessage, ErrorBanner, UserBubble
from gns3_copilot_desktop.ui.chat.text_blocks import grows_downward, text_label
from gns3_copilot_desktop.ui.chat.view_history import ViewHistory
from gns3_copilot_desktop.ui.core_text import core_text

PAINT_INTERVAL_MS = 33


class MessageView(ViewHistory):
    """The conversation of one session. Feed it from the ChatController's signals."""

    retry_requested = pyqtSignal()
    settings_requested = pyqtSignal()
    login_requested = pyqtSignal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(QCoreApplication.translate("MessageView", "Conversation"))
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._container = grows_downward(QWidget(self))
        self._container.setObjectName("conversation")
        self._layout = QVBoxLayout(self._container)
        self._layout.setContentsMargins(8, 8, 8, 8)
        self._layout.setSpacing(8)
        self.earlier_button = QPushButton(
            QCoreApplication.translate("MessageView", "Show earlier messages"), self._container
        )
        self.earlier_button.setAccessibleName(
            QCoreApplication.translate("MessageView", "Show earlier messages")
        )
        self.earlier_button.clicked.connect(self.load_earlier)
        self.earlier_button.hide()
        self._layout.addWidget(self.earlier_button)
        self._layout.addStretch(1)
        self.setWidget(self._container)
        # the conversation sits on the text background (white / near-black), cards on top of it
        viewport = self.viewport()
        assert viewport is not None
        viewport.setBackgroundRole(QPalette.ColorRole.Base)
        self._container.setBackgroundRole(QPalette.ColorRole.Base)
        self.empty_label = text_label(self._container, "", markdown=False)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setObjectName("muted")
        self.empty_label.setOpenExternalLinks(False)
        self.empty_label.linkActivated.connect(self._checklist_link)
        self.checklist = (True, True, True)
        self._layout.insertWidget(1, self.empty_label)
        self.set_empty_text(
            QCoreApplication.translate(
                "MessageView", "Ask about your GNS3 project, or ask the assistant to build it."
            )
        )

        self.jump_button = QToolButton(self)
        self.jump_button.setText(QCoreApplication.translate("MessageView", "↓ Jump to latest"))
        self.jump_button.setAccessibleName(
            QCoreApplication.translate("MessageView", "Jump to the latest message")
        )
        self.jump_button.clicked.connect(self.jump_to_latest)
        self.jump_button.hide()

        self._buffer: list[str] = []
        self._paint_timer = QTimer(self)
        self._paint_timer.setSingleShot(True)
        self._paint_timer.setInterval(PAINT_INTERVAL_MS)
        self._paint_timer.timeout.connect(self.flush)
        self.paints = 0
        self._follow = True
        self._earlier_pending: list[list[list[HistoryItem]]] = []
        self._keep_distance_from_bottom: int | None = None
        self._current: AssistantMessage | None = None
        self._cards: dict[str, ToolCard] = {}
        self._approval: ApprovalCard | None = None
        self._compact = False
        bar = self.verticalScrollBar()
        assert bar is not None
        bar.rangeChanged.connect(self._range_changed)
        bar.valueChanged.connect(self._value_changed)

    # --- building ---------------------------------------------------------------------------

    def add_card(self, widget: QWidget) -> None:
        """A card of the app's own (the lab's drawing) after the conversation, shown at once."""
        self._append(widget)
        self.jump_to_latest()

    def _append(self, widget: QWidget) -> None:
        self.empty_label.hide()
        self._layout.insertWidget(self._layout.count() - 1, widget)

    def set_checklist(self, logged_in: bool, model_ready: bool, project_open: bool) -> None:
        """The first-run checklist in the empty chat (Log in -> Add a model -> Open a project),
        each step ticked as it is done and linked to what does it; the usual hint once all
        three are."""
        self.checklist = (logged_in, model_ready, project_open)
        if all(self.checklist):
            self.empty_label.setTextFormat(Qt.TextFormat.PlainText)
            self.set_empty_text(
                QCoreApplication.translate(
                    "MessageView", "Ask about your GNS3 project, or ask the assistant to build it."
                )
            )
            return
        steps = [
            (
                logged_in,
                QCoreApplication.translate("MessageView", "Log in to the GNS3 server"),
                "login",
            ),
            (model_ready, QCoreApplication.translate("MessageView", "Add a model"), "settings"),
            (
                project_open,
                QCoreApplication.translate(
                    "MessageView", "Open a project in GNS3 (or choose one above)"
                ),
                "",
            ),
        ]
        rows = []
        for index, (done, text, link) in enumerate(steps, 1):
            mark = "✓" if done else f"{index}."
            shown = escape(text)
            if link and not done:
                shown = f'<a href="{link}">{shown}</a>'
            rows.append(f"{mark} {'<s>' + shown + '</s>' if done else shown}")
        heading = escape(QCoreApplication.translate("MessageView", "To start:"))
        self.empty_label.setTextFormat(Qt.TextFormat.RichText)
        self.set_empty_text(f"<p><b>{heading}</b></p><p>" + "<br>".join(rows) + "</p>")

    def _checklist_link(self, target: str) -> None:
        if target == "login":
            self.login_requested.emit()
        elif target == "settings":
            self.settings_requested.emit()

    def set_empty_text(self, text: str) -> None:
        """The hint shown while the conversation is empty."""
        self.empty_label.setText(text)

    def clear(self) -> None:
        """Remove everything (switching sessions)."""
        self._paint_timer.stop()
        self._buffer.clear()
        self._current = None
        self._cards.clear()
        self._approval = None
        self._earlier_pending.clear()
        for widget in self.message_widgets():
            widget.setParent(None)
            widget.deleteLater()
        self.earlier_button.hide()
        self.empty_label.show()
        self._follow = True
        self.jump_button.hide()

    def message_widgets(self) -> list[QWidget]:
        """The message widgets in display order."""
        widgets = []
        for i in range(self._layout.count()):
            item = self._layout.itemAt(i)
            w = item.widget() if item is not None else None
            if w is not None and w not in (self.earlier_button, self.empty_label):
                widgets.append(w)
        return widgets

    def add_user_message(self, text: str) -> UserBubble:
        """Show a message the user sent and follow it (earlier errors can no longer be
        retried: that would answer an older message)."""
        self.finish_turn()
        for banner in self._container.findChildren(ErrorBanner):
            banner.supersede()
        bubble = UserBubble(text, self._container)
        self._append(bubble)
        self.jump_to_latest()
        return bubble

    def _assistant(self) -> AssistantMessage:
        if self._current is None:
            self._current = AssistantMessage(self._compact, self._container)
            self._append(self._current)
        return self._current

    @property
    def current_turn(self) -> AssistantMessage | None:
        """The assistant turn being streamed, if any."""
        return self._current

    # --- streaming --------------------------------------------------------------------------

    def append_content(self, text: str) -> None:
        """Buffer streamed text; it is painted within PAINT_INTERVAL_MS."""
        self._buffer.append(text)
        if not self._paint_timer.isActive():
            self._paint_timer.start()

    def flush(self) -> None:
        """Paint the buffered text now."""
        self._paint_timer.stop()
        if not self._buffer:
            return
        text = "".join(self._buffer)
        self._buffer.clear()
        self._assistant().feed(text)
        self.paints += 1

    def show_notice(self, text: str) -> QLabel | None:
        """A note on how the model was asked (fewer tools for a small context window), once per
        answer: the user learns why the assistant cannot change the lab now, and what to do."""
        turn = self._assistant()
        if text in turn.notices:
            return None
        turn.notices.add(text)
        self.flush()
        label = QLabel(
            QCoreApplication.translate("MessageView", "Note: %1").replace("%1", core_text(text)),
            self._container,
        )
        label.setObjectName("stateWaiting")
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        label.setAccessibleName(label.text())
        turn.add_widget(label)
        return label

    def show_error(self, message: str, kind: str = "", details: str | None = None) -> ErrorBanner:
        """Keep the partial answer and show what failed, with Retry (and the provider's own
        text behind Details)."""
        self.flush()
        banner = ErrorBanner(message, kind, self._container, details=details)
        banner.retry_requested.connect(self.retry_requested)
        banner.settings_requested.connect(self.settings_requested)
        banner.login_requested.connect(self.login_requested)
        self._assistant().add_widget(banner)
        return banner

    def finish_turn(self, outcome: str = "done") -> None:
        """The stream ended: paint what is left, close the open block, settle the cards."""
        self.flush()
        if self._current is not None:
            self._current.close_text()
            if outcome != "done":
                for card in self._cards.values():
                    if not card.state.finished and card.state is not ToolState.AWAITING_APPROVAL:
                        card.finish("cancelled")
            self._refresh_groups()
        if outcome != "awaiting":
            self._current = None

    # --- compact mode -----------------------------------------------------------------------

    def set_compact(self, compact: bool) -> None:
        """Hide tool cards behind a count (compact) or show them."""
        self._compact = compact
        for widget in self.message_widgets():
            if isinstance(widget, AssistantMessage):
                widget.set_compact(compact)


__all__ = ["MessageView"]
