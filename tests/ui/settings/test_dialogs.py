"""The login and settings dialogs with injected actions (the real GNS3 login is in test_app_e2e)."""

from __future__ import annotations

import asyncio

from PyQt6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.errors import Gns3AuthError, Gns3ConnectionError, ModelConfigError
from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.header.login_dialog import LoginDialog, LoginRequest, LoginResult
from gns3_copilot_desktop.ui.settings.dialog import SettingsActions, SettingsDialog


def _unnamed_controls(root: QWidget) -> list[str]:
    controls = root.findChildren((QAbstractButton, QLineEdit))
    return [
        f"{type(w).__name__} {getattr(w, 'text', lambda: '')()!r}"
        for w in controls
        if w.isVisibleTo(root)
        and not w.accessibleName()
        and not isinstance(w.parent(), (QAbstractSpinBox, QComboBox))  # named by their owner
    ]


def test_login_success_accepts_and_forgets_the_password(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    seen: list[LoginRequest] = []

    async def login(request: LoginRequest) -> LoginResult:
        seen.append(request)
        return LoginResult(request.server_url, request.username)

    dialog = LoginDialog(login, username="admin")
    qtbot.addWidget(dialog)
    dialog.show()
    assert _unnamed_controls(dialog) == []
    qtbot.keyClicks(dialog.password_edit, "s3cret")
    with qtbot.waitSignal(dialog.logged_in, timeout=3000):
        dialog.login_button.click()
    assert seen == [LoginRequest("http://127.0.0.1:3080", "admin", "s3cret", True)]
    assert dialog.result_value == LoginResult("http://127.0.0.1:3080", "admin")
    assert dialog.password_edit.text() == ""


def test_login_error_is_shown_and_the_form_stays_usable(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    async def login(request: LoginRequest) -> LoginResult:
        raise Gns3AuthError("Authentication was unsuccessful.", status_code=401)

    dialog = LoginDialog(login, username="admin")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.password_edit, "wrong")
    dialog.login_button.click()
    qtbot.waitUntil(lambda: "unsuccessful" in dialog.status_label.text(), timeout=3000)
    assert dialog.login_button.isEnabled()
    assert dialog.password_edit.text() == "wrong"  # kept so the user can fix a typo
    assert dialog.isVisible()


def test_login_refused_offers_a_local_server_when_one_is_installed(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, tmp_path: object, monkeypatch: object
) -> None:
    import shutil

    started: list[bool] = []

    async def login(request: LoginRequest) -> LoginResult:
        raise Gns3ConnectionError("Nothing answers at http://127.0.0.1:1 (connection refused).")

    async def start_server() -> None:
        started.append(True)

    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/gns3server")  # type: ignore[attr-defined]
    dialog = LoginDialog(login, username="admin", start_local_server=start_server)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.password_edit, "x")
    dialog.login_button.click()
    qtbot.waitUntil(dialog.start_server_button.isVisible, timeout=3000)
    assert "connection refused" in dialog.status_label.text()
    dialog.start_server_button.click()
    qtbot.waitUntil(lambda: started == [True], timeout=3000)
    qtbot.waitUntil(lambda: not dialog.start_server_button.isVisible(), timeout=3000)


def test_login_requires_username_and_password(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    async def login(request: LoginRequest) -> LoginResult:
        raise AssertionError("must not be called")

    dialog = LoginDialog(login)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.login_button.click()
    assert "username and a password" in dialog.status_label.text()


def _actions(tested: list[tuple[str, str | None]]) -> SettingsActions:
    async def test_connection(profile: LlmProfile, key: str | None) -> str:
        tested.append((profile.model, key))
        if profile.model == "no-tools":
            raise ModelConfigError("The model no-tools does not accept tool calls.")
        return f"{profile.model} answers. Calls tools: yes."

    async def list_models(host: str | None) -> list[str]:
        return ["llama3.1:8b", "qwen2.5:7b"]

    async def load_key(profile_id: str) -> str | None:
        return "sk-stored" if profile_id == "p1" else None

    return SettingsActions(test_connection, list_models, load_key)


def test_settings_profiles_keys_and_connection_test(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    tested: list[tuple[str, str | None]] = []
    settings = Settings(
        llm_profiles=[LlmProfile(id="p1", name="Work", provider="openai", model="gpt-4o")],
        active_llm_profile="p1",
    )
    dialog = SettingsDialog(settings, _actions(tested))
    qtbot.addWidget(dialog)
    dialog.show()
    assert _unnamed_controls(dialog) == []
    qtbot.waitUntil(lambda: "stored" in dialog.models.api_key_edit.placeholderText(), timeout=3000)
    dialog.models.model_combo.setEditText("no-tools")
    dialog.models.api_key_edit.setText("sk-new-key-123456")
    dialog.models.test_button.click()
    qtbot.waitUntil(
        lambda: "does not accept tool calls" in dialog.models.test_label.text(), timeout=3000
    )
    assert tested == [("no-tools", "sk-new-key-123456")]

    dialog.models.detect_ollama.click()
    qtbot.waitUntil(lambda: dialog.models.model_combo.count() == 2, timeout=3000)
    assert dialog.models.provider_combo.currentData() == "ollama"

    dialog._save()
    outcome = dialog.outcome
    assert outcome is not None
    assert outcome.api_keys == {"p1": "sk-new-key-123456"}
    saved = outcome.settings.llm_profiles[0]
    assert (saved.provider, saved.model) == ("ollama", "llama3.1:8b")
    assert "sk-new" not in outcome.settings.model_dump_json()
    assert settings.llm_profiles[0].model == "gpt-4o"  # the caller's copy is untouched


def test_settings_add_remove_profiles_and_revoke_grants(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    settings = Settings(heartbeat_interval_s=15)
    settings.grant_always_allow("http://127.0.0.1:3080", "proj-1", "create_nodes")
    settings.grant_always_allow("http://127.0.0.1:3080", "proj-1", "start_nodes")
    dialog = SettingsDialog(settings, _actions([]))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.models.name_edit.isEnabled()  # a first profile to fill, not a greyed form
    dialog.models.add_profile()
    assert len(dialog._settings.llm_profiles) == 2
    first = dialog._settings.llm_profiles[0].id
    assert dialog._settings.active_llm_profile == first
    dialog.models.profile_list.setCurrentRow(0)
    dialog.models.remove_profile()
    assert dialog._settings.active_llm_profile == dialog._settings.llm_profiles[0].id

    assert dialog.permissions.grants_list.count() == 2
    dialog.permissions.grants_list.setCurrentRow(0)
    dialog.permissions.revoke()
    assert dialog.permissions.grants_list.count() == 1
    dialog.general.heartbeat_spin.setValue(0)
    dialog._save()
    assert dialog.outcome is not None
    out = dialog.outcome.settings
    assert out.heartbeat_interval_s == 0
    assert out.always_allowed("http://127.0.0.1:3080", "proj-1") == ["start_nodes"]
    assert dialog.outcome.api_keys == {first: None}


def test_console_logins_keep_their_secrets_out_of_the_settings(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    dialog = SettingsDialog(Settings(), _actions([]))
    qtbot.addWidget(dialog)
    tab = dialog.console_logins
    assert not tab.save_button.isEnabled() and not tab.remove_button.isEnabled()
    tab.applies_edit.setText("template:Cisco IOSv")
    tab.user_edit.setText("admin")
    qtbot.keyClicks(tab.password_edit, "console-pass-42")
    qtbot.keyClicks(tab.enable_edit, "enable-pass-42")
    tab.add_button.click()
    assert tab.list.count() == 1 and tab.password_edit.text() == ""
    tab.applies_edit.setText("R1")
    qtbot.keyClicks(tab.password_edit, "r1-pass-42")
    tab.add_button.click()
    tab.list.setCurrentRow(1)
    tab.remove_button.click()
    dialog._save()
    outcome = dialog.outcome
    assert outcome is not None
    [login] = outcome.settings.console_logins
    assert login.applies_to == "template:Cisco IOSv" and login.username == "admin"
    saved = outcome.console_secrets[login.id]
    assert saved is not None and saved.password == "console-pass-42"
    assert saved.enable_secret == "enable-pass-42"
    removed = [k for k, v in outcome.console_secrets.items() if v is None]
    assert len(removed) == 1  # the removed login's keyring entry is deleted on save
    text = outcome.settings.model_dump_json()
    assert "pass-42" not in text
    assert login.matches("R9", "Cisco IOSv") and not login.matches("R9", "VPCS")
