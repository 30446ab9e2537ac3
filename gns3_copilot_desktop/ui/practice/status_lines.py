"""The Practice panel's status line and error line.

The status line says the step under way with its elapsed time ("Injecting… 3 s"), then how it
went; the error line shows an engine error's text. Each hides when empty.
"""

from __future__ import annotations

import time

from PyQt6.QtCore import QObject, QTimer
from PyQt6.QtWidgets import QWidget

from gns3_copilot_desktop.ui.practice.rows import plain_label
from gns3_copilot_desktop.ui.practice.texts import duration_text


class StatusLines(QObject):
    """Two labels of `parent` (the panel lays them out) and the ticking of a slow step."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.status_label = plain_label(parent, "muted")
        self.error_label = plain_label(parent, "errorText")
        self.error_label.setStyleSheet("color: #c62828;")
        self._progress = ""
        self._progress_since = 0.0
        self._progress_timer = QTimer(self)
        self._progress_timer.setInterval(500)
        self._progress_timer.timeout.connect(self._tick_progress)

    def say(self, text: str) -> None:
        """The status line (hidden when empty)."""
        self.status_label.setText(text)
        self.status_label.setVisible(bool(text))

    def error(self, text: str) -> None:
        """The error line (hidden when empty)."""
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def begin(self, progress: str) -> None:
        """A step starts: say `progress` and how long it takes, until the step says more.
        A quick step ("") leaves the status line, and the layout, alone."""
        self._progress, self._progress_since = progress, time.monotonic()
        if progress:
            self.say(progress)
            self._progress_timer.start()

    def end(self) -> None:
        """The step is over: its time stops ticking."""
        self._progress_timer.stop()
        self._progress = ""

    def _tick_progress(self) -> None:
        """The step under way with its elapsed time ("Injecting… 3 s")."""
        if not self._progress or not self.status_label.text().startswith(self._progress):
            return  # the step already said how it went
        seconds = int(time.monotonic() - self._progress_since)
        self.say(f"{self._progress} {duration_text(seconds)}")
