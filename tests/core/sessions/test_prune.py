"""prune_checkpoints: storage stays bounded and a paused (interrupted) graph still resumes."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langgraph.types import Command

from gns3_copilot_desktop.core.sessions import SessionStore

from .support import build_turn_graph, count_rows, run_turn

pytestmark = pytest.mark.asyncio


async def test_prune_keeps_only_the_latest_checkpoint_and_its_writes(store: SessionStore) -> None:
    graph = build_turn_graph(store)
    sid = (await store.create_session()).id
    other = (await store.create_session()).id
    await run_turn(graph, other, "untouched")
    other_before = await count_rows(store, "checkpoints", other)

    for turn in range(5):
        await run_turn(graph, sid, f"turn {turn}")
        assert await count_rows(store, "checkpoints", sid) > 1
        deleted = await store.prune_checkpoints(sid)
        assert deleted > 0
        assert await count_rows(store, "checkpoints", sid) == 1

    config = {"configurable": {"thread_id": sid}}
    state = await graph.aget_state(config)
    assert [m.content for m in state.values["messages"]][-1].startswith("The topology")
    assert len(state.values["messages"]) == 12  # the bounded window survived pruning
    latest = await store.checkpointer.aget_tuple(config)
    assert latest is not None
    rows = await store.checkpointer.conn.execute_fetchall(
        "SELECT DISTINCT checkpoint_id FROM writes WHERE thread_id = ?", (sid,)
    )
    assert {r[0] for r in rows} <= {latest.config["configurable"]["checkpoint_id"]}
    assert await count_rows(store, "checkpoints", other) == other_before
    assert await store.prune_checkpoints(sid) == 0  # idempotent


async def test_prune_keep_latest_n(store: SessionStore) -> None:
    graph = build_turn_graph(store)
    sid = (await store.create_session()).id
    await run_turn(graph, sid, "one")
    await run_turn(graph, sid, "two")
    await store.prune_checkpoints(sid, keep_latest=3)
    assert await count_rows(store, "checkpoints", sid) == 3
    with pytest.raises(ValueError):
        await store.prune_checkpoints(sid, keep_latest=0)


async def test_interrupted_graph_resumes_after_prune(store: SessionStore) -> None:
    graph = build_turn_graph(store, ask_approval=True)
    sid = (await store.create_session()).id
    config: Any = {"configurable": {"thread_id": sid}}

    await run_turn(graph, sid, "first")
    await graph.ainvoke(Command(resume="approved-1"), config)
    await run_turn(graph, sid, "second")  # pauses in the tool node
    await store.prune_checkpoints(sid)

    paused = await graph.aget_state(config)
    assert paused.next == ("tools",)
    assert [i.value for i in paused.interrupts] == [{"tool": "get_topology"}]
    result = await graph.ainvoke(Command(resume="approved-2"), config)
    tool_messages = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert tool_messages[-1].content.endswith("second decision=approved-2")
    assert (await graph.aget_state(config)).next == ()
    await store.prune_checkpoints(sid)
    assert await count_rows(store, "checkpoints", sid) == 1


async def test_pruned_thread_size_stays_bounded(store: SessionStore) -> None:
    graph = build_turn_graph(store)
    sid = (await store.create_session()).id
    sizes = []
    for turn in range(40):
        await run_turn(graph, sid, f"turn {turn}")
        await store.prune_checkpoints(sid)
        if turn in (9, 39):
            rows = await store.checkpointer.conn.execute_fetchall(
                "SELECT sum(length(checkpoint)) FROM checkpoints WHERE thread_id = ?", (sid,)
            )
            sizes.append(next(iter(rows))[0])
    # the window is full after 3 turns: the checkpoint no longer grows with the conversation
    assert sizes[1] <= sizes[0] * 1.2
