"""Whether a project may have changed since a given moment: a follower of its notifications.

A copy of what GNS3 holds (the topology summary the agent reads before every model call) may
only be reused while something reports every change to the project. `ProjectChangeWatch`
follows the project's notification stream and counts what it hears in a *generation*; a copy
taken at generation ``g`` is current while the generation is still ``g``.

The watch answers None ("cannot tell", so read again) whenever the stream is not subscribed:
before the first message after each (re)connect — GNS3 accepts the websocket before it adds the
subscriber's queue and greets every new queue with a ping at once, so the first message is the
proof that nothing can be missed from then on — after a drop, and once the stream has ended
(refused login, project gone, server gone, nobody used the watch for ``idle_s``). Every message
but the server's ping counts as a change: an event kind nobody thought of costs a re-read, never a
stale copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, Callable

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Notification
from gns3_copilot_desktop.core.gns3.notifications import LinkState, OnLink

log = logging.getLogger(__name__)

EventStream = Callable[[OnLink], AsyncGenerator[Notification, None]]
"""Opens the project's notification stream, telling ``on_link`` when it is up or down."""

_ENDS = frozenset({"project.closed", "project.deleted"})


class ProjectChangeWatch:
    """Counts the changes of one project from its notification stream (see the module)."""

    def __init__(
        self,
        events: EventStream,
        *,
        idle_s: float,
        label: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._events = events
        self._idle_s = idle_s
        self._label = label
        self._clock = clock
        self._generation = 0
        self._live = False
        self._last_used = clock()
        self.ended_at: float | None = None
        """When the stream ended (None while it runs or before it starts)."""
        self.idled = False
        """It ended because nobody used it (not refused, not lost): a new one may start now."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Follow the stream in a task of the running loop."""
        self._task = asyncio.create_task(self._follow(), name=f"change-watch {self._label}")
        self._task.add_done_callback(_log_failure)

    @property
    def running(self) -> bool:
        """True until the stream ended (for whatever reason)."""
        return self._task is not None and not self._task.done()

    def generation(self) -> int | None:
        """The count of changes so far, or None while changes could go unseen. Using the watch
        keeps it alive for another ``idle_s``."""
        self._last_used = self._clock()
        return self._generation if self._live and self.running else None

    def changed(self) -> None:
        """Count a change made by this process (a tool's), before its notification arrives."""
        self._generation += 1

    async def close(self) -> None:
        """Stop following."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _follow(self) -> None:
        try:
            async with contextlib.aclosing(self._events(self._on_link)) as events:
                async for notification in events:
                    if not self._live or not notification.is_ping:
                        self._generation += 1
                    self._live = True
                    if notification.action in _ENDS:
                        return
                    if self._idle():
                        self.idled = True
                        return
        except CopilotError as exc:  # refused, project gone, server gone: reads every time now
            log.info("change watch %s ended: %s", self._label, exc.user_message)
        finally:
            self._live = False
            self._generation += 1
            self.ended_at = self._clock()

    def _on_link(self, state: LinkState) -> None:
        # up: not yet subscribed (the first message says so); down: changes go unseen
        self._live = False
        self._generation += 1
        if not state.connected:
            log.info("change watch %s lost its stream (%s)", self._label, state.reason)

    def _idle(self) -> bool:
        # the server pings every ~5 s, so an unused watch ends within idle_s + 5 s: while it is
        # connected GNS3 counts it as a listener and keeps an auto-closing project open
        return self._clock() - self._last_used > self._idle_s


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (exc := task.exception()) is not None:
        log.error("change watch failed", exc_info=exc)
