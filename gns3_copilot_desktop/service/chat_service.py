"""The state behind the Chat API's routes: logins, session owners, per-project agents, turns.

`ChatService` confirms with GNS3 that a caller sees a project, keeps one `AgentService` per project
(closed when idle), knows who owns each session, and runs each turn in a task of its own under a
claim in the service's state, so a Stop through any service process ends it and a second turn in
the same session is refused (409) while one runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from gns3_copilot_desktop.core.agent.context import RunContext, limits_for
from gns3_copilot_desktop.core.agent.manager import ProjectAgentManager
from gns3_copilot_desktop.core.agent.model_factory import (
    LlmConfig,
    close_chat_model,
    create_base_model,
)
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.agent.topology_cache import TopologyCache
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.core.sessions import resolve_db_path
from gns3_copilot_desktop.core.sessions.pg_service import CLAIM_RENEW_S, PostgresServiceState
from gns3_copilot_desktop.core.sessions.pg_store import PostgresSessionStore, is_postgres_url
from gns3_copilot_desktop.service.auth import Authenticator, Caller
from gns3_copilot_desktop.service.classroom import Classroom
from gns3_copilot_desktop.service.classroom_store import ClassroomStore
from gns3_copilot_desktop.service.console_logins import ServiceLogins
from gns3_copilot_desktop.service.errors import HttpError
from gns3_copilot_desktop.service.owners import ServiceState, SessionOwners

log = logging.getLogger(__name__)

STOPPED_TEXT = "Stopped: the turn was aborted."
ABORT_WAIT_S = 10.0
MAX_SEEN_PROJECTS = 4096
BUSY_TEXT = (
    "A turn is already running in this conversation (through {holder}). Wait for it to finish, "
    "or start a new conversation; nothing was sent."
)
DEFAULT_IDLE_CLOSE_S = 15 * 60.0
"""A project nobody has used for this long has its database and thread closed."""


@dataclass
class ServiceConfig:
    """What `api.create_app` needs."""

    gns3_url: str
    data_dir: Path
    llm: LlmConfig
    heartbeat_interval_s: float = 15.0
    database: str = "sqlite"
    """``sqlite`` (a file per project in ``data_dir``) or a ``postgresql://`` URL."""
    model_factory: Callable[[LlmConfig], BaseChatModel] = field(default=create_base_model)
    idle_close_s: float | None = DEFAULT_IDLE_CLOSE_S
    """Close the database and thread of a project unused for this long (None: never)."""
    trainer_group: str | None = None
    """Members of this GNS3 group are the classroom's trainers (besides GNS3 administrators)."""
    console_logins: ServiceLogins | None = None
    """The class's routers' console logins, for the tasks' checks and faults."""


class ChatService:
    """The state behind the routes: authentication, owners, per-project agent services, turns."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.auth = Authenticator(config.gns3_url)
        self._owners: ServiceState | None = None
        self._classroom: Classroom | None = None
        self._manager = ProjectAgentManager(self._open_service, idle_close_s=config.idle_close_s)
        self.topology = TopologyCache()
        """Every turn's topology summaries (per login and project, see `TopologyCache`)."""
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

    @property
    def classroom(self) -> Classroom:
        assert self._classroom is not None, "the service is not started"
        return self._classroom

    async def start(self) -> None:
        if is_postgres_url(self.config.database):
            self._owners = await PostgresServiceState.open(self.config.database)
        else:
            self._owners = await SessionOwners.open(self.config.data_dir)
        store = await ClassroomStore.open(self.config.database, self.config.data_dir)
        self._classroom = Classroom(
            store,
            self.config.gns3_url,
            trainer_group=self.config.trainer_group,
            logins=self.config.console_logins,
        )

    async def close(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        await self._manager.close()
        await self.topology.close()
        if self._owners is not None:
            await self._owners.close()
        if self._classroom is not None:
            await self._classroom.store.close()
        if self._model is not None:
            await close_chat_model(self._model)
            self._model = None

    async def _open_service(self, project_id: str) -> AgentService:
        if is_postgres_url(self.config.database):
            # Every turn runs under `claim`, in the database all replicas share: the agent's
            # own lease on the turn would cost five more statements a turn for nothing. (With
            # SQLite the service's claims are in memory, one process's: the agent's lease in
            # the project's file is what a second process on the same folder would meet.)
            store = await PostgresSessionStore.open(self.config.database, project_id)
            return AgentService(
                store, project_id=project_id, tools=network_registry(), claims_turns=False
            )
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
            topology_cache=self.topology,
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
        chunks: AsyncGenerator[ChatChunk, None],
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
                    async with contextlib.aclosing(chunks) as turn:
                        async for chunk in turn:
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
