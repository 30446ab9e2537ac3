"""Provider errors, cut-off streams, unknown tools and bad arguments: the session goes on."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.history import CUT_OFF_NOTE
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, text_of, types_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


@pytest.mark.parametrize(
    ("turn", "kind", "partial"),
    [
        (ScriptedTurn.rate_limited(), "rate_limit", ""),
        (ScriptedTurn.server_error(), "provider", ""),
        (ScriptedTurn.invalid_api_key(), "auth", ""),
        (ScriptedTurn.malformed("Half an ans", chunks=1), "malformed", "Half an ans"),
        (ScriptedTurn.cut_off("The answer was", chunks=2), "cut_off", "The answer was"),
        (ScriptedTurn.cut_off("Clean but", chunks=2, clean=True), "cut_off", "Clean but"),
    ],
    ids=["429", "500", "401", "malformed", "cut-off", "cut-off-clean"],
)
async def test_provider_error_is_one_error_then_done_and_keeps_the_message(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    turn: ScriptedTurn,
    kind: str,
    partial: str,
) -> None:
    scripted_openai.set_title_responder("Failing turn")
    scripted_openai.push(turn)
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("Hello there", session.id, context=ctx))

    assert types_of(chunks)[-2:] == ["error", "done"]
    assert types_of(chunks).count("error") == 1
    error = chunks[-2]
    assert error.error_kind == kind, error.error
    assert error.error and len(error.error) > 20
    assert text_of(chunks) == partial
    history = (await service.get_history(session.id)).messages
    assert history[0].role == "user" and history[0].content == "Hello there"
    if partial:
        assert history[1].role == "assistant" and history[1].content == partial
        assert history[1].metadata["incomplete"] == kind
        assert len(history) == 2
    else:
        assert len(history) == 1
    info = await service.store.get_session(session.id)
    assert info.message_count == len(history)  # stats updated for a failed first turn too
    assert info.title == "Failing turn"

    # The session goes on: the next turn sees the kept message(s) and answers.
    scripted_openai.push(ScriptedTurn.text("Second try works."))
    again = await collect(service.stream_chat("Try again", session.id, context=ctx))
    assert types_of(again)[-1] == "done" and "error" not in types_of(again)
    request = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    users = [m["content"] for m in request.messages if m["role"] == "user"]
    assert users == ["Hello there", "Try again"]
    kept = [m["content"] for m in request.messages if m["role"] == "assistant"]
    # The model is told the kept answer ended early; the stored answer stays as shown.
    assert kept == ([f"{partial}\n\n{CUT_OFF_NOTE}"] if partial else [])
    if partial:
        reopened = (await service.get_history(session.id)).messages
        assert reopened[1].content == partial
        assert reopened[1].metadata["incomplete"] == kind


async def test_model_timeout_is_an_error_chunk(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.stalled("Never", stall_after_chunks=0))
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model(timeout=0.5))

    chunks = await collect(service.stream_chat("Hello", session.id, context=ctx))

    assert types_of(chunks)[-2:] == ["error", "done"] and chunks[-2].error_kind == "timeout"
    assert [m.role for m in (await service.get_history(session.id)).messages] == ["user"]


async def test_unknown_tool_and_invalid_arguments_answer_the_model(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(
            ScriptedToolCall("delete_everything", {}, id="call_unknown"),
            ScriptedToolCall("list_templates", {"name_contains": 42, "x": 1}, id="call_bad"),
            ScriptedToolCall("list_templates", '{"name_contains": vpcs}', id="call_json"),
        ),
        ScriptedTurn.text("Sorry, fixed."),
    )
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("Go", session.id, context=ctx))

    assert types_of(chunks)[-1] == "done" and "error" not in types_of(chunks)
    ends = {c.tool_call_id: c for c in chunks if c.type == "tool_end"}
    assert set(ends) == {"call_unknown", "call_bad", "call_json"}
    assert all(e.status == "error" for e in ends.values())
    assert "no tool named 'delete_everything'" in (ends["call_unknown"].tool_output or "")
    assert "name_contains" in (ends["call_bad"].tool_output or "")
    assert "not valid JSON" in (ends["call_json"].tool_output or "")
    follow_up = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    answered = [m["tool_call_id"] for m in follow_up.messages if m["role"] == "tool"]
    assert sorted(answered) == ["call_bad", "call_json", "call_unknown"]

    scripted_openai.push(ScriptedTurn.text("Still fine."))
    again = await collect(service.stream_chat("And now?", session.id, context=ctx))
    assert text_of(again) == "Still fine." and "error" not in types_of(again)


async def test_step_limit_asks_for_a_final_answer_without_tools(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(
        *(ScriptedTurn.tool("list_projects", {}) for _ in range(3)),
        ScriptedTurn.text("Here is what I found so far."),
    )
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model(), max_steps=8, final_answer_steps=2)

    chunks = await collect(service.stream_chat("Loop forever", session.id, context=ctx))

    assert types_of(chunks)[-1] == "done" and "error" not in types_of(chunks)
    assert text_of(chunks) == "Here is what I found so far."
    chat = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"]
    assert chat[-1].tool_names == [] and all(r.tool_names for r in chat[:-1])
    assert "Do not call any tool" in chat[-1].system_prompt
