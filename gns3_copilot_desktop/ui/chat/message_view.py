"""The scrolling list of messages, tool cards, approvals and errors of one session.

Smoothness rules (shared/notes/stack.md): streamed text is buffered and painted at most ~30 times a
second; each Markdown block is rendered once when it finishes and only the open block is
re-rendered; a loaded session builds only its latest turns and adds earlier ones when the user
scrolls to the top (or presses "Show earlier messages"). Auto-scroll follows only while the view
is at the bottom; otherwise a "Jump to latest" button appears.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from PyQt6.QtCore import QCoreApplication, QEvent, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QFontDatabase, QGuiApplication, QPalette, QResizeEvent
from PyQt6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk
from gns3_copilot_desktop.ui.backends.base import (
    AssistantTurn,
    HistoryItem,
    IncompleteKind,
    ToolRecord,
    UserTurn,
)
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard, ToolGroup, ToolState
from gns3_copilot_desktop.ui.cards.tool_widgets import monospace_font
from gns3_copilot_desktop.ui.chat.markdown import Block, MarkdownStream, split_blocks
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.lab.node_links import linked


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


PAINT_INTERVAL_MS = 33
NOT_RUN_TEXT = QT_TRANSLATE_NOOP("MessageView", "Not run: you sent a new message")
HISTORY_BATCH = 20
CHUNK_BLOCKS = 16
CODE_LINES = 40
BLOCK_SPACING = 4


class BlockLabel(QLabel):
    """A label whose height-for-width is remembered per width.

    QLabel lays its text out again each time a layout asks for its height, and Qt layouts ask
    again after every change anywhere in the conversation. Finished blocks never change, so the
    answer is cached (cleared when the text, font or style changes).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._heights: dict[int, int] = {}

    def heightForWidth(self, width: int) -> int:
        """Qt's answer, computed once per width."""
        height = self._heights.get(width)
        if height is None:
            if len(self._heights) > 8:
                self._heights.clear()
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def setText(self, text: str | None) -> None:
        """Replace the text (and forget the cached heights)."""
        self._heights.clear()
        super().setText(text)

    def changeEvent(self, event: QEvent | None) -> None:
        """Fonts and styles change the heights."""
        self._heights.clear()
        super().changeEvent(event)


def _text_label(parent: QWidget, text: str = "", markdown: bool = True) -> QLabel:
    label = BlockLabel(parent)
    label.setTextFormat(Qt.TextFormat.MarkdownText if markdown else Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setOpenExternalLinks(True)
    label.setTextInteractionFlags(
        Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.LinksAccessibleByMouse
    )
    # Ignored width: a long word or URL must not widen the view past a narrow dock.
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setText(text)
    return label


def _code_lines(text: str) -> list[str]:
    """The lines of an open code fence, without the fence marker."""
    return text.split("\n")[1:]


def _show_as_code(label: QLabel, lines: list[str]) -> None:
    """Lines of code as monospace plain text."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setFont(monospace_font())
    label.setText("\n".join(lines))


class CodeLines(QWidget):
    """Monospace lines as labels of CODE_LINES lines each, stacked by hand.

    A label lays its whole text out again on every change, and a code block streams line by
    line: a long listing (a `show running-config`) in one label made each paint cost more as
    it grew. Groups of lines are laid out once each, so line 2,000 costs what line 20 did.
    """

    def __init__(self, parent: QWidget, lines: Sequence[str] = (), no_wrap: bool = False) -> None:
        super().__init__(parent)
        _grows_downward(self)
        self.no_wrap = no_wrap
        """Lines keep their columns (CLI output, configs): wider than the panel, they scroll."""
        policy = self.sizePolicy()
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self._labels: list[QLabel] = []
        self._width = -1
        self._bottom = 0
        self.line_count = 0
        self.append(lines)

    def append(self, lines: Sequence[str]) -> None:
        """Add lines below the others (a label per CODE_LINES lines)."""
        for start in range(0, len(lines), CODE_LINES):
            group = list(lines[start : start + CODE_LINES])
            label = _text_label(self, "", markdown=False)
            _show_as_code(label, group)
            label.setWordWrap(not self.no_wrap)
            label.setAccessibleName(QCoreApplication.translate("MessageView", "Code"))
            self._labels.append(label)
            self.line_count += len(group)
            if self._width > 0:
                height = _height_for(label, self._width)
                label.setGeometry(0, self._bottom, self._width, height)
                self._bottom += height
            label.show()
        if lines:
            self.updateGeometry()

    def clear(self) -> None:
        """Remove every line."""
        for label in self._labels:
            label.hide()
            label.deleteLater()
        self._labels.clear()
        self._bottom = 0
        self.line_count = 0
        self.updateGeometry()

    def text(self) -> str:
        """The lines, joined."""
        return "\n".join(label.text() for label in self._labels)

    def natural_width(self) -> int:
        """The width of the longest line (no wrapping)."""
        return max((label.sizeHint().width() for label in self._labels), default=0)

    def heightForWidth(self, width: int) -> int:
        """The stacked height at `width` (each label remembers its heights per width)."""
        if width == self._width:
            return self._bottom
        return sum(_height_for(label, width) for label in self._labels)

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        """A new width changes the wrapped heights."""
        super().resizeEvent(event)
        if self.width() != self._width:
            self._width = self.width()
            top = 0
            for label in self._labels:
                height = _height_for(label, self._width)
                label.setGeometry(0, top, self._width, height)
                top += height
            self._bottom = top


class CodeBlock(QFrame):
    """A finished code block: monospace, wrapped to the panel, and a Copy button."""

    def __init__(self, code: str, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeBlock")
        self.code = code
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.setSpacing(2)
        row = QHBoxLayout()
        lang = QLabel(language or QCoreApplication.translate("MessageView", "code"), self)
        lang.setObjectName("muted")
        self.copy_button = QToolButton(self)
        self.copy_button.setText(QCoreApplication.translate("MessageView", "Copy"))
        self.copy_button.setAccessibleName(QCoreApplication.translate("MessageView", "Copy code"))
        self.copy_button.clicked.connect(self.copy)
        row.addWidget(lang)
        row.addStretch(1)
        row.addWidget(self.copy_button)
        layout.addLayout(row)
        # labels, not a text editor: a long answer can hold hundreds of code blocks, and an
        # editor per block made streaming stutter in the benchmark. The lines keep their columns
        # (a `show ip interface brief` stays a table): a block wider than the panel scrolls
        # sideways in its own scroll area.
        self.scroller = QScrollArea(self)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.scroller.setWidgetResizable(True)
        self.text_view = CodeLines(self.scroller, code.split("\n"), no_wrap=True)
        self.text_view.setMinimumWidth(self.text_view.natural_width())
        self.scroller.setWidget(self.text_view)
        self.scroller.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.scroller)
        self._header_height = max(lang.sizeHint().height(), self.copy_button.sizeHint().height())
        self._fit(self.width())

    def _lines_height(self) -> int:
        return sum(label.sizeHint().height() for label in self.text_view._labels)

    def _scrolls(self, width: int) -> bool:
        return self.text_view.natural_width() > width - 8  # the layout's side margins

    def _fit(self, width: int) -> None:
        bar = self.scroller.horizontalScrollBar()
        extra = bar.sizeHint().height() if bar is not None and self._scrolls(width) else 0
        self.scroller.setFixedHeight(self._lines_height() + extra)

    def hasHeightForWidth(self) -> bool:
        """Its height depends on whether the lines need a scroll bar at that width."""
        return True

    def heightForWidth(self, width: int) -> int:
        """Header, the lines unwrapped, and the sideways scroll bar when they are wider."""
        bar = self.scroller.horizontalScrollBar()
        extra = bar.sizeHint().height() if bar is not None and self._scrolls(width) else 0
        return 2 + self._header_height + 2 + self._lines_height() + extra + 4

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        """A new width may add or remove the sideways scroll bar."""
        super().resizeEvent(event)
        self._fit(self.width())

    def copy(self, *_: object) -> None:
        """Put the code on the clipboard."""
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.code)
        self.copy_button.setText(QCoreApplication.translate("MessageView", "Copied"))


def _grows_downward(widget: QWidget) -> QWidget:
    """Mark a container whose content only grows at the bottom while an answer streams.

    Without this, each growth of a widget repaints all of it (and its children) on every
    paint; with it, Qt repaints only the newly exposed strip.
    """
    widget.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
    return widget


def _height_for(widget: QWidget, width: int) -> int:
    """The height `widget` needs at `width` (polished first: the style sheet may change fonts)."""
    widget.ensurePolished()
    if widget.hasHeightForWidth():
        return widget.heightForWidth(width)
    return widget.sizeHint().height()


class _Chunk(QWidget):
    """Up to CHUNK_BLOCKS finished blocks, stacked by hand (no layout).

    A Qt layout asks all its items again after any change inside it; a chunk only places the
    block it adds, and re-stacks its blocks only when its width changes. Once full (or once its
    segment finished) a chunk is *frozen*: it never changes again at this width.
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        _grows_downward(self)
        self._blocks: list[QWidget] = []
        self._width = -1
        self._bottom = 0
        self._closed = False

    @property
    def frozen(self) -> bool:
        """True once no more blocks go into this chunk."""
        return self._closed or self.full

    @property
    def full(self) -> bool:
        """True when the chunk holds CHUNK_BLOCKS blocks."""
        return len(self._blocks) >= CHUNK_BLOCKS

    def add(self, widget: QWidget) -> int:
        """Place a block (a child of this chunk) under the others; return the new height."""
        top = self._bottom + BLOCK_SPACING if self._blocks else 0
        height = _height_for(widget, self._width)
        widget.setGeometry(0, top, self._width, height)
        widget.show()  # the chunk has no layout: showing lays out nothing above it
        self._blocks.append(widget)
        self._bottom = top + height
        self.resize(self._width, self._bottom)
        return self._bottom

    def freeze(self) -> None:
        """No more blocks will be added."""
        self._closed = True

    def stack(self, width: int, force: bool = False) -> int:
        """Lay the blocks out at `width` (only when it changed, or when forced); the height."""
        if width != self._width or force:
            self._width = width
            top = 0
            for widget in self._blocks:
                height = _height_for(widget, width)
                widget.setGeometry(0, top, width, height)
                top += height + BLOCK_SPACING
            self._bottom = max(top - BLOCK_SPACING, 0)
        return self._bottom

    def widgets(self) -> list[QWidget]:
        """The block widgets, in order."""
        return list(self._blocks)


class _BlockArea(QWidget):
    """The finished blocks of a text segment: chunks stacked by hand, one fixed-height item.

    Its parent's layout sees one widget of fixed height however long the answer grows. Adding
    a block touches only the last chunk; a new width (or font or style) re-stacks everything
    once. So the work of a paint does not grow with the length of the answer.
    """

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        _grows_downward(self)
        self.chunks: list[_Chunk] = []
        self._width = -1
        self._restack_queued = False

    def chunk_for_next_block(self) -> _Chunk:
        """The chunk the next block goes into (a new one when the last is frozen)."""
        if self.chunks and not self.chunks[-1].frozen:
            return self.chunks[-1]
        chunk = _Chunk(self)
        top = self._bottom() + BLOCK_SPACING if self.chunks else 0
        chunk.stack(self._width)
        chunk.setGeometry(0, top, max(self._width, 0), 0)
        chunk.show()
        self.chunks.append(chunk)
        return chunk

    def add(self, widget: QWidget) -> None:
        """Add a block made as a child of `chunk_for_next_block()`."""
        chunk = self.chunks[-1]
        chunk.add(widget)
        self._fit()

    def freeze(self) -> None:
        """The segment finished: its last chunk takes no more blocks."""
        if self.chunks:
            self.chunks[-1].freeze()

    def _bottom(self) -> int:
        last = self.chunks[-1]
        return last.y() + last.height()

    def _fit(self) -> None:
        self.setFixedHeight(self._bottom() if self.chunks else 0)

    def _restack(self, width: int, force: bool = False) -> None:
        self._width = width
        top = 0
        for chunk in self.chunks:
            height = chunk.stack(width, force)
            chunk.setGeometry(0, top, width, height)
            top += height + BLOCK_SPACING
        self._fit()

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        """A new width changes the wrapped height of the text."""
        super().resizeEvent(event)
        if self.width() != self._width:
            self._restack(self.width())

    def changeEvent(self, event: QEvent | None) -> None:
        """Fonts and styles change the wrapped height (re-stacked once they all arrived)."""
        super().changeEvent(event)
        kinds = (QEvent.Type.FontChange, QEvent.Type.StyleChange)
        if event is not None and event.type() in kinds and not self._restack_queued:
            self._restack_queued = True
            QTimer.singleShot(0, self._restyled)

    def _restyled(self) -> None:
        self._restack_queued = False
        self._restack(self.width(), force=True)


class TextSegment(QWidget):
    """A run of assistant text: finished blocks are widgets made once, the open block a label."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        _grows_downward(self)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(BLOCK_SPACING)
        self._stream = MarkdownStream()
        self._area = _BlockArea(self)
        self._area.hide()
        self._layout.addWidget(self._area)
        # an open code fence: its earlier lines in groups laid out once, the last ones in _open
        self._open_code = CodeLines(self)
        self._open_code.hide()
        self._layout.addWidget(self._open_code)
        self._open = _text_label(self)
        self._open.hide()
        self._layout.addWidget(self._open)
        self.renders = 0

    @property
    def text(self) -> str:
        """The raw Markdown streamed so far."""
        return self._stream.text

    @property
    def _chunks(self) -> list[_Chunk]:
        return self._area.chunks

    def feed(self, text: str) -> None:
        """Add text; render newly finished blocks once and the open block again."""
        done, open_block = self._stream.feed(text)
        self._add_blocks(done)
        if done:  # the open block is a new one
            self._reset_open_code()
        self._show_open(open_block)
        self.renders += 1

    def finish(self) -> None:
        """End of this run: the open block becomes a finished widget."""
        self._add_blocks(self._stream.close())
        self._show_open(None)
        self._area.freeze()

    def _add_blocks(self, blocks: list[Block]) -> None:
        for block in blocks:
            chunk = self._area.chunk_for_next_block()
            self._area.add(_block_widget(chunk, block))
        if blocks and self._area.isHidden():
            self._area.show()

    def _show_open(self, block: Block | None) -> None:
        if block is None:
            self._reset_open_code()
            self._open.hide()
            self._open.clear()
            return
        if block.kind == "markdown":
            self._reset_open_code()
            self._open.setTextFormat(Qt.TextFormat.MarkdownText)
            self._open.setFont(self.font())
            self._open.setText(linked(block.text))
        else:
            self._show_open_code(_code_lines(block.text))
        if self._open.isHidden():
            self._open.show()

    def _show_open_code(self, lines: list[str]) -> None:
        """Whole groups of finished lines go into `_open_code` once; the rest into `_open`."""
        done = self._open_code.line_count
        # the last line may still grow; a group is moved once all its lines are complete
        while len(lines) - 1 - done >= CODE_LINES:
            self._open_code.append(lines[done : done + CODE_LINES])
            done += CODE_LINES
        if done and self._open_code.isHidden():
            self._open_code.show()
        _show_as_code(self._open, lines[done:])

    def _reset_open_code(self) -> None:
        if self._open_code.line_count:
            self._open_code.clear()
            self._open_code.hide()

    def block_widgets(self) -> list[QWidget]:
        """The widgets of the finished blocks, in order."""
        return [w for chunk in self._chunks for w in chunk.widgets()]


def _block_widget(parent: QWidget, block: Block) -> QWidget:
    if block.kind == "code":
        return CodeBlock(block.text, block.language, parent)
    if block.kind == "plain":  # a code fence the answer never closed
        return CodeLines(parent, _code_lines(block.text))
    return _text_label(parent, linked(block.text), markdown=True)


class UserBubble(QFrame):
    """A message the user sent."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("userBubble")
        self.text = text
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.label = _text_label(self, text, markdown=False)
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
        self.label = _text_label(
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
        _grows_downward(self)
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


class MessageView(QScrollArea):
    """The conversation of one session. Feed it from the ChatController's signals."""

    retry_requested = pyqtSignal()
    settings_requested = pyqtSignal()
    login_requested = pyqtSignal()
    decisions_made = pyqtSignal(list)  # list[UserDecision]
    plan_undo_requested = pyqtSignal(object)  # a finished plan's structured result
    plan_snapshot_requested = pyqtSignal(object)  # the same, for "Take a GNS3 snapshot"
    change_undo_requested = pyqtSignal(object)  # a finished change's structured result

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(QCoreApplication.translate("MessageView", "Conversation"))
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._container = _grows_downward(QWidget(self))
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
        self.empty_label = _text_label(self._container, "", markdown=False)
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

    def start_tool(self, chunk: ChatChunk) -> ToolCard:
        """A tool_call (queued) or tool_start (running) chunk."""
        self.flush()
        call_id = chunk.tool_call_id or (chunk.tool_call.id if chunk.tool_call else "")
        state = ToolState.RUNNING if chunk.type == "tool_start" else ToolState.QUEUED
        card = self._cards.get(call_id)
        if card is None:
            name = chunk.tool_name or (chunk.tool_call.function.name if chunk.tool_call else "?")
            card = ToolCard(call_id, name, _arguments(chunk), chunk.content or "", state)
            self._cards[call_id] = card
            self._assistant().add_card(card)
        else:
            if chunk.type == "tool_start" and chunk.content:
                # the first tool_start carries the tool's summary; later ones its progress
                if card.state is ToolState.RUNNING:
                    card.set_progress(chunk.content)
                else:
                    card.set_summary(chunk.content)
            card.set_state(state)
        self._refresh_groups()
        return card

    def end_tool(self, chunk: ChatChunk) -> ToolCard:
        """A tool_end chunk: the card shows status, duration and output."""
        self.flush()
        card = self._cards.get(chunk.tool_call_id or "")
        if card is None:
            card = self.start_tool(chunk.model_copy(update={"type": "tool_start"}))
        card.finish(
            chunk.status or "ok", chunk.tool_output or "", chunk.duration_ms, bool(chunk.truncated)
        )
        card.set_structured(chunk.structured)
        if chunk.tool_name == "plan_lab" and chunk.structured and card.plan_outcome is None:
            outcome = card.show_plan_outcome(chunk.structured)
            outcome.undo_requested.connect(self.plan_undo_requested.emit)
            outcome.snapshot_requested.connect(self.plan_snapshot_requested.emit)
        elif chunk.structured:
            self._offer_undo(card, chunk.structured)
        self._refresh_groups()
        return card

    def _offer_undo(self, card: ToolCard, structured: dict[str, Any]) -> None:
        undo = card.show_undo(structured)
        if undo is not None:
            undo.undo_requested.connect(self.change_undo_requested.emit)

    def card(self, tool_call_id: str) -> ToolCard | None:
        """The card of a tool call."""
        return self._cards.get(tool_call_id)

    def _refresh_groups(self) -> None:
        if self._current is not None:
            for group in self._current.groups:
                group.refresh()

    def show_approvals(self, requests: Sequence[ApprovalRequest]) -> ApprovalCard:
        """Cards wait for approval; the approval card asks for the decisions."""
        self.flush()
        for request in requests:
            card = self._cards.get(request.tool_call_id)
            if card is None:
                card = ToolCard(
                    request.tool_call_id,
                    request.tool_name,
                    request.arguments,
                    request.summary,
                    ToolState.AWAITING_APPROVAL,
                )
                self._cards[request.tool_call_id] = card
                self._assistant().add_card(card)
            else:
                card.set_state(ToolState.AWAITING_APPROVAL)
        self.lock_approvals(QCoreApplication.translate("MessageView", NOT_RUN_TEXT))
        approval = ApprovalCard(list(requests), self._container)
        approval.decided.connect(self._decided)
        self._approval = approval
        self._assistant().add_widget(approval)
        self.jump_to_latest()
        approval.focus_first()
        return approval

    @property
    def open_approval(self) -> ApprovalCard | None:
        """The approval card that still waits for the user, if any."""
        card = self._approval
        return card if card is not None and not card.done else None

    def lock_approvals(self, text: str) -> None:
        """The turn moved on without a decision (a new message was sent): the waiting card and
        its tool cards say so, and nothing on them can be clicked any more."""
        card = self.open_approval
        if card is None or not card.lock(text):
            return
        for item in card.items:
            tool = self._cards.get(item.request.tool_call_id)
            if tool is not None:
                tool.finish("cancelled", text)

    def _decided(self, decisions: list[Any]) -> None:
        for decision in decisions:
            card = self._cards.get(decision.tool_call_id)
            if card is not None and decision.action == "reject":
                card.finish("rejected", decision.reason or "")
            elif card is not None:
                if decision.arguments is not None:  # it runs with the user's edits
                    card.arguments = dict(decision.arguments)
                card.set_state(ToolState.QUEUED)
        self.decisions_made.emit(decisions)

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

    # --- history (lazy) ---------------------------------------------------------------------

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

    # --- compact mode -----------------------------------------------------------------------

    def set_compact(self, compact: bool) -> None:
        """Hide tool cards behind a count (compact) or show them."""
        self._compact = compact
        for widget in self.message_widgets():
            if isinstance(widget, AssistantMessage):
                widget.set_compact(compact)

    # --- scrolling --------------------------------------------------------------------------

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


def _arguments(chunk: ChatChunk) -> dict[str, Any]:
    if chunk.tool_call is None or not chunk.tool_call.function.arguments:
        return {}
    try:
        value = json.loads(chunk.tool_call.function.arguments)
    except json.JSONDecodeError:
        return {"arguments": chunk.tool_call.function.arguments}
    return value if isinstance(value, dict) else {"arguments": value}


def _group_turns(items: Sequence[HistoryItem]) -> list[list[HistoryItem]]:
    """User messages alone; consecutive assistant text and tool records as one turn."""
    turns: list[list[HistoryItem]] = []
    for item in items:
        if isinstance(item, UserTurn) or not turns or isinstance(turns[-1][0], UserTurn):
            turns.append([item])
        else:
            turns[-1].append(item)
    return turns


__all__ = [
    "AssistantMessage",
    "CodeBlock",
    "ErrorBanner",
    "MessageView",
    "UserBubble",
    "split_blocks",
]
