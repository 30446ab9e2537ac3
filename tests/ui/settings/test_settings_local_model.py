"""Settings -> Detect local models, against the real llama-cpp-python server.

The dialog finds the real server on its loopback port or at the base URL the user typed, fills the
profile (OpenAI-compatible, base URL, model, the context window the server runs, the server kind
whose quirks the model factory then applies), with or without a profile made first, and the profile
resolves to the configuration that speaks to that server as it needs.
"""

from __future__ import annotations

import asyncio

import pytest
from PyQt6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.agent.local_servers import LocalServer, detect_local_servers
from gns3_copilot_desktop.core.agent.model_factory import resolve_llm_config
from gns3_copilot_desktop.core.agent.model_quirks import SERVER_QUIRKS, quirks_for
from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.header.model_settings import window_text
from gns3_copilot_desktop.ui.settings.dialog import SettingsActions, SettingsDialog
from tests.helpers.gns3_server import free_port
from tests.helpers.llama_server import CONTEXT_WINDOW, LlamaServer
from tests.helpers.scripted_openai import ScriptedOpenAIServer


def _actions(ports: list[int]) -> SettingsActions:
    async def test_connection(profile: LlmProfile, key: str | None) -> str:
        return "not used"

    async def list_models(host: str | None) -> list[str]:
        return []

    async def load_key(profile_id: str) -> str | None:
        return None

    async def detect(typed: str | None) -> list[LocalServer]:
        return await detect_local_servers(ports, typed_url=typed)

    return SettingsActions(test_connection, list_models, load_key, detect)


def _dialog(qtbot: QtBot, ports: list[int]) -> SettingsDialog:
    settings = Settings(
        llm_profiles=[LlmProfile(id="p1", name="New profile", provider="openai", model="gpt-4o")],
        active_llm_profile="p1",
    )
    dialog = SettingsDialog(settings, _actions(ports))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.models.profile_list.setCurrentRow(0)
    return dialog


@pytest.mark.slow
def test_detect_fills_a_local_profile_that_speaks_to_the_server_as_it_needs(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, llama_server: LlamaServer
) -> None:
    dialog = _dialog(qtbot, [free_port(), llama_server.port])
    dialog.models.detect_ollama.click()
    qtbot.waitUntil(
        lambda: "Found 1 local model" in dialog.models.test_label.text(), timeout=30_000
    )
    host = f"127.0.0.1:{llama_server.port}"
    assert dialog.models.server_label.text() == f"Local model: llama-cpp-python at {host}"
    dialog._save()
    assert dialog.outcome is not None
    [profile] = dialog.outcome.settings.llm_profiles
    assert profile.provider == "openai_compatible" and profile.server == "llama_cpp_python"
    assert profile.base_url == f"http://{host}/v1" and profile.name == "Local model"
    assert profile.model and "—" not in profile.model  # the model's id, not the list's label
    assert profile.context_window == CONTEXT_WINDOW  # what the server runs, not 128,000

    task = asyncio.ensure_future(resolve_llm_config(None, profile, None, {}), loop=qasync_loop)
    qtbot.waitUntil(task.done)
    resolved = task.result()
    assert resolved.server == "llama_cpp_python"
    assert quirks_for(resolved) == SERVER_QUIRKS["llama_cpp_python"]


def test_nothing_answering_says_what_to_start(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    dialog = _dialog(qtbot, [free_port()])
    dialog.models.detect_ollama.click()
    qtbot.waitUntil(lambda: "No local model server answered" in dialog.models.test_label.text())
    assert dialog.models.detect_ollama.isEnabled()
    assert dialog._settings.llm_profiles[0].server is None


@pytest.mark.slow
def test_detect_works_without_add_profile(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, llama_server: LlamaServer
) -> None:
    """No profile at all (the first one removed): Detect is not greyed, makes the profile and
    fills it."""
    dialog = SettingsDialog(Settings(), _actions([free_port(), llama_server.port]))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.models.remove_profile()
    assert dialog.models.profile_list.count() == 0 and not dialog.models.name_edit.isEnabled()
    assert dialog.models.detect_ollama.isEnabled()
    qtbot.mouseClick(dialog.models.detect_ollama, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: "Found 1 local model" in dialog.models.test_label.text(), timeout=30_000
    )
    assert dialog.models.profile_list.count() == 1 and dialog.models.name_edit.isEnabled()
    assert dialog.models.context_spin.value() == CONTEXT_WINDOW
    dialog._save()
    assert dialog.outcome is not None
    [profile] = dialog.outcome.settings.llm_profiles
    assert profile.server == "llama_cpp_python" and profile.context_window == CONTEXT_WINDOW
    assert dialog.outcome.settings.active_llm_profile == profile.id


@pytest.mark.slow
def test_detect_asks_the_base_url_the_user_typed(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, llama_server: LlamaServer
) -> None:
    """The server is on no usual port: only the typed base URL can find it."""
    dialog = _dialog(qtbot, [free_port()])
    qtbot.keyClicks(dialog.models.base_url_edit, f"127.0.0.1:{llama_server.port}")
    qtbot.mouseClick(dialog.models.detect_ollama, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: "Found 1 local model" in dialog.models.test_label.text(), timeout=30_000
    )
    assert dialog.models.base_url_edit.text() == f"http://127.0.0.1:{llama_server.port}/v1"
    assert (
        dialog.models.current() is not None and dialog.models.current().server == "llama_cpp_python"
    )


def test_a_window_the_server_does_not_say_is_unknown_not_128000(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, scripted_openai: ScriptedOpenAIServer
) -> None:
    """The scripted server answers Ollama's model list but not ``/api/show``: its window cannot
    be learned, and the field says so."""
    dialog = _dialog(qtbot, [])
    dialog.models.base_url_edit.setText(scripted_openai.root_url)
    dialog.models.detect_ollama.click()
    qtbot.waitUntil(
        lambda: "Found 2 local model" in dialog.models.test_label.text(), timeout=30_000
    )
    assert (
        dialog.models.context_spin.value() == 0 and dialog.models.context_spin.text() == "unknown"
    )
    dialog._save()
    assert dialog.outcome is not None
    assert dialog.outcome.settings.llm_profiles[0].context_window is None


def test_test_connection_says_where_the_window_comes_from() -> None:
    assert window_text(8192, 8192) == "Context window: 8,192 tokens (read from the server)."
    assert "The profile says 128,000" in window_text(128_000, 8192)
    assert window_text(128_000, None) == (
        "Context window: 128,000 tokens (the profile's setting; not read from the server)."
    )
    assert window_text(None, None).startswith("Context window: unknown")
