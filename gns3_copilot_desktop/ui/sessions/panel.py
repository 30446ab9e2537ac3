"""The sessions of the current project: list, search, new, rename, pin, delete.

Pinned sessions come first, then the newest; each row shows the title and a relative time. The
search box looks through titles and message text (the backend's full-text search). Deleting asks
for confirmation. All backend calls are awaited on the qasync loop; the list never blocks the UI.

A session as a file (export, import) is in `session_files`, the panel's Export and Import actions
in `file_actions`; what a row keeps, its title as shown and its in-place title editor in
`list_rows`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication, Qt, QTimer, pyqtSignal
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.errors import CopilotError, ServicesClosedError
from gns3_copilot_desktop.ui.backends.base import ChatBackend, SessionEntry, SessionMode
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.sessions.file_actions import SessionFileActions
from gns3_copilot_desktop.ui.sessions.list_rows import (
    SESSION_ID_ROLE,
    TITLE_ROLE,
    TitleEditDelegate,
    shown_title,
)

SEARCH_DELAY_MS = 250


def mode_name(mode: str) -> str:
    """The mode as the user reads it (Assistant, Tutor, Practice)."""
    if mode == "tutor":
        return QCoreApplication.translate("SessionsPanel", "Tutor")
    if mode == "practice":
        return QCoreApplication.translate("SessionsPanel", "Practice")
    return QCoreApplication.translate("SessionsPanel", "Assistant")


def mode_description(mode: str) -> str:
    """One line on what the copilot does in `mode` (the picker's tooltips)."""
    if mode == "tutor":
        return QCoreApplication.translate(
            "SessionsPanel",
            "Teaches how to find the problem: reads the lab, never changes it, asks what you see.",
        )
    if mode == "practice":
        return QCoreApplication.translate(
            "SessionsPanel",
            "Exercises: faults injected into the lab after your approval, a sealed answer, "
            "your fix checked.",
        )
    return QCoreApplication.translate(
        "SessionsPanel", "Reads and changes the lab for you, each change after your approval."
    )


SESSION_MODES: tuple[SessionMode, ...] = ("assistant", "tutor", "practice")


def relative_time(when: datetime, now: datetime | None = None) -> str:
    """'just now', '5 min ago', '3 h ago', 'yesterday', '4 days ago' or the date."""
    now = now or datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = (now - when).total_seconds()
    if seconds < 60:
        return QCoreApplication.translate("SessionsPanel", "just now")
    if seconds < 3600:
        return QCoreApplication.translate("SessionsPanel", "%1 min ago").replace(
            "%1", str(int(seconds // 60))
        )
    if seconds < 86400:
        return QCoreApplication.translate("SessionsPanel", "%1 h ago").replace(
            "%1", str(int(seconds // 3600))
        )
    days = int(seconds // 86400)
    if days == 1:
        return QCoreApplication.translate("SessionsPanel", "yesterday")
    if days < 7:
        return QCoreApplication.translate("SessionsPanel", "%1 days ago").replace("%1", str(days))
    return when.astimezone().strftime("%Y-%m-%d")


def mode_menu(button: QToolButton, chosen: Callable[[SessionMode], None]) -> QMenu:
    """The New button's arrow: one action per mode, its description as tooltip."""
    menu = QMenu(button)
    menu.setToolTipsVisible(True)
    for mode in SESSION_MODES:
        action = menu.addAction(mode_name(mode))
        assert action is not None
        action.setToolTip(mode_description(mode))
        action.setData(mode)
        action.triggered.connect(lambda _c=False, m=mode: chosen(m))
    return menu


def session_item(entry: SessionEntry, now: datetime) -> QListWidgetItem:
    """A session's row: its title (starred when pinned), then its mode and its time or the
    search hit; its id and bare title kept in the row's roles, its title editable in place."""
    title = shown_title(entry.title)
    first = ("★ " if entry.pinned else "") + title
    second = entry.snippet if entry.snippet else relative_time(entry.updated_at, now)
    if entry.mode in ("tutor", "practice"):
        second = f"{mode_name(entry.mode)} · {second}"
    item = QListWidgetItem(f"{first}\n{second}")
    item.setData(SESSION_ID_ROLE, entry.session_id)
    item.setData(TITLE_ROLE, entry.title)
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
    item.setToolTip(title)
    pinned = QCoreApplication.translate("SessionsPanel", ", pinned") if entry.pinned else ""
    item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{title}{pinned}, {second}")
    return item


class SessionsPanel(SessionFileActions):
    """The list of sessions. Emits `session_selected(session_id)` when the user opens one."""

    session_deleted = pyqtSignal(str)
    renamed = pyqtSignal(str, str)  # session id, new title (the chat's header follows it)

    def __init__(self, backend: ChatBackend, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._backend = backend
        self._current: str | None = None
        self.entries: list[SessionEntry] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        self.search_edit = QLineEdit(self)
        self.search_edit.setPlaceholderText(
            QCoreApplication.translate("SessionsPanel", "Search titles and messages")
        )
        self.search_edit.setAccessibleName(
            QCoreApplication.translate("SessionsPanel", "Search sessions")
        )
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.search_edit)
        row = QHBoxLayout()
        self.new_button = self._button(
            QCoreApplication.translate("SessionsPanel", "New"),
            QCoreApplication.translate("SessionsPanel", "New session"),
            self.new_session,
        )
        # The button's own click starts an Assistant session; its arrow picks the mode.
        self.mode_menu = mode_menu(self.new_button, lambda mode: self.new_session(mode=mode))
        self.new_button.setMenu(self.mode_menu)
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.new_button.setToolTip(
            QCoreApplication.translate(
                "SessionsPanel", "New session (the arrow chooses Assistant, Tutor or Practice)"
            )
        )
        self.rename_button = self._button(
            QCoreApplication.translate("SessionsPanel", "Rename"),
            QCoreApplication.translate("SessionsPanel", "Rename session"),
            self.rename_selected,
        )
        self.pin_button = self._button(
            QCoreApplication.translate("SessionsPanel", "Pin"),
            QCoreApplication.translate("SessionsPanel", "Pin or unpin session"),
            self.toggle_pin,
        )
        self.delete_button = self._button(
            QCoreApplication.translate("SessionsPanel", "Delete"),
            QCoreApplication.translate("SessionsPanel", "Delete session"),
            self.delete_selected,
        )
        self.export_button = self._button(
            QCoreApplication.translate("SessionsPanel", "Export…"),
            QCoreApplication.translate("SessionsPanel", "Export session"),
            self.export_selected,
        )
        self.import_button = self._button(
            QCoreApplication.translate("SessionsPanel", "Import…"),
            QCoreApplication.translate(
                "SessionsPanel", "Import an exported session as a new, read-only conversation"
            ),
            self.import_file,
        )
        # Two short rows keep the panel as narrow as it was with four buttons in one.
        more = QHBoxLayout()
        for button in (self.new_button, self.rename_button, self.pin_button):
            row.addWidget(button)
        for button in (self.export_button, self.import_button, self.delete_button):
            more.addWidget(button)
        for line in (row, more):
            line.addStretch(1)
            layout.addLayout(line)
        self.list = QListWidget(self)
        self.list.setAccessibleName(QCoreApplication.translate("SessionsPanel", "Sessions"))
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setUniformItemSizes(False)
        self.list.setSpacing(2)
        # F2 or a double-click renames the session in place (Enter saves, Esc cancels)
        self.list.setItemDelegate(TitleEditDelegate(self._title_edited, self.list))
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        layout.addWidget(self.list, 1)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(lambda: spawn(self.refresh()))
        self.search_edit.textChanged.connect(lambda _t: self._search_timer.start())
        self._update_buttons()

    def _session_buttons(self) -> tuple[QToolButton, ...]:
        """The buttons that act on the selected session."""
        return (self.rename_button, self.pin_button, self.export_button, self.delete_button)

    def _button(self, text: str, name: str, slot: Callable[..., object]) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setAccessibleName(name)
        button.setToolTip(name)
        button.clicked.connect(slot)
        return button

    # --- data -------------------------------------------------------------------------------

    @property
    def current_session(self) -> str | None:
        """The session shown in the chat."""
        return self._current

    def set_current(self, session_id: str | None) -> None:
        """Mark the session the chat shows."""
        self._current = session_id
        self._select(session_id)

    async def refresh(self) -> None:
        """Reload the list (or the search hits when the search box has text)."""
        if sip.isdeleted(self.search_edit):
            return  # the panel was closed while this refresh waited its turn on the loop
        query = self.search_edit.text().strip()
        try:
            if query:
                entries = await self._backend.search_sessions(query)
            else:
                entries = await self._backend.list_sessions()
        except ServicesClosedError:
            raise  # logged out or closing: nobody waits for this list
        except CopilotError as exc:
            # A copilot service on another computer can refuse or be unreachable: the list
            # stays as it was and the header says why (and asks for the login again on 401).
            if not sip.isdeleted(self.list):
                self.refresh_failed.emit(exc.user_message, type(exc).__name__)
            return
        if sip.isdeleted(self.list):
            return  # the panel was closed while the list loaded
        self._fill(entries)

    def _fill(self, entries: list[SessionEntry]) -> None:
        self.entries = list(entries)
        self.list.clear()
        now = datetime.now(UTC)
        for entry in entries:
            self.list.addItem(session_item(entry, now))
        self._select(self._current)
        self._update_buttons()

    def _select(self, session_id: str | None) -> None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item is not None and item.data(SESSION_ID_ROLE) == session_id:
                self.list.setCurrentRow(row)
                return

    def update_title(self, session_id: str, title: str) -> None:
        """A `title` chunk arrived: show it at once."""
        self.entries = [
            replace(e, title=title) if e.session_id == session_id else e for e in self.entries
        ]
        self._fill(self.entries)

    def selected_entry(self) -> SessionEntry | None:
        """The entry of the highlighted row."""
        item = self.list.currentItem()
        if item is None:
            return None
        sid = item.data(SESSION_ID_ROLE)
        return next((e for e in self.entries if e.session_id == sid), None)

    def _update_buttons(self) -> None:
        has = self.list.currentItem() is not None
        for button in self._session_buttons():
            button.setEnabled(has)
        entry = self.selected_entry()
        self.pin_button.setText(
            QCoreApplication.translate("SessionsPanel", "Unpin")
            if entry and entry.pinned
            else QCoreApplication.translate("SessionsPanel", "Pin")
        )

    # --- actions ----------------------------------------------------------------------------

    def _activated(self, item: QListWidgetItem) -> None:
        sid = item.data(SESSION_ID_ROLE)
        if isinstance(sid, str) and sid != self._current:
            self._current = sid
            self.session_selected.emit(sid)

    def new_session(self, *_: object, mode: SessionMode = "assistant") -> None:
        """Create a session in `mode` and open it."""
        spawn(self._new(mode))

    async def _new(self, mode: SessionMode = "assistant") -> None:
        entry = await self._backend.create_session(mode)
        self._current = entry.session_id
        self.search_edit.clear()
        await self.refresh()
        self.session_selected.emit(entry.session_id)

    def rename_selected(self, *_: object) -> None:
        """Ask for a new title of the selected session."""
        entry = self.selected_entry()
        if entry is None:
            return
        title, ok = QInputDialog.getText(
            self,
            QCoreApplication.translate("SessionsPanel", "Rename session"),
            QCoreApplication.translate("SessionsPanel", "Title:"),
            QLineEdit.EchoMode.Normal,
            entry.title,
        )
        if ok and title.strip():
            spawn(self._rename(entry.session_id, title.strip()))

    def _title_edited(self, session_id: str, text: str) -> None:
        """The in-place editor was confirmed: rename, unless the title is empty or unchanged."""
        title = text.strip()
        entry = next((e for e in self.entries if e.session_id == session_id), None)
        if entry is None or not title or title == entry.title:
            return
        spawn(self._rename(session_id, title))

    def toggle_pin(self, *_: object) -> None:
        """Pin the selected session on top, or unpin it."""
        entry = self.selected_entry()
        if entry is not None:
            spawn(self._run(self._backend.set_pinned(entry.session_id, not entry.pinned)))

    def delete_selected(self, *_: object) -> None:
        """Delete the selected session after confirmation."""
        entry = self.selected_entry()
        if entry is None:
            return
        answer = QMessageBox.question(
            self,
            QCoreApplication.translate("SessionsPanel", "Delete session"),
            QCoreApplication.translate(
                "SessionsPanel", "Delete “%1” and its whole conversation? This cannot be undone."
            ).replace("%1", shown_title(entry.title)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            spawn(self._delete(entry.session_id))

    async def _delete(self, session_id: str) -> None:
        await self._backend.delete_session(session_id)
        if session_id == self._current:
            self._current = None
        await self.refresh()
        self.session_deleted.emit(session_id)

    async def _rename(self, session_id: str, title: str) -> None:
        await self._run(self._backend.rename_session(session_id, title))
        if not sip.isdeleted(self.list):
            self.renamed.emit(session_id, title)

    async def _run(self, action: Awaitable[None]) -> None:
        await action
        await self.refresh()
