"""The PostgreSQL transcript's sequence numbers, now reserved on the session's row (``last_seq``)
so an append is one statement: distinct under concurrent appends from many connections (as
replicas make them), caught up after a replica of an older version appended without it, and
filled in for a database made before the column existed."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.errors import SessionNotFoundError
from gns3_copilot_desktop.core.sessions.models import TranscriptMessage
from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore
from tests.helpers.postgres import PostgresServer

from .support import pg_scalar

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def store(postgres_server: PostgresServer) -> AsyncIterator[PostgresSessionStore]:
    opened = await PostgresSessionStore.open(
        postgres_server.dsn, project_id=str(uuid.uuid4()), max_size=8
    )
    try:
        yield opened
    finally:
        await opened.close()


def _said(*texts: str) -> list[TranscriptMessage]:
    return [TranscriptMessage(role="user", content=t) for t in texts]


async def _seqs(store: PostgresSessionStore, sid: str) -> list[tuple[int, str]]:
    return [(m.seq, m.content) for m in await store.read_transcript(sid)]


async def test_concurrent_appends_get_distinct_numbers_in_order(
    store: PostgresSessionStore,
) -> None:
    sid = (await store.create_session()).id
    results = await asyncio.gather(
        *(store.append_messages(sid, _said(f"a{i}", f"b{i}")) for i in range(40))
    )
    for stored in results:  # each append's own messages are consecutive, in its order
        assert [m.content[0] for m in stored] == ["a", "b"]
        assert stored[1].seq == stored[0].seq + 1
    seqs = [seq for seq, _ in await _seqs(store, sid)]
    assert seqs == list(range(1, 81))
    assert (
        await pg_scalar(store, "SELECT last_seq FROM copilot_sessions WHERE thread_id = %s", sid)
        == 80
    )


async def test_another_projects_session_is_not_found_and_nothing_is_written(
    store: PostgresSessionStore, postgres_server: PostgresServer
) -> None:
    other = await PostgresSessionStore.open(postgres_server.dsn, project_id="another project")
    try:
        sid = (await other.create_session()).id
        with pytest.raises(SessionNotFoundError):
            await store.append_messages(sid, _said("not here"))
        assert await _seqs(other, sid) == []
    finally:
        await other.close()


async def test_an_older_replicas_append_is_caught_up_with(store: PostgresSessionStore) -> None:
    sid = (await store.create_session()).id
    await store.append_messages(sid, _said("one", "two"))
    # a replica of the version before last_seq appends with max(seq) + 1, leaving last_seq behind
    async with store._pool.connection() as conn:
        await conn.execute(
            "INSERT INTO copilot_transcript (thread_id, seq, message_id, role, content, created_at)"
            " VALUES (%s, 3, 'm3', 'user', 'three', '2026-12-06T00:00:00+00:00')",
            (sid,),
        )
    stored = await store.append_messages(sid, _said("four"))
    assert [m.seq for m in stored] == [4]
    assert await _seqs(store, sid) == [(1, "one"), (2, "two"), (3, "three"), (4, "four")]


async def test_a_database_made_before_last_seq_is_filled_in_on_open(
    store: PostgresSessionStore, postgres_server: PostgresServer
) -> None:
    sid = (await store.create_session()).id
    await store.append_messages(sid, _said("one", "two", "three"))
    async with store._pool.connection() as conn:  # as the version before it left the table
        await conn.execute("ALTER TABLE copilot_sessions DROP COLUMN last_seq")
    reopened = await PostgresSessionStore.open(postgres_server.dsn, project_id=store.project_id)
    try:
        assert (
            await pg_scalar(
                reopened, "SELECT last_seq FROM copilot_sessions WHERE thread_id = %s", sid
            )
            == 3
        )
        new = (await reopened.create_session()).id  # a new session starts from nothing
        assert [m.seq for m in await reopened.append_messages(new, _said("first"))] == [1]
        assert [m.seq for m in await reopened.append_messages(sid, _said("four"))] == [4]
    finally:
        await reopened.close()
