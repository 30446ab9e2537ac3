"""The settings dialog: LLM profiles, the API key in the keyring, grants, heartbeat, language.

Like the login dialog it holds no network or keyring code: the app injects `SettingsActions`
(coroutines over the model factory, the secret store and the settings store). Edits are made on a
copy of `Settings` and handed back only when the user presses Save.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.agent.local_servers import LocalServer
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.secrets import DeviceCredential
from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.a11y import name_buttons
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.settings.console_logins import ConsoleLoginsTab
from gns3_copilot_desktop.ui.settings.service_tab import CopilotServiceTab


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


PROVIDERS: list[tuple[str, str]] = [
    ("openai", "OpenAI"),
    ("anthropic", "Anthropic"),
    ("ollama", QT_TRANSLATE_NOOP("SettingsDialog", "Ollama (local)")),
    ("deepseek", "DeepSeek"),
    (
        "openai_compatible",
        QT_TRANSLATE_NOOP("SettingsDialog", "OpenAI-compatible (LM Studio, vLLM, OpenRouter…)"),
    ),
]
# Each language by its own name; "" follows the system (its label is translated where shown).
LOCAL_SERVER_NAMES = {
    "llama_cpp": "llama.cpp (llama-server)",
    "llama_cpp_python": "llama-cpp-python",
    "ollama": "Ollama",
    "lm_studio": "LM Studio",
    "compatible": "OpenAI-compatible server",
}
LANGUAGES: list[tuple[str, str]] = [("", "System"), ("en", "English"), ("zh_CN", "简体中文")]


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
        self._actions = actions
        self._api_keys: dict[str, str | None] = {}
        self.outcome: SettingsOutcome | None = None
        tabs = QTabWidget(self)
        tabs.addTab(
            self._build_models_tab(), QCoreApplication.translate("SettingsDialog", "Models")
        )
        tabs.addTab(
            self._build_grants_tab(), QCoreApplication.translate("SettingsDialog", "Permissions")
        )
        self.console_logins = ConsoleLoginsTab(self._settings, self)
        tabs.addTab(
            self.console_logins, QCoreApplication.translate("SettingsDialog", "Console logins")
        )
        tabs.addTab(
            self._build_general_tab(), QCoreApplication.translate("SettingsDialog", "General")
        )
        tabs.addTab(self._build_service_tab(), self.service_tab.windowTitle())
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        name_buttons(buttons)
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(buttons)
        self._draft: LlmProfile | None = None
        if not self._settings.llm_profiles:
            # first run ("Add a model"): a form to fill at once, dropped if left untouched
            self._add_profile()
            self._draft = self._current()
        else:
            self._reload_profiles()

    # --- Models tab ------------------------------------------------------------------------

    def _build_models_tab(self) -> QWidget:
        page = QWidget(self)
        self.profile_list = QListWidget(page)
        self.profile_list.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Model profiles")
        )
        self.profile_list.currentRowChanged.connect(self._show_profile)
        add = self._button(
            QCoreApplication.translate("SettingsDialog", "Add profile"), page, self._add_profile
        )
        remove = self._button(
            QCoreApplication.translate("SettingsDialog", "Remove profile"),
            page,
            self._remove_profile,
        )
        self.remove_profile_button = remove
        self.make_active = self._button(
            QCoreApplication.translate("SettingsDialog", "Use this profile"), page, self._activate
        )
        list_buttons = QHBoxLayout()
        for button in (add, remove, self.make_active):
            list_buttons.addWidget(button)

        self.name_edit = self._line(
            QCoreApplication.translate("SettingsDialog", "Profile name"), page
        )
        self.provider_combo = QComboBox(page)
        self.provider_combo.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Provider")
        )
        for key, label in PROVIDERS:
            self.provider_combo.addItem(QCoreApplication.translate("SettingsDialog", label), key)
        self.model_combo = QComboBox(page)
        self.model_combo.setEditable(True)
        self.model_combo.setAccessibleName(QCoreApplication.translate("SettingsDialog", "Model"))
        self.base_url_edit = self._line(
            QCoreApplication.translate("SettingsDialog", "Base URL"), page
        )
        self.base_url_edit.setPlaceholderText(
            QCoreApplication.translate("SettingsDialog", "Provider default")
        )
        self.api_key_edit = self._line(
            QCoreApplication.translate("SettingsDialog", "API key"), page
        )
        self.api_key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key_edit.setPlaceholderText("")  # says whether a key is stored, per profile
        self.temperature_spin = QDoubleSpinBox(page)
        self.temperature_spin.setRange(0.0, 2.0)
        self.temperature_spin.setSingleStep(0.1)
        self.temperature_spin.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Temperature")
        )
        self.context_spin = QSpinBox(page)
        # 0 is "unknown": a window nobody read from the server is not shown as a figure
        self.context_spin.setRange(0, 2_000_000)
        self.context_spin.setSingleStep(1024)
        self.context_spin.setSpecialValueText(
            QCoreApplication.translate("SettingsDialog", "unknown")
        )
        self.context_spin.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Context window (tokens)")
        )
        self.detect_ollama = self._button(
            QCoreApplication.translate("SettingsDialog", "Detect local models"), page, self._detect
        )
        self.detect_ollama.setToolTip(
            QCoreApplication.translate(
                "SettingsDialog",
                "Looks for llama.cpp's server, llama-cpp-python, Ollama and LM Studio at the base "
                "URL typed above and on this computer, and fills the profile from what they "
                "serve, with the context window the server runs.",
            )
        )
        self.server_label = QLabel("", page)
        self.server_label.setObjectName("muted")
        self.server_label.setWordWrap(True)
        self.test_button = self._button(
            QCoreApplication.translate("SettingsDialog", "Test connection"), page, self._test
        )
        self.test_label = QLabel("", page)
        self.test_label.setWordWrap(True)
        self.test_label.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Connection test result")
        )

        self.profile_form = QGroupBox(QCoreApplication.translate("SettingsDialog", "Profile"), page)
        form = QFormLayout(self.profile_form)
        form.addRow(QCoreApplication.translate("SettingsDialog", "Name"), self.name_edit)
        form.addRow(QCoreApplication.translate("SettingsDialog", "Provider"), self.provider_combo)
        form.addRow(QCoreApplication.translate("SettingsDialog", "Model"), self.model_combo)
        form.addRow(QCoreApplication.translate("SettingsDialog", "Base URL"), self.base_url_edit)
        form.addRow(QCoreApplication.translate("SettingsDialog", "API key"), self.api_key_edit)
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "Temperature"), self.temperature_spin
        )
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "Context window"), self.context_spin
        )
        form.addRow(self.server_label)
        row = QHBoxLayout()
        row.addWidget(self.detect_ollama)
        row.addWidget(self.test_button)
        form.addRow(row)
        form.addRow(self.test_label)
        for edit in (self.name_edit, self.base_url_edit):
            edit.editingFinished.connect(self._store_form)
        self.api_key_edit.editingFinished.connect(self._store_key)
        self.provider_combo.currentIndexChanged.connect(self._store_form)
        self.model_combo.currentTextChanged.connect(self._store_form)
        self.model_combo.textActivated.connect(self._use_local)
        self.temperature_spin.valueChanged.connect(self._store_form)
        self.context_spin.valueChanged.connect(self._store_form)

        layout = QVBoxLayout(page)
        layout.addWidget(self.profile_list)
        layout.addLayout(list_buttons)
        layout.addWidget(self.profile_form)
        return page

    def _reload_profiles(self, select: int = 0) -> None:
        self.profile_list.blockSignals(True)
        self.profile_list.clear()
        for profile in self._settings.llm_profiles:
            active = profile.id == self._settings.active_llm_profile
            text = f"{profile.name}  ({profile.provider}: {profile.model})"
            item = QListWidgetItem(("● " if active else "") + text)
            self.profile_list.addItem(item)
        self.profile_list.blockSignals(False)
        has = bool(self._settings.llm_profiles)
        # Detect stays usable with no profile: it makes one
        for widget in self._profile_fields():
            widget.setEnabled(has)
        # Empty: nothing to remove or use, and no key placeholder for a key that is not there.
        self.remove_profile_button.setEnabled(has)
        self.make_active.setEnabled(has)
        if not has:
            self.api_key_edit.setPlaceholderText("")
            self.server_label.setText("")
        if has:
            self.profile_list.setCurrentRow(min(select, len(self._settings.llm_profiles) - 1))
            self._show_profile(self.profile_list.currentRow())

    def _profile_fields(self) -> tuple[QWidget, ...]:
        return (
            self.name_edit,
            self.provider_combo,
            self.model_combo,
            self.base_url_edit,
            self.api_key_edit,
            self.temperature_spin,
            self.context_spin,
            self.test_button,
        )

    def _current(self) -> LlmProfile | None:
        row = self.profile_list.currentRow()
        profiles = self._settings.llm_profiles
        return profiles[row] if 0 <= row < len(profiles) else None

    def _show_profile(self, row: int) -> None:
        profile = self._current()
        if profile is None:
            return
        widgets = (
            self.name_edit,
            self.provider_combo,
            self.model_combo,
            self.base_url_edit,
            self.temperature_spin,
            self.context_spin,
        )
        for widget in widgets:
            widget.blockSignals(True)
        self.name_edit.setText(profile.name)
        self.provider_combo.setCurrentIndex(max(0, self.provider_combo.findData(profile.provider)))
        self.model_combo.setEditText(profile.model)
        self.base_url_edit.setText(profile.base_url or "")
        self.temperature_spin.setValue(profile.temperature or 0.0)
        self.context_spin.setValue(profile.context_window or 0)
        for widget in widgets:
            widget.blockSignals(False)
        self._show_server(profile)
        self.api_key_edit.clear()
        self.test_label.clear()
        spawn(self._show_key_state(profile.id), name="settings-key-state")

    async def _show_key_state(self, profile_id: str) -> None:
        if profile_id in self._api_keys:
            stored = self._api_keys[profile_id] is not None
        else:
            try:
                stored = await self._actions.load_api_key(profile_id) is not None
            except CopilotError as exc:
                self.test_label.setText(core_text(exc.user_message))
                return
        text = (
            QCoreApplication.translate("SettingsDialog", "A key is stored in the OS keyring")
            if stored
            else QCoreApplication.translate("SettingsDialog", "No key stored")
        )
        self.api_key_edit.setPlaceholderText(text)

    def _store_form(self, *_: object) -> None:
        profile = self._current()
        if profile is None:
            return
        row = self.profile_list.currentRow()
        provider = self.provider_combo.currentData() or profile.provider
        updated = profile.model_copy(
            update={
                # a local server's quirks only while the profile still speaks to it
                "server": profile.server if provider == "openai_compatible" else None,
                "name": self.name_edit.text().strip() or profile.name,
                "provider": self.provider_combo.currentData() or profile.provider,
                "model": self.model_combo.currentText().strip(),
                "base_url": self.base_url_edit.text().strip() or None,
                "temperature": self.temperature_spin.value(),
                "context_window": self.context_spin.value() or None,
            }
        )
        profiles = list(self._settings.llm_profiles)
        profiles[row] = updated
        self._settings.llm_profiles = profiles
        item = self.profile_list.item(row)
        if item is not None:
            active = updated.id == self._settings.active_llm_profile
            prefix = "● " if active else ""
            item.setText(f"{prefix}{updated.name}  ({updated.provider}: {updated.model})")

    def _store_key(self, *_: object) -> None:
        profile = self._current()
        if profile is not None and self.api_key_edit.text():
            self._api_keys[profile.id] = self.api_key_edit.text()

    def _add_profile(self, *_: object) -> None:
        profile = LlmProfile(
            id=uuid.uuid4().hex[:12],
            name=QCoreApplication.translate("SettingsDialog", "New profile"),
            provider="openai",
            model="gpt-4o-mini",
            temperature=0.0,
            context_window=128_000,
        )
        self._settings.llm_profiles = [*self._settings.llm_profiles, profile]
        if self._settings.active_llm_profile is None:
            self._settings.active_llm_profile = profile.id
        self._reload_profiles(len(self._settings.llm_profiles) - 1)
        self.name_edit.setFocus()

    def _drop_untouched_draft(self) -> None:
        """The first-run profile goes unless the user changed it or gave it a key."""
        draft = self._draft
        if draft is None or draft.id in self._api_keys:
            return
        if any(p == draft for p in self._settings.llm_profiles):
            self._settings.llm_profiles = [p for p in self._settings.llm_profiles if p != draft]
            if self._settings.active_llm_profile == draft.id:
                self._settings.active_llm_profile = None

    def _remove_profile(self, *_: object) -> None:
        profile = self._current()
        if profile is None:
            return
        self._settings.llm_profiles = [p for p in self._settings.llm_profiles if p is not profile]
        self._api_keys[profile.id] = None
        if self._settings.active_llm_profile == profile.id:
            first = self._settings.llm_profiles[0].id if self._settings.llm_profiles else None
            self._settings.active_llm_profile = first
        self._reload_profiles()

    def _activate(self, *_: object) -> None:
        profile = self._current()
        if profile is not None:
            self._settings.active_llm_profile = profile.id
            self._reload_profiles(self.profile_list.currentRow())

    def _detect(self, *_: object) -> None:
        if self._current() is None:
            self._add_profile()
        if self._actions.detect_local_servers is not None:
            self.test_label.setText(
                QCoreApplication.translate("SettingsDialog", "Looking for local model servers…")
            )
            spawn(self._run_detect_local(), name="settings-local-models")
            return
        self.test_label.setText(QCoreApplication.translate("SettingsDialog", "Looking for Ollama…"))
        spawn(self._run_detect(), name="settings-ollama")

    async def _run_detect_local(self) -> None:
        assert self._actions.detect_local_servers is not None
        self.detect_ollama.setEnabled(False)
        typed = self.base_url_edit.text().strip() or None
        try:
            servers = [s for s in await self._actions.detect_local_servers(typed) if s.models]
        finally:
            self.detect_ollama.setEnabled(True)
        if not servers:
            self.test_label.setText(
                QCoreApplication.translate(
                    "SettingsDialog",
                    "No local model server answered on this computer (ports 8080, 8000, 11434, "
                    "1234). Start llama.cpp's server, Ollama or LM Studio with a model, then "
                    "detect again.",
                )
            )
            return
        self._local_servers = {
            f"{model}  —  {server.label}": (server, model)
            for server in servers
            for model in server.models
        }
        self.model_combo.clear()
        self.model_combo.addItems(list(self._local_servers))
        self.model_combo.setCurrentIndex(0)
        self._use_local(self.model_combo.currentText())
        count = len(self._local_servers)
        self.test_label.setText(
            QCoreApplication.translate(
                "SettingsDialog",
                "Found %n local model(s): pick one, then Test connection.",
                "",
                count,
            )
        )

    def _use_local(self, choice: str) -> None:
        """A detected model chosen: the profile speaks to its server the way it needs."""
        found = getattr(self, "_local_servers", {}).get(choice)
        profile = self._current()
        if found is None or profile is None:
            return
        server, model = found
        self.model_combo.blockSignals(True)
        self.model_combo.setEditText(model)
        self.model_combo.blockSignals(False)
        self.provider_combo.setCurrentIndex(self.provider_combo.findData("openai_compatible"))
        self.base_url_edit.setText(server.base_url)
        # what the server runs with, or "unknown": never the default of a cloud model
        self.context_spin.setValue(server.context_window or 0)
        if profile.name == QCoreApplication.translate("SettingsDialog", "New profile"):
            self.name_edit.setText(QCoreApplication.translate("SettingsDialog", "Local model"))
        self._store_form()  # (the widgets' own signals stored copies meanwhile)
        current = self._current()
        if current is not None:
            current.server = server.kind
        self._show_server(current)

    def _show_server(self, profile: LlmProfile | None) -> None:
        if profile is not None and profile.server and profile.base_url:
            host = profile.base_url.split("://", 1)[-1].removesuffix("/v1")
            self.server_label.setText(
                QCoreApplication.translate("SettingsDialog", "Local model: %1 at %2")
                .replace("%1", LOCAL_SERVER_NAMES.get(profile.server, profile.server))
                .replace("%2", host)
            )
        else:
            self.server_label.setText("")

    async def _run_detect(self) -> None:
        host = self.base_url_edit.text().strip() or None
        try:
            models = await self._actions.list_ollama_models(host)
        except CopilotError as exc:
            self.test_label.setText(core_text(exc.user_message))
            return
        if not models:
            self.test_label.setText(
                QCoreApplication.translate(
                    "SettingsDialog", "Ollama answered but has no models installed."
                )
            )
            return
        current = self.model_combo.currentText()
        self.model_combo.clear()
        self.model_combo.addItems(models)
        self.model_combo.setEditText(current if current in models else models[0])
        self.provider_combo.setCurrentIndex(self.provider_combo.findData("ollama"))
        self.test_label.setText(
            QCoreApplication.translate("SettingsDialog", "Ollama models found: {n}").format(
                n=len(models)
            )
        )

    def _test(self, *_: object) -> None:
        self._store_form()
        self._store_key()
        profile = self._current()
        if profile is None:
            return
        self.test_button.setEnabled(False)
        self.test_label.setText(QCoreApplication.translate("SettingsDialog", "Testing…"))
        spawn(self._run_test(profile), name="settings-test-connection")

    async def _run_test(self, profile: LlmProfile) -> None:
        key = self._api_keys.get(profile.id)
        try:
            text = await self._actions.test_connection(profile, key)
        except CopilotError as exc:
            self.test_label.setText(core_text(exc.user_message))
        else:
            self.test_label.setText(text)
        finally:
            self.test_button.setEnabled(True)

    # --- Permissions tab -------------------------------------------------------------------

    def _build_grants_tab(self) -> QWidget:
        page = QWidget(self)
        label = QLabel(
            QCoreApplication.translate(
                "SettingsDialog", "Tools that run without asking, per project:"
            ),
            page,
        )
        self.grants_list = QListWidget(page)
        self.grants_list.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Always-allowed tools")
        )
        revoke = self._button(
            QCoreApplication.translate("SettingsDialog", "Revoke"), page, self._revoke
        )
        layout = QVBoxLayout(page)
        layout.addWidget(label)
        layout.addWidget(self.grants_list)
        layout.addWidget(revoke)
        self._reload_grants()
        return page

    def _reload_grants(self) -> None:
        self.grants_list.clear()
        for key, tools in sorted(self._settings.always_allow.items()):
            server, _, project = key.partition("|")
            for tool in tools:
                item = QListWidgetItem(f"{tool} — {project} @ {server}")
                item.setData(256, (key, tool))
                self.grants_list.addItem(item)

    def _revoke(self, *_: object) -> None:
        item = self.grants_list.currentItem()
        if item is None:
            return
        key, tool = item.data(256)
        server, _, project = key.partition("|")
        self._settings.revoke_always_allow(server, project, tool)
        self._reload_grants()

    # --- General tab -----------------------------------------------------------------------

    def _build_general_tab(self) -> QWidget:
        page = QWidget(self)
        self.heartbeat_spin = QDoubleSpinBox(page)
        self.heartbeat_spin.setRange(0.0, 300.0)
        self.heartbeat_spin.setSuffix(QCoreApplication.translate("SettingsDialog", " s"))
        self.heartbeat_spin.setSpecialValueText(QCoreApplication.translate("SettingsDialog", "Off"))
        self.heartbeat_spin.setValue(self._settings.heartbeat_interval_s)
        self.heartbeat_spin.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Heartbeat interval")
        )
        self.language_combo = QComboBox(page)
        self.language_combo.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Language")
        )
        system = QCoreApplication.translate("SettingsDialog", "System")
        for code, label in LANGUAGES:
            self.language_combo.addItem(label if code else system, code)
        current = self.language_combo.findData(self._settings.language or "")
        self.language_combo.setCurrentIndex(max(0, current))
        form = QFormLayout(page)
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "Heartbeat while working"),
            self.heartbeat_spin,
        )
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "Language (after restart)"),
            self.language_combo,
        )
        return page

    # --- Copilot service tab ---------------------------------------------------------------

    def _build_service_tab(self) -> QWidget:
        """Where the agent runs (it writes its choice into the settings being edited)."""
        self.service_tab = CopilotServiceTab(self._settings, self)
        self.service_tab.setWindowTitle(
            QCoreApplication.translate("SettingsDialog", "Copilot service")
        )
        return self.service_tab

    # --- helpers ---------------------------------------------------------------------------

    def _line(self, name: str, parent: QWidget) -> QLineEdit:
        edit = QLineEdit(parent)
        edit.setAccessibleName(name)
        return edit

    def _button(self, text: str, parent: QWidget, slot: Callable[..., None]) -> QPushButton:
        button = QPushButton(text, parent)
        button.setAccessibleName(text)
        button.clicked.connect(slot)
        return button

    def _save(self, *_: object) -> None:
        self._store_form()
        self._store_key()
        self._drop_untouched_draft()
        self._settings.heartbeat_interval_s = self.heartbeat_spin.value()
        self._settings.language = self.language_combo.currentData() or None
        self.outcome = SettingsOutcome(
            self._settings, dict(self._api_keys), dict(self.console_logins.secrets)
        )
        self.api_key_edit.clear()
        self.accept()
