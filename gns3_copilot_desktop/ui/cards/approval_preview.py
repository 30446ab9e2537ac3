"""The approval card's edit checking: edited arguments are recomputed against the lab.

As the user types (debounced by `PREVIEW_DELAY_MS`), the backend's `preview_call` recomputes the
card for the edited arguments; Approve stays off until the answer for the current text is shown,
an older answer is dropped, and an edit the tool would refuse says why. Without a previewer the
edits are locked and the call is offered only as proposed. A mixin of `ApprovalItem`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PyQt6.QtWidgets import QLabel, QPlainTextEdit, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from gns3_copilot_desktop.core.agent.approval import CallPreview
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.backends.base import UserDecision
from gns3_copilot_desktop.ui.cards.approval_arguments import ArgumentField
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.lab.plan_editor import PlanEditor
from gns3_copilot_desktop.ui.lab.plan_view import PlanView
from gns3_copilot_desktop.ui.qt_async import spawn

PREVIEW_DELAY_MS = 400
"""Typing pauses this long before the edited call is checked against the lab."""

Previewer = Callable[[ApprovalRequest, dict[str, Any]], Awaitable[CallPreview]]
"""What the card asks to recompute a pending call from edited arguments (the chat panel binds
the backend's `preview_call` to the session)."""


class EditPreview:
    """The edit checking of an `ApprovalItem` (see the module)."""

    request: ApprovalRequest
    choice: UserDecision | None
    body: QWidget
    fields: list[ArgumentField]
    text_blocks: dict[tuple[int, str], QPlainTextEdit]
    _proposed_blocks: dict[QPlainTextEdit, str]
    edit_button: QToolButton
    plan_view: PlanView | None
    plan_editor: PlanEditor | None

    if TYPE_CHECKING:

        def _show(self, request: ApprovalRequest) -> None: ...
        def _say(self, text: str | None, object_name: str = "muted") -> None: ...
        def _refresh_approve(self) -> None: ...
        def _editing_plan(self) -> bool: ...
        def edited_arguments(self) -> dict[str, Any] | None: ...

    def _build_preview(self, request: ApprovalRequest, layout: QVBoxLayout) -> None:
        """Add the status line about the edits and check each edit as it is typed."""
        # Edited arguments are checked against the lab before Approve counts (see the module).
        self.previewer: Previewer | None = None
        self.shown = request
        """The card as displayed: the proposal, or the preview of the checked edits."""
        self._checked: dict[str, Any] | None = None
        self._problem: str | None = None
        self._checking = False
        self._generation = 0
        self._edits_locked = False
        self._preview_timer = QTimer(cast(QObject, self))
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self._start_preview)
        self.edit_status = QLabel(self.body)
        self.edit_status.setTextFormat(Qt.TextFormat.PlainText)  # a tool's words, never markup
        self.edit_status.setWordWrap(True)
        self.edit_status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.edit_status.hide()
        layout.addWidget(self.edit_status)
        if self.plan_view is None:
            for f in self.fields:
                f.connect_changed(self._edited)
            for edit in self.text_blocks.values():
                edit.textChanged.connect(self._edited)

    def set_previewer(self, previewer: Previewer | None) -> None:
        """How edited arguments are checked (None: they cannot be, the call runs as proposed)."""
        self.previewer = previewer

    def _edited(self) -> None:
        """The user changed an argument: Approve waits until the edit is checked."""
        if self._edits_locked or self.choice is not None:
            return
        self._generation += 1  # any answer on its way is about older text now
        self._preview_timer.stop()
        arguments = self.edited_arguments()
        self._checked = None
        self._problem = None
        if arguments is None:  # back to the proposal
            self._checking = False
            self._show(self.request)
            self._say(None)
        elif self.previewer is None:
            self._lock_edits(
                QCoreApplication.translate(
                    "ApprovalCard",
                    "Edits cannot be checked here: Approve the call as shown or Reject it.",
                )
            )
            return
        else:
            self._checking = True
            self._say(
                QCoreApplication.translate("ApprovalCard", "Checking your edits against the lab…")
            )
            self._preview_timer.start()
        self._refresh_approve()

    def _start_preview(self) -> None:
        arguments = self.edited_arguments()
        if arguments is None or self.previewer is None or self.choice is not None:
            return
        spawn(self._preview(self.previewer, self._generation, arguments), name="preview-edits")

    async def _preview(
        self, previewer: Previewer, generation: int, arguments: dict[str, Any]
    ) -> None:
        try:
            answer = await previewer(self.request, arguments)
        except CopilotError as exc:  # the server or the login: said on the card, Approve off
            answer = CallPreview(problem=exc.user_message)
        if (
            sip.isdeleted(cast(QObject, self))
            or generation != self._generation
            or self.choice is not None
        ):
            return  # the text changed since (or the card is gone): this answer is stale
        self.apply_preview(arguments, answer)

    def apply_preview(self, arguments: dict[str, Any], answer: CallPreview) -> None:
        """Show what the edited `arguments` would do, or why they cannot run."""
        self._checking = False
        if not answer.can_edit:
            self._lock_edits(answer.problem or "")
            return
        if answer.problem is not None or answer.request is None:
            self._problem = answer.problem or ""
            self._say(
                QCoreApplication.translate("ApprovalCard", "Not possible as edited: %1").replace(
                    "%1", core_text(self._problem)
                ),
                "riskDestructive",
            )
        else:
            self._checked = arguments
            self._show(answer.request)
            self._say(
                QCoreApplication.translate(
                    "ApprovalCard", "Checked against the lab: the card shows your edits."
                )
            )
        self._refresh_approve()

    def _lock_edits(self, text: str) -> None:
        """Edits cannot be checked: back to the proposal, nothing editable, say why."""
        self._edits_locked = True
        self._checking = False
        self._preview_timer.stop()
        for f in self.fields:
            f.reset()
            f.widget.setEnabled(False)
        for edit in self.text_blocks.values():
            blocked = edit.blockSignals(True)
            edit.setPlainText(self._proposed_blocks[edit])
            edit.blockSignals(blocked)
            edit.setReadOnly(True)
        self.edit_button.setChecked(False)
        self.edit_button.hide()
        self._checked = None
        self._problem = None
        self._show(self.request)
        self._say(text, "stateWaiting")
        self._refresh_approve()

    def approvable(self) -> bool:
        """False while the plan's tables are edited into a plan that does not validate, and
        while edited arguments are not checked, or were checked and cannot run: Approve sends
        only arguments whose card is the one shown."""
        if self.plan_view is not None:
            return not (self._editing_plan() and self.plan_editor and self.plan_editor.problem)
        if self._checking or self._problem is not None:
            return False
        edited = self.edited_arguments()
        return edited is None or edited == self._checked
