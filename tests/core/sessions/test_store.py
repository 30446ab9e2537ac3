"""SessionStore: sessions index, transcript, search, schema and reopening."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.errors import SessionNotFoundError, SessionStoreError
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.core.sessions import (
    DEFAULT_TITLE,
    HIGHLIGHT_END,
    HIGHLIGHT_START,
    SessionStore,
    TranscriptMessage,
)
from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore
from gns3_copilot_desktop.core.sessions.schema import SCHEMA_VERSION

from .support import sqlite_or_pg_store, turn_messages

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[SessionStore | PostgresSessionStore]:
    """The same suite on both stores: a SQLite file, and a project in a real PostgreSQL."""
    opened = await sqlite_or_pg_store(request, tmp_path)
    try:
        yield opened
    finally:
        await opened.close()


async def test_create_get_and_defaults(store: SessionStore) -> None:
    info = await store.create_session()
    assert len(info.id) == 36
    got = await store.get_session(info.id)
    assert got == info
    assert got.title is None and got.display_title == DEFAULT_TITLE
    assert (got.message_count, got.total_tokens, got.pinned, got.mode) == (0, 0, False, "assistant")
    other = await store.create_session("Lab", mode="teaching")
    assert other.id != info.id
    assert (await store.get_session(other.id)).mode == "teaching"


async def test_unknown_session_raises_not_found(store: SessionStore) -> None:
    for call in (
        store.get_session("nope"),
        store.rename_session("nope", "x"),
        store.set_pinned("nope", True),
        store.update_stats("nope", messages_delta=1),
        store.append_messages("nope", [TranscriptMessage(role="user", content="hi")]),
        store.read_transcript("nope"),
        store.delete_session("nope"),
    ):
        with pytest.raises(SessionNotFoundError):
            await call


async def test_list_orders_pinned_first_then_recently_updated(store: SessionStore) -> None:
    a = await store.create_session("a")
    b = await store.create_session("b")
    c = await store.create_session("c")
    await store.update_stats(a.id, messages_delta=2)  # a becomes the most recent
    await store.set_pinned(b.id, True)
    assert [s.title for s in await store.list_sessions()] == ["b", "a", "c"]
    assert [s.title for s in await store.list_sessions(limit=2)] == ["b", "a"]
    await store.set_pinned(b.id, False)
    assert [s.title for s in await store.list_sessions()] == ["a", "c", "b"]
    assert (await store.get_session(c.id)).updated_at < (await store.get_session(a.id)).updated_at


async def test_update_stats_accumulates_and_sets_title(store: SessionStore) -> None:
    info = await store.create_session()
    await store.update_stats(
        info.id, messages_delta=4, input_tokens_delta=100, output_tokens_delta=7
    )
    await store.update_stats(
        info.id, messages_delta=2, input_tokens_delta=50, output_tokens_delta=3, title="OSPF lab"
    )
    got = await store.get_session(info.id)
    assert (got.message_count, got.input_tokens, got.output_tokens) == (6, 150, 10)
    assert got.title == "OSPF lab" and got.total_tokens == 160


async def test_pending_approvals_round_trip(store: SessionStore) -> None:
    info = await store.create_session()
    request = ApprovalRequest(
        tool_call_id="call_1",
        tool_name="delete_node",
        arguments={"node_id": "n1"},
        summary="Delete node R1",
        risk="change",
    )
    await store.set_pending_approvals(info.id, [request])
    assert (await store.get_session(info.id)).pending_approvals == [request]
    await store.set_pending_approvals(info.id, [])
    assert (await store.get_session(info.id)).pending_approvals == []


async def test_transcript_round_trip_and_paging(store: SessionStore) -> None:
    info = await store.create_session()
    sent = turn_messages(0) + turn_messages(1)
    stored = await store.append_messages(info.id, sent)
    assert [m.seq for m in stored] == list(range(1, 9))
    more = await store.append_messages(info.id, turn_messages(2))
    assert [m.seq for m in more] == [9, 10, 11, 12]

    everything = await store.read_transcript(info.id)
    assert [m.seq for m in everything] == list(range(1, 13))
    assert [m.model_dump(exclude={"seq"}) for m in everything[:8]] == [
        m.model_dump(exclude={"seq"}) for m in sent
    ]
    assert everything[1].tool_calls[0].function.name == "get_topology"
    assert everything[1].metadata == {"turn": 0}
    assert everything[2].tool_call_id == everything[1].tool_calls[0].id

    last = await store.read_transcript(info.id, limit=5)
    assert [m.seq for m in last] == [8, 9, 10, 11, 12]
    page = await store.read_transcript(info.id, limit=5, before_seq=last[0].seq)
    assert [m.seq for m in page] == [3, 4, 5, 6, 7]
    assert [m.seq for m in await store.read_transcript(info.id, before_seq=3)] == [1, 2]
    assert await store.read_transcript(info.id, limit=5, before_seq=1) == []


async def test_empty_session_has_empty_transcript(store: SessionStore) -> None:
    info = await store.create_session()
    assert await store.read_transcript(info.id) == []
    assert await store.append_messages(info.id, []) == []


async def test_appending_marks_the_session_updated(store: SessionStore) -> None:
    old = await store.create_session("old")
    await store.create_session("new")
    await store.append_messages(old.id, [TranscriptMessage(role="user", content="hi")])
    assert [s.title for s in await store.list_sessions()] == ["old", "new"]


async def test_search_titles_and_message_text(store: SessionStore) -> None:
    ospf = await store.create_session("OSPF troubleshooting")
    bgp = await store.create_session("BGP lab")
    stored = await store.append_messages(
        bgp.id,
        [
            TranscriptMessage(role="user", content="why is the ospf neighbour of R2 down?"),
            TranscriptMessage(role="assistant", content="Because the hello timers differ."),
        ],
    )
    hits = await store.search("ospf")
    assert [h.session_id for h in hits] == [ospf.id, bgp.id]
    assert hits[0].message_id is None and hits[0].snippet == "OSPF troubleshooting"
    assert hits[1].message_id == stored[0].id and hits[1].seq == 1 and hits[1].role == "user"
    assert f"{HIGHLIGHT_START}ospf{HIGHLIGHT_END}" in hits[1].snippet
    assert hits[1].title == "BGP lab"

    # every word must match; the last word is a prefix
    assert [h.session_id for h in await store.search("hello tim")] == [bgp.id]
    assert await store.search("hello ospf-nothing") == []
    assert len(await store.search("ospf", limit=1)) == 1


async def test_search_gives_one_hit_per_session(store: SessionStore) -> None:
    info = await store.create_session()
    await store.append_messages(info.id, turn_messages(0) + turn_messages(1))
    hits = await store.search("FastEthernet0")
    assert len(hits) == 1 and hits[0].role == "tool"


async def test_search_finds_every_session_even_when_one_has_many_matches(
    store: SessionStore,
) -> None:
    chatty = await store.create_session()
    await store.append_messages(
        chatty.id, [TranscriptMessage(role="user", content="vlan vlan vlan") for _ in range(30)]
    )
    quiet = [await store.create_session() for _ in range(3)]
    for info in quiet:
        await store.append_messages(
            info.id, [TranscriptMessage(role="user", content="one vlan among many other words")]
        )
    hits = await store.search("vlan", limit=4)
    assert hits[0].session_id == chatty.id
    assert {h.session_id for h in hits} == {chatty.id, *(q.id for q in quiet)}


@pytest.mark.parametrize(
    "query",
    ['"', '"unbalanced', "*", "-", "a OR", "NOT", "AND b", "NEAR(", "col:x", "(", "^", "'", "\\"],
)
async def test_search_never_raises_on_user_input(store: SessionStore, query: str) -> None:
    info = await store.create_session("a OR b NOT c")
    await store.append_messages(info.id, [TranscriptMessage(role="user", content=query + " x")])
    assert isinstance(await store.search(query), list)


async def test_search_follows_renames_and_deletes(store: SessionStore) -> None:
    info = await store.create_session("Alpha")
    await store.rename_session(info.id, "Beta")
    assert await store.search("alpha") == []
    assert [h.session_id for h in await store.search("beta")] == [info.id]
    await store.append_messages(info.id, [TranscriptMessage(role="user", content="gamma")])
    await store.delete_session(info.id)
    assert await store.search("beta") == [] and await store.search("gamma") == []


async def test_everything_survives_reopening(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    async with await SessionStore.open(db) as first:
        info = await first.create_session("kept")
        await first.append_messages(info.id, turn_messages(0))
        await first.set_pinned(info.id, True)
    async with await SessionStore.open(db) as second:
        assert second.recovered_from is None and second.recovery_message is None
        (got,) = await second.list_sessions()
        assert got.id == info.id and got.pinned and got.title == "kept"
        assert len(await second.read_transcript(info.id)) == 4
        assert [h.session_id for h in await second.search("kept")] == [info.id]


async def test_database_settings(sqlite_store: SessionStore) -> None:
    store = sqlite_store
    raw = sqlite3.connect(store.db_path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        raw.close()
    assert {"checkpoints", "writes", "copilot_sessions", "copilot_transcript"} <= tables
    conn = store.checkpointer.conn
    assert list(await conn.execute_fetchall("PRAGMA secure_delete")) == [(1,)]
    assert list(await conn.execute_fetchall("PRAGMA busy_timeout")) == [(10000,)]


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "future.db"
    async with await SessionStore.open(db):
        pass
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    with pytest.raises(SessionStoreError, match="newer"):
        await SessionStore.open(db)


@pytest.mark.parametrize("had_leases", [False, True])
async def test_a_version_1_database_is_migrated_and_keeps_its_conversations(
    tmp_path: Path, had_leases: bool
) -> None:
    """Version 1 had no lease table (or one created outside the versioning): it gains it."""
    db = tmp_path / "v1.db"
    async with await SessionStore.open(db) as store:
        info = await store.create_session(title="Kept across the migration")
    raw = sqlite3.connect(db)
    raw.execute("DROP TABLE copilot_turn_leases")
    if had_leases:
        raw.execute(
            "CREATE TABLE copilot_turn_leases (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL,"
            " host TEXT NOT NULL, pid INTEGER NOT NULL, expires REAL NOT NULL)"
        )
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()
    async with await SessionStore.open(db) as store:
        assert [s.title for s in await store.list_sessions()] == [info.title]
        assert await store.claim_turn(info.id, "me") is None
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    finally:
        raw.close()


async def test_closed_store_refuses_writes(tmp_path: Path) -> None:
    opened = await SessionStore.open(tmp_path / "c.db")
    await opened.close()
    await opened.close()  # idempotent
    with pytest.raises(SessionStoreError):
        await opened.create_session()


async def test_list_of_1000_sessions_is_fast(store: SessionStore) -> None:
    for i in range(1000):
        await store.create_session(f"s{i}")
    await store.list_sessions()
    loop = asyncio.get_running_loop()
    best = float("inf")
    for _ in range(5):
        start = loop.time()
        sessions = await store.list_sessions()
        best = min(best, loop.time() - start)
    assert len(sessions) == 1000
    # target 20 ms (bench); generous here because the test machine is shared
    assert best < 0.1
