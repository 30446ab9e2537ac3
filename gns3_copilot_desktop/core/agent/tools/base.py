"""What a tool is: a typed argument schema, a risk class, a one-line summary and an async run.

The change and device tools are more `AgentTool` subclasses registered in the same
`ToolRegistry`; the graph asks for approval for every tool whose ``risk`` is not ``"read"``.
A tool never raises into the graph for an expected failure: it returns a `ToolResult` with
``is_error=True`` whose text the model can act on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import RiskClass

ArgsT = TypeVar("ArgsT", bound=BaseModel)

TRUNCATION_MARK = "\n[... {omitted} characters cut ...]\n"


class NoArgs(BaseModel):
    """The argument schema of a tool that takes none."""

    model_config = ConfigDict(extra="forbid")


class ToolResult(BaseModel):
    """The outcome of one tool call."""

    text: str
    """What the model sees."""
    structured: dict[str, Any] | None = None
    """What the UI card shows (JSON-able)."""
    truncated: bool = False
    is_error: bool = False

    @classmethod
    def error(cls, text: str, **structured: Any) -> ToolResult:
        """An expected failure, told to the model so it can act on it."""
        return cls(text=text, structured=structured or None, is_error=True)


@dataclass(frozen=True)
class Consequence:
    """What goes with a call, shown on its approval card: one line, and for a configuration
    push the lines compared with the device's running configuration (``+`` new, `` `` there)."""

    text: str
    diff: str | None = None
    plan: dict[str, Any] | None = None
    """A lab plan for the card to draw (JSON-able: tables, positions, states)."""


class CallRefusedError(CopilotError):
    """Raised by `AgentTool.consequence` when the call cannot run at all (a lab plan that does
    not validate): the model is told why and no approval card is shown."""


class CallAnsweredError(CopilotError):
    """Raised by `AgentTool.consequence` when the call has nothing to do (a lab plan the project
    already matches): its message is the call's answer, and no approval card is shown."""


class AgentTool(ABC, Generic[ArgsT]):
    """One tool the model can call."""

    name: ClassVar[str]
    display_name: ClassVar[str] = ""
    """What the user reads for this tool ("Delete nodes"), marked for translation in the
    `ToolName` context; never the id the model calls it by."""
    description: ClassVar[str]
    args_schema: ClassVar[type[BaseModel]]
    risk: ClassVar[RiskClass] = "read"
    destructive: ClassVar[bool] = False
    """Whether an approved call loses something (deletes, stops, restores, reconfigures): the
    approval card marks it in red and never makes Approve its default button."""
    read_calls: ClassVar[bool] = False
    """Whether some calls of this tool only read (`risk_for` says which): such a tool is offered
    in the learner modes, where only its reading calls may run."""

    def risk_for(self, args: ArgsT) -> RiskClass:
        """The risk of this call; a tool whose calls differ (device commands) overrides it."""
        return self.risk

    def is_destructive(self, args: ArgsT) -> bool:
        """Whether this call loses something; a tool whose calls differ overrides it."""
        return self.destructive

    async def consequence(self, args: ArgsT, ctx: RunContext) -> str | Consequence | None:
        """What goes with this call beyond its summary (``deletes R1 and its 3 links``), read
        from the lab before the user decides; None when there is nothing more to say."""
        return None

    @abstractmethod
    def summary(self, args: ArgsT) -> str:
        """One line saying what this call does, for cards and approval requests."""

    @abstractmethod
    async def run(self, args: ArgsT, ctx: RunContext) -> ToolResult:
        """Do the work; expected failures come back as ``ToolResult.error``."""

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-tool definition the model is given."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.args_schema.model_json_schema(),
            },
        }


def truncate_text(text: str, limit: int) -> tuple[str, bool]:
    """Cut ``text`` to about ``limit`` characters keeping head and tail; say where it was cut."""
    if limit <= 0 or len(text) <= limit:
        return text, False
    head = limit * 2 // 3
    tail = limit - head
    omitted = len(text) - head - tail
    return text[:head] + TRUNCATION_MARK.format(omitted=omitted) + text[-tail:], True
