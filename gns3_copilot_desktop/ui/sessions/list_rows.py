"""The rows of the sessions list: what each holds besides its text, and the in-place title editor.

A row shows a session's title and a second line; it keeps the session's id and its bare title in
item roles. F2 or a double-click edits the title alone (not the row's two-line text) through
`TitleEditDelegate`, which hands the result to the panel. Texts keep the "SessionsPanel" context.
"""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtCore import QAbstractItemModel, QCoreApplication, QModelIndex, Qt
from PyQt6.QtWidgets import QLineEdit, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from gns3_copilot_desktop.core.sessions.models import DEFAULT_TITLE

SESSION_ID_ROLE = Qt.ItemDataRole.UserRole
"""The row's session id."""
TITLE_ROLE = Qt.ItemDataRole.UserRole + 1
"""The row's session title as stored (the row's text adds a star and a second line)."""


def shown_title(title: str | None) -> str:
    """A session's title as shown: an untitled session (the core names it in English) is named
    in the user's language."""
    if not title or title == DEFAULT_TITLE:
        return QCoreApplication.translate("SessionsPanel", "New conversation")
    return title


class TitleEditDelegate(QStyledItemDelegate):
    """Edits a session's title (not its two-line row text) and hands the result to the panel."""

    def __init__(self, edited: Callable[[str, str], None], parent: QWidget) -> None:
        super().__init__(parent)
        self._edited = edited

    def createEditor(
        self, parent: QWidget | None, option: QStyleOptionViewItem, index: QModelIndex
    ) -> QWidget | None:
        """A one-line editor for the title."""
        editor = QLineEdit(parent)
        editor.setAccessibleName(QCoreApplication.translate("SessionsPanel", "Session title"))
        return editor

    def setEditorData(self, editor: QWidget | None, index: QModelIndex) -> None:
        """Start from the current title, selected."""
        if isinstance(editor, QLineEdit):
            editor.setText(str(index.data(TITLE_ROLE) or ""))
            editor.selectAll()

    def setModelData(
        self, editor: QWidget | None, model: QAbstractItemModel | None, index: QModelIndex
    ) -> None:
        """Enter: the panel renames through the backend; the row is refilled from it."""
        session_id = index.data(SESSION_ID_ROLE)
        if isinstance(editor, QLineEdit) and isinstance(session_id, str):
            self._edited(session_id, editor.text())
