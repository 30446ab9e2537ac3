"""`ProfileProbe`: the Models tab's look at the model servers — detect, pick, test a connection.

"Detect local models" looks for llama.cpp's server, llama-cpp-python, Ollama and LM Studio at the
typed base URL and on this computer (or, without that action, asks Ollama for its models) and
fills the profile from what they serve; a detected model chosen sets the provider, base URL and
the context window its server runs. "Test connection" asks the app to try the profile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication, QObject

from gns3_copilot_desktop.core.agent.local_servers import LocalServer
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.settings import LlmProfile
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.qt_async import spawn

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.settings.models_tab import ModelsTab

LOCAL_SERVER_NAMES = {
    "llama_cpp": "llama.cpp (llama-server)",
    "llama_cpp_python": "llama-cpp-python",
    "ollama": "Ollama",
    "lm_studio": "LM Studio",
    "compatible": "OpenAI-compatible server",
}


class ProfileProbe(QObject):
    """Detects local model servers and tests the connection for the Models tab's profile."""

    def __init__(self, tab: ModelsTab) -> None:
        super().__init__(tab)
        self.tab = tab
        self._local_servers: dict[str, tuple[LocalServer, str]] = {}
        """The detected models as the model combo shows them -> their server and model name."""

    def detect(self, *_: object) -> None:
        """Look for local model servers (a profile is made first when there is none)."""
        tab = self.tab
        if tab.current() is None:
            tab.add_profile()
        if tab.settings_actions.detect_local_servers is not None:
            tab.test_label.setText(
                QCoreApplication.translate("SettingsDialog", "Looking for local model servers…")
            )
            spawn(self._run_detect_local(), name="settings-local-models")
            return
        tab.test_label.setText(QCoreApplication.translate("SettingsDialog", "Looking for Ollama…"))
        spawn(self._run_detect(), name="settings-ollama")

    async def _run_detect_local(self) -> None:
        tab = self.tab
        assert tab.settings_actions.detect_local_servers is not None
        tab.detect_ollama.setEnabled(False)
        typed = tab.base_url_edit.text().strip() or None
        try:
            servers = [
                s for s in await tab.settings_actions.detect_local_servers(typed) if s.models
            ]
        finally:
            if not sip.isdeleted(tab):
                tab.detect_ollama.setEnabled(True)
        if sip.isdeleted(tab):
            return  # the dialog went meanwhile (the task holds only the tab)
        if not servers:
            tab.test_label.setText(
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
        tab.model_combo.clear()
        tab.model_combo.addItems(list(self._local_servers))
        tab.model_combo.setCurrentIndex(0)
        self.use_local(tab.model_combo.currentText())
        count = len(self._local_servers)
        tab.test_label.setText(
            QCoreApplication.translate(
                "SettingsDialog",
                "Found %n local model(s): pick one, then Test connection.",
                "",
                count,
            )
        )

    def use_local(self, choice: str) -> None:
        """A detected model chosen: the profile speaks to its server the way it needs."""
        tab = self.tab
        found = self._local_servers.get(choice)
        profile = tab.current()
        if found is None or profile is None:
            return
        server, model = found
        tab.model_combo.blockSignals(True)
        tab.model_combo.setEditText(model)
        tab.model_combo.blockSignals(False)
        tab.provider_combo.setCurrentIndex(tab.provider_combo.findData("openai_compatible"))
        tab.base_url_edit.setText(server.base_url)
        # what the server runs with, or "unknown": never the default of a cloud model
        tab.context_spin.setValue(server.context_window or 0)
        if profile.name == QCoreApplication.translate("SettingsDialog", "New profile"):
            tab.name_edit.setText(QCoreApplication.translate("SettingsDialog", "Local model"))
        tab.store_form()  # (the widgets' own signals stored copies meanwhile)
        current = tab.current()
        if current is not None:
            current.server = server.kind
        self.show_server(current)

    def show_server(self, profile: LlmProfile | None) -> None:
        """Say which local server the profile speaks to, if it is one."""
        if profile is not None and profile.server and profile.base_url:
            host = profile.base_url.split("://", 1)[-1].removesuffix("/v1")
            self.tab.server_label.setText(
                QCoreApplication.translate("SettingsDialog", "Local model: %1 at %2")
                .replace("%1", LOCAL_SERVER_NAMES.get(profile.server, profile.server))
                .replace("%2", host)
            )
        else:
            self.tab.server_label.setText("")

    async def _run_detect(self) -> None:
        tab = self.tab
        host = tab.base_url_edit.text().strip() or None
        try:
            models = await tab.settings_actions.list_ollama_models(host)
        except CopilotError as exc:
            if not sip.isdeleted(tab):
                tab.test_label.setText(core_text(exc.user_message))
            return
        if sip.isdeleted(tab):
            return  # the dialog went meanwhile (the task holds only the tab)
        if not models:
            tab.test_label.setText(
                QCoreApplication.translate(
                    "SettingsDialog", "Ollama answered but has no models installed."
                )
            )
            return
        current = tab.model_combo.currentText()
        tab.model_combo.clear()
        tab.model_combo.addItems(models)
        tab.model_combo.setEditText(current if current in models else models[0])
        tab.provider_combo.setCurrentIndex(tab.provider_combo.findData("ollama"))
        tab.test_label.setText(
            QCoreApplication.translate("SettingsDialog", "Ollama models found: {n}").format(
                n=len(models)
            )
        )

    def test(self, *_: object) -> None:
        """Test the connection with the profile as shown (its typed key included)."""
        tab = self.tab
        tab.store_form()
        tab.store_key()
        profile = tab.current()
        if profile is None:
            return
        tab.test_button.setEnabled(False)
        tab.test_label.setText(QCoreApplication.translate("SettingsDialog", "Testing…"))
        spawn(self._run_test(profile), name="settings-test-connection")

    async def _run_test(self, profile: LlmProfile) -> None:
        tab = self.tab
        key = tab.api_keys.get(profile.id)
        try:
            text = await tab.settings_actions.test_connection(profile, key)
        except CopilotError as exc:
            text = core_text(exc.user_message)
        finally:
            if not sip.isdeleted(tab):
                tab.test_button.setEnabled(True)
        if not sip.isdeleted(tab):  # the dialog may have gone meanwhile (the task holds the tab)
            tab.test_label.setText(text)
