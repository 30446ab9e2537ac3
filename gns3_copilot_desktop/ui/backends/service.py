"""`ServiceBackend`: the `ChatBackend` the chat widgets use, over the real `AgentService`.

It routes every call to the agent service of the current project (`project_id`, set by the
copilot header when the project changes), builds the turn's `RunContext` through the `Workspace`
and converts the core's models to the widgets' small dataclasses: sessions, history, decisions.
"Always allow" decisions are saved per server + project in the settings before the turn resumes,
so the grant also reaches this turn's `RunContext`.

A missing or expired GNS3 login raises `Gns3AuthError` from the stream before anything is sent:
the chat controller reports it and the copilot header opens the login again.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk, ToolStatus
from gns3_copilot_desktop.core.workspace import Workspace
from gns3_copilot_desktop.ui.backends.base import (
    AssistantTurn,
    HistoryItem,
    IncompleteKind,
    SessionEntry,
    SessionMode,
    ToolRecord,
    UserDecision,
    UserTurn,
)

if TYPE_CHECKING:
    # Importing the sessions package loads LangGraph's checkpointer: not before the window shows.
    from gns3_copilot_desktop.core.agent.approval import ApprovalDecision, CallPreview
    from gns3_copilot_desktop.core.agent.context import RunContext
    from gns3_copilot_desktop.core.agent.service import AgentService
    from gns3_copilot_desktop.core.gns3 import Gns3Client
    from gns3_copilot_desktop.core.practice.engine import PracticeEngine
    from gns3_copilot_desktop.core.sessions.models import (
        SessionInfo,
        SessionSearchHit,
        TranscriptMessage,
    )

_TOOL_STATUSES: tuple[ToolStatus, ...] = ("ok", "error", "cancelled", "rejected")
PRACTICE_DB_NAME = "copilot_practice.db"
"""The exercises' own file, beside the project's conversation database (never inside it), in the
project's private folder of the app's data folder (`core.sessions.location`)."""


class ServiceBackend:
    """`ChatBackend` over the `AgentService` of the current project."""

    def __init__(self, workspace: Workspace, project_id: str | None = None) -> None:
        self.workspace = workspace
        self.project_id = project_id
        self._engines: dict[str, tuple[Gns3Client, PracticeEngine]] = {}

    async def _service(self) -> tuple[str, AgentService]:
        project_id = self.project_id
        if project_id is None:
            raise CopilotError(
                QCoreApplication.translate(
                    "ServiceBackend", "Open a project in GNS3 or choose one above first."
                )
            )
        return project_id, await self.workspace.service(project_id)

    async def project_notices(self) -> list[str]:
        """What the user must be told about the project's conversation database (one that came
        from another computer, a damaged one replaced), once per opening."""
        if self.project_id is None:
            return []
        _, service = await self._service()
        notices = [_notice_text(n.kind, str(n.path), n.reason) for n in service.store.notices]
        service.store.notices = []
        return notices

    # --- chat -------------------------------------------------------------------------------

    def stream_chat(self, message: str, session_id: str) -> AsyncIterator[ChatChunk]:
        """Send `message` in `session_id` with a fresh run context and stream the answer."""

        def start(service: AgentService, context: RunContext) -> AsyncIterator[ChatChunk]:
            return service.stream_chat(message, session_id, context=context)

        return self._relay(start)

    def resume(self, session_id: str, decisions: list[UserDecision]) -> AsyncIterator[ChatChunk]:
        """Save "always allow" grants, then continue the paused turn with the decisions."""

        async def grant(project_id: str, service: AgentService) -> None:
            call_ids = [
                d.tool_call_id for d in decisions if d.always_allow and d.action == "approve"
            ]
            if call_ids:
                names = await self._tool_names(service, session_id, call_ids)
                await self.workspace.grant_always_allow(project_id, names)

        def start(service: AgentService, context: RunContext) -> AsyncIterator[ChatChunk]:
            core = [to_core_decision(d) for d in decisions]
            return service.resume(session_id, core, context=context)

        return self._relay(start, grant)

    async def _relay(
        self,
        start: Callable[[AgentService, RunContext], AsyncIterator[ChatChunk]],
        prepare: Callable[[str, AgentService], Awaitable[None]] | None = None,
    ) -> AsyncIterator[ChatChunk]:
        """Run `prepare`, build the run context, then relay the agent's stream.

        The agent's stream is closed here as soon as the consumer stops, so a Stop reaches its
        turn (and its tools) at once instead of whenever the generator is collected.
        """
        project_id, service = await self._service()
        if prepare is not None:
            await prepare(project_id, service)
        stream = start(service, await self.workspace.run_context(project_id))
        try:
            async for chunk in stream:
                yield chunk
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()

    async def _tool_names(
        self, service: AgentService, session_id: str, call_ids: list[str]
    ) -> list[str]:
        pending = await service.pending_approvals(session_id)
        return [r.tool_name for r in pending if r.tool_call_id in call_ids]

    async def preview_call(
        self, session_id: str, pending: ApprovalRequest, arguments: dict[str, Any]
    ) -> CallPreview:
        """`pending`'s card recomputed from edited `arguments`, with the lab read now through
        the turn's own run context and tools (`core.agent.approval.preview_call`). The call is
        looked up among the session's pending ones: the card never chooses the tool."""
        from gns3_copilot_desktop.core.agent.approval import (
            NOT_PENDING_TEXT,
            CallPreview,
            preview_call,
        )

        project_id, service = await self._service()
        waiting = await service.pending_approvals(session_id)
        stored = next((r for r in waiting if r.tool_call_id == pending.tool_call_id), None)
        if stored is None:
            return CallPreview(problem=NOT_PENDING_TEXT)
        mode = (await service.store.get_session(session_id)).mode
        context = await self.workspace.run_context(project_id)
        return await preview_call(self.workspace.tools(), stored, arguments, context, mode=mode)

    # --- history and sessions ---------------------------------------------------------------

    async def get_history(self, session_id: str) -> list[HistoryItem]:
        """The session's transcript as the message view's items."""
        _, service = await self._service()
        history = await service.get_history(session_id)
        unanswered = _unanswered_calls(history.messages)
        decided = await service.decided_calls(session_id, unanswered) if unanswered else {}
        return history_items(history.messages, decided)

    async def undone_changes(self, session_id: str) -> set[str]:
        """The tool call ids of the session whose change was already undone."""
        _, service = await self._service()
        return await service.undone_changes(session_id)

    async def record_undo(self, session_id: str, tool_call_id: str) -> None:
        """Remember in the decision log that the change of ``tool_call_id`` was undone."""
        _, service = await self._service()
        await service.record_undo(session_id, tool_call_id)

    async def pending_approvals(self, session_id: str) -> list[ApprovalRequest]:
        """The calls the session's paused turn waits on, shown again as a live card."""
        _, service = await self._service()
        return await service.pending_approvals(session_id)

    async def list_sessions(self) -> list[SessionEntry]:
        """Pinned first, newest first; empty when no project is chosen."""
        if self.project_id is None:
            return []
        _, service = await self._service()
        return [session_entry(info) for info in await service.list_sessions()]

    async def create_session(self, mode: SessionMode = "assistant") -> SessionEntry:
        """A new, empty session in `mode` (the agent reads it from the session every turn)."""
        _, service = await self._service()
        return session_entry(await service.create_session(None, mode))

    async def practice(self, project_id: str | None = None) -> PracticeEngine | None:
        """The practice engine of a project (default: the current one) on the logged-in server.

        Its exercises are kept in their own file beside the project's conversation database,
        so the sealed answers never enter a session. One engine per project and login.
        """
        from gns3_copilot_desktop.core.practice.catalog import load_catalog
        from gns3_copilot_desktop.core.practice.engine import PracticeEngine
        from gns3_copilot_desktop.core.practice.store import ExerciseStore, sealing_key
        from gns3_copilot_desktop.ui.practice.texts import catalog_language

        project_id = project_id or self.project_id
        if project_id is None:
            return None
        service = await self.workspace.service(project_id)
        client = self.workspace.require_client()
        cached = self._engines.get(project_id)
        if cached is not None and cached[0] is client:
            return cached[1]
        key = await sealing_key(self.workspace.secrets)  # answers sealed by this installation
        store = ExerciseStore(service.store.db_path.parent / PRACTICE_DB_NAME, key)
        engine = PracticeEngine(
            client,
            project_id,
            store,
            server_url=self.workspace.server_url,
            catalog=load_catalog().localized(catalog_language()),
            logins=self.workspace.console_logins_for(project_id),
        )
        self._engines[project_id] = (client, engine)
        return engine

    async def rename_session(self, session_id: str, title: str) -> None:
        """Give a session a new title."""
        _, service = await self._service()
        await service.rename_session(session_id, title)

    async def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin or unpin a session."""
        _, service = await self._service()
        await service.set_pinned(session_id, pinned)

    async def delete_session(self, session_id: str) -> None:
        """Delete a session with its history and checkpoints."""
        _, service = await self._service()
        await service.delete_session(session_id)

    async def export_session(self, session_id: str, fmt: Literal["markdown", "json"]) -> str:
        """The whole session from the project's store, as Markdown or JSON text."""
        from gns3_copilot_desktop.core.sessions.export import export_json, export_markdown

        _, service = await self._service()
        info = await service.store.get_session(session_id)
        messages = await service.store.read_transcript(session_id)
        render = export_markdown if fmt == "markdown" else export_json
        return render(info, messages)

    async def import_session(self, data: bytes) -> SessionEntry:
        """A new read-only session from an export file's bytes (Markdown or JSON)."""
        _, service = await self._service()
        return session_entry(await service.import_session(data))

    async def continue_imported(self, session_id: str) -> None:
        """Let the user talk in an imported session."""
        _, service = await self._service()
        await service.continue_imported(session_id)

    async def imported_read_only(self, session_id: str) -> bool:
        """True for an imported session that was not continued yet."""
        _, service = await self._service()
        return await service.imported_read_only(session_id)

    async def search_sessions(self, query: str) -> list[SessionEntry]:
        """Sessions whose title or messages match; each hit carries a plain-text snippet."""
        if self.project_id is None:
            return []
        _, service = await self._service()
        hits = await service.search_sessions(query)
        return search_entries(hits, await service.list_sessions())


# --- conversions ------------------------------------------------------------------------------


def session_entry(info: SessionInfo) -> SessionEntry:
    """A sessions-list row from the core's session info."""
    return SessionEntry(
        session_id=info.id,
        title=info.display_title,
        updated_at=info.updated_at,
        pinned=info.pinned,
        mode=info.mode,
    )


def search_entries(hits: list[SessionSearchHit], infos: list[SessionInfo]) -> list[SessionEntry]:
    """Search hits as sessions-list rows (date and pin from the session, snippet as plain text)."""
    from gns3_copilot_desktop.core.sessions.models import HIGHLIGHT_END, HIGHLIGHT_START

    by_id = {info.id: info for info in infos}
    entries: list[SessionEntry] = []
    for hit in hits:
        info = by_id.get(hit.session_id)
        entries.append(
            SessionEntry(
                session_id=hit.session_id,
                title=hit.title or (info.display_title if info else ""),
                updated_at=info.updated_at if info else datetime.now(UTC),
                pinned=info.pinned if info else False,
                snippet=hit.snippet.replace(HIGHLIGHT_START, "").replace(HIGHLIGHT_END, ""),
                mode=info.mode if info else "assistant",
            )
        )
    return entries


def to_core_decision(decision: UserDecision) -> ApprovalDecision:
    """The widget's decision as the agent's: approve with edited arguments becomes "edit"."""
    from gns3_copilot_desktop.core.agent.approval import ApprovalDecision

    if decision.action == "reject":
        return ApprovalDecision(
            tool_call_id=decision.tool_call_id, action="reject", reason=decision.reason
        )
    if decision.arguments is not None:
        return ApprovalDecision(
            tool_call_id=decision.tool_call_id, action="edit", arguments=decision.arguments
        )
    return ApprovalDecision(tool_call_id=decision.tool_call_id, action="approve")


def history_items(
    messages: list[TranscriptMessage], decided: dict[str, str] | None = None
) -> list[HistoryItem]:
    """User turns, assistant answers and tool records, oldest first (system messages left out).

    ``decided``: calls without a result in this transcript that the decision log holds as
    decided (an older copy of the conversation database): shown as decided, never as live.
    """
    items: list[HistoryItem] = []
    arguments: dict[str, dict[str, Any]] = {}
    decided = decided or {}
    for message in messages:
        if message.role == "user":
            items.append(UserTurn(message.content))
        elif message.role == "assistant":
            for call in message.tool_calls:
                arguments[call.id] = _parse_arguments(call.function.arguments)
            if message.content:
                items.append(AssistantTurn(message.content, _incomplete(message)))
            items += [
                _decided_record(call.id, call.function.name, arguments[call.id], decided[call.id])
                for call in message.tool_calls
                if call.id in decided
            ]
        elif message.role == "tool" and message.tool_call_id:
            # a call the user edited before approving ran with the arguments its result keeps
            ran_with = message.metadata.get("arguments")
            if not isinstance(ran_with, dict):
                ran_with = arguments.get(message.tool_call_id, {})
            items.append(_tool_record(message, ran_with))
    return items


def _unanswered_calls(messages: list[TranscriptMessage]) -> list[str]:
    answered = {m.tool_call_id for m in messages if m.role == "tool" and m.tool_call_id}
    return [
        call.id
        for m in messages
        if m.role == "assistant"
        for call in m.tool_calls
        if call.id not in answered
    ]


def _decided_record(
    call_id: str, name: str, arguments: dict[str, Any], decision: str
) -> ToolRecord:
    rejected = decision == "reject"
    text = (
        QCoreApplication.translate(
            "ServiceBackend", "Already decided: rejected. It will not run again."
        )
        if rejected
        else QCoreApplication.translate(
            "ServiceBackend",
            "Already decided: approved. It will not run again (its result is not in this copy "
            "of the conversation).",
        )
    )
    return ToolRecord(
        tool_call_id=call_id,
        tool_name=name,
        arguments=arguments,
        summary=QCoreApplication.translate("ServiceBackend", "Already decided"),
        output=text,
        status="rejected" if rejected else "cancelled",
    )


def _incomplete(message: TranscriptMessage) -> IncompleteKind | None:
    """The core marks a stopped answer ``cancelled``, and one the provider ended early with the
    failure's kind (``cut_off``, ``malformed``...): for the user, stopped or cut off."""
    kind = message.metadata.get("incomplete")
    if not kind:
        return None
    return "stopped" if kind == "cancelled" else "cut_off"


def _tool_record(message: TranscriptMessage, arguments: dict[str, Any]) -> ToolRecord:
    meta = message.metadata
    status = meta.get("status")
    duration = meta.get("duration_ms")
    return ToolRecord(
        tool_call_id=message.tool_call_id or "",
        tool_name=message.name or "",
        arguments=arguments,
        summary=str(meta.get("summary") or ""),
        output=message.content,
        status=status if status in _TOOL_STATUSES else "ok",
        duration_ms=duration if isinstance(duration, int) else None,
        truncated=bool(meta.get("truncated")),
        structured=structured if isinstance(structured := meta.get("structured"), dict) else None,
    )


def _parse_arguments(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {"arguments": raw}
    return value if isinstance(value, dict) else {"arguments": value}


def _notice_text(kind: str, path: str, reason: str = "") -> str:
    if kind == "migration_failed":
        return (
            QCoreApplication.translate(
                "ServiceBackend",
                "The conversations in %1 could not be moved to the app's data folder (%2). They "
                "were left there unchanged; this project's conversations start anew.",
            )
            .replace("%1", path)
            .replace("%2", reason)
        )
    if kind == "kept_both":
        return QCoreApplication.translate(
            "ServiceBackend",
            "The project folder still holds conversations (%1). The ones in the app's data "
            "folder are used; that file was left as it is.",
        ).replace("%1", path)
    if kind == "foreign_in_project":
        return QCoreApplication.translate(
            "ServiceBackend",
            "The project folder holds conversations from another computer (%1). They were not "
            "opened (a shared file could make the app run something) and were left as they are.",
        ).replace("%1", path)
    if kind == "foreign":
        return QCoreApplication.translate(
            "ServiceBackend",
            "This project came with conversations from another computer. They were not opened "
            "(a shared file could make the app run something); this computer keeps its own "
            "beside them.",
        )
    return QCoreApplication.translate(
        "ServiceBackend",
        "The conversations of this project could not be read; the file was kept as %1 and a "
        "new one started.",
    ).replace("%1", path)
