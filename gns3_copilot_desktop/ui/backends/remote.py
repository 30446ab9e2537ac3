"""The chat widgets over a copilot service on another computer, and the choice between the two.

`RemoteBackend` is the `ChatBackend` of a dock whose agent runs in ``gns3-copilot serve`` (a lab
machine driven from a laptop): every call goes through `ChatServiceClient` with the user's GNS3
login, and the answers are converted to the widgets' dataclasses exactly as `ServiceBackend`
converts the in-process agent's. A Stop closes the stream, which stops the turn on the service.

`BackendChoice` is what the app hands to the widgets: it routes each call to the in-process
`ServiceBackend` or to a `RemoteBackend`, as the setting "Copilot runs on" says
(`Settings.copilot_service_url`, None for this computer), and switches when the setting changes.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, Literal

from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.core.chat_service_client import ChatServiceClient
from gns3_copilot_desktop.core.errors import CopilotError, Gns3AuthError, SessionNotFoundError
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk
from gns3_copilot_desktop.core.workspace import Workspace
from gns3_copilot_desktop.ui.backends.base import (
    HistoryItem,
    SessionEntry,
    SessionMode,
    UserDecision,
)
from gns3_copilot_desktop.ui.backends.service import (
    ServiceBackend,
    history_items,
    search_entries,
    session_entry,
    to_core_decision,
)

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.approval import CallPreview
    from gns3_copilot_desktop.core.classroom_client import ClassroomClient
    from gns3_copilot_desktop.core.practice.engine import PracticeEngine
    from gns3_copilot_desktop.core.sessions.models import SessionInfo


class RemoteBackend:
    """`ChatBackend` over a copilot service's Chat API, for the current project."""

    def __init__(self, client: ChatServiceClient, project_id: str | None = None) -> None:
        self.client = client
        self.project_id = project_id

    @property
    def service_url(self) -> str:
        """Where the agent runs."""
        return self.client.base_url

    def _project(self) -> str:
        if self.project_id is None:
            raise CopilotError(
                QCoreApplication.translate(
                    "ServiceBackend", "Open a project in GNS3 or choose one above first."
                )
            )
        return self.project_id

    async def project_notices(self) -> list[str]:
        """The service keeps the conversations: nothing to say about a local database."""
        return []

    def classroom(self) -> ClassroomClient:
        """The service's classroom (exams of the user's GNS3 group, a trainer's results)."""
        return self.client.classroom

    async def aclose(self) -> None:
        """Close the connections to the service."""
        await self.client.aclose()

    # --- chat -------------------------------------------------------------------------------

    async def stream_chat(self, message: str, session_id: str) -> AsyncIterator[ChatChunk]:
        """Send `message` in `session_id` on the service and stream the answer."""
        stream = self.client.stream_chat(self._project(), session_id, message)
        async with contextlib.aclosing(stream):
            async for chunk in stream:
                yield chunk

    async def resume(
        self, session_id: str, decisions: list[UserDecision]
    ) -> AsyncIterator[ChatChunk]:
        """Continue the paused turn on the service with the decisions; "Always allow" is kept
        on the service, for this user and project."""
        core = [to_core_decision(d) for d in decisions]
        always = frozenset(
            d.tool_call_id for d in decisions if d.always_allow and d.action == "approve"
        )
        stream = self.client.resume(self._project(), session_id, core, always)
        async with contextlib.aclosing(stream):
            async for chunk in stream:
                yield chunk

    async def preview_call(
        self, session_id: str, pending: ApprovalRequest, arguments: dict[str, Any]
    ) -> CallPreview:
        """Edits cannot be checked here: the tools, the consoles' logins and the lab reads are
        on the service's computer, and its Chat API has no way to ask what an edited call would
        do. The card then offers the call only as proposed (Approve as shown, or Reject)."""
        from gns3_copilot_desktop.core.agent.approval import CallPreview

        return CallPreview(
            problem=QCoreApplication.translate(
                "RemoteBackend",
                "Edits cannot be checked on a copilot service on another computer: Approve "
                "the call as shown or Reject it.",
            ),
            can_edit=False,
        )

    # --- history and sessions ---------------------------------------------------------------

    async def get_history(self, session_id: str) -> list[HistoryItem]:
        """The session's transcript as the message view's items."""
        return history_items(await self.client.history(self._project(), session_id))

    async def pending_approvals(self, session_id: str) -> list[ApprovalRequest]:
        """The calls the session's paused turn waits on."""
        return await self.client.pending_approvals(self._project(), session_id)

    async def list_sessions(self) -> list[SessionEntry]:
        """The user's sessions of the project; empty when no project is chosen."""
        if self.project_id is None:
            return []
        return [session_entry(info) for info in await self.client.list_sessions(self.project_id)]

    async def create_session(self, mode: SessionMode = "assistant") -> SessionEntry:
        """A new, empty session on the service, in `mode`."""
        return session_entry(await self.client.create_session(self._project(), mode))

    async def practice(self, project_id: str | None = None) -> PracticeEngine | None:
        """None: exercises run only with the local agent (their answers stay on this computer)."""
        return None

    async def rename_session(self, session_id: str, title: str) -> None:
        """Give a session a new title."""
        await self.client.update_session(self._project(), session_id, title=title)

    async def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin or unpin a session."""
        await self.client.update_session(self._project(), session_id, pinned=pinned)

    async def delete_session(self, session_id: str) -> None:
        """Delete a session and its history on the service."""
        await self.client.delete_session(self._project(), session_id)

    async def search_sessions(self, query: str) -> list[SessionEntry]:
        """Sessions whose title or messages match; each hit carries a plain-text snippet."""
        if self.project_id is None:
            return []
        hits = await self.client.search(self.project_id, query)
        return search_entries(hits, await self.client.list_sessions(self.project_id))

    async def export_session(self, session_id: str, fmt: Literal["markdown", "json"]) -> str:
        """The whole session from the service, as Markdown or JSON text."""
        from gns3_copilot_desktop.core.sessions.export import export_json, export_markdown

        project_id = self._project()
        info = await self._session_info(project_id, session_id)
        messages = await self.client.history(project_id, session_id)
        render = export_markdown if fmt == "markdown" else export_json
        return render(info, messages)

    async def undone_changes(self, session_id: str) -> set[str]:
        """The session's changes already undone, from the service's decision log."""
        return await self.client.undone_changes(self._project(), session_id)

    async def record_undo(self, session_id: str, tool_call_id: str) -> None:
        """Record in the service's decision log that the change was undone."""
        await self.client.record_undo(self._project(), session_id, tool_call_id)

    async def import_session(self, data: bytes) -> SessionEntry:
        """Not offered by a copilot service: `CopilotError` says so."""
        raise CopilotError(import_not_supported_text())

    async def imported_read_only(self, session_id: str) -> bool:
        """A copilot service holds no imported session."""
        return False

    async def continue_imported(self, session_id: str) -> None:
        """Not offered by a copilot service: `CopilotError` says so."""
        raise CopilotError(import_not_supported_text())

    async def _session_info(self, project_id: str, session_id: str) -> SessionInfo:
        for info in await self.client.list_sessions(project_id):
            if info.id == session_id:
                return info
        raise SessionNotFoundError(
            QCoreApplication.translate("RemoteBackend", "This conversation no longer exists.")
        )


def import_not_supported_text() -> str:
    """Why a copilot service neither imports nor continues an imported conversation."""
    return QCoreApplication.translate(
        "RemoteBackend",
        "A copilot service does not support importing or continuing a conversation: it works "
        "when the copilot runs on this computer (choose it in the settings).",
    )


def gns3_token(workspace: Workspace) -> Callable[[], str]:
    """The user's GNS3 JWT, read at each request (`Gns3AuthError` when there is no login)."""

    def token() -> str:
        client = workspace.check_login()
        if not client.token:
            raise Gns3AuthError(
                QCoreApplication.translate("RemoteBackend", "Log in to the GNS3 server first."),
                server=workspace.server_url,
            )
        return client.token

    return token


class BackendChoice:
    """The `ChatBackend` the widgets hold: this computer's agent, or a copilot service's."""

    def __init__(
        self,
        workspace: Workspace,
        client_factory: Callable[[str], ChatServiceClient] | None = None,
    ) -> None:
        self.workspace = workspace
        self.local = ServiceBackend(workspace)
        self.remote: RemoteBackend | None = None
        self._project_id: str | None = None
        self._client_factory = client_factory or (
            lambda url: ChatServiceClient(
                url, gns3_token(workspace), ca_file=workspace.settings.copilot_service_ca_file
            )
        )
        self._ca_file = workspace.settings.copilot_service_ca_file
        self._follow_settings()

    @property
    def project_id(self) -> str | None:
        """The project the chat is about (set by the copilot header)."""
        return self._project_id

    @project_id.setter
    def project_id(self, value: str | None) -> None:
        self._project_id = value
        self.local.project_id = value
        if self.remote is not None:
            self.remote.project_id = value

    @property
    def current(self) -> ServiceBackend | RemoteBackend:
        """The backend calls go to now."""
        return self.remote if self.remote is not None else self.local

    @property
    def is_remote(self) -> bool:
        """True when a copilot service runs the agent."""
        return self.remote is not None

    def _follow_settings(self) -> RemoteBackend | None:
        """Adopt the setting's choice; the remote backend replaced (to close), if any."""
        url = self.workspace.settings.copilot_service_url
        ca_file = self.workspace.settings.copilot_service_ca_file
        old = self.remote
        if (
            old is not None
            and old.service_url == (url or "").rstrip("/")
            and ca_file == self._ca_file
        ):
            return None
        self._ca_file = ca_file
        self.remote = RemoteBackend(self._client_factory(url), self._project_id) if url else None
        return old

    async def apply_settings(self) -> bool:
        """Follow a changed setting; True when the agent now runs elsewhere."""
        before = self.remote.service_url if self.remote is not None else None
        old = self._follow_settings()
        after = self.remote.service_url if self.remote is not None else None
        if old is not None:
            await old.aclose()
        return before != after

    async def aclose(self) -> None:
        """Close the connections to a copilot service."""
        if self.remote is not None:
            await self.remote.aclose()

    async def project_notices(self) -> list[str]:
        """What the user must be told about the project's conversations, once per opening."""
        return await self.current.project_notices()

    def classroom(self) -> ClassroomClient | None:
        """The classroom of the copilot service in use; None when the agent runs here."""
        return self.remote.classroom() if self.remote is not None else None

    async def import_session(self, data: bytes) -> SessionEntry:
        """A new read-only session from an export file (conversations on this computer only)."""
        return await self.current.import_session(data)

    async def imported_read_only(self, session_id: str) -> bool:
        """True for an imported session not continued yet."""
        return await self.current.imported_read_only(session_id)

    async def undone_changes(self, session_id: str) -> set[str]:
        """The session's changes already undone (from the log of whoever runs the agent)."""
        return await self.current.undone_changes(session_id)

    async def record_undo(self, session_id: str, tool_call_id: str) -> None:
        """Record that the change of ``tool_call_id`` was undone, where the agent runs."""
        await self.current.record_undo(session_id, tool_call_id)

    async def continue_imported(self, session_id: str) -> None:
        """Let the user talk in an imported session (on this computer only)."""
        await self.current.continue_imported(session_id)

    # --- ChatBackend, routed ---------------------------------------------------------------

    def stream_chat(self, message: str, session_id: str) -> AsyncIterator[ChatChunk]:
        """Send `message` in `session_id` and stream the answer."""
        return self.current.stream_chat(message, session_id)

    def resume(self, session_id: str, decisions: list[UserDecision]) -> AsyncIterator[ChatChunk]:
        """Continue a turn that waited for approvals."""
        return self.current.resume(session_id, decisions)

    async def preview_call(
        self, session_id: str, pending: ApprovalRequest, arguments: dict[str, Any]
    ) -> CallPreview:
        """A pending call's card recomputed from edited arguments."""
        return await self.current.preview_call(session_id, pending, arguments)

    async def get_history(self, session_id: str) -> list[HistoryItem]:
        """The session's transcript, oldest first."""
        return await self.current.get_history(session_id)

    async def pending_approvals(self, session_id: str) -> list[ApprovalRequest]:
        """The calls the session's paused turn waits on."""
        return await self.current.pending_approvals(session_id)

    async def list_sessions(self) -> list[SessionEntry]:
        """Sessions of the project: pinned first, newest first."""
        return await self.current.list_sessions()

    async def create_session(self, mode: SessionMode = "assistant") -> SessionEntry:
        """A new, empty session in `mode`."""
        return await self.current.create_session(mode)

    async def practice(self, project_id: str | None = None) -> PracticeEngine | None:
        """The current backend's practice engine (None for a copilot service)."""
        return await self.current.practice(project_id)

    async def rename_session(self, session_id: str, title: str) -> None:
        """Give a session a new title."""
        await self.current.rename_session(session_id, title)

    async def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin or unpin a session."""
        await self.current.set_pinned(session_id, pinned)

    async def delete_session(self, session_id: str) -> None:
        """Delete a session and its history."""
        await self.current.delete_session(session_id)

    async def search_sessions(self, query: str) -> list[SessionEntry]:
        """Sessions whose title or messages match `query`."""
        return await self.current.search_sessions(query)

    async def export_session(self, session_id: str, fmt: Literal["markdown", "json"]) -> str:
        """The whole session as Markdown or JSON text."""
        return await self.current.export_session(session_id, fmt)
