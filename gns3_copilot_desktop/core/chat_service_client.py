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

The connection itself (the login on each request, HTTPS checked against the system's or the user's
CA, a restarting service waited for) is `chat_service_http`; the stream's text becomes chunks in
`chat_service_sse`. A stream cut mid-turn asks the service, once it answers again, what the turn
left: calls waiting for approval come back as their card, so the turn's outcome is not lost with
the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from gns3_copilot_desktop.core.chat_service_http import (
    RECONNECT_S,
    UNREADABLE_TEXT,
    ServiceConnection,
    TokenSource,
    read_chunks,
)
from gns3_copilot_desktop.core.classroom_client import ClassroomClient
from gns3_copilot_desktop.core.errors import CopilotError, CopilotServiceError
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk

if TYPE_CHECKING:
    import httpx

    # The sessions package loads LangGraph's checkpointer: only when a call needs its models.
    from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
    from gns3_copilot_desktop.core.sessions.models import (
        SessionInfo,
        SessionSearchHit,
        TranscriptMessage,
    )

log = logging.getLogger(__name__)

PREFIX = "/v3/chat"
ABORT_TIMEOUT_S = 5.0
RECOVERED_TEXT = (
    "The connection to the copilot service was lost mid-answer ({reason}); the conversation so far "
    "is kept on the service."
)

_M = TypeVar("_M", bound=BaseModel)


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
        self._connection = ServiceConnection(
            self.base_url,
            token,
            timeout=timeout,
            transport=transport,
            ca_file=ca_file,
            reconnect_s=reconnect_s,
        )

    async def aclose(self) -> None:
        """Close the pooled connections."""
        await self._connection.aclose()

    @property
    def classroom(self) -> ClassroomClient:
        """The service's classroom routes, on the same connection and login."""
        return ClassroomClient(self._connection)

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
            response = await self._connection.open_stream(path, body)
            started = True
            try:
                async with contextlib.aclosing(read_chunks(response, session_id)) as events:
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
        answer = await self._connection.json(
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

        answer = await self._connection.json(
            "GET", f"{PREFIX}/history/{session_id}", params={"project_id": project_id}
        )
        messages = answer.get("messages", []) if isinstance(answer, dict) else []
        return [_model(TranscriptMessage, m) for m in messages]

    async def pending_approvals(self, project_id: str, session_id: str) -> list[ApprovalRequest]:
        """The calls the session's paused turn waits on."""
        answer = await self._connection.json(
            "GET", f"{PREFIX}/sessions/{session_id}/approvals", params={"project_id": project_id}
        )
        return [_model(ApprovalRequest, a) for a in _list(answer)]

    async def undone_changes(self, project_id: str, session_id: str) -> set[str]:
        """The tool call ids of the session whose change was undone (the service's log)."""
        answer = await self._connection.json(
            "GET", f"{PREFIX}/sessions/{session_id}/undone", params={"project_id": project_id}
        )
        ids = answer.get("tool_call_ids", []) if isinstance(answer, dict) else []
        return {i for i in ids if isinstance(i, str)}

    async def record_undo(self, project_id: str, session_id: str, tool_call_id: str) -> None:
        """Record in the service's log that the change of ``tool_call_id`` was undone."""
        body = {"project_id": project_id, "tool_call_id": tool_call_id}
        await self._connection.json("POST", f"{PREFIX}/sessions/{session_id}/undone", json=body)

    async def list_sessions(self, project_id: str) -> list[SessionInfo]:
        """The caller's sessions of the project: pinned first, newest first."""
        from gns3_copilot_desktop.core.sessions.models import SessionInfo

        answer = await self._connection.json(
            "GET", f"{PREFIX}/sessions", params={"project_id": project_id}
        )
        return [_model(SessionInfo, s) for s in _list(answer)]

    async def create_session(self, project_id: str, mode: str = "assistant") -> SessionInfo:
        """A new, empty session of the caller in ``mode``."""
        from gns3_copilot_desktop.core.sessions.models import SessionInfo

        body = {"project_id": project_id, "mode": mode}
        answer = await self._connection.json("POST", f"{PREFIX}/sessions", json=body)
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
        answer = await self._connection.json("PATCH", f"{PREFIX}/sessions/{session_id}", json=body)
        return _model(SessionInfo, answer)

    async def delete_session(self, project_id: str, session_id: str) -> None:
        """Delete a session with its history."""
        await self._connection.json(
            "DELETE", f"{PREFIX}/sessions/{session_id}", params={"project_id": project_id}
        )

    async def grants(self, project_id: str) -> list[str]:
        """The tools this user lets run without asking in the project, kept on the service."""
        answer = await self._connection.json(
            "GET", f"{PREFIX}/grants", params={"project_id": project_id}
        )
        return [str(tool) for tool in _list(answer)]

    async def revoke_grant(self, project_id: str, tool_name: str) -> None:
        """Ask again before each call of ``tool_name`` in the project."""
        await self._connection.json(
            "DELETE", f"{PREFIX}/grants/{tool_name}", params={"project_id": project_id}
        )

    async def search(self, project_id: str, query: str) -> list[SessionSearchHit]:
        """The caller's sessions whose title or messages match `query`."""
        from gns3_copilot_desktop.core.sessions.models import SessionSearchHit

        answer = await self._connection.json(
            "GET", f"{PREFIX}/search", params={"project_id": project_id, "q": query}
        )
        return [_model(SessionSearchHit, h) for h in _list(answer)]


def _failure(exc: CopilotError, session_id: str) -> list[ChatChunk]:
    error = ChatChunk(
        type="error",
        error=exc.user_message,
        error_kind=type(exc).__name__,
        session_id=session_id,
    )
    return [error, ChatChunk(type="done", session_id=session_id)]


def _list(answer: Any) -> list[Any]:
    if not isinstance(answer, list):
        raise CopilotServiceError(UNREADABLE_TEXT)
    return answer


def _model(model: type[_M], data: Any) -> _M:
    try:
        return model.model_validate(data)
    except ValueError as exc:
        raise CopilotServiceError(UNREADABLE_TEXT) from exc
