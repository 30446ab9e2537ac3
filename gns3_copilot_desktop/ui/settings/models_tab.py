"""The settings' Models tab: the LLM profiles — list, form, API key, the active one.

Edits go into the `Settings` copy the dialog holds; API keys typed here are collected in
`api_keys` (None deletes a key) for the dialog's outcome, never written by the tab. On the first
run the tab opens on a new profile to fill, dropped again if left untouched.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.settings.profile_probe import ProfileProbe
from gns3_copilot_desktop.ui.settings.widgets import line_edit, push_button

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.settings.dialog import SettingsActions


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


class ModelsTab(QWidget):
    """The profile list and the selected profile's form; `probe` detects and tests servers."""

    def __init__(
        self, settings: Settings, actions: SettingsActions, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self.settings_actions = actions
        self.api_keys: dict[str, str | None] = {}
        """Profile id -> API key to store (None deletes it)."""
        self._draft: LlmProfile | None = None
        self.probe = ProfileProbe(self)
        self.profile_list = QListWidget(self)
        self.profile_list.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Model profiles")
        )
        self.profile_list.currentRowChanged.connect(self._show_profile)
        add = push_button(
            QCoreApplication.translate("SettingsDialog", "Add profile"), self, self.add_profile
        )
        self.remove_profile_button = push_button(
            QCoreApplication.translate("SettingsDialog", "Remove profile"),
            self,
            self.remove_profile,
        )
        self.make_active = push_button(
            QCoreApplication.translate("SettingsDialog", "Use this profile"), self, self._activate
        )
        list_buttons = QHBoxLayout()
        for button in (add, self.remove_profile_button, self.make_active):
            list_buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.profile_list)
        layout.addLayout(list_buttons)
        layout.addWidget(self._build_form())

    def _build_form(self) -> QGroupBox:
        translate = QCoreApplication.translate
        self.name_edit = line_edit(translate("SettingsDialog", "Profile name"), self)
        self.provider_combo = QComboBox(self)
        self.provider_combo.setAccessibleName(translate("SettingsDialog", "Provider"))
        for key, label in PROVIDERS:
            self.provider_combo.addItem(translate("SettingsDialog", label), key)
        self.model_combo = QComboBox(self)
        self.model_combo.setEditable(True)
        self.model_combo.setAccessibleName(translate("SettingsDialog", "Model"))
        self.base_url_edit = line_edit(translate("SettingsDialog", "Base URL"), self)
        self.base_url_edit.setPlaceholderText(translate("SettingsDialog", "Provider default"))
        self.api_key_edit = line_edit(translate("SettingsDialog", "API key"), self)
        self.api_key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key_edit.setPlaceholderText("")  # says whether a key is stored, per profile
        self.temperature_spin = QDoubleSpinBox(self)
        self.temperature_spin.setRange(0.0, 2.0)
        self.temperature_spin.setSingleStep(0.1)
        self.temperature_spin.setAccessibleName(translate("SettingsDialog", "Temperature"))
        self.context_spin = QSpinBox(self)
        # 0 is "unknown": a window nobody read from the server is not shown as a figure
        self.context_spin.setRange(0, 2_000_000)
        self.context_spin.setSingleStep(1024)
        self.context_spin.setSpecialValueText(translate("SettingsDialog", "unknown"))
        self.context_spin.setAccessibleName(translate("SettingsDialog", "Context window (tokens)"))
        self.detect_ollama = push_button(
            translate("SettingsDialog", "Detect local models"), self, self.probe.detect
        )
        self.detect_ollama.setToolTip(
            translate(
                "SettingsDialog",
                "Looks for llama.cpp's server, llama-cpp-python, Ollama and LM Studio at the base "
                "URL typed above and on this computer, and fills the profile from what they "
                "serve, with the context window the server runs.",
            )
        )
        self.server_label = QLabel("", self)
        self.server_label.setObjectName("muted")
        self.server_label.setWordWrap(True)
        self.test_button = push_button(
            translate("SettingsDialog", "Test connection"), self, self.probe.test
        )
        self.test_label = QLabel("", self)
        self.test_label.setWordWrap(True)
        self.test_label.setAccessibleName(translate("SettingsDialog", "Connection test result"))

        self.profile_form = QGroupBox(translate("SettingsDialog", "Profile"), self)
        form = QFormLayout(self.profile_form)
        form.addRow(translate("SettingsDialog", "Name"), self.name_edit)
        form.addRow(translate("SettingsDialog", "Provider"), self.provider_combo)
        form.addRow(translate("SettingsDialog", "Model"), self.model_combo)
        form.addRow(translate("SettingsDialog", "Base URL"), self.base_url_edit)
        form.addRow(translate("SettingsDialog", "API key"), self.api_key_edit)
        form.addRow(translate("SettingsDialog", "Temperature"), self.temperature_spin)
        form.addRow(translate("SettingsDialog", "Context window"), self.context_spin)
        form.addRow(self.server_label)
        row = QHBoxLayout()
        row.addWidget(self.detect_ollama)
        row.addWidget(self.test_button)
        form.addRow(row)
        form.addRow(self.test_label)
        for edit in (self.name_edit, self.base_url_edit):
            edit.editingFinished.connect(self.store_form)
        self.api_key_edit.editingFinished.connect(self.store_key)
        self.provider_combo.currentIndexChanged.connect(self.store_form)
        self.model_combo.currentTextChanged.connect(self.store_form)
        self.model_combo.textActivated.connect(self.probe.use_local)
        self.temperature_spin.valueChanged.connect(self.store_form)
        self.context_spin.valueChanged.connect(self.store_form)
        return self.profile_form

    def load(self) -> None:
        """Show the profiles; with none (first run, "Add a model") a form to fill at once,
        dropped if left untouched."""
        if not self._settings.llm_profiles:
            self.add_profile()
            self._draft = self.current()
        else:
            self._reload_profiles()

    def _reload_profiles(self, select: int = 0) -> None:
        self.profile_list.blockSignals(True)
        self.profile_list.clear()
        for profile in self._settings.llm_profiles:
            self.profile_list.addItem(QListWidgetItem(self._row_text(profile)))
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

    def _row_text(self, profile: LlmProfile) -> str:
        prefix = "● " if profile.id == self._settings.active_llm_profile else ""
        return f"{prefix}{profile.name}  ({profile.provider}: {profile.model})"

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

    def current(self) -> LlmProfile | None:
        """The profile selected in the list, if any."""
        row = self.profile_list.currentRow()
        profiles = self._settings.llm_profiles
        return profiles[row] if 0 <= row < len(profiles) else None

    def _show_profile(self, row: int) -> None:
        profile = self.current()
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
        self.probe.show_server(profile)
        self.api_key_edit.clear()
        self.test_label.clear()
        spawn(self._show_key_state(profile.id), name="settings-key-state")

    async def _show_key_state(self, profile_id: str) -> None:
        if profile_id in self.api_keys:
            stored = self.api_keys[profile_id] is not None
        else:
            try:
                stored = await self.settings_actions.load_api_key(profile_id) is not None
            except CopilotError as exc:
                if not sip.isdeleted(self):
                    self.test_label.setText(core_text(exc.user_message))
                return
        if sip.isdeleted(self):
            return  # the dialog went before this task ran (the task holds only the tab)
        text = (
            QCoreApplication.translate("SettingsDialog", "A key is stored in the OS keyring")
            if stored
            else QCoreApplication.translate("SettingsDialog", "No key stored")
        )
        self.api_key_edit.setPlaceholderText(text)

    def store_form(self, *_: object) -> None:
        """Write the form into the selected profile (and its row in the list)."""
        profile = self.current()
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
            item.setText(self._row_text(updated))

    def store_key(self, *_: object) -> None:
        """Keep the typed API key for the selected profile."""
        profile = self.current()
        if profile is not None and self.api_key_edit.text():
            self.api_keys[profile.id] = self.api_key_edit.text()

    def add_profile(self, *_: object) -> None:
        """A new profile, selected (the active one if none is)."""
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

    def drop_untouched_draft(self) -> None:
        """The first-run profile goes unless the user changed it or gave it a key."""
        draft = self._draft
        if draft is None or draft.id in self.api_keys:
            return
        if any(p == draft for p in self._settings.llm_profiles):
            self._settings.llm_profiles = [p for p in self._settings.llm_profiles if p != draft]
            if self._settings.active_llm_profile == draft.id:
                self._settings.active_llm_profile = None

    def remove_profile(self, *_: object) -> None:
        """Remove the selected profile and its stored key."""
        profile = self.current()
        if profile is None:
            return
        self._settings.llm_profiles = [p for p in self._settings.llm_profiles if p is not profile]
        self.api_keys[profile.id] = None
        if self._settings.active_llm_profile == profile.id:
            first = self._settings.llm_profiles[0].id if self._settings.llm_profiles else None
            self._settings.active_llm_profile = first
        self._reload_profiles()

    def _activate(self, *_: object) -> None:
        profile = self.current()
        if profile is not None:
            self._settings.active_llm_profile = profile.id
            self._reload_profiles(self.profile_list.currentRow())
