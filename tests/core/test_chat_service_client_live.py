"""`ChatServiceClient` against the real service (in this process, on loopback) on the real GNS3
server, with the scripted model: what the model says arrives whole, whatever characters it holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gns3_copilot_desktop.core.chat_service_client import ChatServiceClient
from tests.helpers.chat_service import InProcessChatService, scripted_llm
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = pytest.mark.gns3

ANSWER = "line\u2028separator, next\u0085line, paragraph\u2029end; \x1cfs \x1dgs \x1ers \x0bvt"


@pytest.fixture
def chat_service(
    gns3_server: Gns3Server, scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> Iterator[InProcessChatService]:
    scripted_openai.set_title_responder("Unicode breaks")
    llm = scripted_llm(scripted_openai.base_url, scripted_openai.client_api_key)
    service = InProcessChatService(gns3_server.base_url, tmp_path / "service", llm).start()
    try:
        yield service
    finally:
        service.stop()


@pytest.mark.asyncio
async def test_unicode_line_breaks_from_the_model_reach_the_dock_whole(
    chat_service: InProcessChatService,
    scripted_openai: ScriptedOpenAIServer,
    gns3_token: str,
    e2e_project: dict[str, Any],
) -> None:
    scripted_openai.push(ScriptedTurn.text(ANSWER, chunks=4))
    client = ChatServiceClient(chat_service.url, lambda: gns3_token)
    try:
        pid = e2e_project["project_id"]
        session = await client.create_session(pid)
        chunks = [c async for c in client.stream_chat(pid, session.id, "Say it \u2028 all")]
        history = await client.history(pid, session.id)
    finally:
        await client.aclose()
    assert not [c for c in chunks if c.type == "error"], chunks
    assert chunks[-1].type == "done"
    assert "".join(c.content or "" for c in chunks if c.type == "content") == ANSWER
    assert [m.content for m in history] == ["Say it \u2028 all", ANSWER]
