"""The streaming chunk protocol ("GNS3 Copilot Agent Chat API", kept compatible).

`AgentService.stream_chat` yields `ChatChunk`s. Their JSON is what a later HTTP/SSE endpoint will
send, so the design's field names are kept: ``type``, ``content``, ``message_id``, ``tool_call``
(OpenAI shape), ``tool_name``, ``tool_output``, ``error``, ``session_id``. The rest is additive.

Rules every stream keeps:
- it ends with exactly one ``done``, or one ``error`` followed by one ``done``;
- ``heartbeat`` is sent when nothing else was sent for the configured interval;
- a ``tool_start``/``tool_end`` pair carries ``tool_call_id`` so the UI can match cards.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ChunkType = Literal[
    "content",
    "tool_call",
    "tool_start",
    "tool_end",
    "error",
    "done",
    "heartbeat",
    # additive types
    "title",
    "usage",
    "approval_request",
]

GNS3_AUTH_ERROR_KIND = "Gns3AuthError"
"""The ``error_kind`` of a turn ended because the GNS3 server refused the login (expired or
revoked token): the UI asks for the login again, as for a `Gns3AuthError` raised before a turn."""

ToolStatus = Literal["ok", "error", "cancelled", "rejected"]
RiskClass = Literal["read", "change", "device-config"]


class FunctionCall(BaseModel):
    """OpenAI's ``function`` object: the tool name and its arguments as a JSON string."""

    name: str
    arguments: str = ""


class ToolCall(BaseModel):
    """OpenAI's tool call shape."""

    id: str
    type: Literal["function"] = "function"
    function: FunctionCall


class TokenUsage(BaseModel):
    """Tokens of one model call (``usage`` chunk) or of a whole session."""

    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class ApprovalRequest(BaseModel):
    """One tool call that waits for the user's decision."""

    tool_call_id: str
    tool_name: str
    arguments: dict[str, Any]
    summary: str
    risk: RiskClass
    arguments_schema: dict[str, Any] | None = None
    # --- additive fields ---
    destructive: bool = False
    """The call loses something (deletes, stops, restores, reconfigures): shown in red."""
    consequence: str | None = None
    diff: str | None = None
    """For a configuration push: each device's lines against its running configuration."""
    """What goes with it, read from the lab at the pause (``deletes R1 and its 3 links``)."""
    plan: dict[str, Any] | None = None
    """For ``plan_lab``: the diffed plan to draw (`LabDiff.to_json`)."""


class ChatChunk(BaseModel):
    """One event of a chat stream."""

    model_config = ConfigDict(extra="forbid")

    type: ChunkType
    content: str | None = None
    message_id: str | None = None
    tool_call: ToolCall | None = None
    tool_name: str | None = None
    tool_output: str | None = None
    error: str | None = None
    session_id: str | None = None
    # --- additive fields ---
    tool_call_id: str | None = None
    duration_ms: int | None = None
    status: ToolStatus | None = None
    truncated: bool | None = None
    title: str | None = None
    usage: TokenUsage | None = None
    context_tokens: int | None = None
    context_window: int | None = None
    notice: str | None = None
    """A note on how the call was made (usage chunks: fewer tools offered for a small window)."""
    approvals: list[ApprovalRequest] | None = None
    error_kind: str | None = None
    error_details: str | None = None
    """The provider's own text behind an error, whole (the ``error`` is one sentence)."""
    elapsed_s: float | None = None
    structured: dict[str, Any] | None = Field(
        default=None, description="Structured tool result for the UI card (tool_end only)."
    )

    def to_json(self) -> str:
        """The wire form: unset optional fields are left out."""
        return self.model_dump_json(exclude_none=True)
