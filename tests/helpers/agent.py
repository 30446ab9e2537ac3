"""Pytest plugin for the agent tests: a small real lab, services on a temp DB, a run context,
chunk helpers, and fake tools (a tool that blocks until released, a change tool).

Fixtures: ``lab`` (needs the real GNS3 server), ``make_service``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest_asyncio
from pydantic import BaseModel, ConfigDict, Field

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.agent.tools import AgentTool, NoArgs, ToolRegistry, ToolResult
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.gns3.models import LinkEnd, Node
from gns3_copilot_desktop.core.protocol import ChatChunk


@dataclass
class Lab:
    """A project with two VPCS nodes linked Ethernet0 <-> Ethernet0."""

    client: Gns3Client
    project: Project
    nodes: list[Node]


@pytest_asyncio.fixture
async def lab(gns3_client: Gns3Client, gns3_project: Project) -> Lab:
    """Two VPCS nodes (they are created and linked; they cannot start here) and a link."""
    pid = gns3_project.project_id
    pc1 = await gns3_client.create_node(pid, "PC1", "vpcs", x=-100, y=0)
    pc2 = await gns3_client.create_node(pid, "PC2", "vpcs", x=100, y=0)
    await gns3_client.create_link(
        pid,
        LinkEnd(node_id=pc1.node_id, adapter_number=0, port_number=0),
        LinkEnd(node_id=pc2.node_id, adapter_number=0, port_number=0),
    )
    return Lab(client=gns3_client, project=gns3_project, nodes=[pc1, pc2])


ServiceFactory = Callable[..., Awaitable[AgentService]]


@pytest_asyncio.fixture
async def make_service(tmp_path: Path) -> AsyncIterator[ServiceFactory]:
    """Open AgentServices on ``tmp_path/copilot.db`` (or another path); all closed at the end."""
    opened: list[AgentService] = []

    async def factory(
        db_path: Path | None = None, *, tools: ToolRegistry | None = None, **kw: Any
    ) -> AgentService:
        service = await AgentService.open(db_path or tmp_path / "copilot.db", tools=tools, **kw)
        opened.append(service)
        return service

    yield factory
    for service in opened:
        await service.close()


def run_context(lab: Lab, model: Any, **limits: Any) -> RunContext:
    """A RunContext on the lab's project; heartbeats off unless asked."""
    base = AgentLimits(heartbeat_interval_s=0)
    return RunContext(
        client=lab.client,
        project_id=lab.project.project_id,
        model=model,
        server_url=lab.client.base_url,
        limits=replace(base, **limits),
    )


async def collect(stream: AsyncIterator[ChatChunk]) -> list[ChatChunk]:
    """Every chunk of a stream."""
    return [chunk async for chunk in stream]


def types_of(chunks: list[ChatChunk]) -> list[str]:
    """The chunk types in order."""
    return [c.type for c in chunks]


def text_of(chunks: list[ChatChunk]) -> str:
    """The streamed answer text."""
    return "".join(c.content or "" for c in chunks if c.type == "content")


class BlockingTool(AgentTool[NoArgs]):
    """A read tool that waits until released (or cancelled)."""

    name = "wait_for_lab"
    description = "Wait for the lab."
    args_schema = NoArgs
    risk = "read"

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.cancelled = False

    def summary(self, args: NoArgs) -> str:
        return "Wait for the lab"

    async def run(self, args: NoArgs, ctx: RunContext) -> ToolResult:
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return ToolResult(text="ready")


class NoteArgs(BaseModel):
    """Arguments of `RecordingChangeTool`."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1)


class RecordingChangeTool(AgentTool[NoteArgs]):
    """A change tool (needs approval) that records the arguments it ran with."""

    name = "set_lab_note"
    description = "Set the lab's note."
    args_schema = NoteArgs
    risk = "change"

    def __init__(self) -> None:
        self.runs: list[str] = []

    def summary(self, args: NoteArgs) -> str:
        return f"Set the lab note to {args.text!r}"

    async def run(self, args: NoteArgs, ctx: RunContext) -> ToolResult:
        self.runs.append(args.text)
        return ToolResult(text=f"note set to {args.text}", structured={"text": args.text})
