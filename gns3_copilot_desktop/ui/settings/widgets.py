"""Small builders the settings tabs share: a named line edit, a named push button."""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtWidgets import QLineEdit, QPushButton, QWidget


def line_edit(name: str, parent: QWidget) -> QLineEdit:
    """A line edit with `name` as its accessible name."""
    edit = QLineEdit(parent)
    edit.setAccessibleName(name)
    return edit


def push_button(text: str, parent: QWidget, slot: Callable[..., None]) -> QPushButton:
    """A push button named by its text, calling `slot` when clicked."""
    button = QPushButton(text, parent)
    button.setAccessibleName(text)
    button.clicked.connect(slot)
    return button
