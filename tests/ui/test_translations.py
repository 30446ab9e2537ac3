"""Simplified Chinese ships complete: every string pylupdate6 finds is translated, the .qm matches
the .ts, and loading it turns the widgets Chinese."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PyQt6.QtCore import QTranslator
from PyQt6.QtWidgets import QApplication, QDialogButtonBox
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.paths import resource_path
from gns3_copilot_desktop.ui.chat.composer import Composer
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.header.login_dialog import LoginDialog, LoginRequest, LoginResult
from tests.helpers.fake_backend import ScriptedBackend

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "gns3_copilot_desktop"
TS = ROOT / "resources" / "translations" / "gns3_copilot_zh_CN.ts"
QM = TS.with_suffix(".qm")
LRELEASE_CANDIDATES = ("lrelease", "/usr/lib/qt6/bin/lrelease", "/usr/lib/qt6/libexec/lrelease")
_PLACEHOLDER = re.compile(r"%n|%\d+|\{\w*\}")

Message = tuple[str, str]  # (context, source)


def _messages(ts: Path) -> dict[Message, list[str]]:
    """(context, source) -> the translations (one, or the numerus forms); unfinished ones as ''."""
    found: dict[Message, list[str]] = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            if translation.get("type") in ("unfinished", "vanished", "obsolete"):
                texts = [""]
            elif message.get("numerus") == "yes":
                texts = [form.text or "" for form in translation.iter("numerusform")] or [""]
            else:
                texts = [translation.text or ""]
            found[(name, message.findtext("source") or "")] = texts
    return found


def _pylupdate() -> str:
    tool = Path(sys.executable).with_name("pylupdate6")
    return str(tool) if tool.exists() else shutil.which("pylupdate6") or "pylupdate6"


def _lrelease() -> str | None:
    for candidate in LRELEASE_CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def test_every_message_is_translated_with_its_placeholders() -> None:
    messages = _messages(TS)
    assert len(messages) > 100
    root = ET.parse(TS).getroot()
    assert root.get("language") == "zh_CN"
    untranslated = [key for key, texts in messages.items() if not all(t.strip() for t in texts)]
    assert untranslated == []
    for (context, source), texts in messages.items():
        for text in texts:
            where = f"{context}: {source!r} -> {text!r}"
            assert sorted(_PLACEHOLDER.findall(text)) == sorted(_PLACEHOLDER.findall(source)), where
            assert text.startswith("\n") == source.startswith("\n"), where
            assert text.endswith("\n") == source.endswith("\n"), where


def test_the_ts_covers_every_string_pylupdate6_finds(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.ts"
    subprocess.run(
        [_pylupdate(), "--no-summary", str(PACKAGE), "--ts", str(fresh)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    found = set(_messages(fresh))
    assert len(found) > 100
    missing = sorted(found - set(_messages(TS)))
    assert missing == [], "run packaging/update_translations.sh and translate these"


def test_the_committed_qm_is_compiled_from_the_ts(tmp_path: Path) -> None:
    lrelease = _lrelease()
    if lrelease is None:
        pytest.skip("Qt's lrelease is not installed (Debian: qt6-l10n-tools)")
    compiled = tmp_path / "compiled.qm"
    subprocess.run(
        [lrelease, "-silent", str(TS), "-qm", str(compiled)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert compiled.read_bytes() == QM.read_bytes(), "run packaging/update_translations.sh"


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[QTranslator]:
    """The Simplified Chinese translator installed on the application for one test."""
    translator = QTranslator()
    assert translator.load(str(resource_path("translations", "gns3_copilot_zh_CN.qm")))
    assert qapp.installTranslator(translator)
    try:
        yield translator
    finally:
        qapp.removeTranslator(translator)


async def _no_login(request: LoginRequest) -> LoginResult:
    raise AssertionError("not called")


def test_widgets_built_with_the_translator_show_chinese(qtbot: QtBot, chinese: QTranslator) -> None:
    assert chinese.language() == "zh_CN"
    composer = Composer()
    qtbot.addWidget(composer)
    assert composer.send_button.text() == "发送"
    assert composer.send_button.accessibleName() == "发送消息"
    dialog = LoginDialog(_no_login)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "登录 GNS3"
    assert dialog.login_button.text() == "登录"
    panel = ChatPanel(ScriptedBackend())
    qtbot.addWidget(panel)
    assert panel.title_label.text() == "新对话"
    assert panel.sessions_toggle.text() == "☰ 会话"


def test_without_the_translator_the_widgets_stay_english(qtbot: QtBot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    assert composer.send_button.text() == "Send"


@pytest.mark.parametrize(("language", "loaded"), [("zh_CN", True), ("zh-CN", True), ("en", False)])
def test_the_app_installs_the_chosen_language(
    qtbot: QtBot, qapp: QApplication, language: str, loaded: bool
) -> None:
    from gns3_copilot_desktop.app import install_translator, remove_translator

    translator = install_translator(qapp, language)
    try:
        assert (translator is not None) is loaded
        composer = Composer()
        qtbot.addWidget(composer)
        assert composer.send_button.text() == ("发送" if loaded else "Send")
        # Qt's own buttons follow (its base translation is loaded too)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        qtbot.addWidget(box)
        cancel = box.button(QDialogButtonBox.StandardButton.Cancel)
        assert cancel is not None and cancel.text() == ("取消" if loaded else "Cancel")
    finally:
        if translator is not None:
            remove_translator(qapp, translator)
