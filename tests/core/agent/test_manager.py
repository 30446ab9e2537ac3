"""ProjectAgentManager: one service per project, closed when the server closes the project."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.manager import ProjectAgentManager, project_service_factory
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.errors import ServicesClosedError
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Notification

pytestmark = [pytest.mark.asyncio]


class _Recorder:
    """Passes notifications through; ``first`` is set when one arrived (the stream is live)."""

    def __init__(self, source: AsyncIterator[Notification]) -> None:
        self.source = source
        self.first = asyncio.Event()

    async def __aiter__(self) -> AsyncIterator[Notification]:
        async for notification in self.source:
            self.first.set()
            yield notification


class _Closed:
    """Records the manager's ``on_closed`` calls; lets a test wait for one project."""

    def __init__(self) -> None:
        self.events: dict[str, asyncio.Event] = {}

    def __call__(self, project_id: str) -> None:
        self.event(project_id).set()

    def event(self, project_id: str) -> asyncio.Event:
        return self.events.setdefault(project_id, asyncio.Event())


def _factory(tmp_path: Path, created: list[str]):  # type: ignore[no-untyped-def]
    async def factory(project_id: str) -> AgentService:
        created.append(project_id)
        return await AgentService.open(tmp_path / f"{project_id}.db", project_id=project_id)

    return factory


async def test_services_are_created_once_and_all_closed_on_exit(tmp_path: Path) -> None:
    created: list[str] = []
    manager = ProjectAgentManager(_factory(tmp_path, created))
    one, again, two = await asyncio.gather(manager.get("p1"), manager.get("p1"), manager.get("p2"))
    assert one is again and one is not two and created == ["p1", "p2"]
    assert sorted(manager.project_ids) == ["p1", "p2"]
    await manager.handle_notification(Notification(action="node.updated", event={}))
    assert manager.peek("p1") is one
    await manager.close()
    assert one.closed and two.closed and manager.project_ids == []
    with pytest.raises(ServicesClosedError):
        await manager.get("p1")


async def test_a_service_opened_while_the_manager_closes_is_closed_too(tmp_path: Path) -> None:
    """Found by the leak check of tests/conftest.py: its DB thread kept the process alive."""
    entered, release = asyncio.Event(), asyncio.Event()
    opened: list[AgentService] = []

    async def slow_factory(project_id: str) -> AgentService:
        entered.set()
        await release.wait()
        service = await AgentService.open(tmp_path / f"{project_id}.db", project_id=project_id)
        opened.append(service)
        return service

    manager = ProjectAgentManager(slow_factory)
    getting = asyncio.ensure_future(manager.get("p1"))
    await asyncio.wait_for(entered.wait(), timeout=5)
    await manager.close()
    release.set()
    with pytest.raises(ServicesClosedError):
        await getting
    assert len(opened) == 1 and opened[0].closed
    assert manager.project_ids == []


@pytest.mark.gns3
async def test_closing_or_deleting_a_project_on_the_server_closes_its_service(
    gns3_client: Gns3Client, tmp_path: Path
) -> None:
    names = [f"mgr-{secrets.token_hex(3)}" for _ in range(2)]
    projects = [await gns3_client.create_project(n, auto_close=False) for n in names]
    created: list[str] = []
    closed = _Closed()
    manager = ProjectAgentManager(_factory(tmp_path, created), on_closed=closed)
    recorder = _Recorder(gns3_client.controller_notifications())
    manager.watch(aiter(recorder))
    try:
        services = [await manager.get(p.project_id) for p in projects]
        # Make sure the notification stream is live before acting: nudge until an event arrives.
        for attempt in range(50):
            await gns3_client.update_project(projects[0].project_id, name=f"{names[0]}-{attempt}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(recorder.first.wait(), 0.3)
                break
        assert recorder.first.is_set()

        await gns3_client.close_project(projects[0].project_id)
        await asyncio.wait_for(closed.event(projects[0].project_id).wait(), 10)
        assert manager.peek(projects[0].project_id) is None
        assert services[0].closed and not services[1].closed

        await gns3_client.delete_project(projects[1].project_id)
        await asyncio.wait_for(closed.event(projects[1].project_id).wait(), 10)
        assert manager.peek(projects[1].project_id) is None
        assert services[1].closed and manager.project_ids == []

        # Created again on next use.
        fresh = await manager.get(projects[0].project_id)
        assert fresh is not services[0] and not fresh.closed
    finally:
        await manager.close()
        for project in projects:
            with contextlib.suppress(Exception):  # already deleted by the test
                await gns3_client.delete_project(project.project_id)


@pytest.mark.gns3
async def test_project_service_factory_keeps_the_db_out_of_the_project_folder(
    gns3_client: Gns3Client, tmp_path: Path
) -> None:
    project = await gns3_client.create_project(f"fac-{secrets.token_hex(3)}", auto_close=False)
    manager = ProjectAgentManager(project_service_factory(gns3_client, tmp_path / "data"))
    try:
        service = await manager.get(project.project_id)
        assert project.path is not None
        assert service.store.db_path.is_relative_to(tmp_path / "data")
        assert not service.store.db_path.is_relative_to(Path(project.path))
        assert service.project_id == project.project_id
    finally:
        await manager.close()
        await gns3_client.delete_project(project.project_id)
