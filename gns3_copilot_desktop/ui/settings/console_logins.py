"""The settings' Console logins tab: device logins the copilot uses, so nobody types a password
into the chat (where it would be stored in the conversation and travel with exports).

Each login applies to a node name or to every node of a template; its username is in the
settings, its password and enable secret go to the OS keyring when the settings are saved.
"""

from __future__ import annotations

import uuid

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.secrets import DeviceCredential
from gns3_copilot_desktop.core.settings import ConsoleLogin, Settings


class ConsoleLoginsTab(QWidget):
    """Lists, adds, edits and removes console logins of a settings copy."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self.secrets: dict[str, DeviceCredential | None] = {}
        """Login id -> the secrets to store when saved (None deletes them)."""
        intro = QLabel(
            QCoreApplication.translate(
                "ConsoleLogins",
                "Logins the copilot uses on device consoles. Passwords go to the OS keyring, "
                "never into the chat or the settings file.",
            ),
            self,
        )
        intro.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setAccessibleName(
            QCoreApplication.translate("ConsoleLogins", "Saved console logins")
        )
        self.list.currentRowChanged.connect(self._show)
        self.applies_edit = self._edit(
            QCoreApplication.translate("ConsoleLogins", "Node name, or template:NAME")
        )
        self.user_edit = self._edit(QCoreApplication.translate("ConsoleLogins", "Username"))
        self.password_edit = self._edit(
            QCoreApplication.translate("ConsoleLogins", "Password"), secret=True
        )
        self.enable_edit = self._edit(
            QCoreApplication.translate("ConsoleLogins", "Enable secret"), secret=True
        )
        form = QFormLayout()
        form.addRow(QCoreApplication.translate("ConsoleLogins", "Applies to"), self.applies_edit)
        form.addRow(QCoreApplication.translate("ConsoleLogins", "Username"), self.user_edit)
        form.addRow(QCoreApplication.translate("ConsoleLogins", "Password"), self.password_edit)
        form.addRow(QCoreApplication.translate("ConsoleLogins", "Enable secret"), self.enable_edit)
        self.add_button = QPushButton(
            QCoreApplication.translate("ConsoleLogins", "Add login"), self
        )
        self.save_button = QPushButton(
            QCoreApplication.translate("ConsoleLogins", "Save login"), self
        )
        self.remove_button = QPushButton(
            QCoreApplication.translate("ConsoleLogins", "Remove login"), self
        )
        for button in (self.add_button, self.save_button, self.remove_button):
            button.setAccessibleName(button.text())
        self.add_button.clicked.connect(self._add)
        self.save_button.clicked.connect(self._save_current)
        self.remove_button.clicked.connect(self._remove)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.save_button, self.remove_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list)
        layout.addLayout(form)
        layout.addLayout(buttons)
        self._reload()

    def _edit(self, name: str, *, secret: bool = False) -> QLineEdit:
        edit = QLineEdit(self)
        edit.setAccessibleName(name)
        edit.setPlaceholderText(name)
        if secret:
            edit.setEchoMode(QLineEdit.EchoMode.Password)
        return edit

    def _reload(self, select: int = -1) -> None:
        self.list.clear()
        for login in self._settings.console_logins:
            text = f"{login.applies_to} — {login.username or '…'}"
            item = QListWidgetItem(text)
            self.list.addItem(item)
        if select >= 0:
            self.list.setCurrentRow(select)
        self._update_buttons()

    def _update_buttons(self) -> None:
        chosen = self.list.currentRow() >= 0
        self.save_button.setEnabled(chosen)
        self.remove_button.setEnabled(chosen)

    def _show(self, row: int) -> None:
        logins = self._settings.console_logins
        login = logins[row] if 0 <= row < len(logins) else None
        self.applies_edit.setText(login.applies_to if login else "")
        self.user_edit.setText(login.username if login else "")
        self.password_edit.clear()
        self.enable_edit.clear()
        stored = QCoreApplication.translate("ConsoleLogins", "Stored in the keyring (unchanged)")
        self.password_edit.setPlaceholderText(stored if login else "")
        self._update_buttons()

    def _add(self, *_: object) -> None:
        applies = self.applies_edit.text().strip()
        if not applies or not self.password_edit.text():
            self.applies_edit.setFocus()
            return
        login = ConsoleLogin(
            id=f"login-{uuid.uuid4().hex[:12]}",
            applies_to=applies,
            username=self.user_edit.text().strip(),
        )
        self._settings.console_logins = [*self._settings.console_logins, login]
        self._remember_secrets(login)
        self._reload(len(self._settings.console_logins) - 1)

    def _save_current(self, *_: object) -> None:
        row = self.list.currentRow()
        logins = list(self._settings.console_logins)
        if not 0 <= row < len(logins) or not self.applies_edit.text().strip():
            return
        login = logins[row].model_copy(
            update={
                "applies_to": self.applies_edit.text().strip(),
                "username": self.user_edit.text().strip(),
            }
        )
        logins[row] = login
        self._settings.console_logins = logins
        if self.password_edit.text():
            self._remember_secrets(login)
        self._reload(row)

    def _remove(self, *_: object) -> None:
        row = self.list.currentRow()
        logins = list(self._settings.console_logins)
        if 0 <= row < len(logins):
            removed = logins.pop(row)
            self._settings.console_logins = logins
            self.secrets[removed.id] = None
            self._reload(min(row, len(logins) - 1))

    def _remember_secrets(self, login: ConsoleLogin) -> None:
        self.secrets[login.id] = DeviceCredential(
            login.username, self.password_edit.text(), self.enable_edit.text()
        )
        self.password_edit.clear()
        self.enable_edit.clear()
