"""The whole chat experience: sessions, messages, status line and composer, wired together.

`ChatPanel` gets its `ChatBackend` in the constructor (STYLE.md: no singletons) and owns one
`ChatController`. It is what `CopilotDock` shows; it works from ~360 px wide (sessions behind a
toggle) to a wide window (sessions beside the conversation).
"""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtGui import QPalette, QResizeEvent
from PyQt6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.ui import shortcuts
from gns3_copilot_desktop.ui.a11y import Announcer
from gns3_copilot_desktop.ui.backends.base import ChatBackend, UserDecision
from gns3_copilot_desktop.ui.chat.composer import Composer
from gns3_copilot_desktop.ui.chat.controller import ChatController
from gns3_copilot_desktop.ui.chat.import_banner import ImportBanner
from gns3_copilot_desktop.ui.chat.message_view import MessageView
from gns3_copilot_desktop.ui.chat.panel_turns import ChatTurns
from gns3_copilot_desktop.ui.chat.status_line import StatusLine
from gns3_copilot_desktop.ui.classroom.toggle import ClassroomToggle
from gns3_copilot_desktop.ui.practice.panel import PracticePanel
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.sessions.list_rows import shown_title
from gns3_copilot_desktop.ui.sessions.panel import SessionsPanel, mode_description, mode_name
from gns3_copilot_desktop.ui.theme import style_sheet

SIDE_BY_SIDE_PX = 560
"""Narrower than this, the sessions open above the chat instead of beside it."""
QWIDGETSIZE_MAX = (1 << 24) - 1
SESSIONS_WIDTH_PX = 220
"""The sessions' width when they open beside the chat."""
WIDE_PX = 700


def _host_styled(widget: QWidget) -> bool:
    """True when the application or an ancestor of `widget` has a style sheet."""
    app = QApplication.instance()
    if isinstance(app, QApplication) and app.styleSheet():
        return True
    parent = widget.parentWidget()
    while parent is not None:
        if parent.styleSheet():
            return True
        parent = parent.parentWidget()
    return False


class ChatPanel(ChatTurns):
    """Sessions + conversation + composer for one project's backend."""

    session_changed = pyqtSignal(str)

    def __init__(self, backend: ChatBackend, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatPanel")
        self._backend = backend
        self.controller = ChatController(backend, self)
        self.session_id: str | None = None
        self._awaiting_approval = False
        self._unsent: str | None = None  # a message whose conversation could not be created
        self._queued_decisions: list[UserDecision] | None = None
        self._build()
        self._wire()
        self.apply_theme()

    # --- layout -----------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 4, 6, 2)
        bar.setSpacing(8)
        self.sessions_toggle = QToolButton(self)
        self.sessions_toggle.setText(QCoreApplication.translate("ChatPanel", "☰ Sessions"))
        self.sessions_toggle.setCheckable(True)
        self.sessions_toggle.setAccessibleName(
            QCoreApplication.translate("ChatPanel", "Show sessions")
        )
        self.title_label = QLabel(QCoreApplication.translate("ChatPanel", "New conversation"), self)
        self.title_label.setAccessibleName(QCoreApplication.translate("ChatPanel", "Session title"))
        self.title_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        font = self.title_label.font()
        font.setBold(True)
        self.title_label.setFont(font)
        self.compact_toggle = QToolButton(self)
        self.compact_toggle.setText(QCoreApplication.translate("ChatPanel", "Compact"))
        self.compact_toggle.setCheckable(True)
        self.compact_toggle.setAccessibleName(
            QCoreApplication.translate("ChatPanel", "Compact tool cards")
        )
        self.compact_toggle.setToolTip(
            QCoreApplication.translate("ChatPanel", "Hide tool cards behind a count")
        )
        self.mode_badge = QLabel(self)
        self.mode_badge.setObjectName("modeBadge")
        self.mode_badge.setStyleSheet(
            "QLabel#modeBadge { background: palette(highlight); color: palette(highlighted-text);"
            " border-radius: 7px; padding: 1px 8px; font-weight: bold; }"
        )
        self.mode_badge.hide()
        bar.addWidget(self.sessions_toggle)
        bar.addWidget(self.title_label, 1)
        bar.addWidget(self.mode_badge)
        bar.addWidget(self.compact_toggle)
        outer.addLayout(bar)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.sessions = SessionsPanel(self._backend, self.splitter)
        self.sessions.setMinimumWidth(160)
        self.sessions.hide()
        column = QWidget(self.splitter)
        col = QVBoxLayout(column)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(0)
        self.view = MessageView(column)
        self.import_banner = ImportBanner(column)
        self.import_label = self.import_banner.import_label
        self.continue_button = self.import_banner.continue_button
        self.continue_button.clicked.connect(
            lambda: spawn(self.continue_imported(), name="continue-imported")
        )
        self.status = StatusLine(column)
        self.practice = PracticePanel(self._backend, self.view, column)
        self.practice.hide()
        self.composer = Composer(column)
        col.addWidget(self.view, 1)
        col.addWidget(self.import_banner)
        col.addWidget(self.status)
        col.addWidget(self.practice)
        col.addWidget(self.composer)
        self.classroom_toggle = ClassroomToggle(
            self._backend, column, col, [self.view, self.practice, self.composer], self
        )
        bar.insertWidget(bar.count() - 1, self.classroom_toggle)
        self.splitter.addWidget(self.sessions)
        self.splitter.addWidget(column)
        self.splitter.setStretchFactor(1, 1)
        outer.addWidget(self.splitter, 1)
        self.announcer = Announcer(self)
        self.setTabOrder(self.composer.edit, self.composer.send_button)
        self._build_keyboard()

    # --- keyboard (shortcuts, help overlay, the way from the message box to a card) -----------

    def _build_keyboard(self) -> None:
        self.help_overlay = shortcuts.install(
            self,
            card=lambda: self.view.open_approval,
            new_session=self.sessions.new_session,
            search=self.search_sessions,
            message_box=self.focus_message_box,
        )
        self.sessions_toggle.setToolTip(
            shortcuts.with_keys(
                QCoreApplication.translate("ChatPanel", "Search sessions"),
                shortcuts.SEARCH_KEYS[0],
            )
        )
        self.sessions.new_button.setToolTip(
            shortcuts.with_keys(self.sessions.new_button.toolTip(), shortcuts.NEW_SESSION_KEYS[0])
        )
        self.composer.edit.setToolTip(
            shortcuts.with_keys(
                QCoreApplication.translate("ChatPanel", "Message box; F1 lists the shortcuts"),
                shortcuts.MESSAGE_BOX_KEYS[0],
            )
        )

    def search_sessions(self) -> None:
        """Show the sessions and put the cursor in their search box."""
        self.sessions_toggle.setChecked(True)
        self.sessions.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.sessions.search_edit.selectAll()

    def focus_message_box(self) -> None:
        """Put the cursor back in the message box."""
        self.composer.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _link_card_focus(self) -> None:
        """Shift+Tab from the message box reaches the waiting card's Approve in one press (Tab
        from it still goes to Send)."""
        item = shortcuts.target_item(self.view.open_approval)
        if item is None:
            return
        QWidget.setTabOrder(item.approve, self.composer.edit)
        QWidget.setTabOrder(self.composer.edit, self.composer.send_button)

    def _wire(self) -> None:
        c = self.controller
        c.started.connect(self._started)
        c.content_received.connect(self.view.append_content)
        c.tool_started.connect(self.view.start_tool)
        c.tool_ended.connect(self.view.end_tool)
        c.approvals_requested.connect(self._approvals)
        c.title_changed.connect(self._title)
        c.usage_received.connect(self._usage)
        c.heartbeat.connect(self.status.heartbeat)
        c.error_occurred.connect(self._error)
        c.finished.connect(self._finished)
        self.composer.send_requested.connect(self.send)
        self.composer.stop_requested.connect(self.stop)
        self.view.retry_requested.connect(self.retry)
        self.view.settings_requested.connect(self.settings_requested)
        self.view.login_requested.connect(self.login_requested)
        self.composer.fix_requested.connect(self._fix_requested)
        self.view.decisions_made.connect(self._decided)
        self.sessions.session_selected.connect(lambda sid: spawn(self.open_session(sid)))
        self.sessions.session_deleted.connect(self._session_deleted)
        self.sessions.renamed.connect(self._renamed)
        self.sessions_toggle.toggled.connect(self.sessions.setVisible)
        self.sessions_toggle.toggled.connect(lambda *_: self._place_sessions())
        self.compact_toggle.toggled.connect(self.view.set_compact)

    def apply_theme(self) -> None:
        """Re-derive the tints from the current palette (call after the OS theme changed).

        Inside a host with its own style sheet (the GNS3 GUI) the conversation is isolated
        from it, or its rules would paint over the bubbles and cards.
        """
        isolate = _host_styled(self)
        host = None
        if isolate:
            self.ensurePolished()  # the host's style sheet has set the panel's palette
            role = QPalette.ColorRole
            host = (self.palette().color(role.Window), self.palette().color(role.WindowText))
        self.setStyleSheet(style_sheet(QApplication.palette(), isolate=isolate, host=host))

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        """Wide: sessions beside the chat by default; narrow: behind the toggle."""
        super().resizeEvent(event)
        if event is not None and (event.oldSize().width() < WIDE_PX) != (self.width() < WIDE_PX):
            self.sessions_toggle.setChecked(self.width() >= WIDE_PX)
        self._place_sessions()

    def _place_sessions(self) -> None:
        """Narrow (a docked panel): the sessions open above the chat, in at most half the height,
        so the chat keeps its width and the message box its model picker; wide: beside it."""
        narrow = self.width() < SIDE_BY_SIDE_PX
        orientation = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        if self.splitter.orientation() != orientation:
            # the sizes kept were the other direction's: give the chat the room again
            self.splitter.setOrientation(orientation)
            room = self.splitter.height() if narrow else self.splitter.width()
            first = room // 3 if narrow else SESSIONS_WIDTH_PX
            self.splitter.setSizes([first, max(room - first, 1)])
        self.sessions.setMinimumWidth(0 if narrow else 160)
        half = max(self.splitter.height() // 2, 1)
        self.sessions.setMaximumHeight(half if narrow else QWIDGETSIZE_MAX)

    # --- sessions ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Load the sessions list and open the newest session (or stay empty)."""
        await self.sessions.refresh()
        if self.sessions.entries and self.session_id is None:
            await self.open_session(self.sessions.entries[0].session_id)

    async def open_session(self, session_id: str) -> None:
        """Show a session's history (stops a running answer first)."""
        self.stop()
        self.session_id = session_id
        self.sessions.set_current(session_id)
        entry = next((e for e in self.sessions.entries if e.session_id == session_id), None)
        self.title_label.setText(shown_title(entry.title if entry else None))
        self.set_session_mode(entry.mode if entry else None)
        self.status.reset()
        self.import_banner.hide()
        history = await self._backend.get_history(session_id)
        pending = await self._backend.pending_approvals(session_id)
        read_only = await self._backend.imported_read_only(session_id)
        if self.session_id == session_id:
            self.view.load_history(history)
            self.import_banner.setVisible(read_only)
            if entry is not None and entry.mode == "practice":
                await self.practice.set_session(session_id)
            self._awaiting_approval = bool(pending)
            if pending:  # a turn paused before (even before a restart): its card, live again
                self._approvals(pending)
            self.session_changed.emit(session_id)

    async def continue_imported(self) -> bool:
        """Make the open imported session one the user can talk in (the banner goes)."""
        session_id = self.session_id
        if session_id is None:
            return False
        self.continue_button.setEnabled(False)
        try:
            await self._backend.continue_imported(session_id)
        except CopilotError as exc:
            self.controller.error_occurred.emit(exc.user_message, type(exc).__name__)
            return False
        finally:
            self.continue_button.setEnabled(True)
        if self.session_id == session_id:
            self.import_banner.hide()
            self.composer.edit.setFocus()
        return True

    def set_session_mode(self, mode: str | None) -> None:
        """Show the session's mode in the header (Tutor, Practice) and, in Practice, the
        practice panel above the composer; None: no session open."""
        learner = mode in ("tutor", "practice")
        self.mode_badge.setVisible(learner)
        if mode is not None and learner:
            self.mode_badge.setText(mode_name(mode))
            self.mode_badge.setToolTip(mode_description(mode))
            self.mode_badge.setAccessibleName(
                QCoreApplication.translate("ChatPanel", "Mode: %1").replace("%1", mode_name(mode))
            )
        self.practice.setVisible(mode == "practice")

    def _session_deleted(self, session_id: str) -> None:
        if session_id == self.session_id or self.sessions.current_session is None:
            self.session_id = None
            self.import_banner.hide()
            self.set_session_mode(None)
            self.view.clear()
            self.title_label.setText(QCoreApplication.translate("ChatPanel", "New conversation"))

    def _title(self, session_id: str, title: str) -> None:
        self.sessions.update_title(session_id, title)
        if session_id == self.session_id:
            self.title_label.setText(shown_title(title))

    def _renamed(self, session_id: str, title: str) -> None:
        """The user renamed a session: the header shows the new title at once."""
        if session_id == self.session_id:
            self.title_label.setText(shown_title(title))
