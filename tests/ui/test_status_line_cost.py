"""The status line shows the session's estimated cost for a priced model, and a dash otherwise."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import TokenUsage
from gns3_copilot_desktop.ui.status_line import StatusLine


def test_cost_of_a_priced_model_is_shown_in_dollars(qtbot: QtBot) -> None:
    line = StatusLine()
    qtbot.addWidget(line)
    line.set_model("gpt-4o")
    line.set_session_usage(TokenUsage(input_tokens=1000, output_tokens=1000))
    assert line.cost_text == "$0.0125"
    line.add_usage(TokenUsage(input_tokens=1000, output_tokens=0), None, None)
    assert line.cost_text == "$0.0150"


def test_cost_of_an_unknown_model_is_a_dash(qtbot: QtBot) -> None:
    line = StatusLine()
    qtbot.addWidget(line)
    line.set_model("llama3.1:8b")
    line.set_session_usage(TokenUsage(input_tokens=5000, output_tokens=5000))
    assert line.cost_text == "—"
    line.set_model("gpt-4o")
    assert line.cost_text.startswith("$")
    line.set_model("")
    assert line.cost_text == "—"
