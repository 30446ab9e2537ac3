"""The bounded status wait of the power tools, against an httpx MockTransport double of the API.

The real server starts its nodes at once (tests/core/agent/tools/test_device_tools_live.py); slow
boots, nodes that never come up and a server that goes away are played here.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.tools import power_tools, progress
from gns3_copilot_desktop.core.agent.tools.base import ToolResult
from gns3_copilot_desktop.core.agent.tools.power_tools import PowerArgs, StartNodesTool
from gns3_copilot_desktop.core.gns3 import Gns3Client

pytestmark = pytest.mark.asyncio


class FakeNodes:
    """GET nodes / links and POST start for two nodes; `on_start` decides what a start does."""

    def __init__(self, on_start: Callable[[str], httpx.Response]) -> None:
        self.status = {"n1": "stopped", "n2": "stopped"}
        self.polls = 0
        self.on_start = on_start
        self.list_error: httpx.HTTPError | None = None
        self.started_from_poll: int | None = None  # a slow boot: started from this poll on

    def handler(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/v3/projects/p/links":
            return httpx.Response(200, json=[])
        if path == "/v3/projects/p/nodes":
            if self.list_error is not None:
                raise self.list_error
            self.polls += 1
            if self.started_from_poll is not None and self.polls >= self.started_from_poll:
                self.status = {nid: "started" for nid in self.status}
            nodes = [
                {"node_id": nid, "name": nid.upper(), "node_type": "qemu", "status": status}
                for nid, status in self.status.items()
            ]
            return httpx.Response(200, content=json.dumps(nodes))
        if path.endswith("/start"):
            return self.on_start(path.split("/")[-2])
        return httpx.Response(404, json={"message": "not found"})


async def run_start(fake: FakeNodes, args: PowerArgs) -> tuple[ToolResult, list[str]]:
    reports: list[str] = []
    async with Gns3Client(
        "http://gns3.test", transport=httpx.MockTransport(fake.handler)
    ) as client:
        ctx = RunContext(client=client, project_id="p", model=None, limits=AgentLimits())  # type: ignore[arg-type]
        with progress.reporting(reports.append):
            result = await StartNodesTool().run(args, ctx)
    return result, reports


@pytest.fixture(autouse=True)
def fast_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(power_tools, "POLL_INTERVAL_S", 0.02)
    monkeypatch.setattr(power_tools, "UNREACHABLE_LIMIT_S", 0.2)


async def test_a_slow_boot_outlasting_the_http_call_is_waited_for() -> None:
    def slow(node_id: str) -> httpx.Response:
        fake.started_from_poll = fake.polls + 5
        raise httpx.ReadTimeout("the server is still booting the node")

    fake = FakeNodes(slow)
    result, reports = await run_start(fake, PowerArgs(all=True, timeout_s=10))
    assert not result.is_error, result.text
    assert result.text.startswith("start: 2 of 2 node(s) started.")
    assert fake.polls >= 5
    assert any("0/2 started, waiting for N1, N2" in r for r in reports)
    assert reports[-1].startswith("2/2 started")


async def test_nodes_that_never_come_up_end_the_wait_at_the_bound() -> None:
    fake = FakeNodes(lambda node_id: httpx.Response(204))
    result, _ = await run_start(fake, PowerArgs(nodes=["N1"], timeout_s=1))
    assert result.is_error and "N1: still stopped after 1 s" in result.text
    assert result.structured is not None and result.structured["timed_out"] == ["N1"]


async def test_a_refused_start_is_reported_per_node() -> None:
    def refuse(node_id: str) -> httpx.Response:
        if node_id == "n1":
            return httpx.Response(409, json={"message": "QEMU binary not found"})
        fake.status["n2"] = "started"
        return httpx.Response(204)

    fake = FakeNodes(refuse)
    result, _ = await run_start(fake, PowerArgs(all=True, timeout_s=10))
    assert result.is_error and "1 of 2 node(s) started" in result.text
    assert "N1: failed:" in result.text and "QEMU binary not found" in result.text


async def test_a_server_that_goes_away_ends_the_wait() -> None:
    fake = FakeNodes(lambda node_id: httpx.Response(204))
    with_topology_read = fake.handler

    def handler(request: httpx.Request) -> httpx.Response:
        response = with_topology_read(request)
        if request.url.path.endswith("/start"):
            fake.list_error = httpx.ConnectError("connection refused")
        return response

    fake.handler = handler  # type: ignore[method-assign]
    result, _ = await run_start(fake, PowerArgs(all=True, timeout_s=30))
    assert result.is_error and "Stopped waiting:" in result.text
