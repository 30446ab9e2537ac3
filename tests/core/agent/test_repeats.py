"""Identical calls repeated within a turn are counted (a looping model is then told to stop)."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from gns3_copilot_desktop.core.agent.repeats import MAX_REPEATS, earlier_identical_calls


def _call(i: int, args: dict[str, object]) -> list[AIMessage | ToolMessage]:
    return [
        AIMessage("", tool_calls=[{"name": "get_node_details", "args": args, "id": f"c{i}"}]),
        ToolMessage("PC1 is stopped", tool_call_id=f"c{i}"),
    ]


def test_only_identical_calls_of_this_turn_count() -> None:
    same = {"nodes": ["PC1"], "verbose": True}
    reordered = {"verbose": True, "nodes": ["PC1"]}
    history = [
        HumanMessage("earlier question"),
        *_call(0, same),  # an earlier turn: not counted
        HumanMessage("is PC1 up?"),
        *_call(1, same),
        *_call(2, {"nodes": ["PC2"], "verbose": True}),  # other arguments
        *_call(3, reordered),  # the same arguments in another order
    ]
    assert earlier_identical_calls(history, "get_node_details", same, "c9") == 2
    assert earlier_identical_calls(history, "get_node_details", same, "c3") == 1
    assert earlier_identical_calls(history, "get_topology", {}, "c9") == 0
    assert MAX_REPEATS == 3
