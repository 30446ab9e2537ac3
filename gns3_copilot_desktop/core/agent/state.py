"""The graph state: a BOUNDED working context, never the whole conversation.

The full conversation lives in the session store's append-only transcript. The state keeps only
the recent turns the model may need (AgentService trims it at the start of every turn), so a
checkpoint stays small however long the session gets: storage grows linearly (the transcript)
and the per-turn work on the event loop stays bounded.
Nothing secret is ever put here: see `RunContext`.
"""

from __future__ import annotations

from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from langgraph.managed import RemainingSteps
from typing_extensions import TypedDict


class AgentState(TypedDict, total=False):
    """What a checkpoint holds for one session."""

    messages: Annotated[list[AnyMessage], add_messages]
    llm_calls: int
    remaining_steps: RemainingSteps
    topology: str
    title: str | None
    mode: str
    dropped_messages: int
    """Older messages trimmed out of the working context (they stay in the transcript)."""
    awaiting: list[str]
    approval_notes: dict[str, dict[str, str]]
    """What goes with each awaited call (its consequence), read from the lab before the pause."""
    """The tool-call ids the current step waits on for the user's decision, fixed by the gate
    before the pause: the resumed step applies decisions to exactly these calls."""
