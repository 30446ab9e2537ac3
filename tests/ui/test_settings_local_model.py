"""Settings -> Detect local models, against the real llama-cpp-python server (issue 12).

The dialog finds the real server on its loopback port, fills the profile (OpenAI-compatible,
base URL, model, the server kind whose quirks the model factory then applies), and the profile
resolves to the configuration that speaks to that server as it needs.
"""

from __future__ import annotations

import asyncio

import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.agent.local_servers import LocalServer, detect_local_servers
from gns3_copilot_desktop.core.agent.model_factory import (
    SERVER_QUIRKS,
    quirks_for,
    resolve_llm_config,
)
from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.settings_dialog import SettingsActions, SettingsDialog
from tests.helpers.gns3_server import free_port
from tests.helpers.llama_server import LlamaServer


def _actions(ports: list[int]) -> SettingsActions:
    async def test_connection(profile: LlmProfile, key: str | None) -> str:
        return "not used"

    async def list_models(host: str | None) -> list[str]:
        return []

    async def load_key(profile_id: str) -> str | None:
        return None

    async def detect() -> list[LocalServer]:
        return await detect_local_servers(ports)

    return SettingsActions(test_connection, list_models, load_key, detect)


def _dialog(qtbot: QtBot, ports: list[int]) -> SettingsDialog:
    settings = Settings(
        llm_profiles=[LlmProfile(id="p1", name="New profile", provider="openai", model="gpt-4o")],
        active_llm_profile="p1",
    )
    dialog = SettingsDialog(settings, _actions(ports))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.profile_list.setCurrentRow(0)
    return dialog


@pytest.mark.slow
def test_detect_fills_a_local_profile_that_speaks_to_the_server_as_it_needs(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, llama_server: LlamaServer
) -> None:
    dialog = _dialog(qtbot, [free_port(), llama_server.port])
    dialog.detect_ollama.click()
    qtbot.waitUntil(lambda: "Found 1 local model" in dialog.test_label.text(), timeout=30_000)
    host = f"127.0.0.1:{llama_server.port}"
    assert dialog.server_label.text() == f"Local model: llama-cpp-python at {host}"
    dialog._save()
    assert dialog.outcome is not None
    [profile] = dialog.outcome.settings.llm_profiles
    assert profile.provider == "openai_compatible" and profile.server == "llama_cpp_python"
    assert profile.base_url == f"http://{host}/v1" and profile.name == "Local model"
    assert profile.model and "—" not in profile.model  # the model's id, not the list's label

    task = asyncio.ensure_future(resolve_llm_config(None, profile, None, {}), loop=qasync_loop)
    qtbot.waitUntil(task.done)
    resolved = task.result()
    assert resolved.server == "llama_cpp_python"
    assert quirks_for(resolved) == SERVER_QUIRKS["llama_cpp_python"]


def test_nothing_answering_says_what_to_start(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    dialog = _dialog(qtbot, [free_port()])
    dialog.detect_ollama.click()
    qtbot.waitUntil(lambda: "No local model server answered" in dialog.test_label.text())
    assert dialog.detect_ollama.isEnabled()
    assert dialog._settings.llm_profiles[0].server is None
