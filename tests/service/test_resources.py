"""What the service keeps for how long: projects nobody uses are closed (their database and its
thread), a running turn keeps its project, and temperatures asked for do not pile up models. The
service runs in this process on the real GNS3 server with the scripted model."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gns3_copilot_desktop.core.agent.model_factory import create_base_model
from gns3_copilot_desktop.service.chat_service import ChatService, ServiceConfig
from tests.helpers.chat_service import InProcessChatService, scripted_llm
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = pytest.mark.gns3

IDLE_S = 0.5
WAIT_S = 20.0


def _wait(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def _db_threads() -> int:
    return sum("_connection_worker_thread" in t.name for t in threading.enumerate())


@pytest.fixture
def chat_service(
    gns3_server: Gns3Server, scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> Iterator[InProcessChatService]:
    scripted_openai.set_title_responder("Idle")
    llm = scripted_llm(scripted_openai.base_url, scripted_openai.client_api_key)
    service = InProcessChatService(
        gns3_server.base_url, tmp_path / "service", llm, idle_close_s=IDLE_S
    ).start()
    try:
        yield service
    finally:
        service.stop()


def _open_projects(service: InProcessChatService) -> list[str]:
    chat: ChatService = service.app.state.chat
    return chat._manager.project_ids


def test_an_unused_project_is_closed_and_opens_again(
    chat_service: InProcessChatService,
    scripted_openai: ScriptedOpenAIServer,
    gns3_token: str,
    e2e_project: dict[str, Any],
) -> None:
    pid = e2e_project["project_id"]
    headers = {"Authorization": f"Bearer {gns3_token}"}
    threads_before = _db_threads()
    made = httpx.post(
        f"{chat_service.url}/v3/chat/sessions", json={"project_id": pid}, headers=headers
    )
    assert made.status_code == 201
    sid = made.json()["id"]
    assert _open_projects(chat_service) == [pid]
    _wait(lambda: _open_projects(chat_service) == [], "the idle project to be closed")
    _wait(lambda: _db_threads() == threads_before, "its database thread to end")

    # a turn that runs longer than the idle time keeps its project open
    scripted_openai.push(ScriptedTurn.stalled("Thinking", chunks=3, stall_after_chunks=3))
    with httpx.stream(
        "POST",
        f"{chat_service.url}/v3/chat/stream",
        json={"message": "long", "project_id": pid, "session_id": sid},
        headers=headers,
        timeout=WAIT_S,
    ) as response:
        lines = response.iter_lines()
        next(line for line in lines if '"type":"content"' in line)
        stalled_at = time.monotonic()
        _wait(lambda: time.monotonic() - stalled_at > 4 * IDLE_S, "four idle times")
        assert _open_projects(chat_service) == [pid]
        scripted_openai.release_stall()
        assert any('"type":"done"' in line for line in lines)
    history = httpx.get(
        f"{chat_service.url}/v3/chat/history/{sid}", params={"project_id": pid}, headers=headers
    )
    assert history.status_code == 200
    assert [m["content"] for m in history.json()["messages"]] == ["long", "Thinking"]
    _wait(lambda: _open_projects(chat_service) == [], "the project to be closed after the turn")


def test_a_requests_temperature_reaches_the_model_without_keeping_a_model(
    chat_service: InProcessChatService,
    scripted_openai: ScriptedOpenAIServer,
    gns3_token: str,
    e2e_project: dict[str, Any],
    tmp_path: Path,
) -> None:
    pid = e2e_project["project_id"]
    headers = {"Authorization": f"Bearer {gns3_token}"}
    scripted_openai.push(ScriptedTurn.text("Warm."))
    response = httpx.post(
        f"{chat_service.url}/v3/chat/stream",
        json={"message": "hi", "project_id": pid, "temperature": 0.73, "stream": False},
        headers=headers,
        timeout=WAIT_S,
    )
    assert response.status_code == 200, response.text
    chats = [r for r in scripted_openai.chat_requests() if r.body.get("tools")]
    assert chats[-1].body["temperature"] == 0.73

    llm = scripted_llm(scripted_openai.base_url, scripted_openai.client_api_key)
    built: list[Any] = []

    def factory(config: Any) -> Any:
        built.append(config)
        return create_base_model(config)

    chat = ChatService(ServiceConfig("http://127.0.0.1:1", tmp_path, llm, model_factory=factory))
    models = [chat.model(t / 60) for t in range(120)]
    assert len(built) == 1
    assert [m.temperature for m in models] == [t / 60 for t in range(120)]  # type: ignore[attr-defined]
    assert len({id(m.root_async_client) for m in models}) == 1  # type: ignore[attr-defined]
