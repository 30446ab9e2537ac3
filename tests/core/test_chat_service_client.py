"""`ChatServiceClient` against canned HTTP answers (httpx.MockTransport): the SSE reading, the
stream rules kept whatever the service does, and the error mapping. The real service is met in
tests/ui/backends/test_remote_backend.py."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gns3_copilot_desktop.core.chat_service_client import ChatServiceClient
from gns3_copilot_desktop.core.chat_service_sse import sse_data, sse_lines
from gns3_copilot_desktop.core.errors import (
    CopilotServiceError,
    Gns3AuthError,
    Gns3PermissionError,
    SessionNotFoundError,
)
from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.core.settings import Settings, normalize_service_url


def _client(handler: Callable[[httpx.Request], httpx.Response]) -> ChatServiceClient:
    return ChatServiceClient(
        "http://service.test/",
        lambda: "jwt-1",
        transport=httpx.MockTransport(handler),
        reconnect_s=0.5,
    )


def _sse(*events: dict[str, Any] | str) -> bytes:
    parts = [e if isinstance(e, str) else f"data: {json.dumps(e)}\n\n" for e in events]
    return "".join(parts).encode()


async def _collect(stream: AsyncIterator[ChatChunk]) -> list[ChatChunk]:
    return [chunk async for chunk in stream]


async def _lines(*lines: str) -> AsyncIterator[str]:
    for line in lines:
        yield line


@pytest.mark.asyncio
async def test_sse_data_joins_lines_and_skips_comments_and_other_fields() -> None:
    lines = _lines(": ping", "event: x", 'data: {"a":', "data:1}", "", "", "id: 3", "data: two")
    assert [d async for d in sse_data(lines)] == ['{"a":\n1}', "two"]


UNICODE_BREAKS = "a\u2028b\u0085c\u2029d\x1ce\x1df\x1eg\x0bh\x0ci"
"""Every character `str.splitlines` breaks on besides \\r and \\n: text, not line ends."""


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
async def test_sse_lines_end_only_at_cr_lf_and_crlf_whatever_the_pieces(size: int) -> None:
    wire = f"data: {UNICODE_BREAKS}\r\ndata: two\rdata: three\n\r\n: c\r\rdata: end"

    async def pieces() -> AsyncIterator[str]:
        for start in range(0, len(wire), size):
            yield wire[start : start + size]

    lines = [line async for line in sse_lines(pieces())]
    assert lines == [
        f"data: {UNICODE_BREAKS}",
        "data: two",
        "data: three",
        "",
        ": c",
        "",
        "data: end",
    ]


@pytest.mark.asyncio
async def test_unicode_line_breaks_in_an_answer_reach_the_dock_whole() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        body = _sse(
            {"type": "content", "content": UNICODE_BREAKS, "session_id": "s1"},
            {"type": "done", "session_id": "s1"},
        )
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = _client(handler)
    chunks = await _collect(client.stream_chat("p1", "s1", "hello"))
    await client.aclose()
    assert [c.type for c in chunks] == ["content", "done"]
    assert chunks[0].content == UNICODE_BREAKS


@pytest.mark.asyncio
async def test_a_line_that_never_ends_is_refused_not_kept() -> None:
    async def endless() -> AsyncIterator[str]:
        while True:
            yield "x" * 65536

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/abort"):
            return httpx.Response(200, json={"aborted": True})
        return httpx.Response(200, content=_encoded(endless()))

    client = _client(handler)
    chunks = await _collect(client.stream_chat("p1", "s1", "hello"))
    await client.aclose()
    assert [c.type for c in chunks] == ["error", "done"]
    assert chunks[0].error and "larger" in chunks[0].error


async def _encoded(texts: AsyncIterator[str]) -> AsyncIterator[bytes]:
    async for text in texts:
        yield text.encode()


@pytest.mark.asyncio
async def test_a_stream_is_read_with_the_login_and_passes_every_chunk() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = _sse(
            ": keep-alive comment\n\n",
            {"type": "content", "content": "Hé ", "session_id": "s1"},
            {"type": "heartbeat", "elapsed_s": 15.0, "session_id": "s1"},
            {"type": "content", "content": "là", "session_id": "s1", "new_field": 1},
            {"type": "done", "session_id": "s1"},
        )
        return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    client = _client(handler)
    chunks = await _collect(client.stream_chat("p1", "s1", "hello"))
    await client.aclose()
    assert [c.type for c in chunks] == ["content", "heartbeat", "content", "done"]
    assert "".join(c.content or "" for c in chunks) == "Hé là"
    request = seen[0]
    assert request.url.path == "/v3/chat/stream"
    assert request.headers["authorization"] == "Bearer jwt-1"
    assert json.loads(request.content) == {
        "message": "hello",
        "project_id": "p1",
        "session_id": "s1",
    }


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("body", "error_kind"),
    [
        (_sse({"type": "content", "content": "par", "session_id": "s1"}), "CopilotServiceError"),
        (_sse({"type": "content", "content": "x"}, "data: not json\n\n"), "CopilotServiceError"),
    ],
)
async def test_a_stream_that_breaks_still_ends_with_error_then_done(
    body: bytes, error_kind: str
) -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        if request.url.path.endswith("/abort"):
            return httpx.Response(200, json={"aborted": False})
        return httpx.Response(200, content=body)

    client = _client(handler)
    chunks = await _collect(client.stream_chat("p1", "s1", "hello"))
    await client.aclose()
    assert [c.type for c in chunks][-2:] == ["error", "done"]
    assert chunks[-2].error_kind == error_kind and chunks[-2].error
    assert calls == ["/v3/chat/stream"]  # the stream ended: nothing to abort


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (401, "Gns3AuthError"),
        (403, "Gns3PermissionError"),
        (404, "SessionNotFoundError"),
        (409, "CopilotServiceError"),
        (422, "CopilotServiceError"),
    ],
)
async def test_a_refused_stream_is_one_error_chunk_of_the_matching_kind(
    status: int, kind: str
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"message": f"refused with {status}"})

    client = _client(handler)
    chunks = await _collect(client.resume("p1", "s1", []))
    await client.aclose()
    assert [(c.type, c.error_kind, c.error) for c in chunks] == [
        ("error", kind, f"refused with {status}"),
        ("done", None, None),
    ]


@pytest.mark.asyncio
async def test_an_unreachable_service_is_said_with_its_address() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    client = _client(handler)
    chunks = await _collect(client.stream_chat("p1", "s1", "hello"))
    with pytest.raises(CopilotServiceError, match=r"http://service\.test"):
        await client.list_sessions("p1")
    await client.aclose()
    assert chunks[0].error_kind == "CopilotServiceError"
    assert "http://service.test" in (chunks[0].error or "")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("status", "error"),
    [(401, Gns3AuthError), (403, Gns3PermissionError), (404, SessionNotFoundError)],
)
async def test_other_calls_raise_the_projects_errors(status: int, error: type[Exception]) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"message": "no"})

    client = _client(handler)
    with pytest.raises(error, match="no"):
        await client.history("p1", "s1")
    await client.aclose()


@pytest.mark.asyncio
async def test_an_answer_that_is_not_the_expected_shape_is_refused() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"not": "a list"})

    client = _client(handler)
    with pytest.raises(CopilotServiceError):
        await client.list_sessions("p1")
    await client.aclose()


def test_the_service_url_setting_is_an_http_address_or_refused() -> None:
    assert normalize_service_url(" Lab:3081/ ") == "http://lab:3081"
    assert normalize_service_url("https://lab.example/copilot/") == "https://lab.example/copilot"
    for bad in ("ftp://lab", "http://", "http://lab:port", "http://u@lab", "http://lab/?q=1"):
        with pytest.raises(ValueError):
            normalize_service_url(bad)
    assert Settings(copilot_service_url="lab:3081").copilot_service_url == "http://lab:3081"
    assert Settings().copilot_service_url is None


@pytest.mark.asyncio
async def test_a_refused_connection_is_tried_again_while_the_service_restarts() -> None:
    attempts: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(request.url.path)
        if len(attempts) < 3:
            raise httpx.ConnectError("connection refused", request=request)
        return httpx.Response(200, content=_sse({"type": "done", "session_id": "s1"}))

    client = _client(handler)
    chunks = await _collect(client.stream_chat("p1", "s1", "hello"))
    await client.aclose()
    assert [c.type for c in chunks] == ["done"]
    assert attempts == ["/v3/chat/stream"] * 3


@pytest.mark.asyncio
async def test_a_stream_cut_mid_turn_brings_back_the_calls_left_waiting() -> None:
    pending = {
        "tool_call_id": "call_1",
        "tool_name": "create_nodes",
        "arguments": {},
        "summary": "Add a switch",
        "risk": "change",
    }

    class _Cut(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            yield _sse({"type": "content", "content": "Adding", "session_id": "s1"})
            raise httpx.ReadError("connection reset by peer")

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/approvals"):
            return httpx.Response(200, json=[pending])
        return httpx.Response(200, stream=_Cut())

    client = _client(handler)
    chunks = await _collect(client.stream_chat("p1", "s1", "hello"))
    await client.aclose()
    assert [c.type for c in chunks] == ["content", "error", "approval_request", "done"]
    assert "kept on the service" in (chunks[1].error or "")
    assert chunks[2].approvals is not None
    assert [a.tool_call_id for a in chunks[2].approvals] == ["call_1"]


@pytest.mark.asyncio
async def test_always_allow_goes_with_the_approved_call_only() -> None:
    from gns3_copilot_desktop.core.agent.approval import ApprovalDecision

    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, content=_sse({"type": "done", "session_id": "s1"}))

    client = _client(handler)
    decisions = [
        ApprovalDecision(tool_call_id="a", action="approve"),
        ApprovalDecision(tool_call_id="b", action="approve"),
    ]
    await _collect(client.resume("p1", "s1", decisions, always_allow=frozenset({"b"})))
    await client.aclose()
    sent = bodies[0]["decisions"]
    assert [d.get("always_allow", False) for d in sent] == [False, True]


@pytest.mark.asyncio
async def test_an_unusable_ca_file_is_said_with_its_path_and_nothing_is_sent(
    tmp_path: Path,
) -> None:
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json=[])

    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate")
    for path in (bad, tmp_path / "missing.pem"):
        client = ChatServiceClient(
            "https://service.test",
            lambda: "jwt",
            ca_file=str(path),
            transport=httpx.MockTransport(handler),
        )
        with pytest.raises(CopilotServiceError, match=f"CA file {path}"):
            await client.list_sessions("p1")
        chunks = await _collect(client.stream_chat("p1", "s1", "hi"))
        assert "CA file" in (chunks[0].error or "")
        await client.aclose()
    assert sent == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "é", "\r", "\n", "\r\n", "\u2028", "data: x", ""]), max_size=30),
    st.lists(st.integers(min_value=0, max_value=40), max_size=8),
)
def test_lines_are_the_same_however_the_stream_is_cut(parts: list[str], cuts: list[int]) -> None:
    """The lines read piece by piece are the lines of the whole text, wherever it was cut (a
    \\r\\n cut in two included); only \\r\\n, \\r and \\n end a line."""
    import asyncio
    import re

    text = "".join(parts)
    points = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    pieces = [text[a:b] for a, b in itertools.pairwise(points)]

    async def feed() -> AsyncIterator[str]:
        for piece in pieces:
            yield piece

    async def read() -> list[str]:
        return [line async for line in sse_lines(feed())]

    expected = re.split(r"\r\n|\r|\n", text)
    if expected and expected[-1] == "":
        expected.pop()
    assert asyncio.run(read()) == expected
