"""Bounding the conversation: what the model sees, and what the working state keeps.

Tokens are counted with langchain-core's ``count_tokens_approximately`` (no tokenizer download).
The unit that is dropped is a whole turn (a user message and everything after it up to the next
one), or inside the newest turn a whole "step" (an assistant message together with the results of
its tool calls), so a tool call is never separated from its result.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately

from gns3_copilot_desktop.core.agent.context import AgentLimits


def message_tokens(messages: Sequence[BaseMessage]) -> int:
    """Approximate tokens of ``messages``."""
    return count_tokens_approximately(messages) if messages else 0


def split_turns(messages: Sequence[AnyMessage]) -> list[list[AnyMessage]]:
    """Group messages into turns; each turn starts at a user message."""
    turns: list[list[AnyMessage]] = []
    for message in messages:
        if isinstance(message, HumanMessage) or not turns:
            turns.append([message])
        else:
            turns[-1].append(message)
    return turns


def split_steps(turn: Sequence[AnyMessage]) -> list[list[AnyMessage]]:
    """Group a turn into steps: an assistant message with its tool results stays one step."""
    steps: list[list[AnyMessage]] = []
    for message in turn:
        if isinstance(message, ToolMessage) and steps:
            steps[-1].append(message)
        else:
            steps.append([message])
    return steps


def bound_for_model(
    messages: Sequence[AnyMessage], budget_tokens: int
) -> tuple[list[AnyMessage], int]:
    """The newest messages that fit in ``budget_tokens``, and how many were left out.

    Whole turns are dropped oldest first. The newest turn is always kept; if it alone is too
    large, its oldest steps after the user message are dropped (never a call without its result).
    """
    turns = split_turns(messages)
    if not turns:
        return [], 0
    kept: list[list[AnyMessage]] = []
    used = 0
    room = budget_tokens - message_tokens(turns[-1])
    for turn in reversed(turns[:-1]):
        cost = message_tokens(turn)
        if used + cost > room:
            break
        kept.insert(0, turn)
        used += cost
    last = _bound_turn(turns[-1], budget_tokens)
    result = [m for turn in kept for m in turn] + last
    return result, len(messages) - len(result)


def _bound_turn(turn: list[AnyMessage], budget_tokens: int) -> list[AnyMessage]:
    if message_tokens(turn) <= budget_tokens:
        return list(turn)
    steps = split_steps(turn)
    head = steps[0]
    tail: list[list[AnyMessage]] = []
    used = message_tokens(head)
    for step in reversed(steps[1:]):
        cost = message_tokens(step)
        if used + cost > budget_tokens and tail:
            break
        tail.insert(0, step)
        used += cost
    return head + [m for step in tail for m in step]


def condensed(turn: Sequence[AnyMessage]) -> list[AnyMessage]:
    """A turn without its tool steps: the user's message(s) and the final answer, if any."""
    keep: list[AnyMessage] = [m for m in turn if isinstance(m, HumanMessage)]
    last = turn[-1] if turn else None
    if isinstance(last, AIMessage) and not last.tool_calls and not last.invalid_tool_calls:
        keep.append(last)
    return keep


def working_state_trim(messages: Sequence[AnyMessage], limits: AgentLimits) -> list[AnyMessage]:
    """The messages to remove so the working context fits the limits.

    Turns older than the newest ``limits.full_turns`` lose their tool steps (a call always goes
    together with its results); then the oldest whole turns go until both the token and the
    message bounds hold. The newest turn is always kept. Called before a new user message is
    added.
    """
    turns = split_turns(messages)
    drop: list[AnyMessage] = []
    cut = max(len(turns) - max(limits.full_turns, 1), 0)
    for index, turn in enumerate(turns[:cut]):
        kept = condensed(turn)
        drop.extend(m for m in turn if not any(m is k for k in kept))
        turns[index] = kept
    remaining = [m for turn in turns for m in turn]
    total_tokens = message_tokens(remaining)
    total_count = len(remaining)
    budget_tokens, max_messages = limits.working_context_tokens, limits.max_working_messages
    for turn in turns[:-1]:
        if total_tokens <= budget_tokens and total_count <= max_messages:
            break
        drop.extend(turn)
        total_tokens -= message_tokens(turn)
        total_count -= len(turn)
    return drop


def dangling_tool_calls(messages: Sequence[AnyMessage]) -> list[tuple[str, str]]:
    """(id, name) of every tool call that has no tool message answering it."""
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    dangling: list[tuple[str, str]] = []
    for message in messages:
        if not isinstance(message, AIMessage):
            continue
        for call in [*message.tool_calls, *message.invalid_tool_calls]:
            call_id = call.get("id")
            if call_id and call_id not in answered:
                dangling.append((call_id, call.get("name") or "unknown"))
    return dangling


STOPPED_NOTE = "[The user stopped this answer before the end.]"
CUT_OFF_NOTE = "[This answer was cut off before the end.]"


def incomplete_kind(message: BaseMessage) -> str | None:
    """How an assistant answer ended early (``cancelled`` by the user, ``cut_off`` or another
    provider failure mid-stream), or None for a complete answer."""
    if not isinstance(message, AIMessage):
        return None
    kind = message.response_metadata.get("incomplete")
    return str(kind) if kind else None


def note_incomplete(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The messages for one model call, each answer that ended early saying so (copies: the
    stored answer stays as the user saw it). Without the note the model takes a half answer
    for its own finished one and builds on it."""
    noted: list[BaseMessage] = []
    for message in messages:
        kind = incomplete_kind(message)
        if kind is None or not isinstance(message.content, str):
            noted.append(message)
            continue
        note = STOPPED_NOTE if kind == "cancelled" else CUT_OFF_NOTE
        noted.append(message.model_copy(update={"content": f"{message.content}\n\n{note}"}))
    return noted
