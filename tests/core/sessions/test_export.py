"""Exporting a session with a tool call as Markdown and as JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from gns3_copilot_desktop.core.protocol import FunctionCall, ToolCall
from gns3_copilot_desktop.core.sessions.export import export_json, export_markdown
from gns3_copilot_desktop.core.sessions.models import SessionInfo, TranscriptMessage

WHEN = datetime(2026, 3, 4, 5, 6, tzinfo=UTC)


def _session() -> tuple[SessionInfo, list[TranscriptMessage]]:
    info = SessionInfo(id="s1", title="Start R1", created_at=WHEN, updated_at=WHEN)
    call = ToolCall(id="c1", function=FunctionCall(name="start_node", arguments='{"node": "R1"}'))
    messages = [
        TranscriptMessage(role="user", content="Start R1 please", seq=1),
        TranscriptMessage(role="assistant", content="Starting it.", tool_calls=[call], seq=2),
        TranscriptMessage(
            role="tool", name="start_node", tool_call_id="c1", content="R1 ```started```", seq=3
        ),
        TranscriptMessage(role="assistant", content="R1 is running.", seq=4),
    ]
    return info, messages


def test_markdown_has_title_date_roles_tool_call_and_result() -> None:
    info, messages = _session()
    md = export_markdown(info, messages)
    assert md.startswith("# Start R1\n\n*2026-03-04 05:06 UTC*\n")
    assert "## User\n\nStart R1 please" in md
    assert "Tool call `start_node`:\n\n```json\n" in md
    start = md.index("```json\n") + len("```json\n")
    block = md[start : md.index("\n```", start)]
    assert json.loads(block) == {"tool": "start_node", "arguments": {"node": "R1"}}
    # The result holds backticks, so its fence is longer than any run inside it.
    assert "## Tool result (start_node)\n\n````\nR1 ```started```\n````" in md
    assert md.index("Start R1 please") < md.index("Starting it.") < md.index("R1 is running.")


def test_json_has_info_and_openai_shaped_messages() -> None:
    info, messages = _session()
    data = json.loads(export_json(info, messages))
    assert data["session"]["id"] == "s1"
    assert data["session"]["title"] == "Start R1"
    assert [m["role"] for m in data["messages"]] == ["user", "assistant", "tool", "assistant"]
    call = data["messages"][1]["tool_calls"][0]
    assert call == {
        "id": "c1",
        "type": "function",
        "function": {"name": "start_node", "arguments": '{"node": "R1"}'},
    }
    assert data["messages"][2]["tool_call_id"] == "c1"
