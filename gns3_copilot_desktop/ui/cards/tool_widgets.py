"""The widgets a `ToolCard` is made of: an elided one-line label, the title label that keeps the
tool's name in view, and the read-only text block for arguments and output."""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import Qt
from PyQt6.QtGui import (
    QFontDatabase,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextOption,
    QWheelEvent,
)
from PyQt6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QWidget,
)


def monospace_font() -> Any:
    """The system's fixed-width font."""
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


class ElidedLabel(QLabel):
    """A one-line label that ends with "…" when it does not fit (the full text is its tooltip)."""

    def paintEvent(self, event: QPaintEvent | None) -> None:
        """Draw the elided text instead of clipping it."""
        painter = QPainter(self)
        metrics = self.fontMetrics()
        text = metrics.elidedText(self.text(), Qt.TextElideMode.ElideRight, self.width())
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(self.rect(), flags, text)


class ToolTitleLabel(ElidedLabel):
    """ "Tool name · summary": when it does not fit, the tool name gives way, not the summary.

    The name is shown whole or not at all (a cut name such as "dele…" says nothing; the summary
    says what happens), then the summary is elided at its end. `text()` stays the whole title
    and the card's tooltip carries it.
    """

    _SEPARATOR = " · "

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._name = ""
        self._summary = ""

    def set_parts(self, name: str, summary: str) -> None:
        """The tool's display name and what it does (with its progress)."""
        self._name, self._summary = name, summary
        self.setText(f"{name}{self._SEPARATOR}{summary}" if summary else name)
        self.update()

    def shown_text(self) -> str:
        """The text as painted at the label's current width."""
        metrics = self.fontMetrics()
        width = self.width()
        full = self.text()
        if metrics.horizontalAdvance(full) <= width:
            return full
        if not self._summary:
            return metrics.elidedText(self._name, Qt.TextElideMode.ElideRight, width)
        return metrics.elidedText(self._summary, Qt.TextElideMode.ElideRight, width)

    def paintEvent(self, event: QPaintEvent | None) -> None:
        """Draw the title with the name given up before the summary."""
        painter = QPainter(self)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(self.rect(), flags, self.shown_text())


class ReadOnlyText(QPlainTextEdit):
    """Monospace read-only text that wraps long lines and whose height follows its content up
    to `max_lines`; the mouse wheel scrolls it only while it can scroll that way, else the chat
    around it scrolls (a card's box never traps the wheel)."""

    def __init__(self, text: str, name: str, max_lines: int = 24, parent: QWidget | None = None):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(monospace_font())
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAccessibleName(name)
        self.setMinimumWidth(40)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._max_lines = max_lines
        self.set_text(text)

    def set_text(self, text: str) -> None:
        """Replace the text and fit the height to it."""
        self.setPlainText(text)
        self._fit_height()

    def _visual_lines(self) -> int:
        """Lines as shown at the current width (a wrapped line counts each of its rows)."""
        count = 0
        document = self.document()
        block = document.firstBlock() if document is not None else None
        while block is not None and block.isValid():
            layout = block.layout()
            count += max(layout.lineCount() if layout is not None else 1, 1)
            block = block.next()
        return max(count, 1)

    def _fit_height(self) -> None:
        lines = min(self._visual_lines(), self._max_lines)
        self.setFixedHeight(lines * self.fontMetrics().lineSpacing() + 12)

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        """A new width wraps the lines again: fit the height again."""
        super().resizeEvent(event)
        self._fit_height()

    def wheelEvent(self, event: QWheelEvent | None) -> None:
        """Scroll this box while it can; at its end (or when it cannot scroll) the wheel goes to
        the chat around it."""
        if event is None:
            return
        bar = self.verticalScrollBar()
        delta = event.angleDelta().y()
        at_end = (
            bar is None
            or bar.maximum() == 0
            or (delta > 0 and bar.value() <= bar.minimum())
            or (delta < 0 and bar.value() >= bar.maximum())
        )
        if at_end or delta == 0:
            event.ignore()
            return
        super().wheelEvent(event)
