"""The Chat API routes, on the same AgentService as the dock.

The design's routes and field names, unchanged::

    POST   /v3/chat/stream                       ChatRequest -> Server-Sent Events of ChatResponse
    GET    /v3/chat/history/{session_id}?project_id=...
    GET    /v3/chat/sessions?project_id=...
    POST   /v3/chat/sessions
    DELETE /v3/chat/sessions/{session_id}?project_id=...

and, under the same prefix, what the desktop needs and the design lacks::

    POST   /v3/chat/sessions/{session_id}/resume      approval decisions -> Server-Sent Events
    GET    /v3/chat/sessions/{session_id}/approvals?project_id=...
    GET    /v3/chat/sessions/{session_id}/undone?project_id=...   changes already undone
    POST   /v3/chat/sessions/{session_id}/undone      {"project_id", "tool_call_id"}
    POST   /v3/chat/sessions/{session_id}/abort?project_id=...
    GET    /v3/chat/grants?project_id=...             the caller's "Always allow" tools there
    DELETE /v3/chat/grants/{tool_name}?project_id=...
    PATCH  /v3/chat/sessions/{session_id}             {"project_id", "title"?, "pinned"?}
    GET    /v3/chat/search?project_id=...&q=...

Every request carries the caller's GNS3 login (`auth`); a session belongs to the user who created
it, and is 404 for anyone else. With a PostgreSQL database every piece of the service's state
(owners, grants, turn claims) is in that database, so several service processes behind a proxy
serve any request: a turn running through one is refused (409) through another.

Events are ``data: {json}\\n\\n`` with unset fields left out and
non-ASCII text kept as it is. A client that disconnects stops its turn, as Stop does in the dock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from langchain_core.language_models import BaseChatModel
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.context import RunContext, limits_for
from gns3_copilot_desktop.core.agent.manager import ProjectAgentManager
from gns3_copilot_desktop.core.agent.model_factory import (
    LlmConfig,
    close_chat_model,
    create_base_model,
)
from gns3_copilot_desktop.core.agent.modes import Mode
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.errors import (
    CopilotError,
    Gns3AuthError,
    Gns3NotFoundError,
    Gns3PermissionError,
    SessionNotFoundError,
)
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.core.sessions import resolve_db_path
from gns3_copilot_desktop.core.sessions.pg_service import CLAIM_RENEW_S, PostgresServiceState
from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore, is_postgres_url
from gns3_copilot_desktop.service.auth import Authenticator, Caller, NotAuthenticatedError
from gns3_copilot_desktop.service.owners import ServiceState, SessionOwners

log = logging.getLogger(__name__)

PREFIX = "/v3/chat"
STOPPED_TEXT = "Stopped: the turn was aborted."
ABORT_WAIT_S = 10.0
MAX_BODY_BYTES = 2 * 1024 * 1024
"""Largest request body: a message of `MAX_MESSAGE_CHARS`, every character JSON-escaped, fits."""
MAX_MESSAGE_CHARS = 100_000
MAX_TITLE_CHARS = 200
MAX_QUERY_CHARS = 500
MAX_ID_CHARS = 100
MAX_DECISIONS = 100
MAX_REASON_CHARS = 2_000
MAX_TOOL_NAME_CHARS = 100
MAX_SEEN_PROJECTS = 4096
BUSY_TEXT = (
    "A turn is already running in this conversation (through {holder}). Wait for it to finish, "
    "or start a new conversation; nothing was sent."
)
DEFAULT_IDLE_CLOSE_S = 15 * 60.0
"""A project nobody has used for this long has its database and thread closed."""


def canonical_project_id(raw: str) -> str:
    """The project id in GNS3's own spelling (a lowercase, hyphenated UUID).

    Every spelling of a UUID (upper case, no hyphens, braces, ``urn:uuid:``) names the same
    project, so the service keys its databases and threads by this form only; anything that is
    not a UUID is refused (`ValueError`)."""
    if len(raw) > MAX_ID_CHARS:
        raise ValueError("project_id is not a GNS3 project id (a UUID)")
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise ValueError("project_id is not a GNS3 project id (a UUID)") from None


ProjectId = Annotated[str, AfterValidator(canonical_project_id)]
Title = Annotated[str, Field(min_length=1, max_length=MAX_TITLE_CHARS)]
SessionId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS)]


class BoundedDecision(ApprovalDecision):
    """An approval decision with bounded text: edited arguments are bounded by the body's size."""

    tool_call_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    reason: str | None = Field(default=None, max_length=MAX_REASON_CHARS)
    always_allow: bool = False
    """With ``approve``: later calls of this tool in this project run without asking this user
    (kept on the service, per user and project)."""

    def core(self) -> ApprovalDecision:
        """The decision as the agent takes it."""
        return ApprovalDecision.model_validate(self.model_dump(exclude={"always_allow"}))


# --- request bodies ------------------------------------------------------------------------------


class ChatRequest(BaseModel):
    """The design's ChatRequest."""

    model_config = ConfigDict(extra="forbid")

    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    session_id: SessionId | None = None
    """Created when missing (the new id comes back on every chunk)."""
    project_id: ProjectId
    stream: bool = True
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    mode: Mode | None = None


class SessionCreate(BaseModel):
    """``POST /v3/chat/sessions``."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    title: Title | None = None
    mode: Mode = "assistant"


class SessionUpdate(BaseModel):
    """``PATCH /v3/chat/sessions/{id}``: rename and pin."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    title: Title | None = None
    pinned: bool | None = None


class UndoneRequest(BaseModel):
    """``POST /v3/chat/sessions/{id}/undone``: the dock carried out the Undo of a change."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    tool_call_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)


class ResumeRequest(BaseModel):
    """The user's decisions on the calls a paused turn waits for."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    decisions: list[BoundedDecision] = Field(max_length=MAX_DECISIONS)


# --- the service ---------------------------------------------------------------------------------


@dataclass
class ServiceConfig:
    """What `create_app` needs."""

    gns3_url: str
    data_dir: Path
    llm: LlmConfig
    heartbeat_interval_s: float = 15.0
    database: str = "sqlite"
    """``sqlite`` (a file per project in ``data_dir``) or a ``postgresql://`` URL."""
    model_factory: Callable[[LlmConfig], BaseChatModel] = field(default=create_base_model)
    idle_close_s: float | None = DEFAULT_IDLE_CLOSE_S
    """Close the database and thread of a project unused for this long (None: never)."""


class HttpError(Exception):
    """An answer other than 2xx, with GNS3's error shape ``{"message": ...}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ChatService:
    """The state behind the routes: authentication, owners, per-project agent services, turns."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.auth = Authenticator(config.gns3_url)
        self._owners: ServiceState | None = None
        self._manager = ProjectAgentManager(self._open_service, idle_close_s=config.idle_close_s)
        self._model: BaseChatModel | None = None
        self._running: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._seen_projects: dict[tuple[str, str], float] = {}
        self._owned: set[tuple[str, str, str]] = set()
        self.replica = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        """This service process, as its turn claims name it."""

    @property
    def owners(self) -> ServiceState:
        assert self._owners is not None, "the service is not started"
        return self._owners

    async def start(self) -> None:
        if is_postgres_url(self.config.database):
            self._owners = await PostgresServiceState.open(self.config.database)
        else:
            self._owners = await SessionOwners.open(self.config.data_dir)

    async def close(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        await self._manager.close()
        if self._owners is not None:
            await self._owners.close()
        if self._model is not None:
            await close_chat_model(self._model)
            self._model = None

    async def _open_service(self, project_id: str) -> AgentService:
        if is_postgres_url(self.config.database):
            store = await PostgresSessionStore.open(self.config.database, project_id)
            return AgentService(store, project_id=project_id, tools=network_registry())
        db_path = resolve_db_path(self.config.gns3_url, project_id, self.config.data_dir)
        return await AgentService.open(db_path, project_id=project_id, tools=network_registry())

    def model(self, temperature: float | None) -> BaseChatModel:
        """The chat model, with the temperature a request asks for.

        One model is built for the service's profile and kept; a request's own temperature is a
        shallow copy of it that shares its HTTP clients, so a thousand distinct temperatures
        cost a thousand small objects that go with their requests, not a thousand clients kept
        for the service's lifetime."""
        if self._model is None:
            self._model = self.config.model_factory(self.config.llm)
        if temperature is None or "temperature" not in type(self._model).model_fields:
            return self._model
        return self._model.model_copy(update={"temperature": temperature})

    # -- per request --

    @asynccontextmanager
    async def project(self, caller: Caller, project_id: str) -> AsyncIterator[AgentService]:
        """The project's agent service, once GNS3 confirms the caller sees the project; it is
        not closed as idle while the request uses it."""
        await self._check_project(caller, project_id)
        service = await self._manager.get(project_id)
        with self._manager.hold(project_id):
            yield service

    def forget_session(self, project_id: str, session_id: str) -> None:
        """A deleted session's owner is no longer known here."""
        self._owned = {k for k in self._owned if k[:2] != (project_id, session_id)}

    async def _check_project(self, caller: Caller, project_id: str) -> None:
        """GNS3 lets the caller see the project; a yes is kept as long as the login itself
        (`auth.CACHE_TTL_S`), so a stream of requests does not ask GNS3 each time."""
        key = (caller.token_key, project_id)
        now = time.monotonic()
        if self._seen_projects.get(key, 0.0) > now:
            return
        async with Gns3Client(self.config.gns3_url, token=caller.token) as client:
            await client.get_project(project_id)
        if len(self._seen_projects) >= MAX_SEEN_PROJECTS:
            self._seen_projects = {k: v for k, v in self._seen_projects.items() if v > now}
        self._seen_projects[key] = now + self.auth.ttl_s

    async def owned_session(self, caller: Caller, project_id: str, session_id: str) -> None:
        """404 unless the caller owns the session. A session never changes owner, so a yes is
        kept (a session deleted since is then not found by its store)."""
        key = (project_id, session_id, caller.user_id)
        if key in self._owned:
            return
        if not await self.owners.owns(project_id, session_id, caller.user_id):
            raise HttpError(404, f"No session {session_id} in project {project_id}.")
        if len(self._owned) >= MAX_SEEN_PROJECTS:
            self._owned.clear()
        self._owned.add(key)

    async def context(
        self, caller: Caller, project_id: str, temperature: float | None
    ) -> RunContext:
        return RunContext(
            client=Gns3Client(self.config.gns3_url, token=caller.token),
            project_id=project_id,
            model=self.model(temperature),
            server_url=self.config.gns3_url,
            limits=limits_for(
                self.config.llm, heartbeat_interval_s=self.config.heartbeat_interval_s
            ),
            always_allow=await self.owners.grants(caller.user_id, project_id),
        )

    async def claim(self, key: tuple[str, str]) -> str:
        """Claim the session for a turn through this process, or refuse with 409: a turn runs
        in it through this or another service process (its claim is in the database)."""
        if key in self._running and not self._running[key].done():
            raise HttpError(409, BUSY_TEXT.format(holder="this service"))
        holder = f"{self.replica}:{uuid.uuid4().hex[:8]}"
        other = await self.owners.claim(key[0], key[1], holder)
        if other is not None:
            raise HttpError(409, BUSY_TEXT.format(holder=other))
        return holder

    async def events(
        self,
        key: tuple[str, str],
        holder: str,
        context: RunContext,
        chunks: AsyncIterator[ChatChunk],
    ) -> AsyncIterator[bytes]:
        """The turn's chunks as Server-Sent Events, under the claim `claim` made. The turn runs
        in a task of its own, so an abort from another request (through any service process)
        can stop it; a client that leaves stops it too."""
        queue: asyncio.Queue[ChatChunk | None] = asyncio.Queue()
        session_id = key[1]

        async def keep_claim(turn: asyncio.Task[None]) -> None:
            while not turn.done():
                await asyncio.sleep(CLAIM_RENEW_S)
                try:
                    if await self.owners.renew(key[0], key[1], holder):
                        turn.cancel()  # a Stop sent through another service process
                except CopilotError:
                    log.warning("could not renew the turn's claim", exc_info=True)

        async def produce() -> None:
            keeper = asyncio.create_task(keep_claim(task), name=f"claim-{session_id}")
            try:
                with self._manager.hold(key[0]):
                    async for chunk in chunks:
                        queue.put_nowait(chunk)
            except asyncio.CancelledError:
                stopped = ChatChunk(
                    type="error", error=STOPPED_TEXT, error_kind="cancelled", session_id=session_id
                )
                queue.put_nowait(stopped)
                queue.put_nowait(ChatChunk(type="done", session_id=session_id))
                raise
            finally:
                # the claim goes before the stream ends: a message sent right after the answer
                # (through any replica) finds the session free, even when a Stop cancels this
                # task again while it closes
                keeper.cancel()
                release = asyncio.ensure_future(self._release(key, holder))
                try:
                    await context.client.aclose()
                finally:
                    try:
                        await _finish(release)
                    finally:
                        queue.put_nowait(None)

        task = asyncio.create_task(produce(), name=f"chat-{session_id}")
        self._running[key] = task
        try:
            while (chunk := await queue.get()) is not None:
                yield f"data: {chunk.to_json()}\n\n".encode()
        finally:
            if self._running.get(key) is task:
                del self._running[key]
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _release(self, key: tuple[str, str], holder: str) -> None:
        try:
            await self.owners.release(key[0], key[1], holder)
        except CopilotError:  # the claim runs out on its own
            log.warning("could not release the turn's claim", exc_info=True)

    async def abort(self, project_id: str, session_id: str) -> bool:
        """Stop the session's running turn (through this or another service process) and wait
        until it has ended, so a message sent right after the answer is not refused as
        "already running"."""
        task = self._running.get((project_id, session_id))
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=ABORT_WAIT_S)
            return True
        if not await self.owners.request_stop(project_id, session_id):
            return False
        deadline = asyncio.get_running_loop().time() + ABORT_WAIT_S
        while await self.owners.running(project_id, session_id):
            if asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.1)
        return True


async def _finish(work: asyncio.Future[None]) -> None:
    """Wait until ``work`` is done even if cancelled meanwhile; the cancel is raised after."""
    cancelled = False
    while not work.done():
        try:
            await asyncio.shield(work)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError


# --- routes --------------------------------------------------------------------------------------


def _service(request: Request) -> ChatService:
    service: ChatService = request.app.state.chat
    return service


async def _caller(request: Request) -> Caller:
    return await _service(request).auth.caller(request.headers.get("authorization"))


async def _read_bounded(request: Request) -> bytes:
    """The request's body, refused with 413 as soon as it is known to be larger than
    `MAX_BODY_BYTES`: from its Content-Length before reading any of it, else (a chunked body)
    once that much has come, without reading the rest."""
    too_large = HttpError(413, f"The request body is larger than {MAX_BODY_BYTES} bytes.")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise too_large
    body = bytearray()
    async for piece in request.stream():
        body += piece
        if len(body) > MAX_BODY_BYTES:
            raise too_large
    return bytes(body)


async def _body(request: Request, model: type[BaseModel]) -> Any:
    raw = await _read_bounded(request)
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as exc:
        details = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        raise HttpError(422, f"Invalid request body: {details}") from None


def _project(request: Request) -> str:
    project_id = request.query_params.get("project_id", "")
    if not project_id:
        raise HttpError(422, "The query parameter project_id is required.")
    try:
        return canonical_project_id(project_id)
    except ValueError as exc:
        raise HttpError(422, f"The query parameter {exc}.") from None


def _session_id(request: Request) -> str:
    session_id: str = request.path_params["session_id"]
    if len(session_id) > MAX_ID_CHARS:
        raise HttpError(422, f"A session id is at most {MAX_ID_CHARS} characters.")
    return session_id


def _sse(body: AsyncIterator[bytes]) -> StreamingResponse:
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(body, media_type="text/event-stream", headers=headers)


async def chat_stream(request: Request) -> Response:
    caller = await _caller(request)
    body: ChatRequest = await _body(request, ChatRequest)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        if body.session_id is None:
            info = await agent.create_session(None, body.mode or "assistant")
            await chat.owners.add(body.project_id, info.id, caller.user_id)
            session_id = info.id
        else:
            session_id = body.session_id
            await chat.owned_session(caller, body.project_id, session_id)
        key = (body.project_id, session_id)
        holder = await chat.claim(key)
        try:
            context = await chat.context(caller, body.project_id, body.temperature)
        except BaseException:
            await chat.owners.release(key[0], key[1], holder)
            raise
        events = chat.events(
            key, holder, context, agent.stream_chat(body.message, session_id, context=context)
        )
        if body.stream:
            return _sse(events)
        collected = [ChatChunk.model_validate_json(e[len(b"data: ") : -2]) async for e in events]
        return JSONResponse([c.model_dump(mode="json", exclude_none=True) for c in collected])


async def resume(request: Request) -> Response:
    caller = await _caller(request)
    body: ResumeRequest = await _body(request, ResumeRequest)
    session_id = _session_id(request)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        await chat.owned_session(caller, body.project_id, session_id)
        key = (body.project_id, session_id)
        holder = await chat.claim(key)
        try:
            await _grant(chat, agent, caller, key, body.decisions)
            context = await chat.context(caller, body.project_id, None)
        except BaseException:
            await chat.owners.release(key[0], key[1], holder)
            raise
        decisions = [d.core() for d in body.decisions]
        return _sse(
            chat.events(key, holder, context, agent.resume(session_id, decisions, context=context))
        )


async def _grant(
    chat: ChatService,
    agent: AgentService,
    caller: Caller,
    key: tuple[str, str],
    decisions: list[BoundedDecision],
) -> None:
    """Keep the caller's "Always allow" choices: the tool names are the session's own pending
    calls' (a forged call id grants nothing)."""
    asked = {d.tool_call_id for d in decisions if d.always_allow and d.action == "approve"}
    if not asked:
        return
    pending = await agent.pending_approvals(key[1])
    tools = [p.tool_name for p in pending if p.tool_call_id in asked]
    if tools:
        await chat.owners.grant(caller.user_id, key[0], tools)


async def list_grants(request: Request) -> Response:
    caller = await _caller(request)
    project_id = _project(request)
    tools = await _service(request).owners.grants(caller.user_id, project_id)
    return JSONResponse(sorted(tools))


async def revoke_grant(request: Request) -> Response:
    caller = await _caller(request)
    project_id = _project(request)
    tool = request.path_params["tool_name"]
    if len(tool) > MAX_TOOL_NAME_CHARS:
        raise HttpError(422, f"A tool name is at most {MAX_TOOL_NAME_CHARS} characters.")
    await _service(request).owners.revoke(caller.user_id, project_id, tool)
    return Response(status_code=204)


@asynccontextmanager
async def _owned_session(request: Request) -> AsyncIterator[tuple[AgentService, str]]:
    """The project's agent and the session id of a route that names both in its URL, once the
    caller is known to own that session (404 otherwise)."""
    caller = await _caller(request)
    project_id = _project(request)
    session_id = _session_id(request)
    chat = _service(request)
    async with chat.project(caller, project_id) as agent:
        await chat.owned_session(caller, project_id, session_id)
        yield agent, session_id


async def history(request: Request) -> Response:
    async with _owned_session(request) as (agent, session_id):
        result = await agent.get_history(session_id)
        return JSONResponse(result.model_dump(mode="json", exclude_none=True))


async def list_sessions(request: Request) -> Response:
    caller = await _caller(request)
    project_id = _project(request)
    chat = _service(request)
    async with chat.project(caller, project_id) as agent:
        mine = await chat.owners.sessions_of(project_id, caller.user_id)
        sessions = [s for s in await agent.list_sessions() if s.id in mine]
        return JSONResponse([s.model_dump(mode="json") for s in sessions])


async def create_session(request: Request) -> Response:
    caller = await _caller(request)
    body: SessionCreate = await _body(request, SessionCreate)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        info = await agent.create_session(body.title, body.mode)
        await chat.owners.add(body.project_id, info.id, caller.user_id)
        return JSONResponse(info.model_dump(mode="json"), status_code=201)


async def update_session(request: Request) -> Response:
    caller = await _caller(request)
    body: SessionUpdate = await _body(request, SessionUpdate)
    session_id = _session_id(request)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        await chat.owned_session(caller, body.project_id, session_id)
        if body.title is not None:
            await agent.rename_session(session_id, body.title)
        if body.pinned is not None:
            await agent.set_pinned(session_id, body.pinned)
        info = await agent.store.get_session(session_id)
        return JSONResponse(info.model_dump(mode="json"))


async def delete_session(request: Request) -> Response:
    caller = await _caller(request)
    project_id = _project(request)
    session_id = _session_id(request)
    chat = _service(request)
    async with chat.project(caller, project_id) as agent:
        await chat.owned_session(caller, project_id, session_id)
        await chat.abort(project_id, session_id)
        await agent.delete_session(session_id)
        await chat.owners.remove(project_id, session_id)
        chat.forget_session(project_id, session_id)
        return Response(status_code=204)


async def approvals(request: Request) -> Response:
    async with _owned_session(request) as (agent, session_id):
        pending = await agent.pending_approvals(session_id)
        return JSONResponse([p.model_dump(mode="json", exclude_none=True) for p in pending])


async def undone(request: Request) -> Response:
    """The session's changes already undone (from the service's decision log)."""
    async with _owned_session(request) as (agent, session_id):
        calls = await agent.undone_changes(session_id)
        return JSONResponse({"tool_call_ids": sorted(calls)})


async def record_undone(request: Request) -> Response:
    """Record in the decision log that the dock undid a change of the session; only a call that
    ran in this session can be recorded (anything else is 409)."""
    caller = await _caller(request)
    body: UndoneRequest = await _body(request, UndoneRequest)
    session_id = _session_id(request)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        await chat.owned_session(caller, body.project_id, session_id)
        ran = await agent.decided_calls(session_id, [body.tool_call_id])
        # approved (or edited) and run, or run without needing approval; never a rejected one
        if ran.get(body.tool_call_id) not in ("approve", "edit", "result"):
            raise HttpError(
                409, f"The call {body.tool_call_id} did not run in this session: nothing recorded."
            )
        await agent.record_undo(session_id, body.tool_call_id)
        return Response(status_code=204)


async def abort(request: Request) -> Response:
    caller = await _caller(request)
    project_id = _project(request)
    session_id = _session_id(request)
    chat = _service(request)
    await chat.owned_session(caller, project_id, session_id)
    stopped = await chat.abort(project_id, session_id)
    return JSONResponse({"aborted": stopped})


async def search(request: Request) -> Response:
    caller = await _caller(request)
    project_id = _project(request)
    query = request.query_params.get("q", "").strip()
    if not query:
        raise HttpError(422, "The query parameter q is required.")
    if len(query) > MAX_QUERY_CHARS:
        raise HttpError(422, f"The query parameter q is at most {MAX_QUERY_CHARS} characters.")
    chat = _service(request)
    async with chat.project(caller, project_id) as agent:
        mine = await chat.owners.sessions_of(project_id, caller.user_id)
        hits = [h for h in await agent.search_sessions(query) if h.session_id in mine]
        return JSONResponse([h.model_dump(mode="json") for h in hits])


# --- errors --------------------------------------------------------------------------------------


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status)


async def _http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HttpError)
    return _error(exc.status, exc.message)


async def _copilot_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, CopilotError)
    status = 400
    if isinstance(exc, NotAuthenticatedError | Gns3AuthError):
        status = 401
    elif isinstance(exc, Gns3PermissionError):
        status = 403
    elif isinstance(exc, Gns3NotFoundError | SessionNotFoundError):
        status = 404
    return _error(status, exc.user_message)


def create_app(config: ServiceConfig) -> Starlette:
    """The ASGI application of `gns3-copilot serve`."""
    chat = ChatService(config)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await chat.start()
        try:
            yield
        finally:
            await chat.close()

    routes = [
        Route(f"{PREFIX}/stream", chat_stream, methods=["POST"]),
        Route(f"{PREFIX}/history/{{session_id}}", history, methods=["GET"]),
        Route(f"{PREFIX}/sessions", list_sessions, methods=["GET"]),
        Route(f"{PREFIX}/sessions", create_session, methods=["POST"]),
        Route(f"{PREFIX}/sessions/{{session_id}}", delete_session, methods=["DELETE"]),
        Route(f"{PREFIX}/sessions/{{session_id}}", update_session, methods=["PATCH"]),
        Route(f"{PREFIX}/sessions/{{session_id}}/resume", resume, methods=["POST"]),
        Route(f"{PREFIX}/sessions/{{session_id}}/approvals", approvals, methods=["GET"]),
        Route(f"{PREFIX}/sessions/{{session_id}}/undone", undone, methods=["GET"]),
        Route(f"{PREFIX}/sessions/{{session_id}}/undone", record_undone, methods=["POST"]),
        Route(f"{PREFIX}/sessions/{{session_id}}/abort", abort, methods=["POST"]),
        Route(f"{PREFIX}/search", search, methods=["GET"]),
        Route(f"{PREFIX}/grants", list_grants, methods=["GET"]),
        Route(f"{PREFIX}/grants/{{tool_name}}", revoke_grant, methods=["DELETE"]),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HttpError: _http_error, CopilotError: _copilot_error},
    )
    app.state.chat = chat
    return app
