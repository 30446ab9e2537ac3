"""ProjectAgentManager: one AgentService per GNS3 project, for the app's lifetime.

The app owns the manager (no module-level singleton). A service is created on first use through
the factory the app gives, reused afterwards, and closed and removed when the project is closed or
deleted on the server — `watch` consumes the controller's notification stream for that — and all
services are closed by `close` on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
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
        self, factory: ServiceFactory, *, on_closed: Callable[[str], None] | None = None
    ) -> None:
        """``on_closed(project_id)`` is called after a project's service was closed."""
        self._factory = factory
        self._on_closed = on_closed
        self._services: dict[str, AgentService] = {}
        self._creating: dict[str, asyncio.Lock] = {}
        self._watcher: asyncio.Task[None] | None = None
        self._closed = False

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

    async def close_project(self, project_id: str) -> bool:
        """Close and forget the project's service; False when it had none."""
        service = self._services.pop(project_id, None)
        self._creating.pop(project_id, None)
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
