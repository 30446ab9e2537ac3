"""prune_checkpoints: storage stays bounded and a paused (interrupted) graph still resumes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from langchain_core.messages import ToolMessage
from langgraph.types import Command

from gns3_copilot_desktop.core.sessions import SessionStore
from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore

from .support import build_turn_graph, count_rows, pg_scalar, run_turn, sqlite_or_pg_store

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[SessionStore | PostgresSessionStore]:
    """Pruning on both stores (LangGraph's two savers keep their rows differently)."""
    opened = await sqlite_or_pg_store(request, tmp_path)
    try:
        yield opened
    finally:
        await opened.close()


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
    kept_id = latest.config["configurable"]["checkpoint_id"]
    if isinstance(store, PostgresSessionStore):
        older = await pg_scalar(
            store,
            "SELECT count(*) FROM checkpoint_writes WHERE thread_id = %s AND checkpoint_id <> %s",
            sid,
            kept_id,
        )
        assert older == 0
        # every blob left is named by the kept checkpoint: nothing else grows
        blobs = await count_rows(store, "checkpoint_blobs", sid)
        assert blobs <= len(latest.checkpoint["channel_versions"])
    else:
        rows = await store.checkpointer.conn.execute_fetchall(
            "SELECT DISTINCT checkpoint_id FROM writes WHERE thread_id = ?", (sid,)
        )
        assert {r[0] for r in rows} <= {kept_id}
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
        if turn in (9, 39) and isinstance(store, PostgresSessionStore):
            sizes.append(
                await pg_scalar(
                    store,
                    "SELECT (SELECT coalesce(sum(pg_column_size(checkpoint)), 0) FROM checkpoints"
                    " WHERE thread_id = %s) + (SELECT coalesce(sum(length(blob)), 0)"
                    " FROM checkpoint_blobs WHERE thread_id = %s)",
                    sid,
                    sid,
                )
            )
        elif turn in (9, 39):
            rows = await store.checkpointer.conn.execute_fetchall(
                "SELECT sum(length(checkpoint)) FROM checkpoints WHERE thread_id = ?", (sid,)
            )
            sizes.append(next(iter(rows))[0])
    # the window is full after 3 turns: the checkpoint no longer grows with the conversation
    assert sizes[1] <= sizes[0] * 1.2


async def test_delete_leaves_no_checkpoint_row(store: SessionStore) -> None:
    graph = build_turn_graph(store, ask_approval=True)
    sid = (await store.create_session("doomed")).id
    kept = (await store.create_session("kept")).id
    await run_turn(graph, kept, "stays")
    for turn in range(3):
        await run_turn(graph, sid, f"turn {turn}")  # a paused step keeps pending writes
    tables = ["checkpoints", "writes"]
    if isinstance(store, PostgresSessionStore):
        tables.append("checkpoint_blobs")
    assert all([await count_rows(store, t, sid) for t in tables])
    await store.delete_session(sid)
    for table in tables:
        assert await count_rows(store, table, sid) == 0, table
    assert await count_rows(store, "checkpoints", kept) > 0
    assert [s.id for s in await store.list_sessions()] == [kept]
