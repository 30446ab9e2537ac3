"""The settings dialog: LLM profiles, the API key in the keyring, grants, heartbeat, language.

Like the login dialog it holds no network or keyring code: the app injects `SettingsActions`
(coroutines over the model factory, the secret store and the settings store). Edits are made on a
copy of `Settings` and handed back only when the user presses Save. Each tab is its own widget
(`ModelsTab`, `PermissionsTab`, `ConsoleLoginsTab`, `GeneralTab`, `CopilotServiceTab`); the dialog
assembles them and gathers the outcome.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QVBoxLayout, QWidget

from gns3_copilot_desktop.core.agent.local_servers import LocalServer
from gns3_copilot_desktop.core.secrets import DeviceCredential
from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.a11y import name_buttons
from gns3_copilot_desktop.ui.settings.console_logins import ConsoleLoginsTab
from gns3_copilot_desktop.ui.settings.general_tab import GeneralTab
from gns3_copilot_desktop.ui.settings.models_tab import ModelsTab
from gns3_copilot_desktop.ui.settings.permissions_tab import PermissionsTab
from gns3_copilot_desktop.ui.settings.service_tab import CopilotServiceTab


@dataclass
class SettingsActions:
    """What the dialog may ask the app to do."""

    test_connection: Callable[[LlmProfile, str | None], Awaitable[str]]
    list_ollama_models: Callable[[str | None], Awaitable[list[str]]]
    load_api_key: Callable[[str], Awaitable[str | None]]
    detect_local_servers: Callable[[str | None], Awaitable[list[LocalServer]]] | None = None
    """The model servers answering at the base URL the user typed (if any) and on this
    computer's usual ports (llama.cpp, llama-cpp-python, Ollama, LM Studio)."""


@dataclass(frozen=True)
class SettingsOutcome:
    """The edited settings and the API keys to store (None deletes a key)."""

    settings: Settings
    api_keys: dict[str, str | None]
    console_secrets: dict[str, DeviceCredential | None] = field(default_factory=dict)
    """Console login id -> password and enable secret to store (None deletes them)."""


class SettingsDialog(QDialog):
    """Edits a copy of the settings; `outcome` is set when the user saves."""

    def __init__(
        self, settings: Settings, actions: SettingsActions, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("SettingsDialog", "Copilot settings"))
        self.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Copilot settings"))
        self._settings = settings.model_copy(deep=True)
        self.outcome: SettingsOutcome | None = None
        tabs = QTabWidget(self)
        self.models = ModelsTab(self._settings, actions, self)
        tabs.addTab(self.models, QCoreApplication.translate("SettingsDialog", "Models"))
        self.permissions = PermissionsTab(self._settings, self)
        tabs.addTab(self.permissions, QCoreApplication.translate("SettingsDialog", "Permissions"))
        self.console_logins = ConsoleLoginsTab(self._settings, self)
        tabs.addTab(
            self.console_logins, QCoreApplication.translate("SettingsDialog", "Console logins")
        )
        self.general = GeneralTab(self._settings, self)
        tabs.addTab(self.general, QCoreApplication.translate("SettingsDialog", "General"))
        # where the agent runs (it writes its choice into the settings being edited)
        self.service_tab = CopilotServiceTab(self._settings, self)
        self.service_tab.setWindowTitle(
            QCoreApplication.translate("SettingsDialog", "Copilot service")
        )
        tabs.addTab(self.service_tab, self.service_tab.windowTitle())
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        name_buttons(buttons)
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(buttons)
        self.models.load()

    def _save(self, *_: object) -> None:
        models = self.models
        models.store_form()
        models.store_key()
        models.drop_untouched_draft()
        self.general.store(self._settings)
        self.outcome = SettingsOutcome(
            self._settings, dict(models.api_keys), dict(self.console_logins.secrets)
        )
        models.api_key_edit.clear()
        self.accept()
