"""The topology summary of a project, read from GNS3 only when it may have changed.

The agent gives the model the lab's topology on every call (`graph`): two GET requests that,
for a class on one server, were most of the GNS3 server's work. `TopologyCache` keeps the last
summary and hands it out again while nothing can have changed:

- A summary is reused only while a `ProjectChangeWatch` follows the project's notifications and
  has counted no change since the summary was read (its generation was taken *before* the
  read, so a change during the read makes the copy old at once). Without a subscribed stream —
  not yet up, dropped, refused — every call reads the lab again.
- A tool of ours that is not a pure read marks the project changed (`changed`) when it ends,
  because its own notification may arrive after the next model call.
- Entries are keyed by (server, login, project): a summary is only handed to a caller holding
  the very token it was read with, so one user of the service never gets another's copy. The
  watch is shared per (server, project): it carries only "something changed", never lab data.
  It uses the token of the caller that started it; when that token is refused, the watch ends
  and the next caller starts a new one with its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gns3_copilot_desktop.core.agent.topology import TopologySummary, read_summary
from gns3_copilot_desktop.core.gns3.change_watch import ProjectChangeWatch
from gns3_copilot_desktop.core.gns3.notifications import Backoff, OnLink

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.gns3.client import Gns3Client
    from gns3_copilot_desktop.core.gns3.models import Notification

WATCH_BACKOFF = Backoff(initial=0.5, maximum=5.0, max_failures=3)
"""A watch that cannot reconnect soon ends: until a new one is up, every call reads the lab."""

WatchFactory = Callable[["Gns3Client", str], ProjectChangeWatch]
_Project = tuple[str, str]  # (server, project id)
_Key = tuple[str, str, str]  # (server, login, project id)


@dataclass(frozen=True)
class _Entry:
    watch: ProjectChangeWatch
    generation: int
    summary: TopologySummary


class TopologyCache:
    """Topology summaries per (server, login, project), trusted while a watch vouches for them.

    ``idle_s``: a watch nobody used for this long stops (while connected, GNS3 counts it as a
    listener and keeps an auto-closing project open). ``retry_s``: after a watch ended (other
    than idle), reads go uncached this long before another watch is tried (a refused stream is
    not retried on every model call). One cache per process and event loop; `close` ends its
    watches.
    """

    def __init__(
        self,
        *,
        idle_s: float = 60.0,
        retry_s: float = 30.0,
        max_entries: int = 1024,
        watch_factory: WatchFactory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._idle_s = idle_s
        self._retry_s = retry_s
        self._max_entries = max_entries
        self._clock = clock
        self._watch_factory = watch_factory or self._follow_notifications
        self._watches: dict[_Project, ProjectChangeWatch] = {}
        self._entries: OrderedDict[_Key, _Entry] = OrderedDict()
        self.reads = 0
        """Summaries read from GNS3 (the misses), for tests and benchmarks."""

    async def summary(self, client: Gns3Client, project_id: str) -> tuple[str, set[str]]:
        """The project's summary as `topology.topology_summary` gives it, from the cache when
        no change can have happened since it was read with this login."""
        key = (client.base_url, _login(client.token), project_id)
        watch = self._watch(client, project_id)
        generation = watch.generation() if watch is not None else None
        entry = self._entries.get(key)
        if entry is not None and entry.watch is watch and entry.generation == generation:
            self._entries.move_to_end(key)
            return entry.summary.text, set(entry.summary.node_types)
        self.reads += 1
        summary = await read_summary(client, project_id)
        if watch is not None and generation is not None and summary.complete:
            self._store(key, _Entry(watch, generation, summary))
        else:
            self._entries.pop(key, None)
        return summary.text, set(summary.node_types)

    def changed(self, server_url: str, project_id: str) -> None:
        """This process changed the project (a tool ran): no copy of it is current, whoever's."""
        watch = self._watches.get((server_url, project_id))
        if watch is not None:
            watch.changed()

    async def close(self) -> None:
        """Stop every watch and forget every summary."""
        watches, self._watches = list(self._watches.values()), {}
        self._entries.clear()
        for watch in watches:
            await watch.close()

    def _watch(self, client: Gns3Client, project_id: str) -> ProjectChangeWatch | None:
        """The project's running watch, started when there is none (not within ``retry_s`` of
        the last one ending); None while there is none."""
        project = (client.base_url, project_id)
        watch = self._watches.get(project)
        if watch is not None and watch.running:
            return watch
        if watch is not None and watch.ended_at is not None:
            if not watch.idled and self._clock() - watch.ended_at < self._retry_s:
                return None
            self._drop(project)
        watch = self._watch_factory(client, project_id)
        watch.start()
        self._watches[project] = watch
        return watch

    def _drop(self, project: _Project) -> None:
        del self._watches[project]
        for key in [k for k in self._entries if (k[0], k[2]) == project]:
            del self._entries[key]

    def _store(self, key: _Key, entry: _Entry) -> None:
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    def _follow_notifications(self, client: Gns3Client, project_id: str) -> ProjectChangeWatch:
        def events(on_link: OnLink) -> AsyncGenerator[Notification, None]:
            return _project_events(client.sibling(), project_id, on_link)

        label = f"{client.base_url} project {project_id}"
        return ProjectChangeWatch(events, idle_s=self._idle_s, label=label, clock=self._clock)


async def _project_events(
    own: Gns3Client, project_id: str, on_link: OnLink
) -> AsyncGenerator[Notification, None]:
    """The project's notifications through a client of the watch's own (a turn closes its
    client when it ends; the watch outlives the turn)."""
    try:
        stream = own.project_notifications(project_id, backoff=WATCH_BACKOFF, on_link=on_link)
        async with contextlib.aclosing(stream) as events:  # type: ignore[type-var]
            async for notification in events:
                yield notification
    finally:
        await own.aclose()


def _login(token: str | None) -> str:
    """Who reads: a digest of the token (the token itself is not kept as a key)."""
    return hashlib.sha256((token or "").encode()).hexdigest()
