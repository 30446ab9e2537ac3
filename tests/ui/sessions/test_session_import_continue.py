"""An imported conversation in the app: read-only behind a banner until the user continues it;
then the model gets the transcript as one quoted plain-text message, never as calls, and
nothing the export holds reaches the GNS3 server."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtCore import Qt
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import FunctionCall, ToolCall
from gns3_copilot_desktop.core.sessions.export import export_json
from gns3_copilot_desktop.core.sessions.models import SessionInfo, TranscriptMessage
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login, run
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn, is_title_request

WAIT_MS = 15_000


def _export_with_calls(node_id: str) -> str:
    """An export whose conversation deleted a node of the project (by its real id)."""
    call = ToolCall(
        id="call_delete",
        function=FunctionCall(name="delete_nodes", arguments=json.dumps({"node_ids": [node_id]})),
    )
    messages = [
        TranscriptMessage(role="user", content="Delete PC1"),
        TranscriptMessage(role="assistant", content="Deleting PC1.", tool_calls=[call]),
        TranscriptMessage(
            role="tool", name="delete_nodes", tool_call_id="call_delete", content="deleted PC1"
        ),
        TranscriptMessage(role="assistant", content="PC1 is gone."),
    ]
    now = datetime.now(UTC)
    info = SessionInfo(id="elsewhere", title="Cleanup", created_at=now, updated_at=now)
    return export_json(info, messages)


def _type_and_wait(panel: Any, qtbot: QtBot, text: str) -> None:
    """Type a message, press Enter and wait until its turn has ended."""
    before = panel.controller.task
    edit = panel.composer.edit
    edit.setFocus()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.controller.task is not before, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.controller.task.done(), timeout=WAIT_MS)


@pytest.mark.gns3
def test_an_imported_conversation_is_continued_as_quoted_text_and_runs_nothing(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    project_id = e2e_project["project_id"]
    api = f"{gns3_server.base_url}/v3/projects/{project_id}"
    headers = {"Authorization": f"Bearer {gns3_token}"}
    body = {"name": "PC1", "node_type": "vpcs", "compute_id": "local", "x": 0, "y": 0}
    created = httpx.post(f"{api}/nodes", json=body, headers=headers)
    created.raise_for_status()
    node_id = created.json()["node_id"]
    export = tmp_path / "cleanup.json"
    export.write_text(_export_with_calls(node_id))

    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, project_id, qtbot)
    # every request the app's GNS3 client sends from now on
    sent: list[tuple[str, str]] = []

    async def seen(request: httpx.Request) -> None:
        sent.append((request.method, request.url.path))

    app.handle.workspace.client._http.event_hooks["request"].append(seen)
    panel = app.panel

    session_id = run(qtbot, panel.sessions.import_path(export))
    assert session_id is not None
    qtbot.waitUntil(lambda: panel.session_id == session_id, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not panel.import_banner.isHidden(), timeout=WAIT_MS)
    assert panel.import_label.text() == "Imported conversation — read only"
    assert panel.continue_button.text() == "Continue this conversation"
    assert panel.view.findChildren(ToolCard) == []  # plain text: no call card, no Undo
    chat_before = len(scripted_openai.chat_requests())

    # read-only until continued: a message is refused, the model is not asked
    errors: list[str] = []
    panel.controller.error_occurred.connect(lambda message, _kind: errors.append(message))
    _type_and_wait(panel, qtbot, "Run it again")
    assert len(errors) == 1 and "read-only transcript" in errors[0]
    assert len(scripted_openai.chat_requests()) == chat_before

    qtbot.mouseClick(panel.continue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(panel.import_banner.isHidden, timeout=WAIT_MS)

    scripted_openai.push(ScriptedTurn.text("Shall we add PC1 back?"))
    _type_and_wait(panel, qtbot, "What did we do last time?")
    assert "Shall we add PC1 back?" in app.assistant_texts()

    [request] = [
        r for r in scripted_openai.chat_requests()[chat_before:] if not is_title_request(r)
    ]
    messages = request.messages
    assert not any(m.get("tool_calls") for m in messages)
    assert not any(m.get("role") == "tool" for m in messages)
    quoted = [m for m in messages if "<imported-transcript>" in json.dumps(m.get("content"))]
    assert len(quoted) == 1 and quoted[0]["role"] == "user"
    text = quoted[0]["content"]
    assert isinstance(text, str)  # one plain-text message
    for line in ("Delete PC1", "PC1 is gone.", "deleted PC1"):
        assert line in text
    assert request.last_user_text == "What did we do last time?"

    # nothing of the export reached the GNS3 server: PC1 is there, no change was requested
    nodes = httpx.get(f"{api}/nodes", headers=headers).json()
    assert [n["node_id"] for n in nodes] == [node_id]
    assert [s for s in sent if s[0] != "GET"] == []
