"""A lab plan's Undo works from its journal after GNS3 loads the project again, on the REAL GNS3
server (its own, so that it can be restarted): after a project close/reopen, and after a server
restart. The snapshot undo of older versions failed there ("Snapshot ID ... doesn't exist")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.plan_tools import PlanLabTool
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from gns3_copilot_desktop.core.undo.record import UndoRecord
from tests.helpers.gns3_server import find_dynamips, start_server, stop_server

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

FIRST: dict[str, Any] = {
    "nodes": [
        {"name": "SW1", "template": "Ethernet switch", "x": 0, "y": 0},
        {"name": "SW2", "template": "Ethernet switch", "x": 200, "y": 0},
    ],
    "links": [{"a": {"node": "SW1", "port": "Ethernet1"}, "b": {"node": "SW2", "port": "any"}}],
}
SECOND: dict[str, Any] = {
    "nodes": [*FIRST["nodes"], {"name": "HUB1", "template": "Ethernet hub", "x": 400, "y": 0}],
    "links": [*FIRST["links"], {"a": {"node": "SW2"}, "b": {"node": "HUB1"}}],
}


async def _login(base_url: str, username: str, password: str) -> Gns3Client:
    client = Gns3Client(base_url)
    client.token = (await client.authenticate(username, password)).access_token
    return client


async def _apply(client: Gns3Client, pid: str, base_url: str, spec: dict[str, Any]) -> UndoRecord:
    ctx = RunContext(
        client=client, project_id=pid, model=FakeListChatModel(responses=[""]), server_url=base_url
    )
    result = await PlanLabTool().run(LabSpec.model_validate(spec), ctx)
    assert not result.is_error, result.text
    record = UndoRecord.from_structured(result.structured)
    assert record is not None
    return record


async def _names(client: Gns3Client, pid: str) -> tuple[set[str], int]:
    return {n.name for n in await client.list_nodes(pid)}, len(await client.list_links(pid))


async def test_plan_undo_after_project_reopen_and_after_a_server_restart(tmp_path: Path) -> None:
    dynamips, reason = find_dynamips()
    if dynamips is None:
        pytest.skip(reason)
    process, server = start_server(tmp_path)
    try:
        client = await _login(server.base_url, server.username, server.password)
        async with client:
            pid = (await client.create_project("plan-reload", auto_close=False)).project_id
            first = await _apply(client, pid, server.base_url, FIRST)
            second = await _apply(client, pid, server.base_url, SECOND)
            assert await _names(client, pid) == ({"SW1", "SW2", "HUB1"}, 2)

            await client.close_project(pid)
            await client.open_project(pid)
            plan = await plan_undo(second, client, pid)
            assert [a.text for a in plan.actions] == [
                "remove link SW2 Ethernet1 <-> HUB1 Ethernet0",
                "remove node HUB1",
            ], plan.skipped
            assert (await run_undo(plan)).ok
            assert await _names(client, pid) == ({"SW1", "SW2"}, 1)
    finally:
        stop_server(process)

    process, server = start_server(tmp_path)  # the same server folder: its projects, its users
    try:
        client = await _login(server.base_url, server.username, server.password)
        async with client:
            await client.open_project(pid)
            plan = await plan_undo(first, client, pid)
            assert plan.skipped == []
            assert (await run_undo(plan)).ok, plan
            assert await _names(client, pid) == (set(), 0)
            await client.delete_project(pid)
    finally:
        stop_server(process)
