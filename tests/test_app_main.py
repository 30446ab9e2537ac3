"""app.py's process-wide set-up: translations, tracing kept off, the heap frozen after warm-up."""

from __future__ import annotations

import gc

import pytest
from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QApplication

from gns3_copilot_desktop import app


def test_the_shipped_chinese_translation_is_found_and_used(qapp: QApplication) -> None:
    translator = app.install_translator(qapp, "zh_CN")
    try:
        assert translator is not None, "resources/translations/gns3_copilot_zh_CN.qm not loaded"
        assert translator.language() == "zh_CN"
        login = QCoreApplication.translate("LoginDialog", "Log in")
        assert login != "Log in" and any("\u4e00" <= ch <= "\u9fff" for ch in login)
    finally:
        if translator is not None:
            qapp.removeTranslator(translator)


def test_a_language_without_a_translation_keeps_english(qapp: QApplication) -> None:
    assert app.install_translator(qapp, "fr_FR") is None
    assert QCoreApplication.translate("LoginDialog", "Log in") == "Log in"


@pytest.mark.parametrize("name", ["LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2"])
def test_inherited_tracing_is_turned_off(name: str) -> None:
    env = {name: "true", "PATH": "/usr/bin"}
    assert app.keep_conversations_local(env) == [name]
    assert env[name] == "false" and env["LANGSMITH_TRACING"] == "false"
    assert env["PATH"] == "/usr/bin"
    assert app.keep_conversations_local({"LANGSMITH_TRACING": "false"}) == []


def test_warm_up_freezes_the_imported_heap() -> None:
    import asyncio

    gc.unfreeze()
    try:
        asyncio.run(app._warm_up())
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
