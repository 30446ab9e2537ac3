"""`CopilotHeader`: the top of the dock — server and login, project, settings — and its logic.

It connects the `Workspace` (login, projects, settings, model) to the `ChatPanel`:
- shows who is logged in where, with Log in / Log out; restores a remembered login at start;
- lists the server's projects and follows the one open in GNS3 (`ProjectFollower`); picking
  another project by hand pins it, "Follow GNS3" goes back to following;
- switches the panel to the current project's sessions when the project changes;
- opens the settings dialog and fills the composer's model picker from the LLM profiles;
- disables the composer with the reason when the user is not logged in, has no project or no
  model — the text being typed is kept;
- opens the login again when the GNS3 token expired or was refused, keeping the conversation and
  the typed text; a message that failed because of it is sent again after the login.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QGuiApplication
from PyQt6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.agent.local_servers import LocalServer as LocalModelServer
from gns3_copilot_desktop.core.agent.local_servers import (
    detect_local_servers,
    served_context_window,
)
from gns3_copilot_desktop.core.errors import CopilotError, Gns3AuthError, ServicesClosedError
from gns3_copilot_desktop.core.gns3.models import Notification
from gns3_copilot_desktop.core.gns3.notifications import LinkState
from gns3_copilot_desktop.core.lab_plan.apply import ALWAYS_RUNNING, snapshot_project
from gns3_copilot_desktop.core.lab_plan.picture import LabPicture
from gns3_copilot_desktop.core.lab_plan.topology import picture_of_lab
from gns3_copilot_desktop.core.local_server import LocalServer, start_local_server
from gns3_copilot_desktop.core.protocol import GNS3_AUTH_ERROR_KIND
from gns3_copilot_desktop.core.settings import LlmProfile
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from gns3_copilot_desktop.core.undo.record import UndoRecord
from gns3_copilot_desktop.core.workspace import Workspace
from gns3_copilot_desktop.ui.backends.remote import BackendChoice
from gns3_copilot_desktop.ui.cards.undo_view import (
    ChangeUndo,
    already_undone_text,
    nothing_text,
    outcome_text,
    question_box,
    undo_call_id,
)
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.header.login_dialog import LoginDialog, LoginRequest, LoginResult
from gns3_copilot_desktop.ui.lab.lab_card import TopologyCard
from gns3_copilot_desktop.ui.lab.node_links import NodeLinks
from gns3_copilot_desktop.ui.lab.plan_view import PlanOutcome
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.settings.dialog import SettingsActions, SettingsDialog
from gns3_copilot_desktop.ui.theme import colors

log = logging.getLogger(__name__)

TOKEN_CHECK_MS = 2_000
# A turn's error chunk for a refused login, and the name of the `Gns3AuthError` raised before one.
RELIST_AFTER_RECONNECT_S = 2.0
RECONNECTED_NOTICE_MS = 8_000
RESTART_WATCH_MS = 2_000
AUTH_ERROR_KIND = GNS3_AUTH_ERROR_KIND
EXPLICIT_MODEL_ID = "command-line"
"""The model picker's entry for the model given on the command line (not a profile id)."""


class CopilotHeader(QWidget):
    """Server, login, project and settings controls above the chat, and the logic behind them."""

    project_changed = pyqtSignal(object)  # str | None
    login_changed = pyqtSignal(bool)

    def __init__(
        self,
        workspace: Workspace,
        panel: ChatPanel,
        backend: BackendChoice,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("copilotHeader")
        self.workspace = workspace
        self.panel = panel
        self.backend = backend
        self.external = workspace.external_auth is not None
        self.login_dialog: LoginDialog | None = None
        self.settings_dialog: SettingsDialog | None = None
        self._retry_after_login = False
        self._driving = False
        self._closed = False
        self.notifications_seen = 0
        self._unreachable = False
        self._project_notice: str | None = None
        """What happened to the shown project's conversations (e.g. a damaged file replaced)."""
        """Controller events received (the server sends some as soon as the stream is up)."""
        self._was_logged_in = workspace.logged_in
        self._watch_task: asyncio.Task[None] | None = None
        self._external_check: asyncio.Task[None] | None = None
        self._seen_server = workspace.server_url
        if self.external:
            # The GNS3 GUI says which project is current (set_project), from the first moment.
            workspace.follower.pin(None)
        self._build()
        self._wire()
        self.token_timer = QTimer(self)
        self.token_timer.setInterval(TOKEN_CHECK_MS)
        self.token_timer.timeout.connect(self._check_token)
        self.token_timer.start()

    # --- layout -----------------------------------------------------------------------------

    def _build(self) -> None:
        self.account_label = QLabel(self)
        self.account_label.setAccessibleName(
            QCoreApplication.translate("CopilotHeader", "GNS3 server and user")
        )
        self.account_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.login_button = self._button(
            QCoreApplication.translate("CopilotHeader", "Log in"),
            QCoreApplication.translate("CopilotHeader", "Log in to GNS3"),
        )
        self.logout_button = self._button(
            QCoreApplication.translate("CopilotHeader", "Log out"),
            QCoreApplication.translate("CopilotHeader", "Log out of GNS3"),
        )
        self.settings_button = QToolButton(self)
        self.settings_button.setText("⚙")
        self.settings_button.setAccessibleName(
            QCoreApplication.translate("CopilotHeader", "Copilot settings")
        )
        self.settings_button.setToolTip(
            QCoreApplication.translate("CopilotHeader", "Copilot settings")
        )
        self.project_combo = QComboBox(self)
        self.project_combo.setAccessibleName(QCoreApplication.translate("CopilotHeader", "Project"))
        self.project_combo.setToolTip(
            QCoreApplication.translate("CopilotHeader", "The GNS3 project the copilot works on")
        )
        self.project_combo.setPlaceholderText(
            QCoreApplication.translate("CopilotHeader", "No project open")
        )
        self.project_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.project_combo.setMinimumContentsLength(10)
        self.follow_button = QToolButton(self)
        self.follow_button.setText(QCoreApplication.translate("CopilotHeader", "Follow GNS3"))
        self.follow_button.setCheckable(True)
        self.follow_button.setChecked(True)
        self.follow_button.setAccessibleName(
            QCoreApplication.translate("CopilotHeader", "Follow the project open in GNS3")
        )
        self.follow_button.setToolTip(
            QCoreApplication.translate(
                "CopilotHeader",
                "Follow the project open in GNS3; choosing a project by hand pins it",
            )
        )
        self.lab_button = QToolButton(self)
        self.lab_button.setText(QCoreApplication.translate("CopilotHeader", "Lab"))
        self.lab_button.setAccessibleName(
            QCoreApplication.translate("CopilotHeader", "Show the lab in the chat")
        )
        self.lab_button.setToolTip(
            QCoreApplication.translate(
                "CopilotHeader", "Show the project's topology in the chat, kept up to date"
            )
        )
        self.topology_cards: list[TopologyCard] = []
        self.confirm_box: QMessageBox | None = None
        self.node_links = NodeLinks(parent=self)
        self.message_label = QLabel(self)
        self.message_label.setWordWrap(True)
        self.message_label.setAccessibleName(
            QCoreApplication.translate("CopilotHeader", "Connection status")
        )
        self.message_label.hide()

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.account_label, 1)
        top.addWidget(self.login_button)
        top.addWidget(self.logout_button)
        top.addWidget(self.settings_button)
        second = QHBoxLayout()
        second.setContentsMargins(0, 0, 0, 0)
        self.project_label = QLabel(QCoreApplication.translate("CopilotHeader", "Project"), self)
        self.project_label.setBuddy(self.project_combo)
        second.addWidget(self.project_label)
        second.addWidget(self.project_combo, 1)
        second.addWidget(self.follow_button)
        second.addWidget(self.lab_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 2)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addLayout(second)
        layout.addWidget(self.message_label)
        if self.external:
            for widget in (self.login_button, self.logout_button, self.follow_button):
                widget.hide()
            self.project_combo.setEnabled(False)
        self.setTabOrder(self.project_combo, self.follow_button)
        self._show_account()

    def _button(self, text: str, name: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setAccessibleName(name)
        return button

    def _wire(self) -> None:
        self.login_button.clicked.connect(lambda *_: self.open_login())
        self.logout_button.clicked.connect(lambda *_: spawn(self.logout(), name="gns3-logout"))
        self.settings_button.clicked.connect(lambda *_: self.open_settings())
        self.project_combo.activated.connect(self._project_picked)
        self.follow_button.toggled.connect(self._follow_toggled)
        self.lab_button.clicked.connect(lambda *_: self.show_lab())
        self.panel.controller.finished.connect(
            lambda *_: spawn(self.refresh_node_links(), name="node-links")
        )
        self.panel.view.plan_undo_requested.connect(
            lambda structured: spawn(self.undo_plan(structured), name="undo-plan")
        )
        self.panel.view.plan_snapshot_requested.connect(
            lambda structured: spawn(self.take_plan_snapshot(structured), name="plan-snapshot")
        )
        self.panel.view.change_undo_requested.connect(
            lambda structured: spawn(self.undo_change(structured), name="undo-change")
        )
        self.panel.session_changed.connect(
            lambda sid: spawn(self._show_undone(sid), name="show-undone")
        )
        self.workspace.follower.subscribe(self._follower_changed)
        self.panel.controller.error_occurred.connect(self._chat_error)
        self.panel.sessions.refresh_failed.connect(self._sessions_error)
        self.panel.settings_requested.connect(self.open_settings)
        self.panel.login_requested.connect(self._login_requested)
        self.panel.composer.model_changed.connect(
            lambda pid: spawn(self._model_picked(pid), name="model-picked")
        )
        hints = QGuiApplication.styleHints()
        if hints is not None:
            hints.colorSchemeChanged.connect(lambda *_: self.panel.apply_theme())

    # --- start ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Restore the login (or ask for one), then load the projects and the model picker."""
        self._fill_models()
        if self.workspace.settings_message:
            self._show_message(self.workspace.settings_message)
        if self.secret_warning():
            self._show_message(self.secret_warning() or "")
        if self.external:
            await self._after_login()
            return
        try:
            restored = await self.workspace.restore_login()
        except CopilotError as exc:
            self._show_message(exc.user_message, error=True)
            restored = False
        if restored:
            await self._after_login()
        else:
            await self.update_composer()
            self.open_login()

    def secret_warning(self) -> str | None:
        """The secret store's warning when it keeps secrets in memory only."""
        return self.workspace.secrets.warning

    async def _after_login(self) -> None:
        self._show_account()
        self.login_changed.emit(True)
        await self.refresh_projects()
        self._start_watching()
        await self.update_composer()

    # --- login ------------------------------------------------------------------------------

    def open_login(self, reason: str | None = None) -> LoginDialog:
        """Show the login dialog (window-modal, never a nested event loop)."""
        if self.login_dialog is not None and self.login_dialog.isVisible():
            return self.login_dialog
        dialog = LoginDialog(
            self._login_action,
            server_url=self.workspace.server_url,
            username=self.workspace.username or self.workspace.saved_username(),
            reason=reason,
            start_local_server=lambda: self.start_local_server(dialog.request().server_url),
            parent=self.window(),
            no_keyring=None
            if self.workspace.secrets.persistent
            else self.workspace.secrets.warning,
        )
        dialog.logged_in.connect(lambda _result: spawn(self._logged_in(), name="after-login"))
        dialog.rejected.connect(self._login_cancelled)
        self.login_dialog = dialog
        dialog.open()
        return dialog

    async def _login_action(self, request: LoginRequest) -> LoginResult:
        url = await self.workspace.login(
            request.server_url, request.username, request.password, request.remember
        )
        return LoginResult(server_url=url, username=request.username)

    local_server: LocalServer | None = None
    """The ``gns3server`` started from the login dialog; the app stops it when it closes."""

    async def start_local_server(self, url: str) -> None:
        """Start a local GNS3 server at `url` (loopback only), as the login dialog offers."""
        current = self.local_server
        if current is not None and current.running:
            await current.stop()
        self.local_server = await start_local_server(url, log_dir=self.workspace.paths.log_dir)

    async def stop_local_server(self) -> None:
        """Stop the local server started here, if any (by its PID)."""
        server = self.local_server
        if server is not None:
            await server.stop()
            self.local_server = None

    async def _logged_in(self) -> None:
        self._show_message(None)
        await self._after_login()
        if self._retry_after_login:
            self._retry_after_login = False
            self.panel.retry()

    def _login_cancelled(self) -> None:
        self._retry_after_login = False

    async def logout(self) -> None:
        """Log out: the JWT leaves the keyring; the chat is emptied until the next login."""
        self.panel.stop()
        await self._set_project(None)
        await self.workspace.logout()
        self.project_combo.clear()
        self._show_account()
        self.login_changed.emit(False)
        await self.update_composer()

    def _check_token(self) -> None:
        if self._closed:
            return
        if self.external:
            if self._external_check is None or self._external_check.done():
                self._external_check = spawn(self.sync_external(), name="gns3-gui-login")
            return
        logged_in = self.workspace.logged_in
        if logged_in != self._was_logged_in:
            # With external auth the GUI connects (or drops) on its own schedule.
            self._was_logged_in = logged_in
            self._show_account()
            spawn(self.update_composer(), name="composer-state")
        if self.external or not logged_in:
            return
        if self.workspace.token_expired():
            self.auth_failed()

    async def sync_external(self) -> None:
        """Follow the GNS3 GUI's login and server: it logs in, out or moves on its own schedule.

        A token appearing (or a new server) runs the after-login path, so the header recovers
        from "not logged in"; a token gone or expired shows "not logged in" again.
        """
        await self.workspace.follow_external_server()
        switched = self.workspace.server_url != self._seen_server
        logged_in = self.workspace.logged_in
        if self._closed or (not switched and logged_in == self._was_logged_in):
            return
        self._seen_server = self.workspace.server_url
        self._was_logged_in = logged_in
        if logged_in:
            self._show_message(None)
            await self._after_login()
            if self.backend.project_id is not None:  # its sessions could not load without login
                await self._reload_panel()
            return
        self._show_account()
        self.login_changed.emit(False)
        await self.update_composer()

    def auth_failed(self, *, retry: bool = False) -> None:
        """The token expired or was refused: ask for the login again, keeping everything."""
        self._retry_after_login = self._retry_after_login or retry
        if self.external:
            self._show_message(
                QCoreApplication.translate(
                    "CopilotHeader", "The GNS3 login expired; log in again in GNS3."
                ),
                error=True,
            )
            return
        reason = QCoreApplication.translate(
            "CopilotHeader", "Your GNS3 login has expired. Log in again to continue."
        )
        self.panel.composer.set_disabled_reason(reason, "login")
        self.open_login(reason)

    def _login_requested(self) -> None:
        if self.external:
            self._show_message(
                QCoreApplication.translate(
                    "CopilotHeader", "The GNS3 login expired; log in again in GNS3."
                ),
                error=True,
            )
            return
        self.open_login()

    def _chat_error(self, _message: str, kind: str) -> None:
        if kind == AUTH_ERROR_KIND:
            self.auth_failed(retry=True)

    def _sessions_error(self, message: str, kind: str) -> None:
        if kind == AUTH_ERROR_KIND:
            self.auth_failed()
        else:
            self._show_message(message, error=True)

    # --- projects ---------------------------------------------------------------------------

    async def refresh_projects(self) -> None:
        """Reload the server's projects; the follower then picks the current one."""
        try:
            await self.workspace.list_projects()
        except Gns3AuthError:
            self.auth_failed()
            return
        except CopilotError as exc:
            self._show_message(exc.user_message, error=True)
            return
        self._fill_projects()
        await self._set_project(self.workspace.follower.current)

    def _fill_projects(self) -> None:
        follower = self.workspace.follower
        self.project_combo.blockSignals(True)
        self.project_combo.clear()
        for project in follower.projects:
            label = project.name
            if project.status != "opened":
                label = QCoreApplication.translate("CopilotHeader", "{name} (closed)").format(
                    name=project.name
                )
            self.project_combo.addItem(label, project.project_id)
        self.project_combo.setCurrentIndex(self.project_combo.findData(follower.current))
        self.project_combo.blockSignals(False)
        self.follow_button.blockSignals(True)
        self.follow_button.setChecked(not follower.pinned)
        self.follow_button.blockSignals(False)

    def _project_picked(self, index: int) -> None:
        project_id = self.project_combo.itemData(index)
        if isinstance(project_id, str):
            self.workspace.follower.pin(project_id)
            self._fill_projects()

    def _follow_toggled(self, following: bool) -> None:
        if following:
            self.workspace.follower.follow()
        elif self.workspace.follower.current is not None:
            self.workspace.follower.pin(self.workspace.follower.current)
        self._fill_projects()

    def shutdown(self) -> None:
        """Stop reacting (the app is closing): no timer, no project switches."""
        self._closed = True
        self.token_timer.stop()
        self.node_links.close()

    def _follower_changed(self, project_id: str | None) -> None:
        if self._closed:
            return
        self._fill_projects()
        if not self._driving and not self.external:  # the GNS3 GUI drives it (set_project)
            spawn(self._set_project(project_id), name="switch-project")

    async def set_project(self, project_id: str | None) -> None:
        """Work on `project_id` (pinned), as the GNS3 GUI asks when its project changes."""
        if project_id is not None and self.workspace.follower.project(project_id) is None:
            await self._quiet_refresh()
        self._driving = True
        try:
            self.workspace.follower.pin(project_id)
        finally:
            self._driving = False
        self._fill_projects()
        await self._set_project(project_id)

    async def _quiet_refresh(self) -> None:
        try:
            await self.workspace.list_projects()
        except CopilotError as exc:
            log.warning("could not list the projects: %s", exc.user_message)

    async def _set_project(self, project_id: str | None) -> None:
        if project_id == self.backend.project_id:
            return
        if self._project_notice is not None:
            notice, self._project_notice = self._project_notice, None
            if self.message_label.text() == core_text(notice):
                self._show_message(None)
        self.panel.stop()
        self.backend.project_id = project_id
        self.workspace.keep_project_open(project_id)
        self._clear_panel()
        self.project_changed.emit(project_id)
        await self.update_composer()
        if project_id is not None:
            await self.workspace.remember_project(project_id)
        await self.refresh_node_links()
        await self._reload_panel()

    def _clear_panel(self) -> None:
        """No session open: the chat shows a new conversation."""
        panel = self.panel
        panel.session_id = None
        panel.sessions.set_current(None)
        panel.view.clear()
        panel.set_session_mode(None)  # practice-ui: no mode badge, no practice panel
        panel.title_label.setText(QCoreApplication.translate("CopilotHeader", "New conversation"))
        panel.status.reset()

    async def _reload_panel(self) -> None:
        try:
            await self.panel.start()
            notices = await self.backend.project_notices()
            if notices:
                # Kept while this project is shown: a later "all clear" (a login, the server
                # back) must not wipe what happened to its conversations.
                self._project_notice = "\n".join(notices)
                self._show_message(self._project_notice)
        except ServicesClosedError:
            raise  # logged out or closing while the sessions loaded: the whole step ends quietly
        except CopilotError as exc:
            self._show_message(exc.user_message, error=True)

    def _start_watching(self) -> None:
        if self._watch_task is not None and not self._watch_task.done():
            return
        try:
            task = self.workspace.watch_notifications(self._notified, self._link_changed)
        except Gns3AuthError:
            return
        task.add_done_callback(self._watch_ended)
        self._watch_task = task

    async def _notified(self, notification: Notification) -> None:
        self.notifications_seen += 1
        if notification.action.startswith("project.") and not self._closed:
            self._fill_projects()
            self._say_why_closed(notification)

    def _say_why_closed(self, notification: Notification) -> None:
        """GNS3 closed or deleted the project the chat is about: say so, not just "No project
        open" (the app keeps it open itself: someone closed it in GNS3, or GNS3 did)."""
        project = notification.project
        if project is None or project.project_id != self.backend.project_id:
            return
        if notification.action == "project.closed":
            text = QCoreApplication.translate(
                "CopilotHeader",
                "GNS3 closed the project “%1” (closed in GNS3 or by another client). "
                "Open it again in GNS3 to go on.",
            )
        elif notification.action == "project.deleted":
            text = QCoreApplication.translate(
                "CopilotHeader", "The project “%1” was deleted in GNS3."
            )
        else:
            return
        self._show_message(text.replace("%1", project.name), error=True)

    # --- undoing a lab plan, and a snapshot on request -----------------------------------------

    async def undo_plan(self, structured: dict[str, Any]) -> bool:
        """Plan the undo of a lab plan from its record against the project as it is now, show
        every action and what no longer applies, and carry it out once the user approves (the
        same question as every Undo). True when it was carried out whole."""
        project_id = self.backend.project_id
        client = self.workspace.client
        record = UndoRecord.from_structured(structured)
        outcome = self._plan_outcome_of(structured)
        if project_id is None or client is None or record is None or outcome is None:
            return False
        outcome.set_busy(True, QCoreApplication.translate("CopilotHeader", "Reading the project…"))
        try:
            plan = await plan_undo(
                record, client, project_id, push_config=self.workspace.config_pusher(project_id)
            )
            if not plan.actions:
                outcome.set_undone(nothing_text(plan))
                return False
            title = QCoreApplication.translate("CopilotHeader", "Undo the lab plan")
            if not await self._ask(question_box(title, plan, self.window())):
                outcome.set_undone("", done=False)
                return False
            outcome.state.setText(QCoreApplication.translate("CopilotHeader", "Undoing…"))
            result = await run_undo(plan)
        except CopilotError as exc:
            outcome.set_undone(core_text(exc.user_message), done=False)
            return False
        outcome.set_undone(outcome_text(result), done=result.ok)
        return result.ok

    async def take_plan_snapshot(self, structured: dict[str, Any]) -> bool:
        """Ask, then take a GNS3 snapshot: the running devices' configurations are saved first,
        the nodes that block a snapshot are stopped and started again. True when taken."""
        project_id = self.backend.project_id
        client = self.workspace.client
        outcome = self._plan_outcome_of(structured)
        if project_id is None or client is None or outcome is None:
            return False
        try:
            nodes = await client.list_nodes(project_id)
            running = [
                n.name for n in nodes if n.status == "started" and n.node_type not in ALWAYS_RUNNING
            ]
            text = QCoreApplication.translate(
                "CopilotHeader",
                "Take a GNS3 snapshot of the project? GNS3 takes one only while nodes are "
                "stopped: the devices' running configurations are saved first (write memory, "
                "save, commit), then the running nodes stop while the snapshot is taken and "
                "start again.",
            )
            if running:
                text += "\n\n" + QCoreApplication.translate(
                    "CopilotHeader", "These nodes stop for a moment: %1"
                ).replace("%1", ", ".join(running))
            title = QCoreApplication.translate("CopilotHeader", "Take a GNS3 snapshot")
            if not await self._confirm(title, text):
                return False
            outcome.set_busy(
                True, QCoreApplication.translate("CopilotHeader", "Taking the snapshot…")
            )
            stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
            report = await snapshot_project(
                client,
                project_id,
                f"copilot {stamp}",
                server_url=self.workspace.server_url,
            )
        except CopilotError as exc:
            outcome.set_undone(core_text(exc.user_message), done=False)
            return False
        done = QCoreApplication.translate("CopilotHeader", "Snapshot '%1' taken.").replace(
            "%1", report.snapshot.name
        )
        if report.not_saved:
            done += " " + QCoreApplication.translate(
                "CopilotHeader", "Not saved first: %1."
            ).replace("%1", "; ".join(report.not_saved))
        outcome.set_undone(done, done=not outcome.undo_button.isEnabled())
        return True

    # --- undoing one change -------------------------------------------------------------------

    async def undo_change(self, structured: dict[str, Any]) -> bool:
        """Plan the undo of one change against the project as it is now, show every action (and
        every line a restore pushes) and what no longer applies, and carry it out once the user
        approves. True when it was carried out whole."""
        project_id = self.backend.project_id
        client = self.workspace.client
        record = UndoRecord.from_structured(structured)
        view = self._change_undo_of(structured)
        if project_id is None or client is None or record is None or view is None:
            return False
        session_id, call_id = self.panel.session_id, undo_call_id(view)
        if session_id is not None and call_id in await self._undone_changes(session_id):
            view.set_result(already_undone_text(), done=True)
            return False
        view.set_busy(True)
        try:
            plan = await plan_undo(
                record, client, project_id, push_config=self.workspace.config_pusher(project_id)
            )
            if not plan.actions:
                view.set_result(nothing_text(plan), done=True)
                return False
            title = (
                QCoreApplication.translate("CopilotHeader", "Restore this configuration")
                if view.restores
                else QCoreApplication.translate("CopilotHeader", "Undo this change")
            )
            if not await self._ask(question_box(title, plan, self.window())):
                view.set_result("", done=False)
                return False
            view.state.setText(QCoreApplication.translate("CopilotHeader", "Undoing…"))
            outcome = await run_undo(plan)
        except CopilotError as exc:
            view.set_result(core_text(exc.user_message), done=False)
            return False
        if outcome.ok and session_id is not None and call_id is not None:
            await self._record_undo(session_id, call_id)
        view.set_result(outcome_text(outcome), done=outcome.ok)
        return outcome.ok

    async def _undone_changes(self, session_id: str) -> set[str]:
        """The session's changes already undone, from the decision log of whoever runs the agent
        (this computer or the copilot service)."""
        try:
            return await self.backend.undone_changes(session_id)
        except CopilotError:
            return set()

    async def _record_undo(self, session_id: str, call_id: str) -> None:
        try:
            await self.backend.record_undo(session_id, call_id)
        except CopilotError as exc:
            self._show_message(exc.user_message, error=True)

    async def _show_undone(self, session_id: str) -> None:
        """A reopened session: the changes already undone offer no Undo again."""
        undone = await self._undone_changes(session_id)
        if not undone or self.panel.session_id != session_id:
            return
        for view in self.panel.view.findChildren(ChangeUndo):
            if undo_call_id(view) in undone:
                view.set_result(already_undone_text(), done=True)

    def _change_undo_of(self, structured: dict[str, Any]) -> ChangeUndo | None:
        for view in self.panel.view.findChildren(ChangeUndo):
            if view.structured is structured:
                return view
        return None

    def _plan_outcome_of(self, structured: dict[str, Any]) -> PlanOutcome | None:
        for outcome in self.panel.view.findChildren(PlanOutcome):
            if outcome.structured is structured:
                return outcome
        return None

    async def _confirm(self, title: str, text: str) -> bool:
        """A modal question answered without a nested event loop (see the GNS3 GUI notes)."""
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            title,
            text,
            QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel,
            self.window(),
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setTextFormat(Qt.TextFormat.PlainText)  # lab names and device lines are data
        return await self._ask(box)

    async def _ask(self, box: QMessageBox) -> bool:
        """Show ``box`` (Ok / Cancel) and wait for the answer: True for Ok."""
        self.confirm_box = box
        answered: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def finished(result: int) -> None:
            if not answered.done():
                answered.set_result(result)

        box.finished.connect(finished)
        box.open()
        try:
            return await answered == QMessageBox.StandardButton.Ok.value
        finally:
            self.confirm_box = None
            box.deleteLater()

    async def refresh_node_links(self) -> None:
        """Read the project's nodes: their names in answers become links."""
        project_id, client = self.backend.project_id, self.workspace.client
        if self._closed:
            return
        if project_id is None or client is None:
            self.node_links.set_nodes([])
            return
        try:
            nodes = await client.list_nodes(project_id)
        except CopilotError as exc:
            log.info("node links not refreshed: %s", exc.user_message)
            return
        if project_id == self.backend.project_id and not self._closed:
            self.node_links.set_nodes(nodes, urlsplit(client.base_url).hostname)

    # --- the lab, drawn -----------------------------------------------------------------------

    def show_lab(self) -> TopologyCard | None:
        """Add a card with the current project's topology to the chat (kept current)."""
        project_id = self.backend.project_id
        client = self.workspace.client
        if project_id is None or client is None:
            # not logged in, a project cannot be opened yet: say the step that comes first
            self._show_message(
                QCoreApplication.translate("CopilotHeader", "Log in to see your lab.")
                if client is None
                else QCoreApplication.translate("CopilotHeader", "Open a project to see its lab."),
                error=True,
            )
            return None
        title = self.project_combo.currentText() or project_id

        async def read() -> LabPicture:
            nodes = await client.list_nodes(project_id)
            links = await client.list_links(project_id)
            if project_id == self.backend.project_id and not self._closed:
                # the card's node menu opens consoles from these (status, console port)
                self.node_links.set_nodes(nodes, urlsplit(client.base_url).hostname)
            return picture_of_lab(nodes, links)

        card = TopologyCard(
            title,
            read,
            lambda on_link: client.project_notifications(project_id, on_link=on_link),
            node_links=self.node_links,
        )
        self.topology_cards = [c for c in self.topology_cards if not sip.isdeleted(c)] + [card]
        self.panel.view.add_card(card)
        card.refresh_soon(0)
        return card

    def _link_changed(self, state: LinkState) -> None:
        """Say so while the server does not answer; clear it, and catch up, once it is back."""
        if self._closed:
            return
        text = unreachable_text()
        if not state.connected:
            self._unreachable = True
            self._show_message(text, error=True)
            self.message_label.setToolTip(state.reason or "")
            return
        if not self._unreachable:
            return
        self._unreachable = False
        if self.message_label.text() == text:
            self._show_message(reconnected_text())
            self.message_label.setToolTip("")
            QTimer.singleShot(RECONNECTED_NOTICE_MS, self._clear_reconnected)
        spawn(self._catch_up(), name="projects-after-reconnect")

    def _clear_reconnected(self) -> None:
        if not self._closed and self.message_label.text() == reconnected_text():
            self._show_message(None)

    async def _catch_up(self) -> None:
        """The project events sent while the server was unreachable are lost: list again, and
        once more a moment later (an event sent while the server was still setting up the new
        subscription is lost too)."""
        for delay in (0.0, RELIST_AFTER_RECONNECT_S):
            await asyncio.sleep(delay)
            if self._closed:
                return
            await self._quiet_refresh()
            if not self._closed:
                self._fill_projects()

    def _watch_ended(self, task: asyncio.Task[None]) -> None:
        if task.cancelled() or self._closed:
            return
        exc = task.exception()
        if isinstance(exc, Gns3AuthError):
            self.auth_failed()
            return
        if isinstance(exc, CopilotError):
            self._show_message(exc.user_message, error=True)
        elif exc is not None:
            log.error("the notification watcher failed", exc_info=exc)
            self._show_message(unreachable_text(), error=True)
        # without the stream, projects opened or closed in GNS3 would go unseen: start it
        # again (the link reports say "unreachable" meanwhile, "reconnected" once it is up)
        self._unreachable = True
        QTimer.singleShot(RESTART_WATCH_MS, self._restart_watching)

    def _restart_watching(self) -> None:
        if not self._closed and self.workspace.logged_in:
            self._start_watching()

    # --- model and settings -----------------------------------------------------------------

    def _fill_models(self) -> None:
        settings = self.workspace.settings
        explicit = self.workspace.explicit_llm
        if explicit and not settings.llm_profiles:
            # Only a command-line model (--model-base-url): it answers, so the picker shows it.
            self.panel.composer.set_models([(EXPLICIT_MODEL_ID, _explicit_label(explicit))])
            self.panel.status.set_model(
                str(explicit.get("model") or ""),
                str(explicit.get("provider") or ""),
                str(explicit["base_url"]) if explicit.get("base_url") else None,
            )
            return
        models = [(p.id, p.name or p.model) for p in settings.llm_profiles]
        active = self.workspace.active_profile()
        self.panel.composer.set_models(models, active.id if active else None)
        self._show_model_in_status()

    def _show_model_in_status(self) -> None:
        active = self.workspace.active_profile()
        if active is None:
            self.panel.status.set_model("")
        else:
            self.panel.status.set_model(active.model, active.provider, active.base_url)

    async def _model_picked(self, profile_id: str) -> None:
        await self.workspace.set_active_profile(profile_id)
        self._show_model_in_status()
        await self.update_composer()

    async def update_composer(self) -> None:
        """Enable the composer, or disable it with the reason (typed text is kept) and a link
        to what fixes it (the login, the model settings)."""
        problem = await self.composer_problem()
        await self._update_checklist()
        fix = None
        if problem is not None and not self.workspace.logged_in and not self.external:
            fix = "login"
        elif problem is not None and self.workspace.logged_in and self.backend.project_id:
            fix = "settings"
        self.panel.composer.set_disabled_reason(problem, fix)

    async def _update_checklist(self) -> None:
        """The empty chat's first-run steps, ticked as they are done."""
        logged_in = self.workspace.logged_in or self.external
        model_ready = self.backend.is_remote or await self.workspace.model_problem() is None
        self.panel.view.set_checklist(logged_in, model_ready, self.backend.project_id is not None)

    async def composer_problem(self) -> str | None:
        """Why the user cannot send now, or None."""
        if not self.workspace.logged_in:
            if self.external:
                return QCoreApplication.translate(
                    "CopilotHeader", "Connect GNS3 to its server to use the copilot."
                )
            return QCoreApplication.translate(
                "CopilotHeader", "Log in to the GNS3 server to chat with the copilot."
            )
        if self.backend.project_id is None:
            return QCoreApplication.translate(
                "CopilotHeader", "Open a project in GNS3 (or choose one above) to chat about it."
            )
        if self.backend.is_remote:
            return None  # the copilot service answers with its own model
        problem = await self.workspace.model_problem()
        return core_text(problem) if problem is not None else None

    def open_settings(self) -> SettingsDialog:
        """Show the settings dialog; saved changes apply at once."""
        actions = SettingsActions(
            test_connection=self._test_connection,
            list_ollama_models=_list_ollama_models,
            load_api_key=self.workspace.secrets.get_api_key,
            detect_local_servers=_detect_local_servers,
        )
        dialog = SettingsDialog(self.workspace.settings, actions, self.window())
        dialog.accepted.connect(lambda: spawn(self._settings_saved(dialog), name="save-settings"))
        self.settings_dialog = dialog
        dialog.open()
        return dialog

    async def _settings_saved(self, dialog: SettingsDialog) -> None:
        outcome = dialog.outcome
        if outcome is None:
            return
        try:
            await self.workspace.apply_settings(
                outcome.settings, outcome.api_keys, outcome.console_secrets
            )
        except CopilotError as exc:
            self._show_message(exc.user_message, error=True)
        self._fill_models()
        if await self.backend.apply_settings():
            await self._switch_backend()
        await self.update_composer()

    async def _switch_backend(self) -> None:
        """The agent now runs elsewhere (this computer or a copilot service): its sessions."""
        self.panel.stop()
        self._clear_panel()
        if self.backend.project_id is not None and self.workspace.logged_in:
            await self._reload_panel()

    async def _test_connection(self, profile: LlmProfile, api_key: str | None) -> str:
        from gns3_copilot_desktop.core.agent.model_factory import (
            check_tool_support,
            create_base_model,
            resolve_llm_config,
        )

        async def lookup(profile_id: str) -> str | None:
            return api_key or await self.workspace.secrets.get_api_key(profile_id)

        config = await resolve_llm_config(None, profile, lookup, {})
        model = await asyncio.to_thread(create_base_model, config)
        report = await check_tool_support(model)
        translate = QCoreApplication.translate
        lines = [
            translate("CopilotHeader", "{model} answers.").format(model=config.label),
            translate("CopilotHeader", "Calls tools: yes.")
            if report.calls_tools
            else translate("CopilotHeader", "Calls tools: it accepted them but answered in text."),
            translate("CopilotHeader", "Streams tool calls: yes.")
            if report.streams_tool_calls
            else translate("CopilotHeader", "Streams tool calls: no (asked without streaming)."),
        ]
        lines.append(_window_text(config.context_window, await served_context_window(config)))
        return " ".join(lines)

    # --- display ----------------------------------------------------------------------------

    def _show_account(self) -> None:
        logged_in = self.workspace.logged_in
        server = self.workspace.server_url
        if logged_in:
            user = self.workspace.username or "?"
            self.account_label.setText(
                QCoreApplication.translate("CopilotHeader", "{user} @ {server}").format(
                    user=user, server=server
                )
            )
        else:
            self.account_label.setText(
                QCoreApplication.translate("CopilotHeader", "Not logged in · {server}").format(
                    server=server
                )
            )
        self.account_label.setToolTip(server)
        if not self.external:
            self.login_button.setVisible(not logged_in)
            self.logout_button.setVisible(logged_in)
        self.project_combo.setEnabled(logged_in and not self.external)
        self.follow_button.setEnabled(logged_in)

    def _show_message(self, text: str | None, *, error: bool = False) -> None:
        """Show `text` under the header; None clears it, back to the project's notice if any."""
        text = core_text(text or self._project_notice or "")
        self.message_label.setText(text)
        self.message_label.setVisible(bool(text))
        color = colors(self.palette()).error if error else colors(self.palette()).muted
        self.message_label.setStyleSheet(f"color: {color};")


def reconnected_text() -> str:
    """What the header says for a moment once the notification connection is back."""
    return QCoreApplication.translate(
        "CopilotHeader", "Reconnected to GNS3; changes made meanwhile were read again."
    )


def unreachable_text() -> str:
    """What the header says while the notification connection to the server is down."""
    return QCoreApplication.translate("CopilotHeader", "GNS3 unreachable — retrying")


def _explicit_label(explicit: Mapping[str, Any]) -> str:
    """``model @ host:port (command line)`` for the picker."""
    name = str(explicit.get("model") or "?")
    base_url = explicit.get("base_url")
    where = urlsplit(str(base_url)).netloc if base_url else ""
    if where:
        name = f"{name} @ {where}"
    return QCoreApplication.translate("CopilotHeader", "{model} (command line)").format(model=name)


def _window_text(configured: int | None, served: int | None) -> str:
    """Test connection's line on the context window, saying where the figure comes from."""
    translate = QCoreApplication.translate
    if served is not None:
        text = translate(
            "CopilotHeader", "Context window: {tokens} tokens (read from the server)."
        ).format(tokens=f"{served:,}")
        if configured is not None and configured != served:
            text += " " + translate(
                "CopilotHeader", "The profile says {tokens}: set it to what the server runs."
            ).format(tokens=f"{configured:,}")
        return text
    if configured is not None:
        return translate(
            "CopilotHeader",
            "Context window: {tokens} tokens (the profile's setting; not read from the server).",
        ).format(tokens=f"{configured:,}")
    return translate(
        "CopilotHeader",
        "Context window: unknown (the server does not say it; 128,000 tokens assumed).",
    )


async def _detect_local_servers(typed_url: str | None) -> list[LocalModelServer]:
    return await detect_local_servers(typed_url=typed_url)


async def _list_ollama_models(host: str | None) -> list[str]:
    from gns3_copilot_desktop.core.agent.model_factory import (
        OLLAMA_DEFAULT_HOST,
        list_ollama_models,
    )

    return await list_ollama_models(host or OLLAMA_DEFAULT_HOST)
