"""The graph's tools node: each pending tool call gated (mode, repeats, the user's decision on a
change, edited arguments), run with its progress reported, and answered in order; duplicate call
ids from a model are renamed first. `graph.build_graph` wires it after the model's node."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    ToolMessage,
)
from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision, decisions_by_id
from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.modes import (
    allows_call,
    refused_text,
)
from gns3_copilot_desktop.core.agent.repeats import (
    MAX_REPEATS,
    earlier_identical_calls,
    repeat_error,
)
from gns3_copilot_desktop.core.agent.state import AgentState
from gns3_copilot_desktop.core.agent.tools import ResolvedCall, ToolRegistry, ToolResult, progress
from gns3_copilot_desktop.core.agent.tools.base import (
    CallAnsweredError,
    CallRefusedError,
    truncate_text,
)
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import (
    ApprovalRequest,
    ChatChunk,
    ToolStatus,
)

log = logging.getLogger(__name__)

EDITED_TEXT = "The user edited the arguments before approving; the call ran with:"


class _PendingCall:
    """One tool call of the last assistant message, resolved against the registry."""

    def __init__(
        self, call_id: str, name: str, raw_args: object, registry: ToolRegistry, mode: str | None
    ) -> None:
        self.call_id = call_id
        self.name = name
        self.raw_args = raw_args
        resolved = registry.resolve(name, raw_args)
        if isinstance(resolved, ResolvedCall) and not allows_call(
            mode, resolved.tool, resolved.args
        ):
            # Refused before the gate: a learner session never shows an approval card for it.
            resolved = ToolResult.error(refused_text(mode, name), reason="mode")
        self.resolved = resolved

    @property
    def needs_approval(self) -> bool:
        resolved = self.resolved
        return (
            isinstance(resolved, ResolvedCall) and resolved.tool.risk_for(resolved.args) != "read"
        )

    def approval_request(self, note: dict[str, str] | None = None) -> ApprovalRequest:
        assert isinstance(self.resolved, ResolvedCall)
        tool = self.resolved.tool
        return ApprovalRequest(
            tool_call_id=self.call_id,
            tool_name=self.name,
            arguments=self.resolved.args.model_dump(mode="json"),
            summary=tool.summary(self.resolved.args),
            risk=tool.risk_for(self.resolved.args),
            arguments_schema=tool.args_schema.model_json_schema(),
            destructive=tool.is_destructive(self.resolved.args),
            consequence=(note or {}).get("text"),
            diff=(note or {}).get("diff"),
            plan=json.loads(note["plan"]) if note and note.get("plan") else None,
        )

    async def consequence(self, ctx: RunContext) -> dict[str, str] | None:
        """What goes with this call (``text``, maybe ``diff``), or None (also when the lab cannot
        be read now)."""
        assert isinstance(self.resolved, ResolvedCall)
        try:
            found = await self.resolved.tool.consequence(self.resolved.args, ctx)
            if isinstance(found, str):
                return {"text": found}
            if found is not None:
                note = {"text": found.text}
                if found.plan is not None:
                    note["plan"] = json.dumps(found.plan)
                return note | ({"diff": found.diff} if found.diff else {})
        except CallAnsweredError as exc:  # nothing to do: no card, the call is answered
            return {"answered": exc.user_message}
        except CallRefusedError as exc:  # no card: the model is told why
            return {"refused": exc.user_message}
        except CopilotError as exc:
            log.info("no consequence for %s: %s", self.name, exc.user_message)
        except Exception:  # a bug here must not block the approval
            log.exception("consequence of %s failed", self.name)
        return None


def _pending_calls(
    last: AIMessage,
    tools: ToolRegistry,
    mode: str | None,
    history: Sequence[AnyMessage] = (),
) -> list[_PendingCall]:
    """Every call of an assistant message; those whose arguments did not parse as sent, that
    the session's mode does not allow, or that the model already made ``MAX_REPEATS`` times in
    this turn (``history`` holds the turn's messages, ``last`` among them or not) are answered
    with an error, never resolved (so never run and never shown for approval)."""
    calls = [
        _PendingCall(c.get("id") or "", c["name"], c["args"], tools, mode) for c in last.tool_calls
    ]
    known = {m.id for m in history if m.id}
    turn = list(history) if last.id and last.id in known else [*history, last]
    for call, raw in zip(calls, last.tool_calls, strict=True):
        times = earlier_identical_calls(turn, raw["name"], raw["args"], raw.get("id"))
        if times >= MAX_REPEATS:
            call.resolved = ToolResult.error(repeat_error(raw["name"], times), reason="repeated")
    for bad in last.invalid_tool_calls:
        call = _PendingCall(bad.get("id") or "", bad.get("name") or "", {}, tools, mode)
        call.resolved = ToolResult.error(
            f"Error: your arguments for {bad.get('name') or 'this tool'} were not valid JSON "
            f"({bad.get('error') or 'they do not parse'}): nothing was run. Call it again with "
            "one complete JSON object.",
            reason="invalid_json",
        )
        calls.append(call)
    return calls


async def gate_calls(
    answer: AIMessage,
    tools: ToolRegistry,
    ctx: RunContext,
    mode: str | None = None,
    history: Sequence[AnyMessage] = (),
) -> tuple[AIMessage, list[str], dict[str, dict[str, str]]]:
    """Decides, once per step and before any pause, which calls wait for the user.

    The answer goes to the state with the assistant message (``awaiting``), so the tool node that
    pauses and later resumes applies the decisions to exactly these calls, whatever "always
    allow" grants were added in between. Calls that share an id or have none are renamed and
    refused: a decision for one must never decide another. What goes with each awaited call
    (its consequence, read from the lab) is fixed here too, once, so the card shows the lab as it
    was when the user was asked.
    """
    ids = [c.get("id") or "" for c in [*answer.tool_calls, *answer.invalid_tool_calls]]
    if not ids:
        return answer, [], {}
    if "" in ids or len(set(ids)) != len(ids):
        return _with_unique_ids(answer), [], {}
    calls = _pending_calls(answer, tools, mode or ctx.mode, history)
    waiting = [c for c in calls if c.needs_approval and not ctx.allows_without_approval(c.name)]
    found = await asyncio.gather(*(c.consequence(ctx) for c in waiting))
    notes = {c.call_id: note for c, note in zip(waiting, found, strict=True) if note}
    asked = [
        c.call_id for c in waiting if not {"refused", "answered"} & set(notes.get(c.call_id, {}))
    ]
    return answer, asked, notes


DUPLICATE_ID_TEXT = (
    "Not run: several calls of this step had the same id, or none, so a decision for one could "
    "have decided another. Call the tools again, each call with its own id."
)
_RENAMED_PREFIX = "call_renamed_"


def _with_unique_ids(message: AIMessage) -> AIMessage:
    """The message with every call given a fresh id, marked so that the tool node refuses them."""
    calls = [
        {**c, "id": f"{_RENAMED_PREFIX}{i}_{uuid.uuid4().hex[:8]}"}
        for i, c in enumerate(message.tool_calls)
    ]
    invalid = [
        {**c, "id": f"{_RENAMED_PREFIX}{len(calls) + i}_{uuid.uuid4().hex[:8]}"}
        for i, c in enumerate(message.invalid_tool_calls)
    ]
    return message.model_copy(update={"tool_calls": calls, "invalid_tool_calls": invalid})


class ToolNode:
    """Answers every tool call of the last assistant message with one tool message."""

    def __init__(self, tools: ToolRegistry) -> None:
        self._tools = tools

    async def __call__(self, state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        # tools see the session's own mode (Practice shows links as the GNS3 canvas does)
        ctx = dataclasses.replace(runtime.context, mode=state.get("mode") or runtime.context.mode)
        last = _last_ai(state.get("messages") or [])
        if last is None:
            return {}
        calls = _pending_calls(
            last, self._tools, state.get("mode") or ctx.mode, state.get("messages") or []
        )
        notes = state.get("approval_notes") or {}
        for call in calls:
            if call.call_id.startswith(_RENAMED_PREFIX):
                call.resolved = ToolResult.error(DUPLICATE_ID_TEXT, reason="duplicate_ids")
            elif refused := notes.get(call.call_id, {}).get("refused"):
                call.resolved = ToolResult.error(f"Error: {refused}", reason="refused")
            elif answered := notes.get(call.call_id, {}).get("answered"):
                call.resolved = ToolResult(text=answered)
        fixed = state.get("awaiting")
        # A step paused by an older version has no list: every change call waits then.
        awaiting = (
            list(fixed) if fixed is not None else [c.call_id for c in calls if c.needs_approval]
        )
        decisions = self._ask_approval(
            [c for c in calls if c.call_id in awaiting], state.get("approval_notes") or {}
        )
        writer = get_stream_writer()
        messages = await asyncio.gather(
            *(
                self._run_one(
                    call, decisions.get(call.call_id) if call.call_id in awaiting else None,
                    ctx, writer,
                )
                for call in calls
            )
        )  # fmt: skip
        return {"messages": list(messages), "awaiting": [], "approval_notes": {}}

    @staticmethod
    def _ask_approval(
        waiting: list[_PendingCall], notes: dict[str, dict[str, str]]
    ) -> dict[str, ApprovalDecision]:
        """Pause for the user's decision on the calls the gate fixed; map the answer onto
        exactly those calls. A call without a decision is rejected, never approved.

        Called before any tool runs, so resuming (which re-runs this node) runs nothing twice.
        """
        if not waiting:
            return {}
        answer = interrupt(
            {
                "approvals": [
                    c.approval_request(notes.get(c.call_id)).model_dump(mode="json")
                    for c in waiting
                ]
            }
        )
        given = decisions_by_id(answer)
        return {
            call.call_id: given.get(call.call_id)
            or ApprovalDecision(tool_call_id=call.call_id, action="reject", reason="no decision")
            for call in waiting
        }

    async def _run_one(
        self, call: _PendingCall, decision: ApprovalDecision | None, ctx: RunContext, writer: Any
    ) -> ToolMessage:
        run, early = self._apply_decision(call, decision)
        shown = run or call.resolved
        summary = (
            shown.tool.summary(shown.args)
            if isinstance(shown, ResolvedCall)
            else f"{call.name or 'unknown tool'} (invalid call)"
        )
        writer(
            ChatChunk(
                type="tool_start",
                tool_call_id=call.call_id,
                tool_name=call.name,
                content=summary,
            )
        )
        started = time.monotonic()
        if early is not None:
            result, status = early
        else:
            assert run is not None
            with progress.reporting(_progress_writer(writer, call)):
                result, status = await self._execute(call.name, run, ctx)
        ran_with: dict[str, Any] = {}
        if run is not None and decision is not None and decision.action == "edit":
            ran_with = {"arguments": run.args.model_dump(mode="json")}  # the transcript's card
            edited = json.dumps(ran_with["arguments"], ensure_ascii=False)
            result = result.model_copy(update={"text": f"{EDITED_TEXT} {edited}\n{result.text}"})
        text, cut = truncate_text(result.text, ctx.limits.max_tool_output_chars)
        truncated = cut or result.truncated
        duration_ms = int((time.monotonic() - started) * 1000)
        writer(
            ChatChunk(
                type="tool_end",
                tool_call_id=call.call_id,
                tool_name=call.name,
                tool_output=text,
                status=status,
                duration_ms=duration_ms,
                truncated=truncated,
                structured=result.structured,
            )
        )
        return ToolMessage(
            content=text,
            tool_call_id=call.call_id,
            name=call.name,
            id=f"tool-{uuid.uuid4()}",
            status="error" if status != "ok" else "success",
            artifact=result.structured,
            response_metadata={
                "status": status,
                "duration_ms": duration_ms,
                "truncated": truncated,
                "summary": summary,
                **ran_with,
            },
        )

    def _apply_decision(
        self, call: _PendingCall, decision: ApprovalDecision | None
    ) -> tuple[ResolvedCall | None, tuple[ToolResult, ToolStatus] | None]:
        """What runs after the user's decision (edited arguments validated), or the outcome now."""
        resolved = call.resolved
        if isinstance(resolved, ToolResult):  # answered before any run: refused, or nothing to do
            return None, (resolved, "error" if resolved.is_error else "ok")
        if decision is None or decision.action == "approve":
            return resolved, None
        if decision.action == "reject":
            reason = f" Reason: {decision.reason}" if decision.reason else ""
            return None, (ToolResult(text=f"The user rejected this call.{reason}"), "rejected")
        edited = self._tools.resolve(call.name, decision.arguments or {})
        if isinstance(edited, ToolResult):
            text = f"Not run: the arguments the user edited do not fit the tool. {edited.text}"
            return None, (ToolResult.error(text, reason="invalid_edit"), "error")
        return edited, None

    @staticmethod
    async def _execute(
        name: str, resolved: ResolvedCall, ctx: RunContext
    ) -> tuple[ToolResult, ToolStatus]:
        try:
            result = await resolved.tool.run(resolved.args, ctx)
        except CopilotError as exc:
            result = ToolResult.error(f"Error: {exc.user_message}")
        except Exception:  # a bug in a tool must not kill the session; it is logged
            log.exception("tool %s failed unexpectedly", name)
            result = ToolResult.error(f"Error: the tool {name} failed unexpectedly.")
        finally:
            # a change (even a failed one may have done part of its work) makes the cached
            # topology old now: its notification may come after the next model call
            if ctx.topology_cache is not None and resolved.tool.risk_for(resolved.args) != "read":
                ctx.topology_cache.changed(ctx.client.base_url, ctx.project_id)
        return result, "error" if result.is_error else "ok"


def _progress_writer(writer: Any, call: _PendingCall) -> progress.Reporter:
    """A running tool's progress, sent as a further ``tool_start`` of its call."""

    def report(text: str) -> None:
        writer(
            ChatChunk(
                type="tool_start", tool_call_id=call.call_id, tool_name=call.name, content=text
            )
        )

    return report


def _last_ai(messages: list[AnyMessage]) -> AIMessage | None:
    for message in reversed(messages):
        if isinstance(message, AIMessage):
            return message
    return None
