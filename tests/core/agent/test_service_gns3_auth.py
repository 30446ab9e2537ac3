"""A GNS3 login the real server refuses during a turn ends the turn with the auth error kind.

The UI answers that kind by opening the login (tests/ui/test_app_e2e.py covers the dialog), so
the refusal must not be swallowed into the topology read or left to a tool card alone.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.protocol import GNS3_AUTH_ERROR_KIND
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, types_of
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.scripted_openai import (
    RecordedRequest,
    ScriptedOpenAIServer,
    ScriptedTurn,
    is_title_request,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


def _altered(token: str) -> str:
    """The token with its signature changed: the server refuses it (HTTP 401)."""
    head, _, signature = token.rpartition(".")
    return f"{head}.{signature[:-4]}{'AAAA' if signature[-4:] != 'AAAA' else 'BBBB'}"


def _model_calls(server: ScriptedOpenAIServer) -> list[RecordedRequest]:
    return [r for r in server.chat_requests() if r.turn_label != "title"]


@pytest.mark.parametrize("refused", ["altered signature", "token of a removed user"])
async def test_a_refused_token_at_the_topology_read_ends_the_turn_with_an_auth_error(
    lab: Lab,
    gns3_server: Gns3Server,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    refused: str,
) -> None:
    token = (
        _altered(lab.client.token or "")
        if refused == "altered signature"
        else gns3_server.craft_token("removed-user", expires_in_s=3600)
    )
    scripted_openai.set_title_responder("Refused")
    scripted_openai.push(ScriptedTurn.text("Never asked."))
    service = await make_service()
    session = await service.create_session()
    async with Gns3Client(lab.client.base_url, token=token) as client:
        ctx = replace(run_context(lab, scripted_openai.chat_model()), client=client)
        chunks = await collect(service.stream_chat("What is in my lab?", session.id, context=ctx))

    assert types_of(chunks)[-2:] == ["error", "done"]
    error = chunks[-2]
    assert error.error_kind == GNS3_AUTH_ERROR_KIND, error
    assert error.error and "log in again" in error.error.lower()
    assert _model_calls(scripted_openai) == []  # the model was not asked with a broken lab view
    history = (await service.get_history(session.id)).messages
    assert [m.role for m in history] == ["user"]


async def test_a_token_refused_while_a_tool_runs_ends_the_turn_with_an_auth_error(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    """The first topology read succeeds; the server then refuses the token (as after a revoke):
    the tool's call is refused for real, and the turn ends with the auth error instead of
    asking the model again."""
    async with Gns3Client(lab.client.base_url, token=lab.client.token) as client:

        def revoke_then_call_a_tool(_request: RecordedRequest) -> ScriptedTurn:
            client.token = _altered(lab.client.token or "")
            return ScriptedTurn.tool("get_topology", {})

        scripted_openai.set_title_responder("Refused midway")
        scripted_openai.add_rule(
            lambda r: not is_title_request(r) and r.messages[-1].get("role") != "tool",
            revoke_then_call_a_tool,
        )
        service = await make_service()
        session = await service.create_session()
        ctx = replace(run_context(lab, scripted_openai.chat_model()), client=client)
        chunks = await collect(service.stream_chat("Show me the lab", session.id, context=ctx))

    ends = [c for c in chunks if c.type == "tool_end"]
    assert [(c.tool_name, c.status) for c in ends] == [("get_topology", "error")]
    assert "log in again" in (ends[0].tool_output or "").lower()
    assert types_of(chunks)[-2:] == ["error", "done"]
    assert chunks[-2].error_kind == GNS3_AUTH_ERROR_KIND
    assert len(_model_calls(scripted_openai)) == 1  # not asked again with the refusal
    history = (await service.get_history(session.id)).messages
    assert [m.role for m in history] == ["user", "assistant", "tool"]
