"""The messages of the message view: the user's bubble, the assistant's turn (its text, tool
cards and marks), and the error banner with the action that fits the error (retry, settings,
log in)."""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtGui import QFontDatabase
from PyQt6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.ui.backends.base import (
    IncompleteKind,
)
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard, ToolGroup
from gns3_copilot_desktop.ui.chat.text_blocks import TextSegment, grows_downward, text_label
from gns3_copilot_desktop.ui.core_text import core_text


class UserBubble(QFrame):
    """A message the user sent."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("userBubble")
        self.text = text
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.label = text_label(self, text, markdown=False)
        layout.addWidget(self.label)
        self.setAccessibleName(QCoreApplication.translate("MessageView", "You wrote"))


SETTINGS_KINDS = frozenset({"auth", "bad_request", "ModelConfigError"})
"""Errors the model settings fix (a bad or missing API key, a model the provider refuses)."""
LOGIN_KINDS = frozenset({"Gns3AuthError", "gns3_auth"})
"""Errors a new GNS3 login fixes."""
NO_RETRY_KINDS = frozenset({"stale_decision"})


def error_action(kind: str) -> str | None:
    """What the banner offers for an error kind: "settings", "login", "retry" or nothing."""
    if kind in SETTINGS_KINDS:
        return "settings"
    if kind in LOGIN_KINDS:
        return "login"
    return None if kind in NO_RETRY_KINDS else "retry"


class ErrorBanner(QFrame):
    """What failed, under the partial answer, with what fixes it: Retry, Open model settings or
    Log in. Retry is disabled once a newer turn exists (it would answer an older message)."""

    retry_requested = pyqtSignal()
    settings_requested = pyqtSignal()
    login_requested = pyqtSignal()

    def __init__(
        self,
        message: str,
        kind: str = "",
        parent: QWidget | None = None,
        *,
        details: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.message = message
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        row = QWidget(self)
        outer.addWidget(row)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(8, 4, 8, 4)
        self.label = text_label(
            self,
            "⚠ "
            + (
                core_text(message)
                or QCoreApplication.translate("MessageView", "The answer failed.")
            ),
            False,
        )
        self.label.setObjectName("errorText")
        self.kind = kind  # internal (timeout, auth...): never shown as text
        self.action = error_action(kind)
        self.retry_button = QPushButton(QCoreApplication.translate("MessageView", "Retry"), self)
        self.retry_button.setAccessibleName(
            QCoreApplication.translate("MessageView", "Retry the last message")
        )
        self.retry_button.clicked.connect(self._retry)
        self.retry_button.setVisible(self.action == "retry")
        self.action_button: QPushButton | None = None
        if self.action == "settings":
            self.action_button = QPushButton(
                QCoreApplication.translate("MessageView", "Open model settings"), self
            )
            self.action_button.clicked.connect(self.settings_requested)
        elif self.action == "login":
            self.action_button = QPushButton(
                QCoreApplication.translate("MessageView", "Log in"), self
            )
            self.action_button.clicked.connect(self.login_requested)
        layout.addWidget(self.label, 1)
        if self.action_button is not None:
            self.action_button.setAccessibleName(self.action_button.text())
            layout.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignTop)
        self.details_button: QToolButton | None = None
        self.details_view: QPlainTextEdit | None = None
        if details:
            # The provider's own words (long, technical): there for a report, folded away.
            self.details_button = QToolButton(self)
            self.details_button.setText(QCoreApplication.translate("MessageView", "Details"))
            self.details_button.setCheckable(True)
            self.details_button.setAccessibleName(
                QCoreApplication.translate("MessageView", "Show the provider's own message")
            )
            layout.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
            self.details_view = QPlainTextEdit(self)
            self.details_view.setPlainText(details)
            self.details_view.setReadOnly(True)
            self.details_view.setObjectName("codeBlock")
            self.details_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            self.details_view.setMaximumHeight(160)
            self.details_view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            self.details_view.hide()
            outer.addWidget(self.details_view)
            self.details_button.toggled.connect(self.details_view.setVisible)
        self.setAccessibleName(
            QCoreApplication.translate("MessageView", "Error: %1").replace("%1", message)
        )

    def _retry(self, *_: object) -> None:
        self.retry_button.setEnabled(False)
        self.retry_requested.emit()

    def supersede(self) -> None:
        """A newer turn exists: retrying this one would answer an older message."""
        self.retry_button.setEnabled(False)
        self.retry_button.setToolTip(
            QCoreApplication.translate("MessageView", "A newer message was sent since.")
        )


class AssistantMessage(QWidget):
    """One assistant turn: text segments interleaved with groups of tool cards."""

    def __init__(self, compact: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grows_downward(self)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)
        self._compact = compact
        self._segment: TextSegment | None = None
        self.segments: list[TextSegment] = []
        self.groups: list[ToolGroup] = []
        self.notices: set[str] = set()
        self.setAccessibleName(QCoreApplication.translate("MessageView", "Assistant"))

    @property
    def text(self) -> str:
        """All text of the turn (Markdown), segments joined."""
        return "\n\n".join(s.text for s in self.segments if s.text)

    @property
    def renders(self) -> int:
        """How many times text of this turn was painted."""
        return sum(s.renders for s in self.segments)

    def feed(self, text: str) -> None:
        """Append streamed text to the current segment."""
        if self._segment is None:
            self._segment = TextSegment(self)
            self.segments.append(self._segment)
            self._layout.addWidget(self._segment)
        self._segment.feed(text)

    def close_text(self) -> None:
        """Finish the current text segment (before a card, or at the end of the turn)."""
        if self._segment is not None:
            self._segment.finish()
            self._segment = None

    def add_card(self, card: ToolCard) -> None:
        """Add a tool card, grouping it with the cards right before it."""
        self.close_text()
        item = self._layout.itemAt(self._layout.count() - 1) if self._layout.count() else None
        last = item.widget() if item is not None else None
        if not isinstance(last, ToolGroup):
            last = ToolGroup(self._compact, self)
            last.setObjectName("toolGroup" if self._compact else "")
            self.groups.append(last)
            self._layout.addWidget(last)
        last.add_card(card)

    def add_widget(self, widget: QWidget) -> None:
        """Append an approval card, an error banner..."""
        self.close_text()
        self._layout.addWidget(widget)

    def mark_incomplete(self, kind: IncompleteKind) -> QLabel:
        """A muted line under the answer saying it ended early, so a reopened session does not
        show a half answer as a finished one."""
        if kind == "stopped":
            text = QCoreApplication.translate("MessageView", "Stopped before the end")
        else:
            text = QCoreApplication.translate(
                "MessageView", "Cut off: the model's answer ended early"
            )
        label = QLabel(text, self)
        label.setObjectName("muted")
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        label.setAccessibleName(text)
        self.add_widget(label)
        return label

    def set_compact(self, compact: bool) -> None:
        """Switch the tool groups of this turn between full and compact."""
        self._compact = compact
        for group in self.groups:
            group.set_compact(compact)
