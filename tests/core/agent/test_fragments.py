"""A tool call written as text is never shown as the answer."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.fragments import (
    FragmentGuard,
    fragment_name,
    readable_answer,
)
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, text_of, types_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn


def test_text_that_may_be_a_fragment_is_held_until_it_is_not() -> None:
    guard = FragmentGuard()
    assert guard.feed("m1", " fun") == ""  # could still become "functions."
    assert guard.feed("m1", " fact: OSPF") == " fun fact: OSPF"  # released whole, in order
    assert guard.feed("m1", " is a link-state protocol") == " is a link-state protocol"
    assert guard.finish("m1") is None
    assert guard.feed("m2", "functions.get_") == "" and guard.feed("m2", "topology:{}") == ""
    assert guard.finish("m2") == "functions.get_topology:{}"
    assert guard.feed("m3", "First, start R1.") == "First, start R1."


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("functions.get_topology:{}", "functions.get_topology"),
        ('  functions.start_nodes {"all": true}', "functions.start_nodes"),
        ("<|python_tag|>functions.list_projects", "functions.list_projects"),
        ("The functions.py file", None),
        ("R1 is up.", None),
    ],
)
def test_fragments_are_recognised(text: str, name: str | None) -> None:
    assert fragment_name(text) == name
    assert (readable_answer(text) != text) is (name is not None)


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_a_fragment_answer_is_replaced_by_a_sentence_and_never_streamed(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.text('functions.get_topology:{"x": 1}', chunks=4))
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    chunks = await collect(service.stream_chat("What is in my lab?", session.id, context=ctx))

    assert types_of(chunks)[-1] == "done"
    shown = text_of(chunks)
    assert "functions.get_topology:" not in shown
    assert "wrote a tool call as text (functions.get_topology)" in shown
    history = await service.get_history(session.id)
    assert "functions.get_topology:" not in history.messages[-1].content
