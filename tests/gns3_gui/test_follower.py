"""`ProjectFollower`: the Copilot follows the GNS3 GUI's project, one switch at a time."""

from __future__ import annotations

import asyncio

import pytest
from PyQt6.QtCore import QObject, pyqtSignal
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.errors import SessionStoreError
from gns3_copilot_desktop.gns3_gui.launch import ProjectFollower


class FakeProject(QObject):
    """Like gns3.project.Project: an id that may arrive later, with project_updated_signal."""

    project_updated_signal = pyqtSignal()

    def __init__(self, project_id: str | None) -> None:
        super().__init__()
        self._id = project_id

    def id(self) -> str | None:
        return self._id

    def learn_id(self, project_id: str) -> None:
        self._id = project_id
        self.project_updated_signal.emit()


class FakeTopology(QObject):
    """Like gns3.topology.Topology: project() and a no-argument project_changed_signal."""

    project_changed_signal = pyqtSignal()

    def __init__(self) -> None:
        super().__init__()
        self._project: FakeProject | None = None

    def project(self) -> FakeProject | None:
        return self._project

    def set_project(self, project: FakeProject | None) -> None:
        self._project = project
        self.project_changed_signal.emit()


class Recorder:
    """The apply callback: records calls, can be held to make a switch slow."""

    def __init__(self) -> None:
        self.calls: list[str | None] = []
        self.running = 0
        self.max_running = 0
        self.gate = asyncio.Event()
        self.gate.set()
        self.fail_on: set[str | None] = set()

    async def __call__(self, project_id: str | None) -> None:
        self.running += 1
        self.max_running = max(self.max_running, self.running)
        try:
            self.calls.append(project_id)
            await self.gate.wait()
            if project_id in self.fail_on:
                raise SessionStoreError(f"cannot open the sessions of {project_id}")
        finally:
            self.running -= 1


def test_follows_changes_and_ids_that_arrive_later(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    topology, apply = FakeTopology(), Recorder()
    follower = ProjectFollower(topology, apply)
    followed: list[object] = []
    follower.followed.connect(followed.append)
    follower.start()
    qtbot.waitUntil(lambda: followed == [None], timeout=2000)
    assert follower.current is None

    first = FakeProject("p1")
    topology.set_project(None)  # what GNS3 emits first on a switch
    topology.set_project(first)
    qtbot.waitUntil(lambda: follower.current == "p1", timeout=2000)

    created = FakeProject(None)  # a new project: its id arrives on project_updated_signal
    topology.set_project(created)
    qtbot.waitUntil(lambda: followed[-1] is None, timeout=2000)
    created.learn_id("p2")
    qtbot.waitUntil(lambda: follower.current == "p2", timeout=2000)

    first.learn_id("p1-again")  # the old project no longer moves the Copilot
    assert follower.wanted == "p2"  # (signals are delivered synchronously here)
    topology.set_project(created)  # the same project again: no new switch
    topology.set_project(FakeProject("p5"))
    qtbot.waitUntil(lambda: follower.current == "p5", timeout=2000)
    assert apply.calls == [None, "p1", None, "p2", "p5"]
    follower.stop()


def test_switches_one_at_a_time_and_the_latest_wins(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    topology, apply = FakeTopology(), Recorder()
    topology.set_project(FakeProject("p1"))
    apply.gate.clear()  # the first switch hangs until released
    follower = ProjectFollower(topology, apply)
    follower.start()
    qtbot.waitUntil(lambda: apply.calls == ["p1"], timeout=2000)
    for pid in ("p2", "p3", "p4"):
        topology.set_project(FakeProject(pid))
    apply.gate.set()
    qtbot.waitUntil(lambda: follower.current == "p4", timeout=2000)
    assert apply.calls == ["p1", "p4"]  # p2 and p3 were superseded while p1 was applied
    assert apply.max_running == 1


def test_stop_disconnects(qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop) -> None:
    topology, apply = FakeTopology(), Recorder()
    project = FakeProject(None)
    topology.set_project(project)
    follower = ProjectFollower(topology, apply)
    follower.start()
    qtbot.waitUntil(lambda: apply.calls == [None], timeout=2000)
    follower.stop()
    topology.set_project(FakeProject("p9"))
    project.learn_id("p8")
    assert follower.wanted is None  # neither signal reached the follower
    assert follower.current is None
    assert apply.calls == [None]


def test_a_failed_switch_is_logged_and_following_goes_on(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, caplog: pytest.LogCaptureFixture
) -> None:
    topology, apply = FakeTopology(), Recorder()
    apply.fail_on = {"broken"}
    follower = ProjectFollower(topology, apply)
    follower.start()
    topology.set_project(FakeProject("broken"))
    qtbot.waitUntil(lambda: follower.current == "broken", timeout=2000)
    assert "cannot open the sessions of broken" in caplog.text
    topology.set_project(FakeProject("p2"))
    qtbot.waitUntil(lambda: follower.current == "p2", timeout=2000)
    assert apply.calls == ["broken", "p2"]  # None was superseded before the first switch ran
