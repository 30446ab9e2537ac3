"""The message composer: multi-line text, Send/Stop, and the model picker.

Enter sends, Shift+Enter is a new line, Esc (or the Stop button) cancels the running answer. When
the user cannot send (not logged in, no model set) the composer is disabled and says why; the text
being typed is kept.
"""

from __future__ import annotations

from html import escape

from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtGui import QKeyEvent
from PyQt6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


FIX_LINKS = {
    "login": QT_TRANSLATE_NOOP("Composer", "Log in"),
    "settings": QT_TRANSLATE_NOOP("Composer", "Open model settings"),
}


class ComposerEdit(QPlainTextEdit):
    """The text box: Enter submits, Shift+Enter inserts a newline, Esc cancels."""

    submitted = pyqtSignal()
    cancelled = pyqtSignal()

    def keyPressEvent(self, event: QKeyEvent | None) -> None:
        """Map Enter and Esc; everything else edits."""
        assert event is not None
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            return
        super().keyPressEvent(event)


class Composer(QWidget):
    """Where the user writes. Emits `send_requested(text)` and `stop_requested()`."""

    send_requested = pyqtSignal(str)
    stop_requested = pyqtSignal()
    model_changed = pyqtSignal(str)  # profile id
    fix_requested = pyqtSignal(str)  # "login" or "settings": the link in a disabled reason

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.setSpacing(4)
        self.reason_label = QLabel(self)
        self.reason_label.setTextFormat(Qt.TextFormat.RichText)
        self.reason_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.reason_label.linkActivated.connect(self.fix_requested)
        self.fix: str | None = None
        self.reason_label.setObjectName("muted")
        self.reason_label.setWordWrap(True)
        self.reason_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.reason_label.hide()
        layout.addWidget(self.reason_label)
        self.edit = ComposerEdit(self)
        self.edit.setPlaceholderText(
            QCoreApplication.translate(
                "Composer", "Message the copilot (Enter sends, Shift+Enter new line)"
            )
        )
        self.edit.setAccessibleName(QCoreApplication.translate("Composer", "Message"))
        self.edit.setTabChangesFocus(True)
        self.edit.setMinimumWidth(60)
        self.edit.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        line = self.edit.fontMetrics().lineSpacing()
        self.edit.setFixedHeight(line * 3 + 14)
        self.edit.submitted.connect(self.submit)
        self.edit.cancelled.connect(self._cancel)
        layout.addWidget(self.edit)
        row = QHBoxLayout()
        self.model_combo = QComboBox(self)
        self.model_combo.setAccessibleName(QCoreApplication.translate("Composer", "Model"))
        self.model_combo.setToolTip(
            QCoreApplication.translate("Composer", "The model that answers")
        )
        self.model_combo.setPlaceholderText(
            QCoreApplication.translate("Composer", "No model configured")
        )
        self.model_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.model_combo.setMinimumContentsLength(8)
        self.model_combo.currentIndexChanged.connect(self._model_selected)
        self.send_button = QPushButton(QCoreApplication.translate("Composer", "Send"), self)
        self.send_button.setAccessibleName(QCoreApplication.translate("Composer", "Send message"))
        self.send_button.clicked.connect(self.submit)
        self.stop_button = QPushButton(QCoreApplication.translate("Composer", "Stop"), self)
        self.stop_button.setAccessibleName(
            QCoreApplication.translate("Composer", "Stop the answer")
        )
        self.stop_button.setToolTip(QCoreApplication.translate("Composer", "Stop (Esc)"))
        self.stop_button.clicked.connect(self._cancel)
        self.stop_button.hide()
        row.addWidget(self.model_combo, 1)
        row.addWidget(self.send_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        self._running = False
        self._disabled_reason: str | None = None
        self.edit.textChanged.connect(self._update_buttons)
        self._update_buttons()

    @property
    def text(self) -> str:
        """The text being typed."""
        return self.edit.toPlainText()

    def submit(self, *_: object) -> None:
        """Send the text unless empty, running or disabled; the box is cleared on send."""
        text = self.text.strip()
        if not text or self._running or self._disabled_reason is not None:
            return
        self.edit.clear()
        self.send_requested.emit(text)

    def _cancel(self, *_: object) -> None:
        if self._running:
            self.stop_requested.emit()

    def set_running(self, running: bool) -> None:
        """While an answer streams, Send becomes Stop."""
        self._running = running
        self.send_button.setVisible(not running)
        self.stop_button.setVisible(running)
        self._update_buttons()
        if not running:
            self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    @property
    def running(self) -> bool:
        """Whether the composer shows Stop."""
        return self._running

    def set_disabled_reason(self, reason: str | None, fix: str | None = None) -> None:
        """Disable sending and say why (None enables it again). Typed text is kept.

        ``fix`` ("login", "settings") makes the reason end with a link to what fixes it."""
        self._disabled_reason = reason
        if reason is not None and fix in FIX_LINKS:
            link = QCoreApplication.translate("Composer", FIX_LINKS[fix])
            self.reason_label.setText(f'{escape(reason)} <a href="{fix}">{escape(link)}</a>')
        else:
            self.reason_label.setText(escape(reason or ""))
        self.fix = fix if reason is not None else None
        self.reason_label.setVisible(reason is not None)
        self.edit.setReadOnly(reason is not None)
        self.edit.setAccessibleDescription(reason or "")
        self._update_buttons()

    @property
    def disabled_reason(self) -> str | None:
        """Why sending is disabled, if it is."""
        return self._disabled_reason

    def _update_buttons(self) -> None:
        can_send = not self._running and self._disabled_reason is None and bool(self.text.strip())
        self.send_button.setEnabled(can_send)

    def set_models(self, models: list[tuple[str, str]], current: str | None = None) -> None:
        """Fill the picker with (profile id, display name) pairs."""
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        for profile_id, name in models:
            self.model_combo.addItem(name, profile_id)
        index = self.model_combo.findData(current) if current is not None else 0
        self.model_combo.setCurrentIndex(max(index, 0))
        self.model_combo.blockSignals(False)
        self.model_combo.setEnabled(bool(models))

    def _model_selected(self, index: int) -> None:
        data = self.model_combo.itemData(index)
        if isinstance(data, str):
            self.model_changed.emit(data)
