"""What the two session stores share: the SQLite file of one project (`SessionStore`) and a
project's view of a PostgreSQL database (`PostgresSessionStore`).

The base holds every operation that is the same statement in both dialects (rename, pin, the
paused turn's approvals, the counters, renewing and releasing a turn's claim), the claim rule and
the errors. A subclass supplies its connection handling (`_execute`, `_update_session`), its
placeholder and how it binds JSON and booleans; the SQL here is written with ``?`` and given the
subclass's placeholder. What really differs (reading rows, the transcript, search, deleting a
session with its checkpoints, pruning) stays in each store.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Self

from gns3_copilot_desktop.core.errors import SessionNotFoundError
from gns3_copilot_desktop.core.protocol import ApprovalRequest

LEASE_S = 30.0
"""How long a running turn's claim on its session lasts without renewal (renewed every third)."""


class SessionStoreBase:
    """The operations both stores run the same way (see the module docstring)."""

    PLACEHOLDER: ClassVar[str] = "?"
    """How the dialect marks a bound parameter."""
    JSON_PARAM: ClassVar[str] = "?"
    """How a JSON text parameter is bound (PostgreSQL casts it to jsonb)."""

    # --- what a store supplies ---------------------------------------------------------------

    async def close(self) -> None:
        """Close the store (idempotent)."""
        raise NotImplementedError

    async def _execute(self, action: str, sql: str, params: Sequence[Any]) -> int:
        """Run one statement in its own transaction; the number of rows it changed. Errors are
        `SessionStoreError`s saying what could not be done (``action``)."""
        raise NotImplementedError

    async def _update_session(
        self, sid: str, assignments: str, params: Iterable[Any], action: str
    ) -> None:
        """``UPDATE copilot_sessions SET <assignments>`` of this project's session ``sid``;
        `SessionNotFoundError` when there is none."""
        raise NotImplementedError

    def _flag(self, value: bool) -> Any:
        """A boolean as the dialect stores it."""
        return value

    # --- shared ------------------------------------------------------------------------------

    def _sql(self, text: str) -> str:
        """``text`` (written with ``?``) in this dialect."""
        return text if self.PLACEHOLDER == "?" else text.replace("?", self.PLACEHOLDER)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def recovered_from(self) -> Path | None:
        """Where a corrupt database found at open was moved to, if it was."""
        return None

    @property
    def recovery_message(self) -> str | None:
        """A sentence for the UI when a corrupt database was replaced at open, else None."""
        return None

    async def rename_session(self, sid: str, title: str) -> None:
        """Set the session's title (search finds the new one, not the old)."""
        await self._update_session(sid, self._sql("title = ?"), (title,), "rename the conversation")

    async def set_pinned(self, sid: str, pinned: bool) -> None:
        """Pin or unpin a session (pinned sessions list first)."""
        await self._update_session(
            sid, self._sql("pinned = ?"), (self._flag(pinned),), "pin the conversation"
        )

    async def set_pending_approvals(self, sid: str, approvals: Sequence[ApprovalRequest]) -> None:
        """Remember the tool calls a paused turn waits on (empty clears them)."""
        await self._update_session(
            sid,
            f"pending_approval = {self.JSON_PARAM}",
            (_approvals_json(approvals),),
            "save the pending approvals",
        )

    async def update_stats(
        self,
        sid: str,
        *,
        messages_delta: int = 0,
        input_tokens_delta: int = 0,
        output_tokens_delta: int = 0,
        title: str | None = None,
        pending_approvals: Sequence[ApprovalRequest] | None = None,
    ) -> None:
        """Add to the session's counters, set its title when given, and mark it updated now;
        with ``pending_approvals``, also what `set_pending_approvals` sets (one statement at the
        end of a turn, not two).

        `append_messages` does not count messages: the caller reports them here.
        """
        assignments = (
            "message_count = message_count + ?, input_tokens = input_tokens + ?,"
            " output_tokens = output_tokens + ?, updated_at = ?"
        )
        params: list[Any] = [messages_delta, input_tokens_delta, output_tokens_delta, time.time()]
        if title is not None:
            assignments += ", title = ?"
            params.append(title)
        sql = self._sql(assignments)
        if pending_approvals is not None:
            sql += f", pending_approval = {self.JSON_PARAM}"
            params.append(_approvals_json(pending_approvals))
        await self._update_session(sid, sql, params, "update the conversation")

    async def renew_turn(self, sid: str, owner: str) -> None:
        """Keep a running turn's claim."""
        await self._execute(
            "keep the turn",
            self._sql(
                "UPDATE copilot_turn_leases SET expires = ? WHERE thread_id = ? AND owner = ?"
            ),
            (time.time() + LEASE_S, sid, owner),
        )

    async def release_turn(self, sid: str, owner: str) -> None:
        """End a turn's claim (only ``owner``'s)."""
        await self._execute(
            "end the turn",
            self._sql("DELETE FROM copilot_turn_leases WHERE thread_id = ? AND owner = ?"),
            (sid, owner),
        )


def _approvals_json(approvals: Sequence[ApprovalRequest]) -> str | None:
    return json.dumps([a.model_dump(mode="json") for a in approvals]) if approvals else None


def lease_is_free(row: Sequence[Any], owner: str, now: float) -> bool:
    """Whether a claim row (owner, host, pid, expires) no longer holds for ``owner``."""
    holder, host, pid, expires = row[0], row[1], int(row[2]), float(row[3])
    if holder == owner or expires < now:
        return True
    if host == socket.gethostname():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True  # that process is gone
        except PermissionError:
            return False  # alive, another user's
    return False


def not_found(sid: str) -> SessionNotFoundError:
    """The error for a session this project does not have."""
    return SessionNotFoundError(f"The conversation {sid} does not exist in this project.")
