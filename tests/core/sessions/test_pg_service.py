"""The copilot service's own state in a real PostgreSQL (`PostgresServiceState`): owners, grants
and turn claims, as two service processes on other computers see them."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.sessions.pg_service import CLAIM_LEASE_S, PostgresServiceState
from tests.helpers.postgres import PostgresServer


@pytest_asyncio.fixture
async def states(
    postgres_server: PostgresServer,
) -> AsyncIterator[tuple[PostgresServiceState, ...]]:
    """Two service processes' views of one database."""
    first = await PostgresServiceState.open(postgres_server.dsn)
    second = await PostgresServiceState.open(postgres_server.dsn)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def _move_claim(state: PostgresServiceState, sid: str, *, expires: float) -> None:
    """Make the session's claim look like another computer's (its process cannot be probed)."""
    await state._run(
        "test",
        "UPDATE copilot_service_turns SET host = 'elsewhere', expires = %s WHERE session_id = %s",
        (expires, sid),
    )


@pytest.mark.asyncio
async def test_a_claim_of_another_computer_holds_until_its_lease_runs_out(
    states: tuple[PostgresServiceState, PostgresServiceState],
) -> None:
    a, b = states
    project, sid = str(uuid.uuid4()), str(uuid.uuid4())
    assert await a.claim(project, sid, "replica-a") is None
    await _move_claim(a, sid, expires=time.time() + CLAIM_LEASE_S)
    held = await b.claim(project, sid, "replica-b")
    assert held is not None and "elsewhere" in held
    assert await b.running(project, sid)
    # Stop through B reaches A at its next renewal
    assert await b.request_stop(project, sid)
    assert await a.renew(project, sid, "replica-a") is True
    # A dies without releasing: once the lease has run out, B may run a turn there
    await _move_claim(a, sid, expires=time.time() - 1)
    assert not await b.running(project, sid)
    assert await b.claim(project, sid, "replica-b") is None
    assert await a.renew(project, sid, "replica-a") is False  # A's claim is gone
    await a.release(project, sid, "replica-a")  # A's late release does not free B's claim
    assert await a.claim(project, sid, "replica-a") is not None
    await b.release(project, sid, "replica-b")
    assert await a.claim(project, sid, "replica-a") is None


@pytest.mark.asyncio
async def test_owners_and_grants_are_per_user_and_project(
    states: tuple[PostgresServiceState, PostgresServiceState],
) -> None:
    a, b = states
    project, other_project, sid = str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4())
    await a.add(project, sid, "alice")
    assert await b.owns(project, sid, "alice")
    assert not await b.owns(project, sid, "bob")
    assert not await b.owns(other_project, sid, "alice")
    assert await b.sessions_of(project, "alice") == {sid}
    assert await b.sessions_of(project, "bob") == set()
    await a.grant("alice", project, ["create_nodes", "create_nodes", "delete_node"])
    assert await b.grants("alice", project) == {"create_nodes", "delete_node"}
    assert await b.grants("bob", project) == frozenset()
    assert await b.grants("alice", other_project) == frozenset()
    assert await b.revoke("alice", project, "delete_node")
    assert not await b.revoke("alice", project, "delete_node")
    assert await a.grants("alice", project) == {"create_nodes"}
    await b.remove(project, sid)
    assert not await a.owns(project, sid, "alice")
