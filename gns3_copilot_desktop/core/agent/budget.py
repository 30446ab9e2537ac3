"""How one model call spends the context window: the answer, the system prompt, the tools, and
the conversation, from the real numbers of that call.

A local model with an 8k window cannot hold the 25 tool schemas (~5,000 tokens), the system prompt
and a conversation. Rather than silently dropping the conversation, a call whose window cannot
hold all tools plus the last exchanges is made with the read tools only, and if even those do not
fit, without tools; the user is told once why and what to change.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AnyMessage

from gns3_copilot_desktop.core.agent.history import condensed, message_tokens, split_turns

ToolSet = Literal["all", "read", "none"]


def schema_tokens(schemas: Sequence[dict[str, Any]]) -> int:
    """Approximate tokens of tool schemas as they are sent (their JSON)."""
    return len(json.dumps(list(schemas), ensure_ascii=False)) // 4 if schemas else 0


def last_exchanges_tokens(messages: Sequence[AnyMessage]) -> int:
    """Tokens of what the model must see to follow the conversation: the newest turn whole and
    the turn before it as question and answer."""
    turns = split_turns(messages)
    if not turns:
        return 0
    needed = message_tokens(turns[-1])
    if len(turns) > 1:
        needed += message_tokens(condensed(turns[-2]))
    return needed


@dataclass(frozen=True)
class CallBudget:
    """What one model call sends: which tools, and how many tokens of conversation."""

    tool_set: ToolSet
    history_tokens: int
    notice: str | None = None
    """Why fewer tools were sent (None when all were)."""


def plan_call(
    *,
    context_window: int,
    answer_tokens: int,
    system_tokens: int,
    all_tools_tokens: int,
    read_tools_tokens: int,
    needed_history_tokens: int,
    tool_count: int,
) -> CallBudget:
    """The largest tool set that leaves room for the last exchanges (`last_exchanges_tokens`)."""
    room = context_window - answer_tokens - system_tokens
    if room - all_tools_tokens >= needed_history_tokens:
        return CallBudget("all", room - all_tools_tokens)
    window = f"{context_window:,}"
    if read_tools_tokens and room - read_tools_tokens >= needed_history_tokens:
        return CallBudget(
            "read",
            room - read_tools_tokens,
            f"The model's context window ({window} tokens) is too small for all {tool_count} "
            f"tools (about {all_tools_tokens:,} tokens) and this conversation, so only the tools "
            "that read the lab were offered. For changes, raise the context window in the model "
            "settings (and on the model's server) or shorten the answer limit.",
        )
    return CallBudget(
        "none",
        max(room, 0),
        f"The model's context window ({window} tokens) is too small for any tool and this "
        "conversation, so it answered without tools. Raise the context window in the model "
        "settings (and on the model's server), or start a new conversation.",
    )
