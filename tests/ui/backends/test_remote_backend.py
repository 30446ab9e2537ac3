"""The dock's chat panel over a copilot service on "another computer": `RemoteBackend` talking
HTTP + Server-Sent Events to the real service (in this process, on loopback), which runs the
agent on the real GNS3 server with the scripted model.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.chat_service_client import ChatServiceClient
from gns3_copilot_desktop.core.errors import CopilotError, Gns3AuthError, SessionNotFoundError
from gns3_copilot_desktop.ui.backends.base import AssistantTurn, ToolRecord, UserTurn
from gns3_copilot_desktop.ui.backends.remote import RemoteBackend
from gns3_copilot_desktop.ui.cards.tool_card import ToolState
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.qt_async import pending_tasks
from tests.helpers.chat_service import InProcessChatService, scripted_llm
from tests.helpers.copilot_app import run
from tests.helpers.gns3_server import Gns3Server, craft_hs256_token
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = pytest.mark.gns3

WAIT_MS = 20_000
TITLE = "Remote conversation"


class Token:
    """The GNS3 login the dock sends; a test can swap it for a refused one."""

    def __init__(self, value: str) -> None:
        self.value = value

    def __call__(self) -> str:
        return self.value


@pytest.fixture
def chat_service(
    gns3_server: Gns3Server, scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> Iterator[InProcessChatService]:
    scripted_openai.set_title_responder(TITLE)
    llm = scripted_llm(scripted_openai.base_url, scripted_openai.client_api_key)
    service = InProcessChatService(gns3_server.base_url, tmp_path / "service", llm).start()
    try:
        yield service
    finally:
        service.stop()


@pytest.fixture
def token(gns3_token: str) -> Token:
    return Token(gns3_token)


@pytest.fixture
def backend(
    chat_service: InProcessChatService,
    token: Token,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
    qasync_loop: asyncio.AbstractEventLoop,
) -> Iterator[RemoteBackend]:
    remote = RemoteBackend(ChatServiceClient(chat_service.url, token), e2e_project["project_id"])
    yield remote
    run(qtbot, remote.aclose())


@pytest.fixture
def panel(qtbot: QtBot, backend: RemoteBackend) -> Iterator[ChatPanel]:
    """The chat panel over the remote backend. Not qtbot.addWidget: the panel's last list
    refresh (after each answer, over HTTP now) must end before the widget goes."""
    widget = ChatPanel(backend)
    widget.resize(800, 700)
    widget.show()
    qtbot.waitExposed(widget)
    run(qtbot, widget.start())
    yield widget
    qtbot.waitUntil(lambda: not pending_tasks(), timeout=WAIT_MS)
    widget.close()
    widget.deleteLater()


def _send_and_wait(panel: ChatPanel, qtbot: QtBot, text: str) -> None:
    before = panel.controller.task
    panel.send(text)
    qtbot.waitUntil(lambda: panel.controller.task is not before, timeout=WAIT_MS)
    _wait_finished(panel, qtbot)


def _wait_finished(panel: ChatPanel, qtbot: QtBot) -> None:
    qtbot.waitUntil(
        lambda: panel.controller.task is not None and panel.controller.task.done(),
        timeout=WAIT_MS,
    )


def _answers(panel: ChatPanel) -> list[str]:
    from gns3_copilot_desktop.ui.chat.messages import AssistantMessage

    panel.view.flush()
    return [w.text for w in panel.view.message_widgets() if isinstance(w, AssistantMessage)]


def _service_history(
    service: InProcessChatService, token: str, project_id: str, session_id: str
) -> list[dict[str, Any]]:
    response = httpx.get(
        f"{service.url}/v3/chat/history/{session_id}",
        params={"project_id": project_id},
        headers={"Authorization": f"Bearer {token}"},
    )
    response.raise_for_status()
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


def _node_names(server: Gns3Server, token: str, project_id: str) -> list[str]:
    response = httpx.get(
        f"{server.base_url}/v3/projects/{project_id}/nodes",
        headers={"Authorization": f"Bearer {token}"},
    )
    response.raise_for_status()
    return sorted(node["name"] for node in response.json())


def test_an_answer_streams_from_the_service_and_reopens_from_its_history(
    panel: ChatPanel,
    backend: RemoteBackend,
    chat_service: InProcessChatService,
    scripted_openai: ScriptedOpenAIServer,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    pid = e2e_project["project_id"]
    scripted_openai.push(
        ScriptedTurn.tool("get_topology", {}, id="call_topo"),
        ScriptedTurn.text("The lab is empty — 实验室是空的.", chunks=5),
    )
    contents: list[str] = []
    panel.controller.content_received.connect(contents.append)
    _send_and_wait(panel, qtbot, "What is in my lab?")
    assert len(contents) >= 2  # streamed in pieces, not one block at the end
    assert _answers(panel) == ["The lab is empty — 实验室是空的."]
    assert panel.view.card("call_topo").state == ToolState.DONE
    session_id = panel.session_id
    assert session_id is not None
    # the turn ran on the service: its transcript is there, complete
    roles = [m["role"] for m in _service_history(chat_service, gns3_token, pid, session_id)]
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert not list(tmp_path.glob("home/**/*.db"))  # nothing was kept on "this computer"
    # the sessions list comes from the service, with the title it generated
    qtbot.waitUntil(lambda: panel.title_label.text() == TITLE, timeout=WAIT_MS)
    run(qtbot, panel.sessions.refresh())
    assert [(e.session_id, e.title) for e in panel.sessions.entries] == [(session_id, TITLE)]
    # reopening the session shows its history, tool record included
    history = run(qtbot, backend.get_history(session_id))
    assert [type(item) for item in history] == [UserTurn, ToolRecord, AssistantTurn]
    record = history[1]
    assert isinstance(record, ToolRecord)
    assert (record.tool_call_id, record.tool_name, record.status) == (
        "call_topo",
        "get_topology",
        "ok",
    )
    panel.view.clear()
    run(qtbot, panel.open_session(session_id))
    assert _answers(panel) == ["The lab is empty — 实验室是空的."]
    assert len(panel.view.message_widgets()) == 2  # the question, then the answer with its tool


def test_approving_in_the_dock_runs_the_change_on_the_gns3_server(
    panel: ChatPanel,
    backend: RemoteBackend,
    scripted_openai: ScriptedOpenAIServer,
    gns3_server: Gns3Server,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
) -> None:
    from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard

    pid = e2e_project["project_id"]
    arguments = {"nodes": [{"template": "VPCS", "name": "PC-remote"}]}
    scripted_openai.push(
        ScriptedTurn.tool("create_nodes", arguments, id="call_create"),
        ScriptedTurn.text("PC-remote is on the canvas.", chunks=2),
    )
    _send_and_wait(panel, qtbot, "Add a VPCS named PC-remote")

    def pending() -> list[ApprovalCard]:
        return [c for c in panel.view.findChildren(ApprovalCard) if not c.done]

    qtbot.waitUntil(lambda: len(pending()) == 1, timeout=WAIT_MS)
    card = pending()[0]
    assert card.items[0].request.tool_name == "create_nodes"
    assert _node_names(gns3_server, gns3_token, pid) == []  # nothing runs before approval
    session_id = panel.session_id
    assert session_id is not None
    waiting = run(qtbot, backend.pending_approvals(session_id))
    assert [r.tool_call_id for r in waiting] == ["call_create"]

    # edits cannot be checked on the service: the card goes back to the proposal and says so
    item = card.items[0]
    item.edit_button.click()
    [field] = [f.widget for f in item.fields if f.name == "nodes"]
    assert isinstance(field, QLineEdit)
    field.setText('[{"template": "VPCS", "name": "PC-edited"}]')
    assert not item.approve.isEnabled()
    qtbot.waitUntil(lambda: "another computer" in item.edit_status.text(), timeout=WAIT_MS)
    assert "PC-remote" in field.text() and not field.isEnabled()
    assert item.approve.isEnabled() and not item.edit_button.isVisible()

    item.approve.click()
    qtbot.waitUntil(lambda: "PC-remote is on the canvas." in _answers(panel), timeout=WAIT_MS)
    _wait_finished(panel, qtbot)
    assert _node_names(gns3_server, gns3_token, pid) == ["PC-remote"]
    assert panel.view.card("call_create").state == ToolState.DONE
    assert run(qtbot, backend.pending_approvals(session_id)) == []


def test_sessions_are_listed_renamed_pinned_searched_exported_and_deleted(
    panel: ChatPanel,
    backend: RemoteBackend,
    scripted_openai: ScriptedOpenAIServer,
    qtbot: QtBot,
) -> None:
    scripted_openai.push(ScriptedTurn.text("OSPF areas group routers.", chunks=2))
    _send_and_wait(panel, qtbot, "Explain OSPF areas")
    first = panel.session_id
    assert first is not None
    second = run(qtbot, backend.create_session())
    run(qtbot, backend.rename_session(first, "Routing notes"))
    run(qtbot, backend.set_pinned(second.session_id, True))
    listed = run(qtbot, backend.list_sessions())
    assert [(e.session_id, e.pinned) for e in listed] == [
        (second.session_id, True),
        (first, False),
    ]
    assert listed[1].title == "Routing notes"

    hits = run(qtbot, backend.search_sessions("areas"))
    assert [h.session_id for h in hits] == [first]
    assert hits[0].snippet is not None and "areas" in hits[0].snippet.lower()
    assert "«" not in hits[0].snippet  # plain text, as the in-process backend gives it

    markdown = run(qtbot, backend.export_session(first, "markdown"))
    assert markdown.startswith("# Routing notes")
    assert "Explain OSPF areas" in markdown and "OSPF areas group routers." in markdown
    exported = json.loads(run(qtbot, backend.export_session(first, "json")))
    assert [m["role"] for m in exported["messages"]] == ["user", "assistant"]

    run(qtbot, backend.delete_session(first))
    assert [e.session_id for e in run(qtbot, backend.list_sessions())] == [second.session_id]
    with pytest.raises(SessionNotFoundError):
        run(qtbot, backend.get_history(first))

    # The mode chosen on New reaches the service; exercises need the local agent.
    tutor = run(qtbot, backend.create_session("tutor"))
    assert tutor.mode == "tutor" and second.mode == "assistant"
    assert [
        e.mode for e in run(qtbot, backend.list_sessions()) if e.session_id == tutor.session_id
    ] == ["tutor"]
    assert run(qtbot, backend.practice()) is None


def test_stop_cancels_the_turn_on_the_service_and_the_session_goes_on(
    panel: ChatPanel,
    chat_service: InProcessChatService,
    scripted_openai: ScriptedOpenAIServer,
    gns3_token: str,
    e2e_project: dict[str, Any],
    qtbot: QtBot,
) -> None:
    scripted_openai.push(ScriptedTurn.stalled("Let me think about", chunks=2))
    disconnects = scripted_openai.disconnects
    finished: list[str] = []
    panel.controller.finished.connect(finished.append)
    panel.send("Plan an OSPF lab")
    qtbot.waitUntil(lambda: scripted_openai.stalled_count == 1, timeout=WAIT_MS)
    panel.stop()
    _wait_finished(panel, qtbot)
    assert finished == ["stopped"]
    # right away, the same session takes the next message (no "a turn is already running")
    errors: list[str] = []
    panel.controller.error_occurred.connect(lambda text, _kind: errors.append(text))
    scripted_openai.push(ScriptedTurn.text("Here is a plan with two areas.", chunks=2))
    _send_and_wait(panel, qtbot, "Go on")
    assert errors == []
    assert finished[-1] == "done"
    # the service stopped the first turn: it closed its stream to the model
    assert scripted_openai.disconnects > disconnects
    assert _answers(panel)[-1] == "Here is a plan with two areas."
    session_id = panel.session_id
    assert session_id is not None
    messages = _service_history(chat_service, gns3_token, e2e_project["project_id"], session_id)
    users = [m["content"] for m in messages if m["role"] == "user"]
    assert users == ["Plan an OSPF lab", "Go on"]
    assert messages[-1]["role"] == "assistant"
    assert messages[-1]["content"] == "Here is a plan with two areas."


def test_a_refused_gns3_login_is_the_auth_error_the_dock_knows(
    panel: ChatPanel,
    backend: RemoteBackend,
    token: Token,
    scripted_openai: ScriptedOpenAIServer,
    qtbot: QtBot,
) -> None:
    scripted_openai.push(ScriptedTurn.text("Hello.", chunks=1))
    _send_and_wait(panel, qtbot, "hi")
    # the login is refused from now on (signed with another key, so GNS3 says 401)
    token.value = craft_hs256_token("not-the-servers-secret", "admin", time.time() + 3600)
    errors: list[tuple[str, str]] = []
    panel.controller.error_occurred.connect(lambda text, kind: errors.append((text, kind)))
    list_errors: list[str] = []
    panel.sessions.refresh_failed.connect(lambda _text, kind: list_errors.append(kind))
    shown = [e.session_id for e in panel.sessions.entries]
    assert shown == [panel.session_id]
    requests = len(scripted_openai.chat_requests())
    _send_and_wait(panel, qtbot, "hi again")
    assert [kind for _, kind in errors] == [Gns3AuthError.__name__]
    assert "GNS3" in errors[0][0]
    assert len(scripted_openai.chat_requests()) == requests  # the model was never asked
    # the list refresh after the answer is refused too: said so, the list is kept
    qtbot.waitUntil(lambda: list_errors == [Gns3AuthError.__name__], timeout=WAIT_MS)
    assert [e.session_id for e in panel.sessions.entries] == shown
    with pytest.raises(Gns3AuthError):
        run(qtbot, backend.list_sessions())


def test_a_copilot_service_says_it_does_not_import_or_continue_conversations(
    panel: ChatPanel, backend: RemoteBackend, tmp_path: Path, qtbot: QtBot
) -> None:
    export = tmp_path / "talk.md"
    export.write_text("# Talk\n\n## User\n\nhello\n")
    refused: list[str] = []
    panel.sessions.refresh_failed.connect(lambda message, _kind: refused.append(message))
    before = run(qtbot, backend.list_sessions())
    assert run(qtbot, panel.sessions.import_path(export)) is None
    assert len(refused) == 1 and "does not support importing" in refused[0]
    with pytest.raises(CopilotError, match="does not support importing or continuing"):
        run(qtbot, backend.continue_imported("any"))
    assert run(qtbot, backend.imported_read_only("any")) is False
    assert run(qtbot, backend.list_sessions()) == before
