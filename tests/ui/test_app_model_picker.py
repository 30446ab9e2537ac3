"""The model picker with only a command-line model (``--model-base-url``) and no saved profile:
it shows that model, and the composer is enabled for it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from pytestqt.qtbot import QtBot

from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import ScriptedOpenAIServer

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000


def test_the_command_line_model_is_the_pickers_entry_and_enables_the_composer(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    # a remembered login, but no LLM profile at all
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)

    app = copilot_app()
    assert app.header.workspace.settings.llm_profiles == []
    combo = app.panel.composer.model_combo
    where = urlsplit(scripted_openai.base_url).netloc
    qtbot.waitUntil(lambda: combo.count() == 1, timeout=WAIT_MS)
    assert combo.currentText() == f"gpt-4o-mini @ {where} (command line)"
    assert combo.isEnabled()
    # "gpt-4o-mini" served by a local OpenAI-compatible server is not OpenAI: no OpenAI price
    status = app.panel.status
    assert (status.model_name, status.model_base_url) == ("gpt-4o-mini", scripted_openai.base_url)
    assert status.cost_text == "—"

    open_project(app, e2e_project["project_id"], qtbot)
    qtbot.waitUntil(lambda: app.panel.composer.disabled_reason is None, timeout=WAIT_MS)
    assert app.panel.composer.edit.isEnabled()

    assert combo.currentText().endswith("(command line)")  # still after the login


def test_a_profile_without_its_key_is_explained_in_chinese_in_the_composer(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    """The composer's reason comes from the core's ModelConfigError: shown in the UI language."""
    from PyQt6.QtWidgets import QApplication

    from gns3_copilot_desktop.app import install_translator, remove_translator

    profile = {"id": "p1", "name": "My GPT", "provider": "openai", "model": "gpt-4o-mini"}
    extra = {"llm_profiles": [profile], "active_llm_profile": "p1"}
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring, extra)
    qt_app = QApplication.instance()
    assert isinstance(qt_app, QApplication)
    translator = install_translator(qt_app, "zh_CN")
    assert translator is not None
    try:
        app = copilot_app(model_base_url=None, model_name=None)
        open_project(app, e2e_project["project_id"], qtbot)
        qtbot.waitUntil(
            lambda: "API" in (app.panel.composer.disabled_reason or ""), timeout=WAIT_MS
        )
        reason = app.panel.composer.disabled_reason or ""
        assert "My GPT" in reason and "API 密钥" in reason, reason
        assert "enter it" not in reason
    finally:
        remove_translator(qt_app, translator)
