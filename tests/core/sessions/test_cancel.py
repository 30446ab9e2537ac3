"""A write cancelled part-way (a client that leaves mid-turn) leaves the project's database
working: its transaction is rolled back, and the next writes of anyone succeed.

The cancel point is swept over every step of the write (one more event-loop turn each time), so
it lands on the BEGIN, on a statement running in the connection's thread and on the commit.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.sessions import SessionStore, TranscriptMessage
from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore

from .support import build_turn_graph, run_turn, sqlite_or_pg_store

pytestmark = pytest.mark.asyncio

CANCEL_POINTS = 40
TURN_CANCEL_POINTS = 200

Store = SessionStore | PostgresSessionStore


async def _cancel_after(steps: int, work: Callable[[], Awaitable[object]]) -> None:
    task = asyncio.ensure_future(work())
    for _ in range(steps):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _writes_still_work(store: Store, sid: str, label: str) -> None:
    await store.rename_session(sid, label)
    await store.append_messages(
        sid, [TranscriptMessage(id=f"m-{label}", role="user", content=label)]
    )
    assert (await store.get_session(sid)).title == label


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return await sqlite_or_pg_store(request, tmp_path)


async def test_a_cancelled_store_write_rolls_back_at_every_step(any_store: Store) -> None:
    store = any_store
    try:
        sid = (await store.create_session("kept")).id
        for steps in range(CANCEL_POINTS):
            await _cancel_after(steps, lambda: store.append_messages(sid, [_message("lost")]))
            await _writes_still_work(store, sid, f"after {steps}")
        contents = [m.content for m in await store.read_transcript(sid)]
        assert [c for c in contents if c.startswith("after")] == [
            f"after {s}" for s in range(CANCEL_POINTS)
        ]
    finally:
        await store.close()


async def test_a_cancelled_checkpoint_write_rolls_back_at_every_step(any_store: Store) -> None:
    store = any_store
    try:
        graph = build_turn_graph(store)  # type: ignore[arg-type]
        sid = (await store.create_session("turns")).id
        config: Any = {
            "configurable": {"thread_id": sid, "checkpoint_ns": "", "checkpoint_id": "1"}
        }
        for steps in range(CANCEL_POINTS):
            writes = [("x", steps)]
            await _cancel_after(
                steps, lambda w=writes: store.checkpointer.aput_writes(config, w, "task")
            )
            await _writes_still_work(store, sid, f"writes {steps}")
        for steps in range(TURN_CANCEL_POINTS):
            text = f"turn {steps}"
            await _cancel_after(steps, lambda t=text: run_turn(graph, sid, t))
            await _writes_still_work(store, sid, f"after {steps}")
        # the checkpointer itself goes on too
        result = await run_turn(graph, sid, "last turn")
        assert result["messages"][-1].content
    finally:
        await store.close()


def _message(text: str) -> TranscriptMessage:
    return TranscriptMessage(id=f"m-{text}", role="user", content=text)


async def test_a_close_cancelled_at_any_step_still_closes_the_file(tmp_path: Path) -> None:
    """The app cancels its tasks on exit: a store cancelled while closing must still close its
    connection, whose thread would otherwise keep the process alive."""
    for point in range(CANCEL_POINTS):
        store = await SessionStore.open(tmp_path / f"close-{point}.db")
        thread = store._conn._thread  # what keeps a process up
        closing = asyncio.ensure_future(store.close())
        for _ in range(point):
            await asyncio.sleep(0)
        closing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await closing
        # a close cancelled before it began is done now; one cancelled part-way is not redone
        await store.close()
        await asyncio.to_thread(thread.join, 10)
        assert not thread.is_alive(), f"cancelled at step {point}: the connection is still open"
