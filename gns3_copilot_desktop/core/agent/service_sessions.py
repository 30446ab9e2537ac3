"""The sessions of one project as `AgentService` offers them: list, create (in a mode), import an
export file as a read-only conversation and continue it, rename, pin, delete, search."""

from __future__ import annotations

import asyncio

from gns3_copilot_desktop.core.agent.modes import UnknownModeError, parse_mode
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.sessions.importer import CONTINUED_KEY, IMPORTED_KEY, parse_export
from gns3_copilot_desktop.core.sessions.models import (
    SessionInfo,
    SessionSearchHit,
    TranscriptMessage,
)
from gns3_copilot_desktop.core.sessions.pg_store import AnyStore


class SessionsApi:
    """The session calls of `AgentService` (which provides the store and the per-session
    locks)."""

    _store: AnyStore
    _locks: dict[str, asyncio.Lock]

    def _lock(self, session_id: str) -> asyncio.Lock:
        """The session's lock (the service's)."""
        raise NotImplementedError

    async def list_sessions(self, limit: int | None = None) -> list[SessionInfo]:
        """Pinned first, then the most recently updated."""
        return await self._store.list_sessions(limit)

    async def create_session(
        self, title: str | None = None, mode: str = "assistant"
    ) -> SessionInfo:
        """A new empty session in ``mode`` (`modes.MODES`; an unknown mode is refused)."""
        try:
            chosen = parse_mode(mode)
        except UnknownModeError as exc:
            raise CopilotError(str(exc)) from exc
        return await self._store.create_session(title, chosen)

    async def import_session(self, data: bytes) -> SessionInfo:
        """A new session holding an export file's conversation as a read-only transcript
        (`core.sessions.importer`): plain text only, nothing in it runs or waits for approval.
        `SessionImportError` says what is wrong with a file that does not parse."""
        imported = parse_export(data)
        info = await self._store.create_session(f"{imported.title} (imported)", "assistant")
        await self._store.append_messages(info.id, imported.messages)
        await self._store.update_stats(info.id, messages_delta=len(imported.messages))
        return await self._store.get_session(info.id)

    async def continue_imported(self, session_id: str) -> None:
        """Let the user talk in an imported session: its next turn starts the agent's working
        context from the transcript, as quoted plain text."""
        if await self._imported_state(session_id) is None:
            raise CopilotError("Only an imported conversation needs to be continued.")
        marker = TranscriptMessage(role="system", metadata={CONTINUED_KEY: True})
        await self._store.append_messages(session_id, [marker])

    async def imported_read_only(self, session_id: str) -> bool:
        """True for an imported session not yet continued (its transcript is read-only)."""
        state = await self._imported_state(session_id)
        return state is not None and not state[0]

    async def _imported_state(self, session_id: str) -> tuple[bool, list[TranscriptMessage]] | None:
        """(continued, transcript) of an imported session, None for any other session."""
        transcript = await self._store.read_transcript(session_id)
        if not transcript or not transcript[0].metadata.get(IMPORTED_KEY):
            return None
        continued = any(m.metadata.get(CONTINUED_KEY) for m in transcript)
        return continued, transcript

    async def rename_session(self, session_id: str, title: str) -> None:
        """Set a session's title."""
        await self._store.rename_session(session_id, title)

    async def set_pinned(self, session_id: str, pinned: bool) -> None:
        """Pin or unpin a session."""
        await self._store.set_pinned(session_id, pinned)

    async def delete_session(self, session_id: str) -> None:
        """Delete a session: index row, transcript, checkpoints and writes; space reclaimed."""
        async with self._lock(session_id):
            await self._store.delete_session(session_id)
        self._locks.pop(session_id, None)

    async def search_sessions(self, query: str, limit: int = 50) -> list[SessionSearchHit]:
        """Sessions whose title or messages contain the query's words."""
        return await self._store.search(query, limit)
