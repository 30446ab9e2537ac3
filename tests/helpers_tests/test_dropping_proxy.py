"""The loopback proxy the unreachable-server tests put in front of the real GNS3 server: once
``go_down()`` has run, nothing reaches the server through it, not even a connection the listener
took in just before. `asyncio.start_server`, closed while it took a connection in, left that
connection open and unserved: a dock's notification stream could then hang in its handshake
through a "stopped" server (the likely cause of an unreachable-server test that waited 15 s in
vain).
A connection set up while the proxy went down was piped to the server all the same."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import pytest

from tests.helpers.gns3_server import DroppingProxy, Gns3Server

pytestmark = [pytest.mark.asyncio, pytest.mark.gns3]


async def _answered(port: int) -> bool:
    """Whether a request sent on a connection opened just before the proxy went down is
    answered (the proxy is taken down before this returns to the loop)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    try:
        writer.write(b"GET /v3/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await writer.drain()
        return (await asyncio.wait_for(reader.read(12), 5)).startswith(b"HTTP/1.1")
    except (OSError, TimeoutError):
        return False
    finally:
        writer.close()


async def test_nothing_is_piped_once_the_proxy_went_down(gns3_server: Gns3Server) -> None:
    port = urlsplit(gns3_server.base_url).port
    assert port is not None
    proxy = DroppingProxy(port)
    await proxy.come_back()
    proxy_port = urlsplit(proxy.base_url).port
    assert proxy_port is not None
    try:
        assert await _answered(proxy_port)  # up: the server answers through it
        answered = 0
        for attempt in range(40):
            connecting = asyncio.ensure_future(_answered(proxy_port))
            for _ in range(attempt % 8):  # the connect under way, accepted, maybe handled
                await asyncio.sleep(0)
            await proxy.go_down()
            answered += await connecting
            await proxy.come_back()
        assert answered == 0
    finally:
        await proxy.go_down()
