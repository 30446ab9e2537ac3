"""An answer's text as the message view shows it: Markdown blocks rendered once each (only the
open block is rendered again as it grows), code blocks with their Copy button, and the chunked
area that stacks many blocks without laying all of them out again."""

from __future__ import annotations

from collections.abc import Sequence

from PyQt6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PyQt6.QtGui import QGuiApplication, QResizeEvent
from PyQt6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.ui.cards.tool_widgets import monospace_font
from gns3_copilot_desktop.ui.chat.markdown import Block, MarkdownStream
from gns3_copilot_desktop.ui.lab.node_links import linked

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


def text_label(parent: QWidget, text: str = "", markdown: bool = True) -> QLabel:
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
        grows_downward(self)
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
            label = text_label(self, "", markdown=False)
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


def grows_downward(widget: QWidget) -> QWidget:
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
        grows_downward(self)
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
        grows_downward(self)
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
        grows_downward(self)
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
        self._open = text_label(self)
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
    return text_label(parent, linked(block.text), markdown=True)
