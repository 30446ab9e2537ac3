"""The chat panel's turns: sending a message (creating the session first when needed), stop and
retry, the approvals of a paused turn and the decisions that resume it (kept until the stream
has ended), and what the status line, the composer and the screen reader say meanwhile."""

from __future__ import annotations

import asyncio
from typing import Any

from PyQt6.QtCore import QCoreApplication, pyqtSignal
from PyQt6.QtWidgets import (
    QWidget,
)

from gns3_copilot_desktop.core.agent.approval import CallPreview
from gns3_copilot_desktop.core.errors import CopilotError, ServicesClosedError
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk
from gns3_copilot_desktop.ui.a11y import Announcer
from gns3_copilot_desktop.ui.backends.base import ChatBackend, UserDecision
from gns3_copilot_desktop.ui.chat.composer import Composer
from gns3_copilot_desktop.ui.chat.controller import ChatController
from gns3_copilot_desktop.ui.chat.message_view import MessageView
from gns3_copilot_desktop.ui.chat.status_line import StatusLine
from gns3_copilot_desktop.ui.chat.view_cards import NOT_RUN_TEXT
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.sessions.panel import SessionsPanel


class ChatTurns(QWidget):
    """Sending and resuming for `ChatPanel` (which builds the view, composer, status line,
    sessions and announcer these use)."""

    settings_requested = pyqtSignal()
    """An error banner or the composer asks for the model settings (a bad or missing key)."""
    login_requested = pyqtSignal()
    """An error banner or the composer asks for the GNS3 login."""

    _backend: ChatBackend
    controller: ChatController
    session_id: str | None
    _awaiting_approval: bool
    _unsent: str | None
    _queued_decisions: list[UserDecision] | None
    view: MessageView
    composer: Composer
    status: StatusLine
    sessions: SessionsPanel
    announcer: Announcer

    def _link_card_focus(self) -> None:
        """Let Tab reach the approval card from the message box (the panel's)."""
        raise NotImplementedError

    def send(self, text: str) -> None:
        """Send `text` in the current session (creating one first if needed)."""
        if self.controller.running:
            return
        if self._awaiting_approval:
            # The new message answers the waiting calls with "not run" (the core does the same).
            self.view.lock_approvals(QCoreApplication.translate("MessageView", NOT_RUN_TEXT))
            self._awaiting_approval = False
            self._queued_decisions = None
        self.view.add_user_message(text)
        self.composer.set_running(True)
        spawn(self._send(text))

    async def _send(self, text: str) -> None:
        if self.session_id is None:
            try:
                entry = await self._backend.create_session()
            except ServicesClosedError:
                self.composer.set_running(False)
                return  # logging out or closing: nobody waits for this message
            except CopilotError as exc:
                # the service is down or refused the login: said in the chat, the message
                # kept in the view, Retry offered (it sends the message again)
                self._unsent = text
                self.controller.error_occurred.emit(exc.user_message, type(exc).__name__)
                self.composer.set_running(False)
                return
            self.session_id = entry.session_id
            self.sessions.set_current(entry.session_id)
            await self.sessions.refresh()
        self.controller.send(text, self.session_id)

    def _fix_requested(self, action: str) -> None:
        if action == "login":
            self.login_requested.emit()
        elif action == "settings":
            self.settings_requested.emit()

    def stop(self, *_: object) -> None:
        """Cancel the running answer (and its tools)."""
        self.controller.stop()

    def retry(self) -> None:
        """Send the last message again after an error."""
        if self.session_id is None and self._unsent is not None and not self.controller.running:
            text, self._unsent = self._unsent, None
            self.composer.set_running(True)
            spawn(self._send(text), name="chat-send-again")
            return
        if not self.controller.running and self.controller.last_message is not None:
            self.composer.set_running(True)
            self.controller.retry()

    def _decided(self, decisions: list[UserDecision]) -> None:
        if self.session_id is None:
            return
        if self.controller.running:
            # The paused turn's stream has not ended yet (it may still wait for the title):
            # keep the decisions and resume as soon as it does, instead of dropping them.
            self._queued_decisions = decisions
            return
        self._resume(decisions)

    def _resume(self, decisions: list[UserDecision]) -> None:
        assert self.session_id is not None
        self._awaiting_approval = False
        self._queued_decisions = None
        self.composer.set_running(True)
        self.controller.resume(self.session_id, decisions)

    def _started(self) -> None:
        self.composer.set_running(True)
        self.status.set_working(True)
        self.announcer.announce(
            QCoreApplication.translate("ChatPanel", "The assistant is answering.")
        )

    def _approvals(self, requests: list[ApprovalRequest]) -> None:
        self._awaiting_approval = True
        card = self.view.show_approvals(requests)
        self._link_card_focus()
        session_id, backend = self.session_id, self._backend
        if session_id is not None:
            # edited arguments are checked by the session's own backend before Approve counts

            async def preview(pending: ApprovalRequest, arguments: dict[str, Any]) -> CallPreview:
                return await backend.preview_call(session_id, pending, arguments)

            for item in card.items:
                item.set_previewer(preview)
        self.announcer.announce(
            QCoreApplication.translate(
                "ChatPanel", "Approval needed for %n tool call(s).", "", len(requests)
            )
        )

    def _usage(self, chunk: ChatChunk) -> None:
        self.status.add_usage(chunk.usage, chunk.context_tokens, chunk.context_window)
        if chunk.notice and self.view.show_notice(chunk.notice) is not None:
            self.announcer.announce(chunk.notice)

    def _error(self, message: str, kind: str) -> None:
        self.view.show_error(message, kind, self.controller.last_error_details)
        self.controller.last_error_details = None
        self.announcer.announce(
            QCoreApplication.translate("ChatPanel", "Error: %1").replace("%1", message)
        )

    def _finished(self, outcome: str) -> None:
        self.view.finish_turn("awaiting" if self._awaiting_approval else outcome)
        self.composer.set_running(False)
        self.status.set_working(False)
        if outcome == "done" and not self._awaiting_approval:
            self.announcer.announce(
                QCoreApplication.translate("ChatPanel", "The answer is complete.")
            )
        elif outcome == "stopped":
            self.announcer.announce(QCoreApplication.translate("ChatPanel", "Stopped."))
        spawn(self.sessions.refresh())
        queued, self._queued_decisions = self._queued_decisions, None
        if queued is not None and outcome == "done" and self._awaiting_approval:
            spawn(self._resume_when_idle(queued), name="resume-queued-decisions")

    async def _resume_when_idle(self, decisions: list[UserDecision]) -> None:
        # `finished` is emitted from inside the stream's task: wait until that task has ended.
        task = self.controller.task
        if task is not None and not task.done():
            await asyncio.wait([task])
        if not self.controller.running:
            self._resume(decisions)
