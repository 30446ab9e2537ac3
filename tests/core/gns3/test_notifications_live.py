"""Notification streams against the real GNS3 server: events, auth failures, reconnects."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from urllib.parse import urlsplit

import pytest

from gns3_copilot_desktop.core.errors import Gns3AuthError, Gns3ConnectionError, Gns3NotFoundError
from gns3_copilot_desktop.core.gns3 import Backoff, Gns3Client, Notification, Project
from gns3_copilot_desktop.core.gns3.notifications import LinkState, WsTarget, stream_notifications
from tests.helpers.gns3_server import DroppingProxy, Gns3Server, craft_hs256_token, free_port

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

MISSING_ID = "00000000-0000-4000-8000-000000000000"
FAST = Backoff(initial=0.05, maximum=0.2, max_failures=5)


async def _next_matching(
    stream: AsyncIterator[Notification],
    predicate: Callable[[Notification], bool],
) -> Notification:
    async with asyncio.timeout(10):
        async for notification in stream:
            if predicate(notification):
                return notification
    raise AssertionError("the stream ended")


def _is_ping(notification: Notification) -> bool:
    # The server greets every new subscriber with a ping: proof that it is listening.
    return notification.is_ping


async def test_project_stream_delivers_node_created(
    gns3_client: Gns3Client, gns3_project: Project
) -> None:
    pid = gns3_project.project_id
    stream = gns3_client.project_notifications(pid)
    try:
        await _next_matching(stream, _is_ping)
        node = await gns3_client.create_node(pid, "pc1", "vpcs")
        event = await _next_matching(stream, lambda n: n.action == "node.created")
    finally:
        await stream.aclose()  # type: ignore[attr-defined]
    assert event.node is not None
    assert event.node.node_id == node.node_id
    assert event.node.name == "pc1"


async def test_controller_stream_delivers_project_created(gns3_client: Gns3Client) -> None:
    stream = gns3_client.controller_notifications()
    project = None
    try:
        await _next_matching(stream, _is_ping)
        project = await gns3_client.create_project(f"ctl-{secrets.token_hex(3)}")
        created = project
        event = await _next_matching(
            stream,
            lambda n: (
                n.action == "project.created" and n.event.get("project_id") == created.project_id
            ),
        )
    finally:
        await stream.aclose()  # type: ignore[attr-defined]
        if project is not None:
            await gns3_client.delete_project(project.project_id)
    assert event.project is not None
    assert event.project.name == project.name


async def test_refused_token_raises_instead_of_looping(
    gns3_server: Gns3Server, gns3_project: Project
) -> None:
    forged = craft_hs256_token("not-the-server-secret", "admin", 4_000_000_000)
    async with Gns3Client(gns3_server.base_url, token=forged) as client:
        stream = client.project_notifications(gns3_project.project_id, backoff=FAST)
        with pytest.raises(Gns3AuthError) as info:
            async with asyncio.timeout(10):
                async for _ in stream:
                    pass
    assert "expired or is invalid" in info.value.user_message
    assert "Could not validate credentials" in info.value.user_message


async def test_expired_token_raises_at_once(gns3_server: Gns3Server) -> None:
    expired = gns3_server.craft_token("admin", expires_in_s=-1)
    async with Gns3Client(gns3_server.base_url, token=expired) as client:
        with pytest.raises(Gns3AuthError):
            async with asyncio.timeout(5):
                async for _ in client.controller_notifications(backoff=FAST):
                    pass


async def test_reconnects_after_the_connection_drops(
    gns3_server: Gns3Server,
    gns3_token: str,
    gns3_client: Gns3Client,
    gns3_project: Project,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    pid = gns3_project.project_id
    port = urlsplit(gns3_server.base_url).port
    assert port is not None
    async with DroppingProxy(port) as proxy, Gns3Client(proxy.base_url, token=gns3_token) as c:
        stream = c.project_notifications(pid, backoff=FAST)
        try:
            await _next_matching(stream, _is_ping)
            assert proxy.accepted == 1
            proxy.drop_all()
            # The first message of the new subscription is again a ping.
            await _next_matching(stream, _is_ping)
            assert proxy.accepted == 2
            node = await gns3_client.create_node(pid, "after-drop", "vpcs")
            event = await _next_matching(stream, lambda n: n.action == "node.created")
        finally:
            await stream.aclose()  # type: ignore[attr-defined]
    assert event.node is not None and event.node.node_id == node.node_id
    messages = [record.getMessage() for record in caplog.records]
    assert any("dropped" in m for m in messages)
    assert not any(gns3_token in m for m in messages), "the token reached a log record"


async def test_gives_up_after_bounded_failures(gns3_token: str) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    backoff = Backoff(initial=0.01, maximum=0.02, max_failures=3)
    async with Gns3Client(url, token=gns3_token) as client:
        with pytest.raises(Gns3ConnectionError) as info:
            async with asyncio.timeout(10):
                async for _ in client.controller_notifications(backoff=backoff):
                    pass
    assert url in info.value.user_message
    assert "3 attempts" in info.value.user_message


async def test_missing_project_raises_not_found(gns3_client: Gns3Client) -> None:
    stream = gns3_client.project_notifications(MISSING_ID, backoff=FAST)
    with pytest.raises(Gns3NotFoundError) as info:
        async with asyncio.timeout(10):
            async for _ in stream:
                pass
    assert MISSING_ID in info.value.user_message


async def test_connections_dropped_before_any_event_count_as_failures(
    gns3_server: Gns3Server, gns3_token: str
) -> None:
    # The server accepts the websocket of a missing project, then drops it without a message.
    # Without a check to explain it, that must still end after max_failures, not loop forever.
    target = WsTarget(
        server=gns3_server.base_url,
        path=f"/v3/projects/{MISSING_ID}/notifications/ws",
        token=lambda: gns3_token,
    )
    backoff = Backoff(initial=0.01, maximum=0.02, max_failures=3)
    with pytest.raises(Gns3ConnectionError, match="after 3 attempts"):
        async with asyncio.timeout(10):
            async for _ in stream_notifications(target, backoff):
                pass


class _Watch:
    """Waits for a condition on what the stream reported, woken by every report."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()

    def poke(self) -> None:
        self._changed.set()

    async def until(self, condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
        async with asyncio.timeout(timeout_s):
            while not condition():
                self._changed.clear()
                await self._changed.wait()


class _PokeOnLog(logging.Handler):
    def __init__(self, watch: _Watch) -> None:
        super().__init__(logging.WARNING)
        self.watch = watch
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
        self.watch.poke()


async def test_the_link_is_reported_down_while_unreachable_and_up_when_back(
    gns3_server: Gns3Server, gns3_token: str
) -> None:
    """A backoff without a limit retries a stopped server until it is back; ``on_link`` hears
    once that it went down (with why) and once that it is up again."""
    port = urlsplit(gns3_server.base_url).port
    assert port is not None
    watch = _Watch()
    log_watch = _PokeOnLog(watch)
    stream_log = logging.getLogger("gns3_copilot_desktop.core.gns3.notifications")
    stream_log.addHandler(log_watch)
    states: list[LinkState] = []
    pings = 0

    def on_link(state: LinkState) -> None:
        states.append(state)
        watch.poke()

    forever = Backoff(initial=0.05, maximum=0.2, max_failures=None)
    async with DroppingProxy(port) as proxy, Gns3Client(proxy.base_url, token=gns3_token) as c:
        stream = c.controller_notifications(backoff=forever, on_link=on_link)

        async def consume() -> None:
            nonlocal pings
            async for notification in stream:
                pings += notification.is_ping
                watch.poke()

        task = asyncio.create_task(consume())
        try:
            await watch.until(lambda: pings == 1)
            assert [s.connected for s in states] == [True]
            await proxy.go_down()
            await watch.until(lambda: len(states) == 2)
            assert not states[1].connected and states[1].reason
            # More attempts than the default limit, reported once, the stream still going.
            await watch.until(lambda: any("retry 10" in m for m in log_watch.messages))
            assert len(states) == 2 and not task.done()
            await proxy.come_back()
            await watch.until(lambda: pings == 2)
            assert [s.connected for s in states] == [True, False, True]
        finally:
            stream_log.removeHandler(log_watch)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await stream.aclose()  # type: ignore[attr-defined]
