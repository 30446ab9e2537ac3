"""The first hour: the empty chat's checklist, "Remember me" without a keyring, and a settings
dialog with no profile whose buttons all do something."""

from __future__ import annotations

import asyncio

from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.header.login_dialog import LoginDialog, LoginRequest, LoginResult
from gns3_copilot_desktop.ui.settings.dialog import SettingsActions, SettingsDialog


def test_the_checklist_ticks_each_step_and_links_to_it(qtbot: QtBot, panel: ChatPanel) -> None:
    asked: list[str] = []
    panel.login_requested.connect(lambda: asked.append("login"))
    panel.settings_requested.connect(lambda: asked.append("settings"))
    view = panel.view
    label = view.empty_label

    view.set_checklist(False, False, False)
    text = label.text()
    assert label.isVisible() and "To start:" in text
    assert '1. <a href="login">Log in to the GNS3 server</a>' in text
    assert '2. <a href="settings">Add a model</a>' in text and "3. Open a project" in text
    label.linkActivated.emit("login")

    view.set_checklist(True, False, False)  # logged in: ticked, no longer a link
    text = label.text()
    assert "✓ <s>Log in to the GNS3 server</s>" in text and 'href="login"' not in text
    label.linkActivated.emit("settings")
    assert asked == ["login", "settings"]

    view.set_checklist(True, True, False)
    assert "✓ <s>Add a model</s>" in label.text()
    view.set_checklist(True, True, True)  # all done: the usual hint
    assert label.text().startswith("Ask about your GNS3 project")


async def _no_login(request: LoginRequest) -> LoginResult:
    raise AssertionError("not called")


def test_remember_me_is_off_and_explained_without_a_keyring(qtbot: QtBot) -> None:
    dialog = LoginDialog(_no_login, no_keyring="No Secret Service is running")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.remember_box.isChecked() and not dialog.remember_box.isEnabled()
    assert (
        dialog.remember_note.isVisible() and "cannot be remembered" in dialog.remember_note.text()
    )
    assert dialog.request().remember is False

    with_keyring = LoginDialog(_no_login)
    qtbot.addWidget(with_keyring)
    assert with_keyring.remember_box.isChecked() and with_keyring.remember_box.isEnabled()


def _actions(stored: dict[str, str]) -> SettingsActions:
    async def test_connection(profile: LlmProfile, key: str | None) -> str:
        return "ok"

    async def list_models(host: str | None) -> list[str]:
        return []

    async def load_key(profile_id: str) -> str | None:
        return stored.get(profile_id)

    return SettingsActions(test_connection, list_models, load_key)


def test_settings_without_a_profile_open_on_a_form_to_fill(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    """The first-run "Add a model" link lands on a usable form, not a greyed one; left untouched,
    that first profile is not saved."""
    dialog = SettingsDialog(Settings(), _actions({}))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.models.profile_list.count() == 1
    for widget in (
        dialog.models.name_edit,
        dialog.models.model_combo,
        dialog.models.base_url_edit,
        dialog.models.test_button,
    ):
        assert widget.isEnabled()
    assert dialog.models.detect_ollama.isEnabled()
    qtbot.waitUntil(lambda: dialog.models.api_key_edit.placeholderText() == "No key stored")
    dialog._save()
    assert dialog.outcome is not None
    assert dialog.outcome.settings.llm_profiles == []
    assert dialog.outcome.settings.active_llm_profile is None


def test_the_first_profile_is_kept_once_filled(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    dialog = SettingsDialog(Settings(), _actions({}))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.models.model_combo.setEditText("gpt-4.1-mini")
    dialog._save()
    assert dialog.outcome is not None
    [profile] = dialog.outcome.settings.llm_profiles
    assert profile.model == "gpt-4.1-mini"
    assert dialog.outcome.settings.active_llm_profile == profile.id


def test_a_stored_key_says_so(qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop) -> None:
    settings = Settings(
        llm_profiles=[LlmProfile(id="p1", name="Work", provider="openai", model="gpt-4o")],
        active_llm_profile="p1",
    )
    dialog = SettingsDialog(settings, _actions({"p1": "sk-x"}))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(
        lambda: dialog.models.api_key_edit.placeholderText() == "A key is stored in the OS keyring"
    )
