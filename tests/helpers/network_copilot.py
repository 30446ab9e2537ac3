"""Drive the real AgentService with the network tools through the scripted model, step by step.

`Copilot.ask` makes the scripted model call tools (and answer "Done." afterwards) and returns the
turn's chunks; `Copilot.change` asks for one change and decides on its approval, returning the
approval request and the call's ``tool_end`` so a test can check the server after each decision.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gns3_copilot_desktop.core.agent.approval import ApprovalAction, ApprovalDecision
from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk
from tests.helpers.agent import ServiceFactory, collect, types_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn

_ids = itertools.count(1)


def call(name: str, arguments: dict[str, Any]) -> ScriptedToolCall:
    """A tool call of the scripted model with a fresh id."""
    return ScriptedToolCall(name, arguments, id=f"call_{name}_{next(_ids)}")


@dataclass
class Copilot:
    """One session of the real service on one real project."""

    service: AgentService
    session_id: str
    ctx: RunContext
    model: ScriptedOpenAIServer
    client: Gns3Client
    project_id: str
    log: list[list[ChatChunk]] = field(default_factory=list)

    async def ask(self, *calls: ScriptedToolCall, answer: str = "Done.") -> list[ChatChunk]:
        """One user message; the model calls `calls` in parallel, then answers."""
        self.model.push(ScriptedTurn.tools(*calls), ScriptedTurn.text(answer))
        chunks = await collect(
            self.service.stream_chat("please", self.session_id, context=self.ctx)
        )
        self.log.append(chunks)
        assert types_of(chunks)[-1] == "done", chunks
        return chunks

    async def decide(self, *decisions: ApprovalDecision) -> list[ChatChunk]:
        """Resume the paused turn with `decisions`."""
        chunks = await collect(
            self.service.resume(self.session_id, list(decisions), context=self.ctx)
        )
        self.log.append(chunks)
        assert types_of(chunks)[-1] == "done" and "error" not in types_of(chunks), chunks
        return chunks

    async def change(
        self,
        scripted: ScriptedToolCall,
        action: ApprovalAction,
        *,
        arguments: dict[str, Any] | None = None,
        reason: str | None = None,
    ) -> tuple[ApprovalRequest, ChatChunk]:
        """Ask for one change, check it waits for approval, then decide."""
        first = await self.ask(scripted)
        assert "tool_start" not in types_of(first), "a change ran before approval"
        approval = only_approval(first)
        assert approval.tool_call_id == scripted.id and approval.arguments_schema
        decision = ApprovalDecision(
            tool_call_id=approval.tool_call_id, action=action, arguments=arguments, reason=reason
        )
        second = await self.decide(decision)
        return approval, tool_end(second, approval.tool_call_id)

    async def read(self, scripted: ScriptedToolCall) -> ChatChunk:
        """A call that must run at once, without approval; its ``tool_end``."""
        chunks = await self.ask(scripted)
        assert "approval_request" not in types_of(chunks), chunks
        return tool_end(chunks, scripted.id or "")

    def last_tool_text(self, call_id: str) -> str:
        """What the model was told as the result of `call_id`."""
        for request in reversed(self.model.chat_requests()):
            for message in request.messages:
                if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
                    # framed as lab data for the model; the text inside is the tool's
                    lines = str(message.get("content")).split("\n")
                    assert lines[0].startswith("<<<TOOL RESULT "), lines[0]
                    assert lines[-1].startswith("<<<END TOOL RESULT "), lines[-1]
                    return "\n".join(lines[1:-1])
        raise AssertionError(f"the model never saw a result for {call_id}")


async def nodes_by_name(cp: Copilot) -> dict[str, Node]:
    """The project's nodes by name."""
    return {n.name: n for n in await cp.client.list_nodes(cp.project_id)}


async def link_ends(cp: Copilot) -> set[frozenset[tuple[str, int, int]]]:
    """Each link of the project as a set of (node name, adapter, port)."""
    names = {n.node_id: n.name for n in await cp.client.list_nodes(cp.project_id)}
    return {
        frozenset((names[e.node_id], e.adapter_number, e.port_number) for e in lk.nodes)
        for lk in await cp.client.list_links(cp.project_id)
    }


def only_approval(chunks: list[ChatChunk]) -> ApprovalRequest:
    """The single approval of the one approval_request chunk of a turn."""
    requests = [c for c in chunks if c.type == "approval_request"]
    assert len(requests) == 1 and requests[0].approvals, types_of(chunks)
    [approval] = requests[0].approvals
    return approval


def tool_end(chunks: list[ChatChunk], call_id: str) -> ChatChunk:
    """The tool_end chunk of `call_id`."""
    ends = [c for c in chunks if c.type == "tool_end" and c.tool_call_id == call_id]
    assert len(ends) == 1, types_of(chunks)
    return ends[0]


async def open_copilot(
    make_service: ServiceFactory,
    model: ScriptedOpenAIServer,
    client: Gns3Client,
    project_id: str,
    *,
    access: DeviceAccess | None = None,
    db_path: Path | None = None,
    **ctx_fields: Any,
) -> Copilot:
    """A service with every network tool, a session and a run context on the project."""
    model.set_title_responder()
    service = await make_service(db_path, tools=network_registry(access))
    session = await service.create_session()
    ctx = RunContext(
        client=client,
        project_id=project_id,
        model=model.chat_model(),
        server_url=client.base_url,
        limits=AgentLimits(heartbeat_interval_s=0),
    )
    return Copilot(service, session.id, replace(ctx, **ctx_fields), model, client, project_id)
