"""Bounding the conversation never splits a tool call from its result."""

from __future__ import annotations

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from gns3_copilot_desktop.core.agent.context import AgentLimits
from gns3_copilot_desktop.core.agent.history import (
    bound_for_model,
    dangling_tool_calls,
    message_tokens,
    split_turns,
    working_state_trim,
)


def _turn(n: int, size: int = 400) -> list[AnyMessage]:
    call = {"name": "get_topology", "args": {}, "id": f"c{n}", "type": "tool_call"}
    return [
        HumanMessage(f"question {n}", id=f"h{n}"),
        AIMessage("", tool_calls=[call], id=f"a{n}"),
        ToolMessage("t" * size, tool_call_id=f"c{n}", id=f"t{n}"),
        AIMessage(f"answer {n}", id=f"b{n}"),
    ]


def _no_orphans(messages: list[AnyMessage]) -> bool:
    calls = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
    results = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    return calls == results


def test_turns_start_at_user_messages() -> None:
    messages = [m for n in range(3) for m in _turn(n)]
    assert [len(t) for t in split_turns(messages)] == [4, 4, 4]


def test_bound_for_model_drops_whole_old_turns() -> None:
    messages = [m for n in range(10) for m in _turn(n)]
    budget = message_tokens(_turn(0)) * 3 + 5
    kept, dropped = bound_for_model(messages, budget)
    assert [m.id for m in kept if isinstance(m, HumanMessage)] == ["h7", "h8", "h9"]
    assert dropped == 28 and message_tokens(kept) <= budget and _no_orphans(kept)


def test_a_huge_last_turn_keeps_the_question_and_whole_steps() -> None:
    turn = _turn(0, size=40_000)
    turn += [
        AIMessage(
            "", tool_calls=[{"name": "x", "args": {}, "id": "c9", "type": "tool_call"}], id="a9"
        ),
        ToolMessage("small", tool_call_id="c9", id="t9"),
        AIMessage("final", id="f9"),
    ]
    kept, dropped = bound_for_model(turn, 1_000)
    # The question stays; the huge step (a0 + t0) goes as a whole; later steps fit.
    assert [m.id for m in kept] == ["h0", "b0", "a9", "t9", "f9"] and dropped == 2
    assert _no_orphans(kept)


def _limits(**kw: int) -> AgentLimits:
    base = {"working_context_tokens": 10**9, "max_working_messages": 10**6, "full_turns": 100}
    return AgentLimits(**{**base, **kw})


def test_working_state_trim_respects_both_bounds_and_keeps_the_last_turn() -> None:
    messages = [m for n in range(10) for m in _turn(n)]
    drop = working_state_trim(messages, _limits(max_working_messages=8))
    assert [m.id for m in drop if isinstance(m, HumanMessage)] == [f"h{n}" for n in range(8)]
    drop = working_state_trim(messages, _limits(working_context_tokens=1))
    assert len(drop) == 36  # everything but the newest turn


def test_old_turns_lose_their_tool_steps_but_keep_question_and_answer() -> None:
    messages = [m for n in range(6) for m in _turn(n)]
    del messages[3]  # turn 0 ends without an answer (cancelled after its tool)
    drop = working_state_trim(messages, _limits(full_turns=2))
    left = [m for m in messages if m not in drop]
    assert [m.id for m in left[:8]] == ["h0", "h1", "b1", "h2", "b2", "h3", "b3", "h4"]
    assert left[8:] == [*_turn(4)[1:], *_turn(5)]
    assert _no_orphans(left) and dangling_tool_calls(left) == []


def test_dangling_tool_calls_lists_unanswered_ones() -> None:
    messages = _turn(0)[:2]
    assert dangling_tool_calls(messages) == [("c0", "get_topology")]
    assert dangling_tool_calls(_turn(1)) == []
