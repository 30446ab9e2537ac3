"""`ServerWatch`: the GNS3 server's notification stream, as the header follows it.

Project events refill the project list (and say so when GNS3 closed or deleted the project the
chat is about). While the server does not answer the header says so; once it is back it says
"reconnected" for a moment and reads the projects again, since the events sent meanwhile are
lost. A stream that ended is started again (a refused login asks for the login instead).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from PyQt6.QtCore import QCoreApplication, QObject, QTimer

from gns3_copilot_desktop.core.errors import CopilotError, Gns3AuthError
from gns3_copilot_desktop.core.gns3.models import Notification
from gns3_copilot_desktop.core.gns3.notifications import LinkState
from gns3_copilot_desktop.ui.qt_async import spawn

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.header.header import CopilotHeader

log = logging.getLogger(__name__)

RELIST_AFTER_RECONNECT_S = 2.0
RECONNECTED_NOTICE_MS = 8_000
RESTART_WATCH_MS = 2_000


class ServerWatch(QObject):
    """Watches the server's notifications for the header, and the connection to it."""

    def __init__(self, header: CopilotHeader) -> None:
        super().__init__(header)
        self.header = header
        self.task: asyncio.Task[None] | None = None
        """The running notification watcher, if any."""
        self.notifications_seen = 0
        """Controller events received (the server sends some as soon as the stream is up)."""
        self._unreachable = False

    def start(self) -> None:
        """Watch the server's notifications (once: a running watcher is kept)."""
        if self.task is not None and not self.task.done():
            return
        try:
            task = self.header.workspace.watch_notifications(self._notified, self._link_changed)
        except Gns3AuthError:
            return
        task.add_done_callback(self._watch_ended)
        self.task = task

    async def _notified(self, notification: Notification) -> None:
        self.notifications_seen += 1
        if notification.action.startswith("project.") and not self.header.closed:
            self.header.projects.fill()
            self._say_why_closed(notification)

    def _say_why_closed(self, notification: Notification) -> None:
        """GNS3 closed or deleted the project the chat is about: say so, not just "No project
        open" (the app keeps it open itself: someone closed it in GNS3, or GNS3 did)."""
        project = notification.project
        if project is None or project.project_id != self.header.backend.project_id:
            return
        if notification.action == "project.closed":
            text = QCoreApplication.translate(
                "CopilotHeader",
                "GNS3 closed the project “%1” (closed in GNS3 or by another client). "
                "Open it again in GNS3 to go on.",
            )
        elif notification.action == "project.deleted":
            text = QCoreApplication.translate(
                "CopilotHeader", "The project “%1” was deleted in GNS3."
            )
        else:
            return
        self.header.show_message(text.replace("%1", project.name), error=True)

    def _link_changed(self, state: LinkState) -> None:
        """Say so while the server does not answer; clear it, and catch up, once it is back."""
        header = self.header
        if header.closed:
            return
        text = unreachable_text()
        if not state.connected:
            self._unreachable = True
            header.show_message(text, error=True)
            header.message_label.setToolTip(state.reason or "")
            return
        if not self._unreachable:
            return
        self._unreachable = False
        if header.message_label.text() == text:
            header.show_message(reconnected_text())
            header.message_label.setToolTip("")
            QTimer.singleShot(RECONNECTED_NOTICE_MS, self._clear_reconnected)
        spawn(self._catch_up(), name="projects-after-reconnect")

    def _clear_reconnected(self) -> None:
        header = self.header
        if not header.closed and header.message_label.text() == reconnected_text():
            header.show_message(None)

    async def _catch_up(self) -> None:
        """The project events sent while the server was unreachable are lost: list again, and
        once more a moment later (an event sent while the server was still setting up the new
        subscription is lost too)."""
        for delay in (0.0, RELIST_AFTER_RECONNECT_S):
            await asyncio.sleep(delay)
            if self.header.closed:
                return
            await self.header.projects.quiet_refresh()
            if not self.header.closed:
                self.header.projects.fill()

    def _watch_ended(self, task: asyncio.Task[None]) -> None:
        header = self.header
        if task.cancelled() or header.closed:
            return
        exc = task.exception()
        if isinstance(exc, Gns3AuthError):
            header.login.auth_failed()
            return
        if isinstance(exc, CopilotError):
            header.show_message(exc.user_message, error=True)
        elif exc is not None:
            log.error("the notification watcher failed", exc_info=exc)
            header.show_message(unreachable_text(), error=True)
        # without the stream, projects opened or closed in GNS3 would go unseen: start it
        # again (the link reports say "unreachable" meanwhile, "reconnected" once it is up)
        self._unreachable = True
        QTimer.singleShot(RESTART_WATCH_MS, self._restart)

    def _restart(self) -> None:
        if not self.header.closed and self.header.workspace.logged_in:
            self.start()


def reconnected_text() -> str:
    """What the header says for a moment once the notification connection is back."""
    return QCoreApplication.translate(
        "CopilotHeader", "Reconnected to GNS3; changes made meanwhile were read again."
    )


def unreachable_text() -> str:
    """What the header says while the notification connection to the server is down."""
    return QCoreApplication.translate("CopilotHeader", "GNS3 unreachable — retrying")
