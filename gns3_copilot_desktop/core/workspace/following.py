"""The workspace's following of the server: the controller's notifications, and a listener
that keeps the project shown open.

The controller's stream tells which projects open and close (the `ProjectFollower` learns it, the
agent services hear it); a stream per shown project keeps GNS3 from closing it (``auto_close``).
Both are retried while the server is away and end with the login.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Notification, Project
from gns3_copilot_desktop.core.gns3.notifications import Backoff, OnLink
from gns3_copilot_desktop.core.workspace.login import WorkspaceLogin

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.manager import ProjectAgentManager

log = logging.getLogger(__name__)

WATCH_BACKOFF = Backoff(maximum=10.0, max_failures=None)
"""The controller's notifications are retried until the server is back, at least every 10 s."""
LISTEN_BACKOFF = Backoff(initial=1.0, maximum=10.0, max_failures=None)
"""The shown project's listener (it keeps the project open) retries as long, less eagerly."""
STOP_TIMEOUT_S = 5.0
"""How long a notification task may take to end once cancelled."""


class WorkspaceFollowing(WorkspaceLogin):
    """The server's projects and the notification tasks that follow them."""

    _manager: ProjectAgentManager | None
    _watcher: asyncio.Task[None] | None
    _project_listener: asyncio.Task[None] | None
    _listened_project: str | None

    async def list_projects(self) -> list[Project]:
        """The server's projects (the follower learns their status too)."""
        await self.follow_external_server()
        projects = await self.check_login().list_projects()
        self.follower.update_projects(projects, preferred=self.settings.last_project_id)
        return projects

    def watch_notifications(
        self,
        on_event: Callable[[Notification], Awaitable[None]] | None = None,
        on_link: OnLink | None = None,
    ) -> asyncio.Task[None]:
        """Follow the controller's notifications: projects opened/closed, services closed.

        ``on_event`` runs after the follower and the agent manager saw each event; ``on_link``
        hears when the server stops answering and when it is back. A server that is down is
        retried until it answers again; the task ends with an auth error (re-raised so the
        caller can ask to log in again) or when it is cancelled.
        """
        if self._watcher is not None and not self._watcher.done():
            return self._watcher
        client = self.check_login()
        self._watcher = asyncio.create_task(
            self._watch(client, on_event, on_link), name="workspace-notifications"
        )
        return self._watcher

    async def _watch(
        self,
        client: Gns3Client,
        on_event: Callable[[Notification], Awaitable[None]] | None,
        on_link: OnLink | None,
    ) -> None:
        stream = client.controller_notifications(backoff=WATCH_BACKOFF, on_link=on_link)
        try:
            async for notification in stream:
                if notification.is_ping:
                    continue
                self.follower.handle(notification)
                try:
                    if self._manager is not None:
                        await self._manager.handle_notification(notification)
                    if on_event is not None:
                        await on_event(notification)
                except CopilotError as exc:
                    # one event that could not be handled must not end the stream (every
                    # later project change would be missed, with nothing on screen saying so)
                    log.warning("notification %s not handled: %s", notification.action, exc)
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()

    async def _stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        listener, self._project_listener = self._project_listener, None
        self._listened_project = None
        await _end_tasks([t for t in (watcher, listener) if t is not None])

    def keep_project_open(self, project_id: str | None) -> None:
        """Listen to ``project_id``'s notifications while it is the copilot's project.

        GNS3 closes a project created with ``auto_close`` a few seconds after its last listener
        left ("no client listening"): without a listener of the app's own, closing a Lab card or
        starting a new conversation closed the project the user was working on. None stops
        listening (the user chose no project, or another one)."""
        if project_id == self._listened_project and (
            self._project_listener is not None and not self._project_listener.done()
        ):
            return
        old, self._project_listener = self._project_listener, None
        if old is not None:
            old.cancel()
        self._listened_project = project_id
        client = self._client
        if project_id is None or client is None or self._closed:
            return
        self._project_listener = asyncio.create_task(
            self._listen_to_project(client, project_id), name="project-listener"
        )

    @property
    def listening_to(self) -> str | None:
        """The project whose notifications the app listens to now (keeping it open)."""
        listener = self._project_listener
        return self._listened_project if listener is not None and not listener.done() else None

    async def _listen_to_project(self, client: Gns3Client, project_id: str) -> None:
        if self.external_auth is not None:
            client.token = self.external_auth.token()
        stream = client.project_notifications(project_id, backoff=LISTEN_BACKOFF)
        try:
            async for notification in stream:
                if notification.action in ("project.closed", "project.deleted"):
                    return  # closed by GNS3 or by someone else: the controller stream says so
        except CopilotError as exc:  # the project went away, or the login did
            log.info("stopped listening to project %s: %s", project_id, exc.user_message)
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()

    async def remember_project(self, project_id: str | None) -> None:
        """Save the project shown last, so the next start prefers it."""
        if self.settings.last_project_id != project_id:
            self.settings.last_project_id = project_id
            await self.save_settings()


async def _end_tasks(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait for them, at most `STOP_TIMEOUT_S`: a task wedged by a nested
    event loop (a modal dialog run inside a coroutine) never ends, and waiting for it without a
    limit kept the process alive after its window closed."""
    pending = [t for t in tasks if not t.done()]
    for task in pending:
        task.cancel()
    if not pending:
        return
    done, stuck = await asyncio.wait(pending, timeout=STOP_TIMEOUT_S)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.info("the task %s had ended: %s", task.get_name(), task.exception())
    for task in stuck:
        log.warning("the task %s did not end when cancelled", task.get_name())
