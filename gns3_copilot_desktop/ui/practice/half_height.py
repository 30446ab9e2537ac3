"""The Practice panel takes at most half of the dock's height: the chat keeps the other half."""

from __future__ import annotations

from PyQt6.QtCore import QEvent, QObject
from PyQt6.QtWidgets import QWidget

from gns3_copilot_desktop.ui.practice.rows import RESULTS_HEIGHT


class HalfHeight(QObject):
    """Follows the panel's parent's height (from the panel's first show on); the results area
    gives way first, the buttons and the ticket stay whole."""

    def __init__(self, panel: QWidget, results: QWidget) -> None:
        super().__init__(panel)
        self._panel = panel
        self._results = results
        self._watched: QWidget | None = None

    def follow_parent(self) -> None:
        """The panel is shown: watch its (maybe new) parent's resizes."""
        parent = self._panel.parentWidget()
        if parent is not None and parent is not self._watched:
            if self._watched is not None:
                self._watched.removeEventFilter(self)
            parent.installEventFilter(self)
            self._watched = parent
            self._fit(parent.height())

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        """The parent was resized: the panel takes at most half of it."""
        if watched is self._watched and event is not None and event.type() == QEvent.Type.Resize:
            assert self._watched is not None
            self._fit(self._watched.height())
        return False

    def _fit(self, parent_height: int) -> None:
        limit = max(120, parent_height // 2)
        self._panel.setMaximumHeight(limit)
        self._results.setFixedHeight(max(48, min(RESULTS_HEIGHT, limit - 150)))
