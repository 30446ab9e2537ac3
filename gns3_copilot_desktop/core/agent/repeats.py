"""A model that asks for the same thing again and again is told to stop.

Small local models loop: one called the same tool with the same arguments 11 times in one turn.
Each repeat costs a model call (tens of seconds on a laptop) and tells the model nothing new, so
after `MAX_REPEATS` identical calls in a turn the next one is answered with a tool error saying so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

MAX_REPEATS = 3


def _key(name: str, args: Mapping[str, Any]) -> str:
    return name + "\x00" + json.dumps(args, sort_keys=True, ensure_ascii=False, default=str)


def earlier_identical_calls(
    messages: Sequence[AnyMessage], name: str, args: Mapping[str, Any], call_id: str | None
) -> int:
    """How many calls of ``name`` with exactly ``args`` the model made earlier in this turn
    (since the user's last message), not counting the call ``call_id`` itself."""
    start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    wanted = _key(name, args)
    count = 0
    for message in messages[start + 1 :]:
        if not isinstance(message, AIMessage):
            continue
        for call in message.tool_calls:
            if call.get("id") != call_id and _key(call["name"], call["args"]) == wanted:
                count += 1
    return count


def repeat_error(name: str, times: int) -> str:
    """The tool error the model gets instead of running the call once more."""
    return (
        f"Not run: you already called {name} with these same arguments {times} times in this "
        "turn, and the answer will not change. Do not call it again: use the results you have, "
        "try something different, or answer the user."
    )
