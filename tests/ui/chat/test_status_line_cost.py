"""The status line shows the session's estimated cost for a priced model at its provider's own
endpoint, and a dash otherwise (unknown model, or a custom base URL reusing a known model name)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import TokenUsage
from gns3_copilot_desktop.ui.chat.status_line import StatusLine


def test_cost_of_a_priced_model_is_shown_in_dollars(qtbot: QtBot) -> None:
    line = StatusLine()
    qtbot.addWidget(line)
    line.set_model("gpt-4o", "openai")
    line.set_session_usage(TokenUsage(input_tokens=1000, output_tokens=1000))
    assert line.cost_text == "$0.0125"
    line.add_usage(TokenUsage(input_tokens=1000, output_tokens=0), None, None)
    assert line.cost_text == "$0.0150"


def test_cost_of_an_unknown_model_is_a_dash(qtbot: QtBot) -> None:
    line = StatusLine()
    qtbot.addWidget(line)
    line.set_model("llama3.1:8b", "ollama")
    line.set_session_usage(TokenUsage(input_tokens=5000, output_tokens=5000))
    assert line.cost_text == "—"
    line.set_model("gpt-4o", "openai")
    assert line.cost_text.startswith("$")
    line.set_model("")
    assert line.cost_text == "—"


def test_official_base_url_is_priced_custom_base_url_is_not(qtbot: QtBot) -> None:
    line = StatusLine()
    qtbot.addWidget(line)
    line.set_session_usage(TokenUsage(input_tokens=1000, output_tokens=1000))
    line.set_model("gpt-4o", "openai", "https://api.openai.com/v1")
    assert line.cost_text == "$0.0125"
    line.set_model("deepseek-chat", "deepseek", "https://api.deepseek.com")
    assert line.cost_text.startswith("$")
    line.set_model("claude-sonnet-4", "anthropic", "https://api.anthropic.com")
    assert line.cost_text.startswith("$")
    # an OpenAI-compatible server that names its model "gpt-4o" must not show OpenAI's prices
    line.set_model("gpt-4o", "openai_compatible", "http://127.0.0.1:8080/v1")
    assert line.cost_text == "—"
    line.set_model("gpt-4o", "openai", "https://llm.example.com/v1")
    assert line.cost_text == "—"
    assert "custom base URL" in line.cost_label.toolTip()
