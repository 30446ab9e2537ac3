"""Screen-reader announcements, only for start, finish and errors (never per token).

PyQt6 does not wrap QAccessibleAnnouncementEvent, so the announcer is a tiny label whose
accessible name changes: Qt sends the NameChanged event that screen readers speak for live text.
The last announcements are kept for tests.
"""

from __future__ import annotations

from PyQt6.QtWidgets import QDialogButtonBox, QLabel, QWidget


class Announcer(QLabel):
    """A visually empty label whose accessible name is what assistive technology announces."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedSize(1, 1)
        self.setAccessibleName("")
        self.history: list[str] = []

    def announce(self, text: str) -> None:
        """Speak `text` (through the accessible name change)."""
        self.history.append(text)
        del self.history[:-20]
        self.setAccessibleName(text)


def name_buttons(box: QDialogButtonBox) -> None:
    """Give a button box's standard buttons accessible names (their visible text, no mnemonic)."""
    for button in box.buttons():
        if not button.accessibleName():
            button.setAccessibleName(button.text().replace("&", ""))
