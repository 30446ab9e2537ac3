"""Walk the UI in Simplified Chinese: no user-visible English is left.

Every widget of the dock's main states (empty, an answer with tool cards, an approval card, an
error banner), the login dialog and every tab of the settings dialog is built under the zh_CN
translator; each visible text (labels, buttons, tabs, group titles, placeholders, combo items,
accessible names) is checked for English words. Names, commands, numbers and product words are
allowed (the allowlist), everything else must be translated.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest
from PyQt6.QtCore import QTranslator
from PyQt6.QtGui import QTextDocument
from PyQt6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.app import install_translator, remove_translator
from gns3_copilot_desktop.core.settings import LlmProfile, Settings
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.header.login_dialog import LoginDialog, LoginRequest, LoginResult
from gns3_copilot_desktop.ui.settings.dialog import SettingsActions, SettingsDialog
from tests.helpers.fake_backend import (
    ScriptedBackend,
    approval,
    content,
    done,
    error,
    tool_end,
    tool_start,
)
from tests.tools.screenshots import approval_requests

# Words that stay as they are in Chinese text: product and protocol names, units, the names the
# scripted lab and tools use, and what the user typed.
ALLOWED = {
    "gns3", "copilot", "ai", "api", "url", "jwt", "http", "https", "ollama", "openai",
    "anthropic", "deepseek", "lm", "studio", "llama", "cpp", "vpcs", "ios", "frr", "linux", "ospf",
    "tls", "json", "markdown", "token", "tokens", "id", "ip", "vlan", "acl", "cli", "ssh",
    "telnet", "enter", "shift", "ctrl", "esc", "tab", "f1", "gpt", "mini", "o", "s", "ms", "kb",
    "mb", "ok", "pc", "r", "sw", "admin", "localhost", "v", "vllm", "openrouter", "python", "base",
    "enable",  # Cisco's privileged mode: the word on the device
    "english",  # each language is listed by its own name
    "template",  # the "template:NAME" syntax of a console login
    "ca",  # a CA certificate
    "ping",  # the command
}  # fmt: skip
WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")
# Values that come from the lab, the model or the user, not from the app
DATA = re.compile(
    r"(create_nodes|configure_devices|delete_nodes|get_topology|list_projects|[a-z]+_[a-z_]+|"
    r"[A-Z][A-Z0-9]*_[A-Z0-9_]+(?:=\S+)?|[a-z]+:[\w.:-]+|"
    r"https?://\S+|\S+\.\S+|GigabitEthernet\S*|Ethernet\d+|e\d+/\d+|"
    r"interface .*|router ospf.*|network .*|"
    r"ip address .*|no shutdown|show \S+.*|c7200|R\d+|PC\d+|SW\d+|sk-\S+|"
    r"“[^”]*”|'[^']*'|\"[^\"]*\"|"
    r"（[^）]*）)"  # a provider's or device's own words, quoted in a Chinese sentence
)


def _texts(widget: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every visible, user-facing text under ``widget``."""
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisibleTo(widget) and child is not widget:
            continue
        name = f"{type(child).__name__}:{child.objectName()}"
        if isinstance(child, QLabel):
            document = QTextDocument()
            document.setHtml(child.text())
            yield name, document.toPlainText()
        elif isinstance(child, QAbstractButton):
            yield name, child.text()
        elif isinstance(child, QLineEdit | QTextEdit | QPlainTextEdit):
            yield name + ".placeholder", child.placeholderText()
        elif isinstance(child, QGroupBox):
            yield name, child.title()
        elif isinstance(child, QTabWidget):
            for i in range(child.count()):
                yield f"{name}.tab{i}", child.tabText(i)
        elif isinstance(child, QComboBox):
            for i in range(child.count()):
                yield f"{name}.item{i}", child.itemText(i)
        if child.accessibleName():
            yield name + ".accessibleName", child.accessibleName()
        if child.toolTip():
            yield name + ".toolTip", child.toolTip()


def english_left(widget: QWidget) -> list[str]:
    """The visible texts that still hold English words (outside the allowlist and the data)."""
    left = []
    for where, text in _texts(widget):
        words = [w for w in WORD.findall(DATA.sub(" ", text)) if w.lower() not in ALLOWED]
        if words:
            left.append(f"{where}: {text!r} ({', '.join(words)})")
    return left


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[QTranslator]:
    translator = install_translator(qapp, "zh_CN")
    assert translator is not None
    try:
        yield translator
    finally:
        remove_translator(qapp, translator)


def test_the_chat_in_its_states_has_no_english_left(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, chinese: QTranslator
) -> None:
    backend = ScriptedBackend()
    panel = ChatPanel(backend)
    qtbot.addWidget(panel)
    panel.resize(420, 900)
    panel.show()
    assert english_left(panel) == [], "\n".join(english_left(panel))  # the empty chat

    backend.add_turn(
        content("好的。"),
        tool_start("t1", "get_topology", summary="读取拓扑"),
        tool_end("t1", "get_topology", "PC1 PC2"),
        approval(*approval_requests()),
        done(),
    )
    panel.send("你好")
    qtbot.waitUntil(lambda: panel.view.open_approval is not None and not panel.composer.running)
    assert english_left(panel) == [], "\n".join(english_left(panel))

    backend.add_turn(error("模型服务没有响应。", kind="timeout"), done())
    panel.view.open_approval.reject_all()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: not panel.composer.running and backend.turns == [])
    assert english_left(panel) == [], "\n".join(english_left(panel))


async def _no_login(request: LoginRequest) -> LoginResult:
    raise AssertionError("not called")


def test_the_dialogs_have_no_english_left(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, chinese: QTranslator
) -> None:
    login = LoginDialog(_no_login)
    qtbot.addWidget(login)
    login.show()
    assert english_left(login) == [], "\n".join(english_left(login))

    async def test_connection(profile: LlmProfile, key: str | None) -> str:
        return "ok"

    async def list_models(host: str | None) -> list[str]:
        return []

    async def load_key(profile_id: str) -> str | None:
        return None

    settings = Settings(
        llm_profiles=[LlmProfile(id="p1", name="Lab", provider="openai", model="gpt-4.1-mini")],
        active_llm_profile="p1",
    )
    dialog = SettingsDialog(settings, SettingsActions(test_connection, list_models, load_key))
    qtbot.addWidget(dialog)
    dialog.show()
    tabs = dialog.findChild(QTabWidget)
    assert tabs is not None
    left = []
    for index in range(tabs.count()):
        tabs.setCurrentIndex(index)
        left += english_left(dialog)
    assert left == [], "\n".join(left)


SAMPLE_ARGUMENTS = {
    "list_projects": {},
    "get_topology": {},
    "list_templates": {"name_contains": "VPCS"},
    "create_nodes": {"nodes": [{"template": "VPCS", "name": "PC3"}, {"template": "VPCS"}]},
    "update_nodes": {"changes": [{"node": "PC1", "new_name": "PC9", "x": 10, "y": 20}]},
    "delete_nodes": {"nodes": ["PC1", "PC2"]},
    "create_links": {"links": [{"node_a": "PC1", "node_b": "SW1"}]},
    "delete_links": {"links": [{"node_a": "PC1", "node_b": "SW1"}]},
    "start_nodes": {"all": True},
    "stop_nodes": {"nodes": ["PC1"]},
    "suspend_nodes": {"nodes": ["PC1"], "wait": False},
    "reload_nodes": {"nodes": ["PC1", "PC2"]},
    "run_device_commands": {"devices": [{"node": "PC1", "commands": ["ip 10.0.0.1/24"]}]},
    "configure_devices": {"devices": [{"node": "R1", "lines": ["a", "b", "c", "d", "e"]}]},
    "get_node_details": {"nodes": ["PC1"]},
    "get_links": {},
    "get_project_stats": {},
    "list_snapshots": {},
    "get_template_details": {"templates": ["VPCS"]},
    "create_snapshot": {"name": "before"},
    "restore_snapshot": {"name": "before"},
    "add_note": {"text": "OSPF area 0"},
    "start_capture": {"link": {"node_a": "PC1", "node_b": "SW1"}},
    "stop_capture": {"link": {"node_a": "PC1"}},
    "summarize_capture": {"link": {"node_a": "PC1"}},
    "plan_lab": {"nodes": [{"name": "SW1", "template": "Ethernet switch"}], "links": []},
}


def test_every_tool_summary_reads_in_chinese(chinese: QTranslator) -> None:
    from gns3_copilot_desktop.core.agent.tools.network import network_registry
    from gns3_copilot_desktop.ui.core_text import core_text

    tools = {tool.name: tool for tool in network_registry()}
    assert set(tools) == set(SAMPLE_ARGUMENTS)  # a new tool needs its sample here
    left = []
    for name, tool in tools.items():
        args = tool.args_schema.model_validate(SAMPLE_ARGUMENTS[name])
        summary = tool.summary(args)
        shown = core_text(summary)
        words = [w for w in WORD.findall(DATA.sub(" ", shown)) if w.lower() not in ALLOWED]
        if words or shown == summary:
            left.append(f"{name}: {summary!r} -> {shown!r} ({', '.join(words)})")
    assert left == [], "\n".join(left)


def test_a_plans_summary_reads_in_chinese(chinese: QTranslator) -> None:
    from tests.tools.screenshots import plan_request

    request = plan_request()
    assert request.consequence == "add 3 nodes, 3 links; configure 2 devices"
    texts = [request.consequence, "remove 1 node, 2 links; configure 1 device", "nothing to change"]
    texts += ["PC3 started", "PC3 pings 198.51.100.4"]  # the checks after applying
    left = _untranslated(texts)
    assert left == [], "\n".join(left)


def test_without_a_translation_the_core_text_is_shown_word_for_word() -> None:
    from gns3_copilot_desktop.ui.core_text import argument_name, core_text

    for text in ("create node R4 (c7200)", "deletes R3 and its 3 links; SW1 (no links)"):
        assert core_text(text) == text
    assert argument_name("timeout_s") == "timeout (s)"


def test_the_errors_and_notices_of_the_core_read_in_chinese(chinese: QTranslator) -> None:
    from pathlib import Path

    import httpx

    from gns3_copilot_desktop.core.agent.budget import plan_call
    from gns3_copilot_desktop.core.agent.model_errors import CUT_OFF_TEXT, map_provider_error
    from gns3_copilot_desktop.core.agent.turn import INTERNAL_ERROR
    from gns3_copilot_desktop.core.sessions.recovery import Recovery
    from gns3_copilot_desktop.core.sessions.store import FOREIGN_TEXT, recovered_text

    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    small = plan_call(
        context_window=8192,
        answer_tokens=1024,
        system_tokens=900,
        all_tools_tokens=5200,
        read_tools_tokens=1200,
        needed_history_tokens=1500,
        tool_count=25,
    )
    none = plan_call(
        context_window=4096,
        answer_tokens=1024,
        system_tokens=900,
        all_tools_tokens=5200,
        read_tools_tokens=1200,
        needed_history_tokens=2500,
        tool_count=25,
    )
    messages = [
        CUT_OFF_TEXT,
        INTERNAL_ERROR,
        FOREIGN_TEXT,
        recovered_text(Recovery(moved_to=Path("/tmp/x.corrupt-1"), reason="bad")),
        map_provider_error(httpx.ConnectError("refused", request=request)).user_message,
        map_provider_error(httpx.ReadTimeout("slow", request=request)).user_message,
        small.notice or "",
        none.notice or "",
    ]
    left = _untranslated(messages)
    assert left == [], "\n".join(left)


def test_why_a_model_cannot_be_used_reads_in_chinese(chinese: QTranslator) -> None:
    """The composer and the settings show these (a missing key, a missing base URL...)."""
    from gns3_copilot_desktop.core.agent.model_factory import (
        LlmConfig,
        create_base_model,
        resolve_llm_config,
    )
    from gns3_copilot_desktop.core.errors import ModelConfigError

    def message(work: object) -> str:
        try:
            if asyncio.iscoroutine(work):
                asyncio.run(work)
            else:
                assert callable(work)
                work()
        except ModelConfigError as exc:
            return exc.user_message
        raise AssertionError("no ModelConfigError")

    profile = LlmProfile(id="p1", name="My GPT", provider="openai", model="gpt-4o-mini")
    messages = [
        message(resolve_llm_config(None, None, None, {})),
        message(resolve_llm_config(None, profile, None, {})),
        message(resolve_llm_config(None, None, None, {"OLLAMA_HOST": "127.0.0.1:11434"})),
        message(resolve_llm_config(None, None, None, {"GNS3_COPILOT_MODEL": "mystery"})),
        message(lambda: create_base_model(LlmConfig(provider="openai", model="gpt-4o-mini"))),
        message(lambda: create_base_model(LlmConfig(provider="anthropic", model="claude-x"))),
        message(lambda: create_base_model(LlmConfig(provider="openai_compatible", model="m"))),
    ]
    left = _untranslated(messages)
    assert left == [], "\n".join(left)


def _untranslated(messages: list[str], data: tuple[str, ...] = ()) -> list[str]:
    """The core texts that still read in English through `core_text` (``data``: the words of
    a server or a library quoted in them, left as they came)."""
    from gns3_copilot_desktop.ui.core_text import core_text

    left = []
    for text in messages:
        shown = core_text(text)
        for quoted in data:
            shown = shown.replace(quoted, " ")
        words = [w for w in WORD.findall(DATA.sub(" ", shown)) if w.lower() not in ALLOWED]
        if words or shown == text:
            left.append(f"{text!r} -> {shown!r}")
    return left


def test_what_the_gns3_server_answered_reads_in_chinese(chinese: QTranslator) -> None:
    """The login, header and banner texts of the GNS3 client's errors, made by its own code."""
    import ssl

    import httpx

    from gns3_copilot_desktop.core.gns3._errors import (
        expired_token_error,
        status_error,
        transport_error,
    )

    server = "http://127.0.0.1:3080"
    request = httpx.Request("GET", f"{server}/v3/projects")

    def answer(code: int) -> httpx.Response:
        return httpx.Response(code, json={"message": "Bad things"}, request=request)

    def failed(exc: httpx.HTTPError) -> str:
        return transport_error(server, exc, 10).user_message

    tls = httpx.ConnectError("handshake")
    tls.__cause__ = ssl.SSLError("certificate verify failed")
    messages = [
        status_error(server, answer(401)).user_message,
        status_error(server, answer(401), login_user="admin").user_message,
        status_error(server, answer(500)).user_message,
        expired_token_error(server).user_message,
        failed(httpx.ConnectTimeout("slow", request=request)),
        failed(httpx.ReadTimeout("slow", request=request)),
        failed(tls),
        failed(httpx.ConnectError("[Errno -2] Name or service not known")),
        failed(httpx.ConnectError("[Errno 111] Connection refused")),
        failed(httpx.ConnectError("unreachable network")),
        failed(httpx.RemoteProtocolError("peer closed")),
        failed(httpx.DecodingError("odd")),
    ]
    data = ("Bad things", "peer closed", "odd", "unreachable network", "certificate verify failed")
    left = _untranslated(messages, data)
    assert left == [], "\n".join(left)


def test_an_undo_question_reads_in_chinese(chinese: QTranslator) -> None:
    from gns3_copilot_desktop.core.undo.apply import UndoAction, UndoPlan
    from gns3_copilot_desktop.ui.cards.undo_view import question_text

    async def nothing() -> None:
        return None

    plan = UndoPlan(
        [
            UndoAction("remove node PC3 and its 2 link(s)", nothing),
            UndoAction("bring back node SW1 (ethernet_switch) at (0, -40)", nothing),
            UndoAction("bring back link PC1 Ethernet0 <-> SW1 Ethernet1", nothing),
            UndoAction("rename X back to PC2, move PC2 back to (10, 20)", nothing),
            UndoAction("push back 1 line(s) to PC1", nothing, ("ip 192.0.2.1/24",)),
        ],
        ["PC9 is already gone", "R1 e0/0 <-> SW1 Ethernet1: SW1 Ethernet1 is in use"],
    )
    text = question_text(plan)
    for english in ("remove node", "bring back", "rename", "move", "push back", "gone", "in use"):
        assert english not in text, text
    assert "ip 192.0.2.1/24" in text and "SW1 Ethernet1" in text
