"""ProjectFollower: which project the copilot follows, from project lists and notifications."""

from __future__ import annotations

from gns3_copilot_desktop.core.gns3.models import Notification, Project
from gns3_copilot_desktop.core.project_follower import ProjectFollower


def _project(pid: str, status: str = "opened") -> Project:
    return Project(project_id=pid, name=f"lab-{pid}", status=status)


def _event(action: str, pid: str, status: str = "opened") -> Notification:
    return Notification(action=action, event=_project(pid, status).model_dump())


def test_prefers_the_last_used_open_project_then_follows_opened_and_closed() -> None:
    follower = ProjectFollower()
    changes: list[str | None] = []
    follower.subscribe(changes.append)
    follower.update_projects([_project("a"), _project("b"), _project("c", "closed")], preferred="a")
    assert follower.current == "a"
    assert follower.handle(_event("project.opened", "c"))
    assert follower.current == "c"
    assert follower.handle(_event("project.closed", "c", "closed"))
    assert follower.current == "a"  # back to the most recently opened one still open
    assert not follower.handle(_event("node.created", "b"))
    assert changes == ["a", "c", "a"]


def test_a_pinned_project_stays_until_following_again_or_deleted() -> None:
    follower = ProjectFollower()
    follower.update_projects([_project("a"), _project("b")])
    follower.pin("a")
    follower.handle(_event("project.opened", "b"))
    assert follower.current == "a" and follower.pinned
    follower.follow()
    assert follower.current == "b" and not follower.pinned
    follower.pin("a")
    follower.handle(_event("project.deleted", "a", "closed"))
    assert follower.current == "b" and not follower.pinned
    follower.handle(_event("project.closed", "b", "closed"))
    assert follower.current is None


def test_pinned_to_none_ignores_gns3_until_told() -> None:
    follower = ProjectFollower()
    follower.pin(None)
    follower.update_projects([_project("a")])
    follower.handle(_event("project.opened", "a"))
    assert follower.current is None
    follower.reset()
    assert follower.current is None and not follower.pinned
