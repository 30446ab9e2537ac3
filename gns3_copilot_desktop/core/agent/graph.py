"""The agent graph: ``llm_call -> should_continue -> tools -> llm_call``.

- ``llm_call`` refreshes the topology summary (read again only when GNS3 may have changed it, with
  the run's `TopologyCache`), bounds the history to the context window, streams the model's
  answer and checks it was complete (a stream without a finish reason is an error, "the answer
  was cut off"). Provider errors never escape the graph: they are streamed as an
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

import json
import logging
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
)
from langchain_core.messages.tool import invalid_tool_call, tool_call
from langchain_core.runnables import Runnable
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

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
from gns3_copilot_desktop.core.agent.model_errors import CUT_OFF_TEXT, map_provider_error
from gns3_copilot_desktop.core.agent.modes import (
    is_restricted,
    offered_in_learner_modes,
)
from gns3_copilot_desktop.core.agent.prompts import FINAL_ANSWER_PROMPT, system_prompt
from gns3_copilot_desktop.core.agent.state import AgentState
from gns3_copilot_desktop.core.agent.tool_node import ToolNode, gate_calls
from gns3_copilot_desktop.core.agent.tools import ToolRegistry
from gns3_copilot_desktop.core.agent.topology import topology_summary
from gns3_copilot_desktop.core.devices.sheets import sheets_prompt
from gns3_copilot_desktop.core.protocol import (
    ChatChunk,
    FunctionCall,
    TokenUsage,
    ToolCall,
)

log = logging.getLogger(__name__)


def build_graph(
    tools: ToolRegistry, checkpointer: BaseCheckpointSaver[Any] | None = None
) -> CompiledStateGraph[AgentState, RunContext, AgentState, AgentState]:
    """Compile the agent graph. The model comes with each run's `RunContext`."""
    builder = StateGraph(AgentState, context_schema=RunContext)
    builder.add_node("llm_call", _LlmCall(tools))
    builder.add_node("tools", ToolNode(tools))
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
        topology, node_types = await (
            ctx.topology_cache.summary(ctx.client, ctx.project_id)
            if ctx.topology_cache is not None
            else topology_summary(ctx.client, ctx.project_id)
        )
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
