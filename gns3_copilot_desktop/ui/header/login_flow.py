"""`LoginFlow`: the header's GNS3 login — the dialog, log out, the token watched, a local server.

It opens the login dialog (window-modal, never a nested event loop), starts a local
``gns3server`` when the dialog offers one, checks the token every few seconds and asks for the
login again when it expired or was refused, keeping the conversation and the typed text; a
message that failed because of it is sent again after the login. With the GNS3 GUI's login
(external auth) it follows the GUI's login and server instead of asking.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PyQt6.QtCore import QCoreApplication, QObject, QTimer

from gns3_copilot_desktop.core.local_server import LocalServer, start_local_server
from gns3_copilot_desktop.core.protocol import GNS3_AUTH_ERROR_KIND
from gns3_copilot_desktop.ui.header.login_dialog import LoginDialog, LoginRequest, LoginResult
from gns3_copilot_desktop.ui.qt_async import spawn

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.header.header import CopilotHeader

TOKEN_CHECK_MS = 2_000
# A turn's error chunk for a refused login, and the name of the `Gns3AuthError` raised before one.
AUTH_ERROR_KIND = GNS3_AUTH_ERROR_KIND


class LoginFlow(QObject):
    """The login dialog, log out, and the token watched while logged in."""

    def __init__(self, header: CopilotHeader) -> None:
        super().__init__(header)
        self.header = header
        workspace = header.workspace
        self.dialog: LoginDialog | None = None
        self.local_server: LocalServer | None = None
        """The ``gns3server`` started from the login dialog; the app stops it when it closes."""
        self._retry_after_login = False
        self._was_logged_in = workspace.logged_in
        self._external_check: asyncio.Task[None] | None = None
        self._seen_server = workspace.server_url
        self.token_timer = QTimer(self)
        self.token_timer.setInterval(TOKEN_CHECK_MS)
        self.token_timer.timeout.connect(self._check_token)
        self.token_timer.start()

    def open(self, reason: str | None = None) -> LoginDialog:
        """Show the login dialog (window-modal, never a nested event loop)."""
        if self.dialog is not None and self.dialog.isVisible():
            return self.dialog
        workspace = self.header.workspace
        dialog = LoginDialog(
            self._login_action,
            server_url=workspace.server_url,
            username=workspace.username or workspace.saved_username(),
            reason=reason,
            start_local_server=lambda: self.start_local_server(dialog.request().server_url),
            parent=self.header.window(),
            no_keyring=None if workspace.secrets.persistent else workspace.secrets.warning,
        )
        dialog.logged_in.connect(lambda _result: spawn(self._logged_in(), name="after-login"))
        dialog.rejected.connect(self._login_cancelled)
        self.dialog = dialog
        dialog.open()
        return dialog

    async def _login_action(self, request: LoginRequest) -> LoginResult:
        url = await self.header.workspace.login(
            request.server_url, request.username, request.password, request.remember
        )
        return LoginResult(server_url=url, username=request.username)

    async def start_local_server(self, url: str) -> None:
        """Start a local GNS3 server at `url` (loopback only), as the login dialog offers."""
        current = self.local_server
        if current is not None and current.running:
            await current.stop()
        log_dir = self.header.workspace.paths.log_dir
        self.local_server = await start_local_server(url, log_dir=log_dir)

    async def stop_local_server(self) -> None:
        """Stop the local server started here, if any (by its PID)."""
        server = self.local_server
        if server is not None:
            await server.stop()
            self.local_server = None

    async def _logged_in(self) -> None:
        self.header.show_message(None)
        await self.header.after_login()
        if self._retry_after_login:
            self._retry_after_login = False
            self.header.panel.retry()

    def _login_cancelled(self) -> None:
        self._retry_after_login = False

    async def logout(self) -> None:
        """Log out: the JWT leaves the keyring; the chat is emptied until the next login."""
        header = self.header
        header.panel.stop()
        await header.projects.switch_to(None)
        await header.workspace.logout()
        header.project_combo.clear()
        header.show_account()
        header.login_changed.emit(False)
        await header.models.update_composer()

    def _check_token(self) -> None:
        header = self.header
        if header.closed:
            return
        if header.external:
            if self._external_check is None or self._external_check.done():
                self._external_check = spawn(self.sync_external(), name="gns3-gui-login")
            return
        logged_in = header.workspace.logged_in
        if logged_in != self._was_logged_in:
            # With external auth the GUI connects (or drops) on its own schedule.
            self._was_logged_in = logged_in
            header.show_account()
            spawn(header.models.update_composer(), name="composer-state")
        if header.external or not logged_in:
            return
        if header.workspace.token_expired():
            self.auth_failed()

    async def sync_external(self) -> None:
        """Follow the GNS3 GUI's login and server: it logs in, out or moves on its own schedule.

        A token appearing (or a new server) runs the after-login path, so the header recovers
        from "not logged in"; a token gone or expired shows "not logged in" again.
        """
        header, workspace = self.header, self.header.workspace
        await workspace.follow_external_server()
        switched = workspace.server_url != self._seen_server
        logged_in = workspace.logged_in
        if header.closed or (not switched and logged_in == self._was_logged_in):
            return
        self._seen_server = workspace.server_url
        self._was_logged_in = logged_in
        if logged_in:
            header.show_message(None)
            await header.after_login()
            if header.backend.project_id is not None:  # its sessions could not load without login
                await header.projects.reload_panel()
            return
        header.show_account()
        header.login_changed.emit(False)
        await header.models.update_composer()

    def auth_failed(self, *, retry: bool = False) -> None:
        """The token expired or was refused: ask for the login again, keeping everything."""
        self._retry_after_login = self._retry_after_login or retry
        if self.header.external:
            self._expired_in_gns3()
            return
        reason = QCoreApplication.translate(
            "CopilotHeader", "Your GNS3 login has expired. Log in again to continue."
        )
        self.header.panel.composer.set_disabled_reason(reason, "login")
        self.open(reason)

    def requested(self) -> None:
        """The chat asks for the login (its composer's link)."""
        if self.header.external:
            self._expired_in_gns3()
            return
        self.open()

    def _expired_in_gns3(self) -> None:
        self.header.show_message(
            QCoreApplication.translate(
                "CopilotHeader", "The GNS3 login expired; log in again in GNS3."
            ),
            error=True,
        )

    def chat_error(self, _message: str, kind: str) -> None:
        """A turn failed: a refused login asks for it again, then sends the message again."""
        if kind == AUTH_ERROR_KIND:
            self.auth_failed(retry=True)

    def sessions_error(self, message: str, kind: str) -> None:
        """The sessions list could not load: the login again, or the reason under the header."""
        if kind == AUTH_ERROR_KIND:
            self.auth_failed()
        else:
            self.header.show_message(message, error=True)
