"""The first words a network engineer reads: what the Lab button says before login, and the name
of a conversation not titled yet, in the UI's language (the real app against the real server)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PyQt6.QtCore import QTranslator
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.paths import resource_path
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[QTranslator | None]:
    """The UI language the app is started in (None: English, no translator)."""
    if request.param == "en":
        yield None
        return
    translator = QTranslator()
    assert translator.load(str(resource_path("translations", "gns3_copilot_zh_CN.qm")))
    assert qapp.installTranslator(translator)
    try:
        yield translator
    finally:
        qapp.removeTranslator(translator)


def _in(language: QTranslator | None, context: str, english: str) -> str:
    if language is None:
        return english
    chinese = language.translate(context, english)
    assert chinese and chinese != english  # the catalogue has it
    return chinese


def test_the_lab_button_before_login_says_to_log_in(
    qtbot: QtBot, copilot_app: Callable[..., CopilotApp], language: QTranslator | None
) -> None:
    app = copilot_app()  # no saved login: the login dialog is open, nobody logged in
    header = app.header
    qtbot.waitUntil(lambda: header.login.dialog is not None and header.login.dialog.isVisible())
    header.lab_button.click()
    said = _in(language, "CopilotHeader", "Log in to see your lab.")
    qtbot.waitUntil(lambda: header.message_label.isVisible())
    assert header.message_label.text() == said


def test_an_untitled_session_is_named_in_the_ui_language(
    qtbot: QtBot,
    copilot_app: Callable[..., CopilotApp],
    language: QTranslator | None,
    tmp_path: Path,
    gns3_server: Gns3Server,
    gns3_token: str,
    app_keyring: MemoryKeyring,
    e2e_project: dict[str, Any],
) -> None:
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    sessions = app.panel.sessions
    open_project(app, e2e_project["project_id"], qtbot)
    qtbot.waitUntil(lambda: sessions.entries is not None, timeout=15_000)
    count = sessions.list.count()
    sessions.new_session()
    qtbot.waitUntil(lambda: sessions.list.count() == count + 1, timeout=15_000)
    name = _in(language, "SessionsPanel", "New conversation")
    shown = [sessions.list.item(i).text() for i in range(sessions.list.count())]
    assert any(text.startswith(name) for text in shown), shown
    assert "New conversation" not in " ".join(shown) or language is None
    assert app.panel.title_label.text() == name


LAB_WORDS = [
    ("CopilotHeader", "Lab"),  # the header's button
    ("TopologyCard", "Lab %1"),  # the card it adds
    ("CopilotHeader", "Show the lab in the chat"),
    ("CopilotHeader", "Log in to see your lab."),
    ("CopilotHeader", "Open a project to see its lab."),
]


def test_the_lab_has_one_name_in_chinese(qapp: QApplication) -> None:
    """The button and the card it opens call the lab the same: 实验, never 拓扑 (topology)."""
    translator = QTranslator()
    assert translator.load(str(resource_path("translations", "gns3_copilot_zh_CN.qm")))
    for context, english in LAB_WORDS:
        chinese = translator.translate(context, english)
        assert "实验" in chinese and "拓扑" not in chinese, (english, chinese)
