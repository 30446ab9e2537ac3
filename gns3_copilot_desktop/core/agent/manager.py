"""ProjectAgentManager: one AgentService per GNS3 project, for the app's lifetime.

The app owns the manager (no module-level singleton). A service is created on first use through
the factory the app gives, reused afterwards, and closed and removed when the project is closed or
deleted on the server — `watch` consumes the controller's notification stream for that — and all
services are closed by `close` on exit. With ``idle_close_s`` (the copilot service, where any
number of projects come and go) a project nobody has held or asked for in that time is closed too,
its database and thread with it; it opens again on its next use.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.agent.tools import ToolRegistry
from gns3_copilot_desktop.core.errors import CopilotError, ServicesClosedError
from gns3_copilot_desktop.core.gns3.models import Notification
from gns3_copilot_desktop.core.sessions import resolve_db_path

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.gns3.client import Gns3Client

log = logging.getLogger(__name__)

ServiceFactory = Callable[[str], Awaitable[AgentService]]


def project_service_factory(
    client: Gns3Client, data_dir: Path, *, tools: ToolRegistry | None = None
) -> ServiceFactory:
    """The usual factory: the project's DB in the app's data folder (`resolve_db_path`)."""

    async def factory(project_id: str) -> AgentService:
        db_path = await asyncio.to_thread(resolve_db_path, client.base_url, project_id, data_dir)
        return await AgentService.open(db_path, project_id=project_id, tools=tools)

    return factory


PROJECT_GONE_ACTIONS = frozenset({"project.closed", "project.deleted"})


class ProjectAgentManager:
    """Creates, reuses and closes the per-project agent services."""

    def __init__(
        self,
        factory: ServiceFactory,
        *,
        on_closed: Callable[[str], None] | None = None,
        idle_close_s: float | None = None,
    ) -> None:
        """``on_closed(project_id)`` is called after a project's service was closed;
        ``idle_close_s`` closes a service unused for that long (None: never)."""
        self._factory = factory
        self._on_closed = on_closed
        self._services: dict[str, AgentService] = {}
        self._creating: dict[str, asyncio.Lock] = {}
        self._watcher: asyncio.Task[None] | None = None
        self._closed = False
        self._idle_close_s = idle_close_s
        self._last_used: dict[str, float] = {}
        self._holders: Counter[str] = Counter()
        self._reaper: asyncio.Task[None] | None = None

    @property
    def project_ids(self) -> list[str]:
        """Projects that have a live service."""
        return list(self._services)

    def peek(self, project_id: str) -> AgentService | None:
        """The project's service if it exists, without creating it."""
        return self._services.get(project_id)

    async def get(self, project_id: str) -> AgentService:
        """The project's service, created on first use.

        Raises `ServicesClosedError` once the manager is closed (logout, server switch, exit),
        also when it closed while this call was opening the project's database."""
        if self._closed:
            raise ServicesClosedError()
        self._last_used[project_id] = time.monotonic()
        if self._idle_close_s is not None and self._reaper is None:
            self._reaper = asyncio.create_task(self._close_idle_forever(), name="agent-idle")
        service = self._services.get(project_id)
        if service is not None:
            return service
        async with self._creating.setdefault(project_id, asyncio.Lock()):
            service = self._services.get(project_id)
            if service is None:
                service = await self._factory(project_id)
                if self._closed:
                    # closed while the DB was being opened: nobody would ever close this one,
                    # and its aiosqlite thread would keep the process alive at exit
                    await service.close()
                    raise ServicesClosedError()
                self._services[project_id] = service
            return service

    @contextlib.contextmanager
    def hold(self, project_id: str) -> Iterator[None]:
        """Keep the project's service from being closed as idle while this is held (a request,
        a running turn); its idle time counts from the release."""
        self._holders[project_id] += 1
        try:
            yield
        finally:
            self._holders[project_id] -= 1
            if not self._holders[project_id]:
                del self._holders[project_id]
            self._last_used[project_id] = time.monotonic()

    async def close_idle(self) -> list[str]:
        """Close the services nobody holds and nobody asked for in ``idle_close_s``; returns
        their project ids."""
        if self._idle_close_s is None:
            return []
        closed: list[str] = []
        for project_id in list(self._services):
            idle_s = time.monotonic() - self._last_used.get(project_id, 0.0)
            if project_id in self._holders or idle_s < self._idle_close_s:
                continue
            if await self.close_project(project_id):
                closed.append(project_id)
        return closed

    async def _close_idle_forever(self) -> None:
        assert self._idle_close_s is not None
        while True:
            await asyncio.sleep(max(self._idle_close_s / 4, 0.05))
            try:
                await self.close_idle()
            except CopilotError as exc:
                log.warning("could not close an idle project: %s", exc.user_message)

    async def close_project(self, project_id: str) -> bool:
        """Close and forget the project's service; False when it had none."""
        service = self._services.pop(project_id, None)
        self._creating.pop(project_id, None)
        self._last_used.pop(project_id, None)
        if service is None:
            return False
        await service.close()
        log.info("closed the agent service of project %s", project_id)
        if self._on_closed is not None:
            self._on_closed(project_id)
        return True

    def watch(self, notifications: AsyncIterator[Notification]) -> asyncio.Task[None]:
        """Start consuming controller notifications; closed/deleted projects lose their service."""
        if self._watcher is not None and not self._watcher.done():
            raise RuntimeError("the agent manager already watches a notification stream")
        self._watcher = asyncio.create_task(self._watch(notifications), name="agent-manager-watch")
        return self._watcher

    async def handle_notification(self, notification: Notification) -> None:
        """React to one controller notification."""
        if notification.action not in PROJECT_GONE_ACTIONS:
            return
        project = notification.project
        project_id = project.project_id if project else notification.event.get("project_id")
        if isinstance(project_id, str):
            await self.close_project(project_id)

    async def close(self) -> None:
        """Stop watching and close every service (on application exit)."""
        self._closed = True
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
            self._reaper = None
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None
        for project_id in list(self._services):
            await self.close_project(project_id)

    async def _watch(self, notifications: AsyncIterator[Notification]) -> None:
        try:
            async for notification in notifications:
                await self.handle_notification(notification)
        except CopilotError as exc:
            # The stream gave up (auth or connection); services stay until the app closes them.
            log.warning("stopped watching project notifications: %s", exc.user_message)
