"""The narrow interface the chat widgets need from the agent core.

The widgets never talk to `AgentService` directly: `app.py` adapts the service (which also needs a
`RunContext`) to `ChatBackend`. Tests use a scripted double of it (tests/helpers/fake_backend.py).
The small dataclasses here are the UI's view of sessions, history and decisions; the adapter builds
them from the core's models.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk, ToolStatus

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.approval import CallPreview
    from gns3_copilot_desktop.core.classroom_client import ClassroomClient
    from gns3_copilot_desktop.core.practice.engine import PracticeEngine

SessionMode = Literal["assistant", "tutor", "practice"]
"""How the copilot works in a session (`core.agent.modes`): chosen at creation, then fixed."""


@dataclass(frozen=True)
class SessionEntry:
    """One row of the sessions list (or one search hit when `snippet` is set)."""

    session_id: str
    title: str
    updated_at: datetime
    pinned: bool = False
    snippet: str | None = None
    mode: str = "assistant"


IncompleteKind = Literal["stopped", "cut_off"]
"""An answer the user stopped, or one the model's stream ended before its end."""


@dataclass(frozen=True)
class UserTurn:
    """A message the user sent."""

    text: str


@dataclass(frozen=True)
class AssistantTurn:
    """An assistant answer (Markdown); ``incomplete`` says how it ended early, if it did."""

    text: str
    incomplete: IncompleteKind | None = None


@dataclass(frozen=True)
class ToolRecord:
    """A tool call of the history with its outcome."""

    tool_call_id: str
    tool_name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    summary: str = ""
    output: str = ""
    status: ToolStatus = "ok"
    duration_ms: int | None = None
    truncated: bool = False
    structured: dict[str, Any] | None = None
    """The tool's structured result (what its card offers, e.g. Undo), when the history has it."""


HistoryItem = UserTurn | AssistantTurn | ToolRecord


@dataclass(frozen=True)
class UserDecision:
    """The user's answer to one `ApprovalRequest`.

    `arguments` is set only when the user edited them; `always_allow` asks the app to remember the
    tool for this project (only meaningful with ``action == "approve"``).
    """

    tool_call_id: str
    action: Literal["approve", "reject"]
    arguments: dict[str, Any] | None = None
    reason: str | None = None
    always_allow: bool = False


class ChatBackend(Protocol):
    """What the chat panel calls. Every stream follows the rules of `core.protocol`."""

    def stream_chat(self, message: str, session_id: str) -> AsyncIterator[ChatChunk]:
        """Send `message` in `session_id` and stream the answer."""
        ...

    def resume(self, session_id: str, decisions: list[UserDecision]) -> AsyncIterator[ChatChunk]:
        """Continue a turn that waited for approvals."""
        ...

    async def preview_call(
        self, session_id: str, pending: ApprovalRequest, arguments: dict[str, Any]
    ) -> CallPreview:
        """The card of a call that waits in `session_id`, recomputed from the user's edited
        `arguments`: summary, risk, destructive mark and consequence read from the lab now, or
        the problem that keeps the edit from running (`CallPreview.problem`)."""
        ...

    async def get_history(self, session_id: str) -> list[HistoryItem]:
        """The session's transcript, oldest first."""
        ...

    async def pending_approvals(self, session_id: str) -> list[ApprovalRequest]:
        """The calls the session's paused turn waits on (none when nothing waits)."""
        ...

    async def list_sessions(self) -> list[SessionEntry]:
        """Sessions of the project: pinned first, newest first."""
        ...

    async def create_session(self, mode: SessionMode = "assistant") -> SessionEntry:
        """A new, empty session in `mode`."""
        ...

    async def rename_session(self, session_id: str, title: str) -> None:
        """Give a session a new title."""
        ...

    async def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin or unpin a session."""
        ...

    async def delete_session(self, session_id: str) -> None:
        """Delete a session and its history."""
        ...

    async def search_sessions(self, query: str) -> list[SessionEntry]:
        """Sessions whose title or messages match `query` (hits carry a snippet)."""
        ...

    async def export_session(self, session_id: str, fmt: Literal["markdown", "json"]) -> str:
        """The whole session with its tool calls, as Markdown or JSON text."""
        ...

    async def import_session(self, data: bytes) -> SessionEntry:
        """A new read-only session from an exported session's bytes (Markdown or JSON); a
        `CopilotError` says why a file or a backend cannot import."""
        ...

    async def imported_read_only(self, session_id: str) -> bool:
        """True for an imported session nobody chose to continue yet (nothing can be sent)."""
        ...

    async def continue_imported(self, session_id: str) -> None:
        """Let the user talk in an imported session: the copilot reads its transcript as quoted
        plain text, never as calls."""
        ...


class PracticeSource(Protocol):
    """A backend that can run practice exercises on the lab (only the local agent can)."""

    async def practice(self, project_id: str | None = None) -> PracticeEngine | None:
        """The practice engine of a project (default: the current one); None when exercises
        cannot run here (a copilot service on another computer)."""
        ...


async def practice_engine(backend: object, project_id: str | None = None) -> PracticeEngine | None:
    """The backend's practice engine of a project (default: its current one), or None when it
    has none."""
    practice = getattr(backend, "practice", None)
    if practice is None:
        return None
    engine: PracticeEngine | None = await practice(project_id)
    return engine


class ClassroomSource(Protocol):
    """A backend that reaches a trainer's classroom (a copilot service does; this computer's
    agent does not)."""

    def classroom(self) -> ClassroomClient | None:
        """The classroom of the service the dock uses, None without one."""
        ...


def classroom_client(backend: object) -> ClassroomClient | None:
    """The backend's classroom, or None when it has none."""
    classroom = getattr(backend, "classroom", None)
    if classroom is None:
        return None
    found: ClassroomClient | None = classroom()
    return found
