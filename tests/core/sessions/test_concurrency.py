"""Two app instances (two SessionStores) on the same database file at the same time."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.errors import SessionStoreError
from gns3_copilot_desktop.core.sessions import SessionStore, TranscriptMessage

from .support import build_turn_graph, count_rows, run_turn, turn_messages

pytestmark = pytest.mark.asyncio


async def _work(store: SessionStore, label: str, turns: int) -> str:
    graph = build_turn_graph(store)
    sid = (await store.create_session(label)).id
    for turn in range(turns):
        await run_turn(graph, sid, f"{label} {turn}")
        await store.append_messages(sid, turn_messages(turn))
        await store.update_stats(sid, messages_delta=4)
        await store.prune_checkpoints(sid)
    return sid


async def test_two_instances_write_at_the_same_time(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    async with await SessionStore.open(db) as a, await SessionStore.open(db) as b:
        sids = await asyncio.gather(
            _work(a, "a1", 8), _work(b, "b1", 8), _work(a, "a2", 8), _work(b, "b2", 8)
        )
        for store in (a, b):
            listed = {s.id: s for s in await store.list_sessions()}
            assert set(listed) == set(sids)
            assert {s.message_count for s in listed.values()} == {32}
        for sid in sids:
            messages = await b.read_transcript(sid)
            assert [m.seq for m in messages] == list(range(1, 33))
            assert await count_rows(a, "checkpoints", sid) == 1
        await a.delete_session(sids[0])
        assert {s.id for s in await b.list_sessions()} == set(sids[1:])


async def test_second_instance_waits_for_a_long_write(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    async with await SessionStore.open(db) as a, await SessionStore.open(db) as b:
        sid = (await a.create_session("held")).id
        held = asyncio.Event()
        release = asyncio.Event()

        async def hold_write_lock() -> None:
            async with a._write() as conn:
                await conn.execute("UPDATE copilot_sessions SET title = 'held!'")
                held.set()
                await release.wait()

        holder = asyncio.create_task(hold_write_lock())
        await asyncio.wait_for(held.wait(), 5)
        writer = asyncio.create_task(
            b.append_messages(sid, [TranscriptMessage(role="user", content="after the wait")])
        )
        await asyncio.sleep(0.3)  # b is blocked on the lock a holds, not failing
        assert not writer.done()
        release.set()
        await asyncio.wait_for(holder, 5)
        stored = await asyncio.wait_for(writer, 5)
        assert stored[0].seq == 1
        assert (await b.get_session(sid)).title == "held!"


async def test_a_lock_held_past_the_busy_timeout_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    async with await SessionStore.open(db) as a:
        sid = (await a.create_session()).id
        async with await SessionStore.open(db, busy_timeout_s=0.2) as b, a._write():
            with pytest.raises(SessionStoreError, match="busy"):
                await b.rename_session(sid, "x")
