"""`CopilotHeader`: the top of the dock — server and login, project, settings — and its wiring.

It connects the `Workspace` (login, projects, settings, model) to the `ChatPanel` through the
helpers it composes, each with one duty:
- `LoginFlow` (``header.login``): who is logged in where, Log in / Log out, a remembered login
  restored at start, the login asked again when the GNS3 token expired or was refused;
- `ProjectPicker` (``header.projects``): the server's projects, following the one open in GNS3
  or the one pinned by hand, and the panel switched to the current project's sessions;
- `ServerWatch` (``header.watch``): the server's notification stream and what the header says
  while the server does not answer;
- `ModelSettings` (``header.models``): the settings dialog, the composer's model picker, and
  the composer disabled with the reason (the text being typed is kept);
- `UndoActions` (``header.undo``): undoing a lab plan or one change, a snapshot on request;
- `LabCards` (``header.labs``): the project's topology drawn in the chat, and node names that
  become links.

The header itself keeps its widgets, the account line and the message line under it.
"""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication, pyqtSignal
from PyQt6.QtGui import QGuiApplication
from PyQt6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.workspace import Workspace
from gns3_copilot_desktop.ui.backends.remote import BackendChoice
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.header.lab_cards import LabCards
from gns3_copilot_desktop.ui.header.login_flow import LoginFlow
from gns3_copilot_desktop.ui.header.model_settings import ModelSettings
from gns3_copilot_desktop.ui.header.project_picker import ProjectPicker
from gns3_copilot_desktop.ui.header.server_watch import ServerWatch
from gns3_copilot_desktop.ui.header.undo_actions import UndoActions
from gns3_copilot_desktop.ui.lab.node_links import NodeLinks
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.theme import colors


class CopilotHeader(QWidget):
    """Server, login, project and settings controls above the chat, and the helpers behind them."""

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
        self.closed = False
        """The app is closing: no timer, no project switches, nothing shown."""
        self.project_notice: str | None = None
        """What happened to the shown project's conversations (e.g. a damaged file replaced)."""
        if self.external:
            # The GNS3 GUI says which project is current (set_project), from the first moment.
            workspace.follower.pin(None)
        self._build()
        self.login = LoginFlow(self)
        self.projects = ProjectPicker(self)
        self.watch = ServerWatch(self)
        self.models = ModelSettings(self)
        self.undo = UndoActions(self)
        self.labs = LabCards(self)
        self._wire()

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
        self.show_account()

    def _button(self, text: str, name: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setAccessibleName(name)
        return button

    def _wire(self) -> None:
        login, projects, models, undo, labs = (
            self.login,
            self.projects,
            self.models,
            self.undo,
            self.labs,
        )
        self.login_button.clicked.connect(lambda *_: login.open())
        self.logout_button.clicked.connect(lambda *_: spawn(login.logout(), name="gns3-logout"))
        self.settings_button.clicked.connect(lambda *_: models.open_settings())
        self.project_combo.activated.connect(projects.picked)
        self.follow_button.toggled.connect(projects.follow_toggled)
        self.lab_button.clicked.connect(lambda *_: labs.show_lab())
        self.panel.controller.finished.connect(
            lambda *_: spawn(labs.refresh_node_links(), name="node-links")
        )
        self.panel.view.plan_undo_requested.connect(
            lambda structured: spawn(undo.undo_plan(structured), name="undo-plan")
        )
        self.panel.view.plan_snapshot_requested.connect(
            lambda structured: spawn(undo.take_plan_snapshot(structured), name="plan-snapshot")
        )
        self.panel.view.change_undo_requested.connect(
            lambda structured: spawn(undo.undo_change(structured), name="undo-change")
        )
        self.panel.session_changed.connect(
            lambda sid: spawn(undo.show_undone(sid), name="show-undone")
        )
        self.workspace.follower.subscribe(projects.follower_changed)
        self.panel.controller.error_occurred.connect(login.chat_error)
        self.panel.sessions.refresh_failed.connect(login.sessions_error)
        self.panel.settings_requested.connect(models.open_settings)
        self.panel.login_requested.connect(login.requested)
        self.panel.composer.model_changed.connect(
            lambda pid: spawn(models.model_picked(pid), name="model-picked")
        )
        hints = QGuiApplication.styleHints()
        if hints is not None:
            hints.colorSchemeChanged.connect(lambda *_: self.panel.apply_theme())

    # --- start and stop ---------------------------------------------------------------------

    async def start(self) -> None:
        """Restore the login (or ask for one), then load the projects and the model picker."""
        self.models.fill_models()
        if self.workspace.settings_message:
            self.show_message(self.workspace.settings_message)
        if self.secret_warning():
            self.show_message(self.secret_warning() or "")
        if self.external:
            await self.after_login()
            return
        try:
            restored = await self.workspace.restore_login()
        except CopilotError as exc:
            self.show_message(exc.user_message, error=True)
            restored = False
        if restored:
            await self.after_login()
        else:
            await self.models.update_composer()
            self.login.open()

    def secret_warning(self) -> str | None:
        """The secret store's warning when it keeps secrets in memory only."""
        return self.workspace.secrets.warning

    async def after_login(self) -> None:
        """Logged in (or the GNS3 GUI is): the projects, the server's events, the composer."""
        self.show_account()
        self.login_changed.emit(True)
        await self.projects.refresh_projects()
        self.watch.start()
        await self.models.update_composer()

    def shutdown(self) -> None:
        """Stop reacting (the app is closing): no timer, no project switches."""
        self.closed = True
        self.login.token_timer.stop()
        self.node_links.close()

    # --- display ----------------------------------------------------------------------------

    def show_account(self) -> None:
        """Who is logged in where, and the controls that fit it."""
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

    def show_message(self, text: str | None, *, error: bool = False) -> None:
        """Show `text` under the header; None clears it, back to the project's notice if any."""
        text = core_text(text or self.project_notice or "")
        self.message_label.setText(text)
        self.message_label.setVisible(bool(text))
        color = colors(self.palette()).error if error else colors(self.palette()).muted
        self.message_label.setStyleSheet(f"color: {color};")
