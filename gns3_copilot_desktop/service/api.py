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

This module holds the routes and the application; the request bodies are in `requests`, the state
behind the routes (owners, per-project agents, turns) in `chat_service`, the error answers in
`errors`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.service.auth import Caller
from gns3_copilot_desktop.service.chat_service import ChatService, ServiceConfig
from gns3_copilot_desktop.service.classroom_routes import classroom_routes
from gns3_copilot_desktop.service.errors import EXCEPTION_HANDLERS, HttpError
from gns3_copilot_desktop.service.requests import (
    MAX_ID_CHARS,
    BoundedDecision,
    ChatRequest,
    ResumeRequest,
    SessionCreate,
    SessionUpdate,
    UndoneRequest,
    canonical_project_id,
    parse_body,
)

PREFIX = "/v3/chat"
MAX_QUERY_CHARS = 500
MAX_TOOL_NAME_CHARS = 100


def _service(request: Request) -> ChatService:
    service: ChatService = request.app.state.chat
    return service


async def _caller(request: Request) -> Caller:
    return await _service(request).auth.caller(request.headers.get("authorization"))


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
    body: ChatRequest = await parse_body(request, ChatRequest)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        mode = await _exam_gate(chat, agent, caller, body.project_id, body.session_id)
        if body.session_id is None:
            info = await agent.create_session(None, mode or body.mode or "assistant")
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


async def _exam_gate(
    chat: ChatService,
    agent: AgentService,
    caller: Caller,
    project_id: str,
    session_id: str | None,
) -> str | None:
    """While the caller takes an exam in this project the copilot is off, or Tutor only as the
    trainer set it (403 otherwise); returns the mode a new conversation must have."""
    taking = await chat.classroom.assist_in(caller, project_id)
    if taking is None:
        return None
    title, assist = taking
    if assist != "tutor":
        raise HttpError(403, f"The copilot is off during the exam “{title}”.")
    if session_id is not None and (await agent.store.get_session(session_id)).mode != "tutor":
        raise HttpError(403, f"Only a Tutor conversation is open during the exam “{title}”.")
    return "tutor"


async def resume(request: Request) -> Response:
    caller = await _caller(request)
    body: ResumeRequest = await parse_body(request, ResumeRequest)
    session_id = _session_id(request)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        await chat.owned_session(caller, body.project_id, session_id)
        await _exam_gate(chat, agent, caller, body.project_id, session_id)
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
    body: SessionCreate = await parse_body(request, SessionCreate)
    chat = _service(request)
    async with chat.project(caller, body.project_id) as agent:
        mode = await _exam_gate(chat, agent, caller, body.project_id, None)
        info = await agent.create_session(body.title, mode or body.mode)
        await chat.owners.add(body.project_id, info.id, caller.user_id)
        return JSONResponse(info.model_dump(mode="json"), status_code=201)


async def update_session(request: Request) -> Response:
    caller = await _caller(request)
    body: SessionUpdate = await parse_body(request, SessionUpdate)
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
    body: UndoneRequest = await parse_body(request, UndoneRequest)
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
    routes += classroom_routes()
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=EXCEPTION_HANDLERS,
    )
    app.state.chat = chat
    return app
