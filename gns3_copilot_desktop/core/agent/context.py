"""The runtime context of one agent run.

`RunContext` is passed to LangGraph as the runtime ``context=`` of a run. LangGraph never writes the
runtime context into a checkpoint, its metadata or the stream events, which is why everything secret
(the GNS3 client that holds the JWT, the chat model that holds the API key) lives here and nowhere
else: not in ``configurable``, not in the graph state (stack.md, "the seed design leaks the JWT").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from langchain_core.language_models import BaseChatModel

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.topology_cache import TopologyCache
    from gns3_copilot_desktop.core.gns3.client import Gns3Client


@dataclass(frozen=True)
class AgentLimits:
    """Bounds of one run; none of them is secret."""

    max_steps: int = 25
    """LangGraph recursion limit: one model call or one tool round is one step."""
    final_answer_steps: int = 3
    """At this many ``remaining_steps`` the model is asked for a final answer without tools."""
    context_window: int = 128_000
    """Tokens the model accepts; the history sent to it is bounded to a share of this."""
    max_output_tokens: int = 4_096
    """Tokens reserved for the model's answer when bounding the history."""
    working_context_tokens: int = 24_000
    """Token bound of the conversation kept in the graph state (the full one is in the
    transcript)."""
    max_working_messages: int = 40
    """Message bound of the graph state. It also bounds the per-call cost of the provider client,
    which walks every message sent on the event loop (the OpenAI SDK: ~0.5 ms per message)."""
    full_turns: int = 4
    """The newest turns kept with their tool calls and results; older turns keep only the user's
    message and the final answer (their tool data can be read again)."""
    max_tool_output_chars: int = 8_000
    """A tool's text for the model is cut to this (head and tail kept, the cut marked)."""
    heartbeat_interval_s: float = 15.0
    """A ``heartbeat`` chunk is sent after this long without any other chunk; 0 disables."""
    title_timeout_s: float = 15.0
    """How long the end of the first turn waits for the title before using a fallback."""
    tools_on_request: bool = False
    """Offer the change tools only in a turn whose message asks for a change (`graph`'s tool
    choice): a local model reads every tool schema of every call, slowly."""


def limits_for(config: LlmConfigLike, *, heartbeat_interval_s: float = 15.0) -> AgentLimits:
    """The limits of a run with the model of ``config``: its context window, as the answer's
    reserve its own answer limit (not a fixed 4,096 tokens, which left an 8k window nothing), and
    for a local model (``config.is_local``) the change tools offered only when asked for."""
    window = config.context_window or AgentLimits.context_window
    answer = config.max_tokens or min(AgentLimits.max_output_tokens, window // 4)
    return AgentLimits(
        heartbeat_interval_s=heartbeat_interval_s,
        context_window=window,
        max_output_tokens=answer,
        tools_on_request=bool(getattr(config, "is_local", False)),
    )


class LlmConfigLike(Protocol):
    """What `limits_for` reads of a model configuration (`LlmConfig`)."""

    @property
    def context_window(self) -> int | None: ...
    @property
    def max_tokens(self) -> int | None: ...


@dataclass
class RunContext:
    """What a run needs at run time and must never be persisted.

    ``always_allow`` names the change tools the user allowed without asking in this project;
    read tools never ask.
    """

    client: Gns3Client
    project_id: str
    model: BaseChatModel
    server_url: str = ""
    mode: str = "assistant"
    """The mode of a run with no stored session; a session's own mode (`modes`) wins."""
    limits: AgentLimits = field(default_factory=AgentLimits)
    always_allow: frozenset[str] = frozenset()
    language: str | None = None
    """The answer language chosen in the settings; None: the language the user writes in."""
    topology_cache: TopologyCache | None = None
    """Reuses the topology summary between model calls while GNS3 reports no change; None:
    read it before every call."""

    def allows_without_approval(self, tool_name: str) -> bool:
        """Whether a change tool may run without asking (the user chose "always allow")."""
        return tool_name in self.always_allow
