"""Async client of a copilot service (``gns3-copilot serve``): its Chat API over HTTP.

A dock on a laptop can let a lab machine run the agent: every call carries the user's GNS3 login
as ``Authorization: Bearer <JWT>`` (read fresh from `token` each time, never stored), and the
answers are the core's own models (`ChatChunk`, `SessionInfo`, `TranscriptMessage`...).

Streams (``POST /v3/chat/stream`` and ``.../resume``) are Server-Sent Events read as they come.
They keep the rules of `core.protocol`: whatever goes wrong (the service refuses the request, the
connection drops, the stream stops early or sends something unreadable) becomes one ``error``
chunk followed by ``done``; a 401 becomes an error of kind ``Gns3AuthError``, as a refused login
is in the dock. A consumer that stops reading closes the response, which stops the turn on the
service; the client then also asks the service to abort it and waits until it has, so the next
message in that session is not refused as "already running".

Other calls raise the project's errors: 401 `Gns3AuthError`, 403 `Gns3PermissionError`, 404
`SessionNotFoundError`, anything else `CopilotServiceError`.

HTTPS is checked against the system's trusted certificates, or a CA file the user chose (a
school's own CA). A service that restarts (a replica behind a proxy) is waited for a short while:
a refused connection is tried again (nothing was sent), and a stream cut mid-turn asks the
service, once it answers again, what the turn left: calls waiting for approval come back as their
card, so the turn's outcome is not lost with the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import ssl
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
from pydantic import BaseModel

from gns3_copilot_desktop.core.errors import (
    CopilotError,
    CopilotServiceError,
    Gns3AuthError,
    Gns3PermissionError,
    SessionNotFoundError,
)
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk

if TYPE_CHECKING:
    # The sessions package loads LangGraph's checkpointer: only when a call needs its models.
    from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
    from gns3_copilot_desktop.core.sessions.models import (
        SessionInfo,
        SessionSearchHit,
        TranscriptMessage,
    )

log = logging.getLogger(__name__)

PREFIX = "/v3/chat"
STREAM_READ_TIMEOUT_S = 300.0
"""Longest silence on a stream: the service sends heartbeats far more often than this."""
ABORT_TIMEOUT_S = 5.0
LOST_TEXT = "The connection to the copilot service was lost: {reason}"
EARLY_END_TEXT = "The copilot service ended the answer before it was complete."
UNREADABLE_TEXT = "The copilot service sent something that is not a chat event."
UNREACHABLE_TEXT = "The copilot service at {url} cannot be reached: {reason}"
TOO_LARGE_TEXT = "The copilot service sent an event larger than the dock accepts."
CA_FILE_TEXT = "The CA file {path} for the copilot service cannot be used: {reason}"
RECOVERED_TEXT = (
    "The connection to the copilot service was lost mid-answer ({reason}); the conversation so far "
    "is kept on the service."
)
RECONNECT_S = 15.0
"""How long a service that refuses connections (a replica restarting) is tried again."""
MAX_LINE_CHARS = 16 * 1024 * 1024
"""Longest line of a stream: a service that never ends a line cannot fill the dock's memory."""

_M = TypeVar("_M", bound=BaseModel)
_SSE_LINE_END = re.compile(r"\r\n|\r|\n")

TokenSource = Callable[[], str]
"""The caller's GNS3 JWT, read for each request; raises `Gns3AuthError` when there is none."""


class ChatServiceClient:
    """The Chat API of one copilot service (``base_url`` without ``/v3``)."""

    def __init__(
        self,
        base_url: str,
        token: TokenSource,
        *,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        ca_file: str | None = None,
        reconnect_s: float = RECONNECT_S,
    ) -> None:
        """``ca_file``: a PEM file of the CA that signed the service's certificate (None: the
        system's trusted certificates); a file that cannot be used makes every request fail
        with `CopilotServiceError` saying so (nothing is sent with a weaker check)."""
        self.base_url = base_url.strip().rstrip("/")
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

    # --- streams ----------------------------------------------------------------------------

    def stream_chat(
        self, project_id: str, session_id: str, message: str
    ) -> AsyncGenerator[ChatChunk, None]:
        """Send `message` in the session and stream the answer."""
        body = {"message": message, "project_id": project_id, "session_id": session_id}
        return self._stream(f"{PREFIX}/stream", body, project_id, session_id)

    def resume(
        self,
        project_id: str,
        session_id: str,
        decisions: list[ApprovalDecision],
        always_allow: frozenset[str] = frozenset(),
    ) -> AsyncGenerator[ChatChunk, None]:
        """Continue the session's paused turn with the user's decisions; the approved calls in
        ``always_allow`` (call ids) ask the service to run their tool without asking this user
        in this project from now on."""
        body = {
            "project_id": project_id,
            "decisions": [
                d.model_dump(mode="json", exclude_none=True)
                | ({"always_allow": True} if d.tool_call_id in always_allow else {})
                for d in decisions
            ],
        }
        return self._stream(f"{PREFIX}/sessions/{session_id}/resume", body, project_id, session_id)

    async def _stream(
        self, path: str, body: dict[str, Any], project_id: str, session_id: str
    ) -> AsyncGenerator[ChatChunk, None]:
        finished = False
        started = False
        try:
            request = self._http.build_request(
                "POST",
                path,
                json=body,
                headers={**self._auth(), "Accept": "text/event-stream"},
                timeout=httpx.Timeout(self._http.timeout.connect, read=STREAM_READ_TIMEOUT_S),
            )
            response = await self._send(request, stream=True)
            started = True
            try:
                async with contextlib.aclosing(self._events(response, session_id)) as events:
                    async for chunk in events:
                        if chunk.error_kind == "lost":
                            async for recovered in self._recover(project_id, chunk):
                                yield recovered
                            finished = True
                            return
                        finished = finished or chunk.type == "done"
                        yield chunk
            finally:
                await response.aclose()
        except CopilotError as exc:
            for chunk in _failure(exc, session_id):
                yield chunk
            finished = True
        finally:
            if started and not finished:
                # Stopped by the consumer: the closed response already stops the turn; the
                # abort makes sure it has ended before the next message is sent.
                await self._abort_quietly(project_id, session_id)

    async def _events(
        self, response: httpx.Response, session_id: str
    ) -> AsyncGenerator[ChatChunk, None]:
        """The response's events as chunks; a stream that breaks ends with error + done.

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
            failure = _reason(exc)
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

    async def _recover(self, project_id: str, lost: ChatChunk) -> AsyncGenerator[ChatChunk, None]:
        """After a stream cut mid-turn: once the service answers again (the replica restarted,
        or another one behind the proxy), the calls the turn left waiting for approval come back
        as their card; the cut is said in any case."""
        session_id = lost.session_id or ""
        yield ChatChunk(
            type="error",
            error=RECOVERED_TEXT.format(reason=lost.error),
            error_kind="CopilotServiceError",
            session_id=session_id,
        )
        with contextlib.suppress(CopilotError):
            pending = await self.pending_approvals(project_id, session_id)
            if pending:
                yield ChatChunk(type="approval_request", approvals=pending, session_id=session_id)
        yield ChatChunk(type="done", session_id=session_id)

    async def abort(self, project_id: str, session_id: str) -> bool:
        """Stop the session's running turn on the service; True when one was running."""
        answer = await self._json(
            "POST", f"{PREFIX}/sessions/{session_id}/abort", params={"project_id": project_id}
        )
        return bool(answer.get("aborted")) if isinstance(answer, dict) else False

    async def _abort_quietly(self, project_id: str, session_id: str) -> None:
        try:
            async with asyncio.timeout(ABORT_TIMEOUT_S):  # wait_for drops cancels on 3.11
                await self.abort(project_id, session_id)
        except (CopilotError, TimeoutError) as exc:
            log.warning("could not abort the turn on the copilot service: %s", exc)

    # --- sessions and history ---------------------------------------------------------------

    async def history(self, project_id: str, session_id: str) -> list[TranscriptMessage]:
        """The session's transcript, oldest first."""
        from gns3_copilot_desktop.core.sessions.models import TranscriptMessage

        answer = await self._json(
            "GET", f"{PREFIX}/history/{session_id}", params={"project_id": project_id}
        )
        messages = answer.get("messages", []) if isinstance(answer, dict) else []
        return [_model(TranscriptMessage, m) for m in messages]

    async def pending_approvals(self, project_id: str, session_id: str) -> list[ApprovalRequest]:
        """The calls the session's paused turn waits on."""
        answer = await self._json(
            "GET", f"{PREFIX}/sessions/{session_id}/approvals", params={"project_id": project_id}
        )
        return [_model(ApprovalRequest, a) for a in _list(answer)]

    async def undone_changes(self, project_id: str, session_id: str) -> set[str]:
        """The tool call ids of the session whose change was undone (the service's log)."""
        answer = await self._json(
            "GET", f"{PREFIX}/sessions/{session_id}/undone", params={"project_id": project_id}
        )
        ids = answer.get("tool_call_ids", []) if isinstance(answer, dict) else []
        return {i for i in ids if isinstance(i, str)}

    async def record_undo(self, project_id: str, session_id: str, tool_call_id: str) -> None:
        """Record in the service's log that the change of ``tool_call_id`` was undone."""
        body = {"project_id": project_id, "tool_call_id": tool_call_id}
        await self._json("POST", f"{PREFIX}/sessions/{session_id}/undone", json=body)

    async def list_sessions(self, project_id: str) -> list[SessionInfo]:
        """The caller's sessions of the project: pinned first, newest first."""
        from gns3_copilot_desktop.core.sessions.models import SessionInfo

        answer = await self._json("GET", f"{PREFIX}/sessions", params={"project_id": project_id})
        return [_model(SessionInfo, s) for s in _list(answer)]

    async def create_session(self, project_id: str, mode: str = "assistant") -> SessionInfo:
        """A new, empty session of the caller in ``mode``."""
        from gns3_copilot_desktop.core.sessions.models import SessionInfo

        body = {"project_id": project_id, "mode": mode}
        answer = await self._json("POST", f"{PREFIX}/sessions", json=body)
        return _model(SessionInfo, answer)

    async def update_session(
        self,
        project_id: str,
        session_id: str,
        *,
        title: str | None = None,
        pinned: bool | None = None,
    ) -> SessionInfo:
        """Rename and/or pin a session."""
        from gns3_copilot_desktop.core.sessions.models import SessionInfo

        body: dict[str, Any] = {"project_id": project_id}
        if title is not None:
            body["title"] = title
        if pinned is not None:
            body["pinned"] = pinned
        answer = await self._json("PATCH", f"{PREFIX}/sessions/{session_id}", json=body)
        return _model(SessionInfo, answer)

    async def delete_session(self, project_id: str, session_id: str) -> None:
        """Delete a session with its history."""
        await self._json(
            "DELETE", f"{PREFIX}/sessions/{session_id}", params={"project_id": project_id}
        )

    async def grants(self, project_id: str) -> list[str]:
        """The tools this user lets run without asking in the project, kept on the service."""
        answer = await self._json("GET", f"{PREFIX}/grants", params={"project_id": project_id})
        return [str(tool) for tool in _list(answer)]

    async def revoke_grant(self, project_id: str, tool_name: str) -> None:
        """Ask again before each call of ``tool_name`` in the project."""
        await self._json(
            "DELETE", f"{PREFIX}/grants/{tool_name}", params={"project_id": project_id}
        )

    async def search(self, project_id: str, query: str) -> list[SessionSearchHit]:
        """The caller's sessions whose title or messages match `query`."""
        from gns3_copilot_desktop.core.sessions.models import SessionSearchHit

        answer = await self._json(
            "GET", f"{PREFIX}/search", params={"project_id": project_id, "q": query}
        )
        return [_model(SessionSearchHit, h) for h in _list(answer)]

    # --- HTTP -------------------------------------------------------------------------------

    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._token()}"}

    async def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        request = self._http.build_request(method, path, headers=self._auth(), **kwargs)
        response = await self._send(request, stream=False)
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError as exc:
            raise CopilotServiceError(UNREADABLE_TEXT, status_code=response.status_code) from exc

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
                        UNREACHABLE_TEXT.format(url=self.base_url, reason=_reason(exc))
                    ) from exc
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
            except httpx.TransportError as exc:
                raise CopilotServiceError(
                    UNREACHABLE_TEXT.format(url=self.base_url, reason=_reason(exc))
                ) from exc
        if response.is_success:
            return response
        try:
            await response.aread()
        except httpx.TransportError as exc:
            raise CopilotServiceError(
                LOST_TEXT.format(reason=_reason(exc)), status_code=response.status_code
            ) from exc
        finally:
            await response.aclose()
        raise status_error(response.status_code, _message(response))


# --- the wire ---------------------------------------------------------------------------------


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


class EventTooLargeError(Exception):
    """A stream's line is longer than `MAX_LINE_CHARS`."""


async def sse_lines(
    texts: AsyncIterator[str], max_chars: int = MAX_LINE_CHARS
) -> AsyncIterator[str]:
    """The lines of a Server-Sent Events stream, ended by ``\\r\\n``, ``\\r`` or ``\\n`` only.

    Not `str.splitlines` (nor httpx's line iterator, built on it): U+2028, U+0085 and the other
    Unicode line breaks are text inside an event's JSON, and model or device text holds them.
    """
    pending = ""
    for_cr = False  # the previous piece ended with \r: a \n that starts this one belongs to it
    async for text in texts:
        if for_cr and text.startswith("\n"):
            text = text[1:]
        for_cr = text.endswith("\r")
        pieces = _SSE_LINE_END.split(pending + text)
        pending = pieces.pop()
        for line in pieces:
            yield line
        if len(pending) > max_chars:
            raise EventTooLargeError()
    if pending:
        yield pending


async def sse_data(lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """The ``data`` of each Server-Sent Event (multi-line data joined with newlines).

    Comments (``: ping``), ``event:``/``id:``/``retry:`` fields and empty events are skipped.
    """
    data: list[str] = []
    async for raw in lines:
        line = raw
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)


def parse_chunk(data: str) -> ChatChunk | None:
    """One event's data as a chunk; None when it is not one. Fields this version does not know
    (a newer service) are left out rather than refused."""
    try:
        raw = json.loads(data)
    except ValueError:
        return None
    if not isinstance(raw, dict):
        return None
    known = {k: v for k, v in raw.items() if k in ChatChunk.model_fields}
    try:
        return ChatChunk.model_validate(known)
    except ValueError:
        return None


def status_error(status: int, message: str) -> CopilotError:
    """The project's error for an HTTP status of the service."""
    if status == 401:
        return Gns3AuthError(message, status_code=401)
    if status == 403:
        return Gns3PermissionError(message, status_code=403)
    if status == 404:
        return SessionNotFoundError(message)
    return CopilotServiceError(message, status_code=status)


def _failure(exc: CopilotError, session_id: str) -> list[ChatChunk]:
    error = ChatChunk(
        type="error",
        error=exc.user_message,
        error_kind=type(exc).__name__,
        session_id=session_id,
    )
    return [error, ChatChunk(type="done", session_id=session_id)]


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        body = None
    text = body.get("message") if isinstance(body, dict) else None
    if isinstance(text, str) and text:
        return text
    return f"The copilot service answered HTTP {response.status_code}."


def _reason(exc: httpx.TransportError) -> str:
    return str(exc) or type(exc).__name__


def _list(answer: Any) -> list[Any]:
    if not isinstance(answer, list):
        raise CopilotServiceError(UNREADABLE_TEXT)
    return answer


def _model(model: type[_M], data: Any) -> _M:
    try:
        return model.model_validate(data)
    except ValueError as exc:
        raise CopilotServiceError(UNREADABLE_TEXT) from exc
