"""The GNS3 login dialog: server URL, username, password, "remember me".

The dialog only collects input and shows the outcome; the work is an injected coroutine
(`LoginAction`) that the app builds from the GNS3 client and the secret store, so the dialog stays
free of network code and is testable. The password lives only in the line edit and is cleared
when the dialog closes; it is never stored.
"""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from PyQt6.QtCore import QCoreApplication, pyqtSignal
from PyQt6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.errors import CopilotError, Gns3ConnectionError
from gns3_copilot_desktop.ui.a11y import name_buttons
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.theme import colors

DEFAULT_SERVER_URL = "http://127.0.0.1:3080"


@dataclass(frozen=True)
class LoginRequest:
    """What the user typed."""

    server_url: str
    username: str
    password: str
    remember: bool


@dataclass(frozen=True)
class LoginResult:
    """What a successful login gives the app (the token itself stays in the app's session)."""

    server_url: str
    username: str


LoginAction = Callable[[LoginRequest], Awaitable[LoginResult]]
StartServerAction = Callable[[], Awaitable[None]]


class LoginDialog(QDialog):
    """Asks for the GNS3 server and credentials, then runs the injected login action."""

    logged_in = pyqtSignal(object)  # LoginResult

    def __init__(
        self,
        login: LoginAction,
        *,
        server_url: str = DEFAULT_SERVER_URL,
        username: str = "",
        remember: bool = True,
        reason: str | None = None,
        start_local_server: StartServerAction | None = None,
        parent: QWidget | None = None,
        no_keyring: str | None = None,
    ) -> None:
        """``no_keyring``: why there is no keyring (then "Remember me" is off, disabled and
        explained: a login cannot be remembered without one)."""
        super().__init__(parent)
        self._login = login
        self._start_local_server = start_local_server
        self.result_value: LoginResult | None = None
        self.setWindowTitle(QCoreApplication.translate("LoginDialog", "Log in to GNS3"))
        self.setAccessibleName(QCoreApplication.translate("LoginDialog", "Log in to GNS3"))
        self._build(server_url, username, remember and no_keyring is None, reason)
        if no_keyring is not None:
            self.remember_box.setEnabled(False)
            self.remember_box.setToolTip(no_keyring)
            self.remember_note = QLabel(
                QCoreApplication.translate(
                    "LoginDialog",
                    "No keyring is available on this computer, so the login cannot be "
                    "remembered: you will log in again next time.",
                ),
                self,
            )
            self.remember_note.setObjectName("muted")
            self.remember_note.setWordWrap(True)
            layout = self.layout()
            if layout is not None:
                index = layout.indexOf(self.remember_box)
                if isinstance(layout, QVBoxLayout) and index >= 0:
                    layout.insertWidget(index + 1, self.remember_note)
                else:
                    layout.addWidget(self.remember_note)

    def _build(self, server_url: str, username: str, remember: bool, reason: str | None) -> None:
        self.reason_label = QLabel(reason or "", self)
        self.reason_label.setWordWrap(True)
        self.reason_label.setVisible(bool(reason))
        self.url_edit = self._line(
            server_url, QCoreApplication.translate("LoginDialog", "GNS3 server URL")
        )
        self.user_edit = self._line(username, QCoreApplication.translate("LoginDialog", "Username"))
        self.password_edit = self._line("", QCoreApplication.translate("LoginDialog", "Password"))
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.remember_box = QCheckBox(
            QCoreApplication.translate(
                "LoginDialog", "Remember me (keeps the login token in the OS keyring)"
            )
        )
        self.remember_box.setChecked(remember)
        self.remember_box.setAccessibleName(
            QCoreApplication.translate("LoginDialog", "Remember me")
        )
        self.status_label = QLabel("", self)
        self.status_label.setWordWrap(True)
        self.status_label.setAccessibleName(
            QCoreApplication.translate("LoginDialog", "Login status")
        )
        self.start_server_button = QPushButton(
            QCoreApplication.translate("LoginDialog", "Start a local GNS3 server"), self
        )
        self.start_server_button.setAccessibleName(
            QCoreApplication.translate("LoginDialog", "Start a local GNS3 server")
        )
        self.start_server_button.setVisible(False)
        self.start_server_button.clicked.connect(self._on_start_server)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        login_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert login_button is not None
        self.login_button: QPushButton = login_button
        self.login_button.setText(QCoreApplication.translate("LoginDialog", "Log in"))
        self.login_button.setAccessibleName(QCoreApplication.translate("LoginDialog", "Log in"))
        name_buttons(self.buttons)
        self.buttons.accepted.connect(self._on_login)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow(QCoreApplication.translate("LoginDialog", "Server"), self.url_edit)
        form.addRow(QCoreApplication.translate("LoginDialog", "Username"), self.user_edit)
        form.addRow(QCoreApplication.translate("LoginDialog", "Password"), self.password_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(self.reason_label)
        layout.addLayout(form)
        layout.addWidget(self.remember_box)
        layout.addWidget(self.status_label)
        layout.addWidget(self.start_server_button)
        layout.addWidget(self.buttons)
        (self.password_edit if self.user_edit.text() else self.user_edit).setFocus()

    def _line(self, text: str, name: str) -> QLineEdit:
        edit = QLineEdit(text, self)
        edit.setAccessibleName(name)
        return edit

    def request(self) -> LoginRequest:
        """The form's content."""
        return LoginRequest(
            server_url=self.url_edit.text().strip() or DEFAULT_SERVER_URL,
            username=self.user_edit.text().strip(),
            password=self.password_edit.text(),
            remember=self.remember_box.isChecked(),
        )

    def _on_login(self, *_: object) -> None:
        request = self.request()
        if not request.username or not request.password:
            self._show_error(
                QCoreApplication.translate("LoginDialog", "Enter a username and a password.")
            )
            return
        self._set_busy(True)
        spawn(self._run_login(request), name="gns3-login")

    async def _run_login(self, request: LoginRequest) -> None:
        try:
            result = await self._login(request)
        except CopilotError as exc:
            self._set_busy(False)
            self._show_error(exc.user_message)
            offer = isinstance(exc, Gns3ConnectionError) and self._can_start_local_server()
            self.start_server_button.setVisible(offer)
            return
        self._set_busy(False)
        self.result_value = result
        self.logged_in.emit(result)
        self.accept()

    def _can_start_local_server(self) -> bool:
        return self._start_local_server is not None and shutil.which("gns3server") is not None

    def _on_start_server(self, *_: object) -> None:
        if self._start_local_server is None:
            return
        self.start_server_button.setEnabled(False)
        self.status_label.setText(
            QCoreApplication.translate("LoginDialog", "Starting the local GNS3 server…")
        )
        spawn(self._run_start_server(), name="gns3-start-local")

    async def _run_start_server(self) -> None:
        assert self._start_local_server is not None
        try:
            await self._start_local_server()
        except CopilotError as exc:
            self._show_error(exc.user_message)
        else:
            self.status_label.setText(
                QCoreApplication.translate(
                    "LoginDialog", "The local GNS3 server is running. Log in."
                )
            )
            self.start_server_button.setVisible(False)
        finally:
            self.start_server_button.setEnabled(True)

    def _set_busy(self, busy: bool) -> None:
        for widget in (self.url_edit, self.user_edit, self.password_edit, self.login_button):
            widget.setEnabled(not busy)
        if busy:
            self.status_label.setText(QCoreApplication.translate("LoginDialog", "Logging in…"))

    def _show_error(self, message: str) -> None:
        self.status_label.setText(message)
        self.status_label.setStyleSheet(f"color: {colors(self.palette()).error};")

    def done(self, result: int) -> None:
        """Closing the dialog forgets the password."""
        self.password_edit.clear()
        super().done(result)
