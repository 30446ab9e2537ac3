"""Export and import dialogs open in the folder used last (kept in the settings across a restart)
and an export proposes the project's name and today's date (the real app and server)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.file_folders import safe_file_name
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring


def _start(
    qtbot: QtBot, copilot_app: Callable[..., CopilotApp], project: dict[str, Any]
) -> CopilotApp:
    app = copilot_app()
    open_project(app, project["project_id"], qtbot)
    return app


def test_session_dialogs_open_where_the_last_file_went_with_project_and_date(
    qtbot: QtBot,
    copilot_app: Callable[..., CopilotApp],
    tmp_path: Path,
    gns3_server: Gns3Server,
    gns3_token: str,
    app_keyring: MemoryKeyring,
    e2e_project: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = _start(qtbot, copilot_app, e2e_project)
    sessions = app.panel.sessions
    sessions.new_session()
    qtbot.waitUntil(lambda: bool(sessions.entries), timeout=15_000)
    sessions.list.setCurrentRow(0)
    asked: list[str] = []
    chosen = tmp_path / "exports" / "labs"
    chosen.mkdir(parents=True)

    def save(_parent: object, _title: str, start: str, _filters: str) -> tuple[str, str]:
        asked.append(start)
        return str(chosen / "mine.md"), "Markdown (*.md)"

    def open_(_parent: object, _title: str, start: str, _filters: str) -> tuple[str, str]:
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_)
    sessions.export_selected()
    qtbot.waitUntil((chosen / "mine.md").exists, timeout=15_000)
    first = Path(asked[0])
    name = safe_file_name(e2e_project["name"], "session")
    assert first.name == f"{name} {date.today().isoformat()}.md"
    assert first.parent != chosen  # nothing remembered yet: the documents folder
    sessions.import_file()  # the dialog the user cancels still opens where the export went
    assert Path(asked[1]) == chosen
    sessions.export_selected()
    assert Path(asked[2]).parent == chosen
    # kept in the settings file: a restarted app opens there too
    settings_file = tmp_path / "home" / "config" / "settings.json"

    def saved() -> object:
        return json.loads(settings_file.read_text()).get("last_folders")

    qtbot.waitUntil(lambda: saved() == {"sessions": str(chosen)}, timeout=10_000)
    run_again = _start(qtbot, copilot_app, e2e_project)
    run_again.panel.sessions.import_file()
    assert Path(asked[3]) == chosen
    # a remembered folder that is gone: back to the documents folder
    chosen.joinpath("mine.md").unlink()
    chosen.rmdir()
    run_again.panel.sessions.import_file()
    assert Path(asked[4]) == first.parent


def test_exercise_dialogs_remember_their_own_folder(
    qtbot: QtBot,
    copilot_app: Callable[..., CopilotApp],
    tmp_path: Path,
    gns3_server: Gns3Server,
    gns3_token: str,
    app_keyring: MemoryKeyring,
    e2e_project: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = _start(qtbot, copilot_app, e2e_project)
    practice = app.panel.practice
    asked: list[str] = []
    chosen = tmp_path / "class"
    chosen.mkdir()

    def save(_parent: object, _title: str, start: str, _filters: str) -> tuple[str, str]:
        asked.append(start)
        return str(chosen / "week1.gns3exercise"), ""

    def open_(_parent: object, _title: str, start: str, _filters: str) -> tuple[str, str]:
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_)
    assert practice.ask_export_path() == chosen / "week1.gns3exercise"
    first = Path(asked[0])
    name = safe_file_name(e2e_project["name"], "exercise")
    assert first.name.startswith(f"{name} {date.today().isoformat()}")
    assert practice.ask_import_path() is None
    assert Path(asked[1]) == chosen
    # the sessions' dialogs keep their own folder
    assert app.header.workspace.settings.last_folders == {"exercises": str(chosen)}
