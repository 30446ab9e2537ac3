"""The agent graph: ``llm_call -> should_continue -> tools -> llm_call``.

- ``llm_call`` refreshes the topology summary, bounds the history to the context window, streams
  the model's answer and checks it was complete (a stream without a finish reason is an error,
  "the answer was cut off"). Provider errors never escape the graph: they are streamed as an
  ``error`` chunk and whatever was received is kept as a partial answer without tool calls.
  When ``remaining_steps`` runs low the model is asked for a final answer without tools.
- ``tools`` answers every tool call of the last assistant message with exactly one tool message:
  unknown tools and bad arguments become error results; read tools run at once and in parallel;
  any other risk class first pauses the graph with ``interrupt`` for the user's approval.
- Chunks for the UI (tool_call, tool_start, tool_end, usage, error) are written to LangGraph's
  ``custom`` stream as `ChatChunk`s; content deltas come from the ``messages`` stream.
Everything run-specific and secret arrives through the runtime context (`RunContext`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.messages.tool import invalid_tool_call, tool_call
from langchain_core.runnables import Runnable
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision, decisions_by_id
from gns3_copilot_desktop.core.agent.budget import (
    ToolSet,
    last_exchanges_tokens,
    plan_call,
    schema_tokens,
)
from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.fragments import fragment_name, readable_answer
from gns3_copilot_desktop.core.agent.history import (
    bound_for_model,
    message_tokens,
    note_incomplete,
)
from gns3_copilot_desktop.core.agent.intent import asks_for_change
from gns3_copilot_desktop.core.agent.labtext import frame_tool_results, new_tag
from gns3_copilot_desktop.core.agent.model_factory import CUT_OFF_TEXT, map_provider_error
from gns3_copilot_desktop.core.agent.modes import (
    allows_call,
    is_restricted,
    offered_in_learner_modes,
    refused_text,
)
from gns3_copilot_desktop.core.agent.prompts import FINAL_ANSWER_PROMPT, system_prompt
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
from gns3_copilot_desktop.core.agent.topology import topology_summary
from gns3_copilot_desktop.core.devices.sheets import sheets_prompt
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import (
    ApprovalRequest,
    ChatChunk,
    FunctionCall,
    TokenUsage,
    ToolCall,
    ToolStatus,
)

log = logging.getLogger(__name__)

EDITED_TEXT = "The user edited the arguments before approving; the call ran with:"


def build_graph(
    tools: ToolRegistry, checkpointer: BaseCheckpointSaver[Any] | None = None
) -> CompiledStateGraph[AgentState, RunContext, AgentState, AgentState]:
    """Compile the agent graph. The model comes with each run's `RunContext`."""
    builder = StateGraph(AgentState, context_schema=RunContext)
    builder.add_node("llm_call", _LlmCall(tools))
    builder.add_node("tools", _ToolNode(tools))
    builder.add_edge(START, "llm_call")
    builder.add_conditional_edges("llm_call", should_continue, ["tools", END])
    builder.add_edge("tools", "llm_call")
    return builder.compile(checkpointer=checkpointer)


def should_continue(state: AgentState) -> str:
    """Run the tools when the last answer asked for some, else end the turn."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and (last.tool_calls or last.invalid_tool_calls):
        return "tools"
    return END


# --- llm_call -----------------------------------------------------------------------------------


class _LlmCall:
    """The node that asks the model for the next step."""

    def __init__(self, tools: ToolRegistry) -> None:
        self._tools = tools
        # "learner": the most a Tutor or Practice session offers (no change tools).
        self._schemas: dict[ToolSet | str, list[dict[str, Any]]] = {
            "all": tools.openai_schemas(),
            "learner": ToolRegistry(filter(offered_in_learner_modes, tools)).openai_schemas(),
            "read": ToolRegistry([t for t in tools if t.risk == "read"]).openai_schemas(),
            "none": [],
        }
        # a local model's turn that does not ask for a change: what a learner is offered
        self._schemas["on_request"] = self._schemas["learner"]
        self._schema_tokens = {name: schema_tokens(s) for name, s in self._schemas.items()}

    async def __call__(self, state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        ctx = runtime.context
        writer = get_stream_writer()
        final = state.get("remaining_steps", 99) <= ctx.limits.final_answer_steps
        topology, node_types = await topology_summary(ctx.client, ctx.project_id)
        tag = new_tag()
        mode = state.get("mode") or ctx.mode
        messages = state.get("messages") or []
        widest = _widest_tools(mode, ctx, messages)
        prompt = system_prompt(
            mode, topology, language=ctx.language, tag=tag, devices=sheets_prompt(node_types)
        )
        if final:
            prompt += "\n\n" + FINAL_ANSWER_PROMPT
        elif widest == "on_request":
            prompt += "\n\n" + READS_ONLY_PROMPT
        system = SystemMessage(prompt)
        plan = plan_call(
            context_window=ctx.limits.context_window,
            answer_tokens=ctx.limits.max_output_tokens,
            system_tokens=message_tokens([system]),
            all_tools_tokens=0 if final else self._schema_tokens[widest],
            read_tools_tokens=0 if final else self._schema_tokens["read"],
            needed_history_tokens=last_exchanges_tokens(messages),
            tool_count=len(self._schemas[widest]),
        )
        history, dropped = bound_for_model(messages, plan.history_tokens)
        if dropped:
            system = SystemMessage(
                f"{prompt}\n\n({dropped} older messages of this conversation are not shown.)"
            )
        request: list[BaseMessage] = [system, *note_incomplete(frame_tool_results(history, tag))]
        schemas = (
            [] if final else self._schemas[widest if plan.tool_set == "all" else plan.tool_set]
        )
        model: Runnable[LanguageModelInput, BaseMessage] = (
            ctx.model.bind_tools(schemas) if schemas else ctx.model
        )
        answer = await _stream_answer(model, request, writer)
        if final and isinstance(answer, AIMessage) and answer.tool_calls:
            answer = AIMessage(
                content=answer.content, id=answer.id, usage_metadata=answer.usage_metadata
            )
        _emit_after_call(
            writer,
            answer,
            message_tokens(request),
            ctx.limits.context_window,
            None if final else plan.notice,
        )
        update: dict[str, Any] = {
            "llm_calls": state.get("llm_calls", 0) + 1,
            "topology": topology,
        }
        if answer is not None:
            answer, update["awaiting"], update["approval_notes"] = await gate_calls(
                answer, self._tools, ctx, mode, messages
            )
            update["messages"] = [answer]
        return update


READS_ONLY_PROMPT = (
    "In this step you are offered only the tools that read the lab. If the user wants a change, "
    "say what you would change and ask them to confirm it; the tools that change the lab are "
    "offered when they ask for a change."
)


def _widest_tools(mode: str | None, ctx: RunContext, messages: Sequence[AnyMessage]) -> str:
    """The most this step offers: a learner session never the change tools; a local model's
    turn only when its message asks for a change (`intent.asks_for_change`), so that a small
    model does not read every change tool's schema to answer a question."""
    if is_restricted(mode):
        return "learner"
    if not ctx.limits.tools_on_request:
        return "all"
    request = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
    return "all" if request is not None and asks_for_change(request.text) else "on_request"


async def _stream_answer(
    model: Runnable[LanguageModelInput, BaseMessage],
    request: list[BaseMessage],
    writer: Any,
) -> AIMessage | None:
    """Stream one model call; on failure or cut-off return the partial answer (no tool calls)."""
    full: AIMessageChunk | None = None
    try:
        async for piece in model.astream(request):
            if isinstance(piece, AIMessageChunk):
                full = piece if full is None else full + piece
    except Exception as exc:  # a provider failure: mapped to a user-facing error chunk
        error = map_provider_error(exc)
        log.warning("model call failed (%s): %s", error.kind, error.user_message)
        writer(
            ChatChunk(
                type="error",
                error=error.user_message,
                error_kind=error.kind,
                error_details=error.details or None,
            )
        )
        return _partial(full, error.kind)
    if full is None or not full.response_metadata.get("finish_reason"):
        log.warning("model stream ended without a finish reason")
        writer(ChatChunk(type="error", error=CUT_OFF_TEXT, error_kind="cut_off"))
        return _partial(full, "cut_off")
    tool_calls, invalid_calls = _strict_calls(full)
    content = full.content
    if isinstance(content, str) and fragment_name(content):
        # a tool call written as text: never the answer (with real calls, just dropped)
        content = "" if tool_calls or invalid_calls else readable_answer(content)
    message = AIMessage(
        content=content,
        id=full.id or f"ai-{uuid.uuid4()}",
        tool_calls=tool_calls,
        invalid_tool_calls=invalid_calls,
        usage_metadata=full.usage_metadata,
        response_metadata=dict(full.response_metadata),
    )
    return message


def _strict_calls(full: AIMessageChunk) -> tuple[list[Any], list[Any]]:
    """The calls whose arguments parse, as sent, as one JSON object; the others as invalid.

    LangChain reads streamed arguments with a partial-JSON parser, which turned a call cut off
    mid-string (``{"nodes": ["SW3", "SW``) into a different valid call (``["SW3", "SW"]``) and
    invalid JSON into ``{}``. Here the raw text decides."""
    if not full.tool_call_chunks:
        return list(full.tool_calls), list(full.invalid_tool_calls)
    valid: list[Any] = []
    invalid: list[Any] = []  # the chunks hold every call, the ones LangChain found invalid too
    for chunk in full.tool_call_chunks:
        raw = chunk.get("args") or ""
        name, call_id = chunk.get("name") or "", chunk.get("id")
        try:
            args = json.loads(raw) if raw.strip() else {}
            if not isinstance(args, dict):
                raise ValueError("the arguments are not a JSON object")
        except ValueError as exc:
            error = str(exc).split("\n")[0][:200]
            invalid.append(invalid_tool_call(name=name, args=raw, id=call_id, error=error))
            continue
        valid.append(tool_call(name=name, args=args, id=call_id))
    return valid, invalid


def _partial(full: AIMessageChunk | None, kind: str) -> AIMessage | None:
    """What was received before a failure, kept as an answer marked incomplete."""
    if full is None or not full.text:
        return None
    return AIMessage(
        content=full.text,
        id=full.id or f"ai-{uuid.uuid4()}",
        usage_metadata=full.usage_metadata,
        response_metadata={"incomplete": kind},
    )


def _emit_after_call(
    writer: Any,
    answer: AIMessage | None,
    context_tokens: int,
    context_window: int,
    notice: str | None = None,
) -> None:
    if answer is None:
        return
    for call in answer.tool_calls:
        arguments = json.dumps(call["args"], ensure_ascii=False)
        writer(_tool_call_chunk(call.get("id") or "", call["name"], arguments, answer.id))
    for bad in answer.invalid_tool_calls:
        writer(
            _tool_call_chunk(
                bad.get("id") or "", bad.get("name") or "", bad.get("args") or "", answer.id
            )
        )
    usage = answer.usage_metadata
    writer(
        ChatChunk(
            type="usage",
            message_id=answer.id,
            usage=TokenUsage(
                input_tokens=usage["input_tokens"] if usage else 0,
                output_tokens=usage["output_tokens"] if usage else 0,
            ),
            context_tokens=context_tokens,
            context_window=context_window,
            notice=notice,
        )
    )


def _tool_call_chunk(call_id: str, name: str, arguments: str, message_id: str | None) -> ChatChunk:
    return ChatChunk(
        type="tool_call",
        message_id=message_id,
        tool_call_id=call_id,
        tool_name=name,
        tool_call=ToolCall(id=call_id, function=FunctionCall(name=name, arguments=arguments)),
    )


# --- tools --------------------------------------------------------------------------------------


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


class _ToolNode:
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
