"""Turns a backend's chunk stream into Qt signals.

`ChatController` consumes `ChatBackend.stream_chat` / `resume` on the qasync loop and re-emits each
chunk as a typed signal. `stop()` cancels the consuming task; the cancellation reaches the backend's
iterator (and through it, running tools and HTTP calls). Chunks that arrive after a stop are
ignored. The last sent message is kept so that `retry()` can send it again after an error.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from PyQt6.QtCore import QCoreApplication, QObject, pyqtSignal

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.ui.backends.base import ChatBackend, UserDecision
from gns3_copilot_desktop.ui.qt_async import spawn


class ChatController(QObject):
    """Runs one stream at a time for the chat panel and reports it with signals."""

    started = pyqtSignal()
    content_received = pyqtSignal(str)
    tool_started = pyqtSignal(object)  # ChatChunk (tool_start or tool_call)
    tool_ended = pyqtSignal(object)  # ChatChunk (tool_end)
    approvals_requested = pyqtSignal(list)  # list[ApprovalRequest]
    title_changed = pyqtSignal(str, str)  # session_id, title
    usage_received = pyqtSignal(object)  # ChatChunk (usage)
    heartbeat = pyqtSignal(float)  # elapsed seconds
    error_occurred = pyqtSignal(str, str)  # user message, error kind
    finished = pyqtSignal(str)  # "done", "stopped" or "error"

    def __init__(self, backend: ChatBackend, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._backend = backend
        self._task: asyncio.Task[None] | None = None
        self._last_message: str | None = None
        self._last_session: str | None = None
        self._had_error = False
        self.last_error_details: str | None = None
        """The provider's own text of the last error (shown behind "Details"), if it had one."""

    @property
    def running(self) -> bool:
        """True while a stream is being consumed."""
        return self._task is not None and not self._task.done()

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The task consuming the current (or last) stream."""
        return self._task

    @property
    def last_message(self) -> str | None:
        """The last message sent (what `retry` sends again)."""
        return self._last_message

    def send(self, message: str, session_id: str) -> None:
        """Start streaming the answer to `message`."""
        self._last_message = message
        self._last_session = session_id
        self._start(self._backend.stream_chat(message, session_id), session_id)

    def resume(self, session_id: str, decisions: list[UserDecision]) -> None:
        """Continue a turn with the user's approval decisions."""
        self._last_session = session_id
        self._start(self._backend.resume(session_id, decisions), session_id)

    def retry(self) -> None:
        """Send the last message again (after an error)."""
        if self._last_message is not None and self._last_session is not None:
            self.send(self._last_message, self._last_session)

    def stop(self) -> None:
        """Cancel the running stream; its late chunks are ignored."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def _start(self, stream: AsyncIterator[ChatChunk], session_id: str) -> None:
        if self.running:
            raise RuntimeError("a stream is already running")
        self._had_error = False
        self._task = spawn(self._consume(stream, session_id), name="chat-stream")

    async def _consume(self, stream: AsyncIterator[ChatChunk], session_id: str) -> None:
        self.started.emit()
        outcome = "done"
        try:
            async for chunk in stream:
                self._dispatch(chunk, session_id)
        except asyncio.CancelledError:
            outcome = "stopped"
            await _close(stream)
            self.finished.emit(outcome)
            raise
        except CopilotError as exc:
            self._had_error = True
            self.last_error_details = None
            self.error_occurred.emit(exc.user_message, type(exc).__name__)
        except Exception:
            # a bug, not an expected error: keep the conversation usable, then let the task's
            # exception reach the excepthook (qt_async.spawn) that logs it and shows a dialog
            text = QCoreApplication.translate(
                "ChatController", "An unexpected error stopped the answer. It was logged."
            )
            self.error_occurred.emit(text, "unexpected")
            self.finished.emit("error")
            raise
        if self._had_error:
            outcome = "error"
        self.finished.emit(outcome)

    def _dispatch(self, chunk: ChatChunk, session_id: str) -> None:
        kind = chunk.type
        if kind == "content":
            if chunk.content:
                self.content_received.emit(chunk.content)
        elif kind in ("tool_start", "tool_call"):
            self.tool_started.emit(chunk)
        elif kind == "tool_end":
            self.tool_ended.emit(chunk)
        elif kind == "approval_request":
            self.approvals_requested.emit(list(chunk.approvals or []))
        elif kind == "title":
            self.title_changed.emit(chunk.session_id or session_id, chunk.title or "")
        elif kind == "usage":
            self.usage_received.emit(chunk)
        elif kind == "heartbeat":
            self.heartbeat.emit(chunk.elapsed_s or 0.0)
        elif kind == "error":
            self._had_error = True
            self.last_error_details = chunk.error_details
            self.error_occurred.emit(chunk.error or "", chunk.error_kind or "")


async def _close(stream: AsyncIterator[ChatChunk]) -> None:
    """Close an async generator so its `finally` blocks (and tool cancellation) run now."""
    aclose = getattr(stream, "aclose", None)
    if aclose is not None:
        # the generator may already be closed by the cancellation, or still running its cleanup
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            await aclose()
