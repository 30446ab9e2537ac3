"""The chat's keyboard: approve and reject the waiting card, new session, search sessions, back
to the message box, and a help overlay that lists them.

Approve and reject are chords no typing produces (Ctrl+Enter, Ctrl+Shift+Backspace): a key typed
for the message box never decides a card, and Approve still counts only when the card allows it
(an edit not checked, a plan that does not validate). Reject opens the card's reason box, as a
click does. The shortcuts live on the chat panel (they work wherever the focus is inside it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PyQt6.QtCore import QCoreApplication, Qt
from PyQt6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PyQt6.QtWidgets import QApplication, QFrame, QLabel, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard, ApprovalItem


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


APPROVE_KEYS = ("Ctrl+Return", "Ctrl+Enter")
REJECT_KEYS = ("Ctrl+Shift+Backspace",)
NEW_SESSION_KEYS = ("Ctrl+N",)
SEARCH_KEYS = ("Ctrl+F",)
MESSAGE_BOX_KEYS = ("Ctrl+L",)
HELP_KEYS = ("F1", "Ctrl+/")

# (keys, what they do): the help overlay's rows, in this order
HELP_ROWS = [
    (APPROVE_KEYS[0], QT_TRANSLATE_NOOP("Shortcuts", "Approve the waiting change")),
    (REJECT_KEYS[0], QT_TRANSLATE_NOOP("Shortcuts", "Reject the waiting change (asks why)")),
    (NEW_SESSION_KEYS[0], QT_TRANSLATE_NOOP("Shortcuts", "New session")),
    (SEARCH_KEYS[0], QT_TRANSLATE_NOOP("Shortcuts", "Search sessions")),
    (MESSAGE_BOX_KEYS[0], QT_TRANSLATE_NOOP("Shortcuts", "Back to the message box")),
    ("Enter", QT_TRANSLATE_NOOP("Shortcuts", "Send the message")),
    ("Shift+Enter", QT_TRANSLATE_NOOP("Shortcuts", "New line in the message")),
    ("Esc", QT_TRANSLATE_NOOP("Shortcuts", "Stop the answer")),
    ("Shift+Tab", QT_TRANSLATE_NOOP("Shortcuts", "From the message box to the waiting card")),
    (HELP_KEYS[0], QT_TRANSLATE_NOOP("Shortcuts", "Show or hide this list")),
]


def key_text(keys: str) -> str:
    """A key sequence as this platform writes it ("Ctrl+Return" -> "Ctrl+Return", "⌘↩" on a Mac)."""
    return QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText)


def with_keys(text: str, keys: str) -> str:
    """A tooltip that names its shortcut: "Approve (Ctrl+Return)"."""
    return (
        QCoreApplication.translate("Shortcuts", "%1 (%2)")
        .replace("%1", text)
        .replace("%2", key_text(keys))
    )


def target_item(card: ApprovalCard | None) -> ApprovalItem | None:
    """The call a shortcut decides: the one holding the focus, else the first undecided one."""
    if card is None:
        return None
    undecided = [item for item in card.items if item.choice is None]
    focused = QApplication.focusWidget()
    for item in undecided:
        if focused is not None and item.isAncestorOf(focused):
            return item
    return undecided[0] if undecided else None


class HelpOverlay(QFrame):
    """The shortcuts, drawn over the chat (no dialog: nothing waits in a nested loop). Esc, the
    help key again or a click closes it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutHelp")
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout = QVBoxLayout(self)
        title = QLabel(QCoreApplication.translate("Shortcuts", "Keyboard shortcuts"), self)
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)
        rows = "".join(
            f"<tr><td style='padding-right:12px'><b>{key_text(keys) or keys}</b></td>"
            f"<td>{QCoreApplication.translate('Shortcuts', text)}</td></tr>"
            for keys, text in HELP_ROWS
        )
        self.table = QLabel(f"<table>{rows}</table>", self)
        self.table.setTextFormat(Qt.TextFormat.RichText)  # our own fixed words only
        self.table.setWordWrap(True)
        layout.addWidget(self.table)
        layout.addStretch(1)
        self.setAccessibleName(title.text())
        self.hide()

    def toggle(self) -> None:
        """Show over the whole parent, or hide."""
        if self.isVisible():
            self.hide()
            return
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect().adjusted(8, 8, -8, -8))
        self.raise_()
        self.show()
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """Esc closes."""
        if event is not None and event.key() == Qt.Key.Key_Escape:
            self.hide()
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event: object) -> None:
        """A click closes."""
        self.hide()


def install(
    panel: QWidget,
    *,
    card: Callable[[], ApprovalCard | None],
    new_session: Callable[[], None],
    search: Callable[[], None],
    message_box: Callable[[], None],
) -> HelpOverlay:
    """Bind the chat's shortcuts on `panel`; returns the help overlay."""
    overlay = HelpOverlay(panel)

    def approve() -> None:
        item = target_item(card())
        if item is not None and item.approve.isEnabled():
            item.approve.click()

    def reject() -> None:
        item = target_item(card())
        if item is not None and item.reject.isEnabled():
            item.reject.click()

    actions: list[tuple[tuple[str, ...], Callable[[], None]]] = [
        (APPROVE_KEYS, approve),
        (REJECT_KEYS, reject),
        (NEW_SESSION_KEYS, new_session),
        (SEARCH_KEYS, search),
        (MESSAGE_BOX_KEYS, message_box),
        (HELP_KEYS, overlay.toggle),
    ]
    for keys, slot in actions:
        for key in keys:
            shortcut = QShortcut(QKeySequence(key), panel)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
    return overlay
