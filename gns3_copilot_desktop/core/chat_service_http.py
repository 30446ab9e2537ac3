"""The HTTP connection to a copilot service (``gns3-copilot serve``) that `ChatServiceClient` uses.

Every request carries the user's GNS3 login as ``Authorization: Bearer <JWT>``, read fresh from
the token source each time and never stored. A non-2xx answer is raised as the project's error:
401 `Gns3AuthError`, 403 `Gns3PermissionError`, 404 `SessionNotFoundError`, anything else
`CopilotServiceError`, with the service's own message when it sent one.

HTTPS is checked against the system's trusted certificates, or a CA file the user chose (a
school's own CA). A service that restarts (a replica behind a proxy) is waited for a short while:
a refused connection is tried again, as nothing was sent.

A stream's response is read into chunks by `read_chunks`, which keeps the rules of
`core.protocol`: a stream that stops early or sends something unreadable ends with one ``error``
chunk and ``done``.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncGenerator, Callable
from typing import Any

import httpx

from gns3_copilot_desktop.core.chat_service_sse import (
    EventTooLargeError,
    parse_chunk,
    sse_data,
    sse_lines,
)
from gns3_copilot_desktop.core.errors import (
    CopilotError,
    CopilotServiceError,
    Gns3AuthError,
    Gns3PermissionError,
    SessionNotFoundError,
)
from gns3_copilot_desktop.core.protocol import ChatChunk

STREAM_READ_TIMEOUT_S = 300.0
"""Longest silence on a stream: the service sends heartbeats far more often than this."""
LOST_TEXT = "The connection to the copilot service was lost: {reason}"
EARLY_END_TEXT = "The copilot service ended the answer before it was complete."
TOO_LARGE_TEXT = "The copilot service sent an event larger than the dock accepts."
UNREADABLE_TEXT = "The copilot service sent something that is not a chat event."
UNREACHABLE_TEXT = "The copilot service at {url} cannot be reached: {reason}"
CA_FILE_TEXT = "The CA file {path} for the copilot service cannot be used: {reason}"
RECONNECT_S = 15.0
"""How long a service that refuses connections (a replica restarting) is tried again."""

TokenSource = Callable[[], str]
"""The caller's GNS3 JWT, read for each request; raises `Gns3AuthError` when there is none."""


class ServiceConnection:
    """Pooled HTTP connections to one copilot service, with its login, TLS check and retries."""

    def __init__(
        self,
        base_url: str,
        token: TokenSource,
        *,
        timeout: float,
        transport: httpx.AsyncBaseTransport | None,
        ca_file: str | None,
        reconnect_s: float,
    ) -> None:
        """A ``ca_file`` that cannot be used makes every request fail with `CopilotServiceError`
        saying so (nothing is sent with a weaker check)."""
        self.base_url = base_url
        self._token = token
        self._reconnect_s = reconnect_s
        self._tls_problem: CopilotServiceError | None = None
        try:
            verify = tls_context(ca_file)
        except CopilotServiceError as exc:
            self._tls_problem = exc
            verify = ssl.create_default_context()
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            transport=transport,
            headers={"Accept": "application/json"},
            verify=verify,
        )

    async def aclose(self) -> None:
        """Close the pooled connections."""
        await self._http.aclose()

    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._token()}"}

    async def open_stream(
        self,
        path: str,
        body: dict[str, Any] | None,
        *,
        read_timeout: float = STREAM_READ_TIMEOUT_S,
    ) -> httpx.Response:
        """POST ``body`` (or GET, without one) and return the Server-Sent Events response
        unread; the caller closes it. Silence is allowed up to ``read_timeout`` (a turn thinks
        between events)."""
        request = self._http.build_request(
            "GET" if body is None else "POST",
            path,
            json=body,
            headers={**self._auth(), "Accept": "text/event-stream"},
            timeout=httpx.Timeout(self._http.timeout.connect, read=read_timeout),
        )
        return await self._send(request, stream=True)

    async def json(self, method: str, path: str, **kwargs: Any) -> Any:
        """The JSON answer of a request (None for an empty one); ``kwargs`` go to httpx."""
        request = self._http.build_request(method, path, headers=self._auth(), **kwargs)
        response = await self._send(request, stream=False)
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError as exc:
            raise CopilotServiceError(UNREADABLE_TEXT, status_code=response.status_code) from exc

    async def text(self, method: str, path: str, **kwargs: Any) -> str:
        """The text answer of a request (a CSV export); ``kwargs`` go to httpx."""
        request = self._http.build_request(method, path, headers=self._auth(), **kwargs)
        response = await self._send(request, stream=False)
        return response.text

    async def _send(self, request: httpx.Request, *, stream: bool) -> httpx.Response:
        """Send; a non-2xx answer is raised as the project's error (the response is closed).

        A refused connection (a service restarting) is tried again for `RECONNECT_S`: nothing
        was sent, so no request runs twice."""
        if self._tls_problem is not None:
            raise self._tls_problem
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._reconnect_s
        delay = 0.1
        while True:
            try:
                response = await self._http.send(request, stream=stream)
                break
            except httpx.ConnectError as exc:
                if _is_tls(exc) or loop.time() + delay > deadline:
                    raise CopilotServiceError(
                        UNREACHABLE_TEXT.format(url=self.base_url, reason=transport_reason(exc))
                    ) from exc
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
            except httpx.TransportError as exc:
                raise CopilotServiceError(
                    UNREACHABLE_TEXT.format(url=self.base_url, reason=transport_reason(exc))
                ) from exc
        if response.is_success:
            return response
        try:
            await response.aread()
        except httpx.TransportError as exc:
            raise CopilotServiceError(
                LOST_TEXT.format(reason=transport_reason(exc)), status_code=response.status_code
            ) from exc
        finally:
            await response.aclose()
        raise status_error(response.status_code, _message(response))


async def read_chunks(response: httpx.Response, session_id: str) -> AsyncGenerator[ChatChunk, None]:
    """The response's events as chunks; a stream that breaks ends with error + done, except a
    connection lost mid-stream: it ends with one ``error`` of kind ``lost``, so the caller can ask
    the service what the turn left.

    After ``done`` the body is still read to its end (the service ends it there): leaving
    httpx's line iterator half-read would leave it to the garbage collector to close.
    """
    failure: str | None = None
    kind = ""
    seen_done = False
    try:
        async for data in sse_data(sse_lines(response.aiter_text())):
            if seen_done:
                continue
            chunk = parse_chunk(data)
            if chunk is None:
                failure = UNREADABLE_TEXT
                break
            yield chunk
            seen_done = chunk.type == "done"
    except httpx.TransportError as exc:
        failure = transport_reason(exc)
        kind = "lost"
    except EventTooLargeError:
        failure = TOO_LARGE_TEXT
    if seen_done:
        return
    if kind == "lost":  # the caller asks the service what the turn left
        yield ChatChunk(type="error", error=failure, error_kind="lost", session_id=session_id)
        return
    yield ChatChunk(
        type="error",
        error=failure or EARLY_END_TEXT,
        error_kind="CopilotServiceError",
        session_id=session_id,
    )
    yield ChatChunk(type="done", session_id=session_id)


def _is_tls(exc: BaseException) -> bool:
    """Whether a connection failed on its certificate (trying again cannot help)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def tls_context(ca_file: str | None) -> ssl.SSLContext:
    """Certificates checked against ``ca_file`` when given, else the system's trusted ones."""
    if not ca_file:
        return ssl.create_default_context()
    try:
        return ssl.create_default_context(cafile=ca_file)
    except (OSError, ssl.SSLError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CopilotServiceError(CA_FILE_TEXT.format(path=ca_file, reason=reason)) from exc


def status_error(status: int, message: str) -> CopilotError:
    """The project's error for an HTTP status of the service."""
    if status == 401:
        return Gns3AuthError(message, status_code=401)
    if status == 403:
        return Gns3PermissionError(message, status_code=403)
    if status == 404:
        return SessionNotFoundError(message)
    return CopilotServiceError(message, status_code=status)


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        body = None
    text = body.get("message") if isinstance(body, dict) else None
    if isinstance(text, str) and text:
        return text
    return f"The copilot service answered HTTP {response.status_code}."


def transport_reason(exc: httpx.TransportError) -> str:
    """A broken connection's reason as the user reads it."""
    return str(exc) or type(exc).__name__
