"""Which GNS3 project the copilot talks about: the one the user has open in GNS3, unless pinned.

`ProjectFollower` learns the projects and their ``status`` from the project list and keeps them
current from the controller's notifications (``project.created``/``opened``/``updated``/
``closed``/``deleted``). While following, the most recently opened project is current; when it is
closed or deleted, the most recently opened one still open takes over (or none). The user can pin
a project by hand; a pinned project stays current until the user follows GNS3 again or the
project is deleted. No Qt here: listeners are plain callables.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from gns3_copilot_desktop.core.gns3.models import Notification, Project

log = logging.getLogger(__name__)

OPENED = "opened"
_OPEN_ACTIONS = frozenset({"project.opened", "project.created"})
_GONE_ACTIONS = frozenset({"project.closed", "project.deleted"})

Listener = Callable[[str | None], None]


class ProjectFollower:
    """The current project of one server, following GNS3 or pinned by the user."""

    def __init__(self, *, pinned: str | None = None) -> None:
        self._projects: dict[str, Project] = {}
        self._opened_order: list[str] = []  # most recently opened last
        self._current: str | None = pinned
        self._pinned = pinned is not None
        self._listeners: list[Listener] = []

    # --- reading ----------------------------------------------------------------------------

    @property
    def current(self) -> str | None:
        """The project id the copilot works on (None when no project is open)."""
        return self._current

    @property
    def pinned(self) -> bool:
        """True when the user chose the project by hand (GNS3 is not followed)."""
        return self._pinned

    @property
    def projects(self) -> list[Project]:
        """Known projects, sorted by name."""
        return sorted(self._projects.values(), key=lambda p: (p.name.lower(), p.project_id))

    def project(self, project_id: str | None) -> Project | None:
        """A known project by id."""
        return self._projects.get(project_id) if project_id else None

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(project_id)`` whenever the current project changes."""
        self._listeners.append(listener)

    # --- input ------------------------------------------------------------------------------

    def update_projects(self, projects: list[Project], *, preferred: str | None = None) -> None:
        """Adopt a fresh project list; ``preferred`` (the last one used) wins among open ones."""
        self._projects = {p.project_id: p for p in projects}
        opened = [p.project_id for p in projects if p.status == OPENED]
        known = [pid for pid in self._opened_order if pid in opened]
        new = [pid for pid in opened if pid not in known]
        self._opened_order = [*new, *known]
        if preferred in opened and preferred not in known:
            self._opened_order = [pid for pid in self._opened_order if pid != preferred]
            self._opened_order.append(preferred)
        self._choose()

    def handle(self, notification: Notification) -> bool:
        """Learn from one controller notification; True when the current project changed."""
        project = notification.project
        if project is None or not notification.action.startswith("project."):
            return False
        before = self._current
        pid = project.project_id
        if notification.action == "project.deleted":
            self._projects.pop(pid, None)
            self._forget_opened(pid)
            if self._pinned and self._current == pid:
                self._pinned = False
        else:
            self._projects[pid] = project
            if notification.action in _GONE_ACTIONS or project.status != OPENED:
                self._forget_opened(pid)
            elif notification.action in _OPEN_ACTIONS:
                self._forget_opened(pid)
                self._opened_order.append(pid)
        self._choose()
        return self._current != before

    def pin(self, project_id: str | None) -> None:
        """Stay on ``project_id`` (or on none) whatever GNS3 opens, until `follow` is called."""
        self._pinned = True
        self._set(project_id)

    def follow(self) -> None:
        """Follow GNS3 again: the most recently opened project becomes current."""
        self._pinned = False
        self._choose()

    def reset(self) -> None:
        """Forget everything (another server or user)."""
        self._projects.clear()
        self._opened_order.clear()
        self._pinned = False
        self._set(None)

    # --- internals --------------------------------------------------------------------------

    def _forget_opened(self, project_id: str) -> None:
        self._opened_order = [pid for pid in self._opened_order if pid != project_id]

    def _choose(self) -> None:
        if self._pinned:
            return
        self._set(self._opened_order[-1] if self._opened_order else None)

    def _set(self, project_id: str | None) -> None:
        if project_id == self._current:
            return
        self._current = project_id
        log.info("current project: %s", project_id)
        for listener in list(self._listeners):
            listener(project_id)
