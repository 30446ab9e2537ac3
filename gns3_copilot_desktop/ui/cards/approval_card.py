"""The approval card: tool calls that wait for the user's decision.

The card is built around what is about to happen to the lab, not around JSON:

- each call shows its summary, whether it is destructive (in red, with what goes with it:
  "deletes R1 and its 1 link") and its arguments as a person reads them: configuration lines and
  commands as monospace blocks per device (editable in place), node names as chips, lists as
  lists; defaults and internals (timeouts, credentials, null positions) are folded under Details;
- a lab plan shows its drawing and tables; "Edit plan" turns the tables into editable ones
  (`ui.plan_editor`), and Approve stays off while the edited plan does not validate;
- edited arguments (the form, or a device's lines) are checked with the backend's
  `preview_call` as the user types (debounced): title, destructive marks, what goes with the
  call and the ``+`` preview are recomputed from the lab for the edited arguments, and Approve
  stays off until the answer for the current text is shown (an older answer is dropped; an
  edit that does not parse or that the tool would refuse says why in plain text). A card
  whose backend cannot check edits offers the call only as proposed;
- each call has its own Approve / Reject pair (Reject asks for an optional reason inline);
  batches add Approve all / Reject all. Nothing is a default button, and the card never takes
  the keyboard focus from the message box: typing there never decides a card;
- a decided call collapses to one line, and so does the card once every call is decided;
- a card whose turn moved on (the user sent a new message) locks: "Not run: ...", no buttons.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from typing import Any

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QFontDatabase
from PyQt6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.agent.approval import CallPreview
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.backends.base import UserDecision
from gns3_copilot_desktop.ui.cards.approval_arguments import (
    ArgumentField,
    chip,
    device_blocks,
    is_internal,
    readable_value,
)
from gns3_copilot_desktop.ui.core_text import argument_name, core_text, tool_display_name
from gns3_copilot_desktop.ui.lab.plan_editor import PlanEditor
from gns3_copilot_desktop.ui.lab.plan_view import PlanView
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.shortcuts import APPROVE_KEYS, REJECT_KEYS, with_keys
from gns3_copilot_desktop.ui.theme import colors


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


_RISK_TEXT = {
    "read": QT_TRANSLATE_NOOP("ApprovalCard", "reads only"),
    "change": QT_TRANSLATE_NOOP("ApprovalCard", "changes the project"),
    "device-config": QT_TRANSLATE_NOOP("ApprovalCard", "configures a device"),
}

PREVIEW_DELAY_MS = 400
"""Typing pauses this long before the edited call is checked against the lab."""

Previewer = Callable[[ApprovalRequest, dict[str, Any]], Awaitable[CallPreview]]
"""What the card asks to recompute a pending call from edited arguments (the chat panel binds
the backend's `preview_call` to the session)."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("ApprovalCard", text)


def card_question(summary: str) -> str:
    """A call's summary as the question the card asks: "Delete Switch1 with its links?"."""
    text = summary.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return QCoreApplication.translate("ApprovalCard", "%1?").replace("%1", text)


def _repolish(widget: QWidget, name: str) -> None:
    """Give `widget` another objectName and let the style sheet apply to it again."""
    if widget.objectName() == name:
        return
    widget.setObjectName(name)
    style = widget.style()
    if style is not None:
        style.unpolish(widget)
        style.polish(widget)


class ApprovalItem(QFrame):
    """One pending call: what it does, its arguments as a person reads them, its decision."""

    decided = pyqtSignal()

    def __init__(self, request: ApprovalRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.summary = core_text(request.summary)
        self.setObjectName("approvalItemDestructive" if request.destructive else "approvalItem")
        self.choice: UserDecision | None = None
        tint = colors(QApplication.palette())
        self._chip_bg = tint.code
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 4, 0, 4)
        self.body = QWidget(self)
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.body)

        self.title = QLabel(self.body)
        self.title.setWordWrap(True)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.title)
        self.risk_label = QLabel(self.body)
        self.risk_label.setWordWrap(True)
        layout.addWidget(self.risk_label)
        self.consequence_label = QLabel(self.body)
        self.consequence_label.setTextFormat(Qt.TextFormat.PlainText)  # names are lab data
        self.consequence_label.setWordWrap(True)
        self.consequence_label.setSizePolicy(
            QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        )
        layout.addWidget(self.consequence_label)
        # Read from the device: plain text only (a banner cannot become markup here).
        self.diff_note = QLabel(
            QCoreApplication.translate(
                "ApprovalCard",
                "Against the running configuration (+ not there yet):",
            ),
            self.body,
        )
        self.diff_note.setObjectName("muted")
        self.diff_note.setWordWrap(True)
        self.diff_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.diff_note)
        self.diff_view = QPlainTextEdit(self.body)
        self.diff_view.setReadOnly(True)
        self.diff_view.setObjectName("codeBlock")
        self.diff_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.diff_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff_view.setTabChangesFocus(True)
        self.diff_view.setAccessibleName(self.diff_note.text())
        self.diff_view.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.diff_view)

        self.plan_view: PlanView | None = None
        if request.plan:
            # A lab plan: its drawing and tables; the spec itself goes under Details.
            self.plan_view = PlanView(request.plan, self.body)
            layout.addWidget(self.plan_view)
        props: dict[str, Any] = (request.arguments_schema or {}).get("properties", {})
        self._props = props
        names = list(props) + [k for k in request.arguments if k not in props]
        self.text_blocks: dict[tuple[int, str], QPlainTextEdit] = {}
        self._proposed_blocks: dict[QPlainTextEdit, str] = {}
        self._blocks_key: str | None = None
        for name in names:
            blocks = device_blocks(request.arguments.get(name, props.get(name, {}).get("default")))
            if blocks is not None:
                self._blocks_key = name
                self._add_blocks(layout, blocks)
                break
        main_rows, detail_rows = self._argument_rows(request.arguments)
        self.arguments_label = QLabel("<br>".join(main_rows), self.body)
        self.arguments_label.setWordWrap(True)
        self.arguments_label.setTextFormat(Qt.TextFormat.RichText)
        self.arguments_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.arguments_label.setVisible(bool(main_rows))
        layout.addWidget(self.arguments_label)

        tools_row = QHBoxLayout()
        self.details_button = QToolButton(self.body)
        self.details_button.setText(QCoreApplication.translate("ApprovalCard", "Details"))
        self.details_button.setCheckable(True)
        self.details_button.setArrowType(Qt.ArrowType.RightArrow)
        self.details_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_button.setVisible(bool(detail_rows))
        self.edit_button = QToolButton(self.body)
        self.edit_button.setText(QCoreApplication.translate("ApprovalCard", "Edit arguments"))
        self.edit_button.setCheckable(True)
        tools_row.addWidget(self.details_button)
        tools_row.addWidget(self.edit_button)
        # A plan is edited as its tables ("Edit plan"), not as the spec's JSON arguments.
        self.plan_editor: PlanEditor | None = None
        self._body_layout = layout
        self.edit_plan_button = QToolButton(self.body)
        self.edit_plan_button.setText(QCoreApplication.translate("PlanView", "Edit plan"))
        self.edit_plan_button.setToolTip(
            QCoreApplication.translate(
                "PlanView", "Change the plan's nodes, links and addressing before approving it"
            )
        )
        self.edit_plan_button.setCheckable(True)
        self.edit_plan_button.setVisible(self.plan_view is not None)
        self.edit_plan_button.toggled.connect(self._toggle_plan_edit)
        tools_row.addWidget(self.edit_plan_button)
        tools_row.addStretch(1)
        layout.addLayout(tools_row)
        self.details_label = QLabel("<br>".join(detail_rows), self.body)
        self.details_label.setObjectName("muted")
        self.details_label.setWordWrap(True)
        self.details_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.details_label.hide()
        layout.addWidget(self.details_label)
        self.details_button.toggled.connect(self._toggle_details)

        self.form_widget = QWidget(self.body)
        form = QFormLayout(self.form_widget)
        form.setContentsMargins(0, 0, 0, 0)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.fields = [
            ArgumentField(
                n,
                props.get(n, {}),
                request.arguments.get(n, props.get(n, {}).get("default")),
                self.form_widget,
            )
            for n in names
            if n != self._blocks_key
        ]
        for f in self.fields:
            form.addRow(argument_name(f.name), f.widget)
        self._initial = {f.name: f.value() for f in self.fields}
        self.form_widget.hide()
        layout.addWidget(self.form_widget)
        self.edit_button.toggled.connect(self._toggle_edit)
        # only a tool's own schema can be edited: the app's sealed calls (practice) cannot
        self.edit_button.setVisible(bool(self.fields) and bool(props) and self.plan_view is None)

        # Edited arguments are checked against the lab before Approve counts (see the module).
        self.previewer: Previewer | None = None
        self.shown = request
        """The card as displayed: the proposal, or the preview of the checked edits."""
        self._checked: dict[str, Any] | None = None
        self._problem: str | None = None
        self._checking = False
        self._generation = 0
        self._edits_locked = False
        self._preview_timer = QTimer(self)
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

        buttons = QHBoxLayout()
        self.approve = QPushButton(QCoreApplication.translate("ApprovalCard", "Approve"), self.body)
        self.reject = QPushButton(QCoreApplication.translate("ApprovalCard", "Reject"), self.body)
        for button in (self.approve, self.reject):
            button.setAutoDefault(False)
            button.setDefault(False)
        self.approve.setToolTip(
            with_keys(QCoreApplication.translate("ApprovalCard", "Approve"), APPROVE_KEYS[0])
        )
        self.reject.setToolTip(
            with_keys(QCoreApplication.translate("ApprovalCard", "Reject"), REJECT_KEYS[0])
        )
        self.approve.clicked.connect(self._approve_clicked)
        self.reject.clicked.connect(self._reject_clicked)
        buttons.addWidget(self.approve)
        buttons.addWidget(self.reject)
        self.display_name = tool_display_name(request.tool_name)
        self.always = QCheckBox(
            QCoreApplication.translate("ApprovalCard", "Always allow “%1” in this project").replace(
                "%1", self.display_name
            ),
            self.body,
        )
        self.always.setToolTip(
            QCoreApplication.translate(
                "ApprovalCard", "Later “%1” calls in this project run without asking."
            ).replace("%1", self.display_name)
        )
        self.always.setAccessibleName(self.always.text())
        self.always.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.always)  # its own line: the dock may be 360 px wide

        self.reason_row = QWidget(self.body)
        reason_layout = QHBoxLayout(self.reason_row)
        reason_layout.setContentsMargins(0, 0, 0, 0)
        self.reason = QLineEdit(self.reason_row)
        self.reason.setPlaceholderText(
            QCoreApplication.translate("ApprovalCard", "Why not? (optional, the assistant sees it)")
        )
        self.reason.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Reason for rejecting %1").replace(
                "%1", self.summary
            )
        )
        self.reason.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.reason.returnPressed.connect(self.confirm_reject)
        self.confirm_reject_button = QPushButton(
            QCoreApplication.translate("ApprovalCard", "Reject"), self.reason_row
        )
        self.confirm_reject_button.setAutoDefault(False)
        self.confirm_reject_button.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Confirm rejecting %1").replace(
                "%1", self.summary
            )
        )
        self.confirm_reject_button.clicked.connect(self.confirm_reject)
        self.cancel_reject_button = QPushButton(
            QCoreApplication.translate("ApprovalCard", "Cancel"), self.reason_row
        )
        self.cancel_reject_button.setAutoDefault(False)
        self.cancel_reject_button.clicked.connect(self._cancel_reject)
        reason_layout.addWidget(self.reason, 1)
        reason_layout.addWidget(self.confirm_reject_button)
        reason_layout.addWidget(self.cancel_reject_button)
        self.reason_row.hide()
        layout.addWidget(self.reason_row)

        self.result_label = QLabel(self)
        self.result_label.setObjectName("muted")
        self.result_label.setWordWrap(True)
        self.result_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.result_label.hide()
        outer.addWidget(self.result_label)
        for f in self.fields:  # a screen reader names each field by its argument
            if not f.widget.accessibleName():
                f.widget.setAccessibleName(argument_name(f.name))
        self._show(request)
        for any_button in self.findChildren(QAbstractButton):
            if not any_button.accessibleName():
                any_button.setAccessibleName(any_button.text())

    # --- what the card shows ---------------------------------------------------------------

    def _show(self, request: ApprovalRequest) -> None:
        """Show `request`'s title, risk, destructive marks, consequence and ``+`` preview, and
        its arguments as a person reads them (the proposal, or the checked edits)."""
        self.shown = request
        self.summary = core_text(request.summary)
        question = escape(card_question(self.summary))
        # bold and red only for what destroys: an address on a VPCS reads as plain text
        self.title.setText(f"<b>{question}</b>" if request.destructive else question)
        risk = _tr(_RISK_TEXT.get(request.risk, request.risk))
        name = tool_display_name(request.tool_name)
        self.risk_label.setText(
            QCoreApplication.translate("ApprovalCard", "%1 · destructive: %2")
            .replace("%1", name)
            .replace("%2", risk)
            if request.destructive
            else QCoreApplication.translate("ApprovalCard", "%1 · %2")
            .replace("%1", name)
            .replace("%2", risk)
        )
        red = request.destructive
        _repolish(self, "approvalItemDestructive" if red else "approvalItem")
        _repolish(self.risk_label, "riskDestructive" if red else "muted")
        _repolish(self.consequence_label, "riskDestructive" if red else "stateWaiting")
        _repolish(self.approve, "approveDestructive" if red else "")
        self.consequence_label.setText(core_text(request.consequence or ""))
        self.consequence_label.setVisible(bool(request.consequence))
        diff = request.diff or ""
        self.diff_view.setPlainText(diff)
        shown = min(max(len(diff.splitlines()), 1), 12)
        self.diff_view.setFixedHeight(self.diff_view.fontMetrics().lineSpacing() * shown + 14)
        self.diff_note.setVisible(bool(diff))
        self.diff_view.setVisible(bool(diff))
        main_rows, detail_rows = self._argument_rows(request.arguments)
        self.arguments_label.setText("<br>".join(main_rows))
        self.details_label.setText("<br>".join(detail_rows))
        editing = self.edit_button.isChecked()
        self.arguments_label.setVisible(not editing and bool(main_rows))
        self.details_button.setVisible(not editing and bool(detail_rows))
        self.approve.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Approve %1").replace("%1", self.summary)
        )
        self.reject.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Reject %1").replace("%1", self.summary)
        )

    def _say(self, text: str | None, object_name: str = "muted") -> None:
        """One plain-text line about the edits (checking, checked, or why they cannot run)."""
        self.edit_status.setVisible(bool(text))
        self.edit_status.setText(text or "")
        _repolish(self.edit_status, object_name)

    # --- edits checked against the lab -----------------------------------------------------

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
        if sip.isdeleted(self) or generation != self._generation or self.choice is not None:
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

    def _argument_rows(self, arguments: dict[str, Any]) -> tuple[list[str], list[str]]:
        """The arguments as rich-text rows: those a person reads, and those under Details (the
        device lines are shown as their own blocks)."""
        props = self._props
        names = list(props) + [k for k in arguments if k not in props]
        main_rows: list[str] = []
        detail_rows: list[str] = []
        for name in names:
            if name == self._blocks_key:
                continue
            value = arguments.get(name, props.get(name, {}).get("default"))
            row = f"<b>{escape(argument_name(name))}</b>: {readable_value(value, self._chip_bg)}"
            if (
                self.plan_view is not None
                or not props  # a call the app prepared itself (practice): nothing to read here
                or is_internal(name, value, props.get(name, {}))
            ):
                detail_rows.append(row)
            else:
                main_rows.append(row)
        return main_rows, detail_rows

    def _add_blocks(self, layout: QVBoxLayout, blocks: list[tuple[str, str, list[str]]]) -> None:
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        for index, (device, key, lines) in enumerate(blocks):
            head = QLabel(
                chip(device, self._chip_bg)
                + " "
                + escape(
                    QCoreApplication.translate("ApprovalCard", "configuration lines")
                    if key == "lines"
                    else QCoreApplication.translate("ApprovalCard", "commands")
                ),
                self.body,
            )
            layout.addWidget(head)
            edit = QPlainTextEdit("\n".join(lines), self.body)
            edit.setObjectName("codeBlock")
            edit.setFont(mono)
            edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
            edit.setTabChangesFocus(True)
            edit.setAccessibleName(
                QCoreApplication.translate("ApprovalCard", "%1 for %2, one per line")
                .replace(
                    "%1",
                    QCoreApplication.translate("ApprovalCard", "Configuration lines")
                    if key == "lines"
                    else QCoreApplication.translate("ApprovalCard", "Commands"),
                )
                .replace("%2", device)
            )
            self._proposed_blocks[edit] = edit.toPlainText()
            height = edit.fontMetrics().lineSpacing() * min(max(len(lines), 1), 12) + 14
            edit.setFixedHeight(height)
            edit.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            self.text_blocks[(index, key)] = edit
            layout.addWidget(edit)

    def _toggle_details(self, shown: bool) -> None:
        self.details_label.setVisible(shown)
        self.details_button.setArrowType(
            Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow
        )

    def _toggle_edit(self, editing: bool) -> None:
        self.form_widget.setVisible(editing)
        self.arguments_label.setVisible(not editing and bool(self.arguments_label.text()))
        self.details_button.setVisible(not editing and bool(self.details_label.text()))
        self.details_label.setVisible(not editing and self.details_button.isChecked())

    def _toggle_plan_edit(self, editing: bool) -> None:
        """Show the plan's editable tables instead of its read-only ones (edits are kept when
        closed, and count only while shown: what the card shows is what Approve runs)."""
        if self.plan_view is None:
            return
        self.edit_plan_button.setText(
            QCoreApplication.translate("PlanView", "Use the plan as proposed")
            if editing
            else QCoreApplication.translate("PlanView", "Edit plan")
        )
        if editing and self.plan_editor is None:
            self.plan_editor = PlanEditor(
                self.request.arguments, self.request.plan or {}, self.body
            )
            self.plan_editor.changed.connect(self._refresh_approve)
            at = self._body_layout.indexOf(self.plan_view) + 1
            self._body_layout.insertWidget(at, self.plan_editor)
        self.plan_view.tables.setVisible(not editing)
        if self.plan_editor is not None:
            self.plan_editor.setVisible(editing)
        self._refresh_approve()

    def _editing_plan(self) -> bool:
        return self.plan_editor is not None and self.edit_plan_button.isChecked()

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

    def _refresh_approve(self) -> None:
        if self.reason_row.isHidden():  # a Reject being confirmed keeps Approve off
            self.approve.setEnabled(self.approvable())

    # --- what the user decided -----------------------------------------------------------

    def edited_arguments(self) -> dict[str, Any] | None:
        """The arguments if the user changed any, else None."""
        if self.plan_view is not None:
            editor = self.plan_editor
            return editor.edited_spec() if editor is not None and self._editing_plan() else None
        values = {f.name: f.value() for f in self.fields}
        changed = {k: v for k, v in values.items() if v != self._initial[k]}
        merged = {**self.request.arguments, **changed}
        if self._blocks_key is not None:
            devices = [dict(d) for d in self.request.arguments[self._blocks_key]]
            for (index, key), edit in self.text_blocks.items():
                lines = [line.rstrip() for line in edit.toPlainText().splitlines()]
                devices[index][key] = [line for line in lines if line.strip()]
            if devices != self.request.arguments[self._blocks_key]:
                merged[self._blocks_key] = devices
                changed[self._blocks_key] = devices
        return merged if changed else None

    def _edited_lines(self, arguments: dict[str, Any]) -> str:
        """The device lines the user changed or added that the summary does not show already
        (it names only the first lines of each device): what was sent, by device."""
        key = self._blocks_key
        if key is None:
            return ""
        proposed = device_blocks(self.request.arguments.get(key)) or []
        sent = device_blocks(arguments.get(key)) or []
        parts = []
        for (device, _, lines), (_, _, before) in zip(sent, proposed, strict=False):
            new = [line.strip() for line in lines if line not in before]
            new = [line for line in new if line not in self.summary]
            if new:
                parts.append(f"{device}: {'; '.join(new)}")
        return " | ".join(parts)

    def decision(self) -> UserDecision | None:
        """What the user decided for this call, or None while undecided."""
        return self.choice

    def _approve_clicked(self) -> None:
        if not self.approvable():
            return  # an edit not checked (or a plan that does not validate) is never sent
        self.decide(
            UserDecision(
                self.request.tool_call_id,
                "approve",
                arguments=self.edited_arguments(),
                always_allow=self.always.isChecked(),
            )
        )

    def _reject_clicked(self) -> None:
        self.reason_row.show()
        self.approve.setEnabled(False)
        self.reject.setEnabled(False)
        self.reason.setFocus(Qt.FocusReason.OtherFocusReason)

    def _cancel_reject(self) -> None:
        self.reason_row.hide()
        self.approve.setEnabled(self.approvable())
        self.reject.setEnabled(True)
        self.reject.setFocus(Qt.FocusReason.OtherFocusReason)

    def confirm_reject(self) -> None:
        """Reject with the reason typed (if any)."""
        reason = self.reason.text().strip() or None
        self.decide(UserDecision(self.request.tool_call_id, "reject", reason=reason))

    def decide(self, decision: UserDecision) -> None:
        """Record the decision (once) and collapse to one line."""
        if self.choice is not None:
            return
        self.choice = decision
        if decision.action == "reject":
            reason = f" ({decision.reason})" if decision.reason else ""
            text = (
                QCoreApplication.translate("ApprovalCard", "Rejected: %1").replace(
                    "%1", self.summary
                )
                + reason
            )
        elif decision.arguments is not None:
            text = QCoreApplication.translate(
                "ApprovalCard", "Approved with your edits: %1"
            ).replace("%1", self.summary)
            lines = self._edited_lines(decision.arguments)
            if lines:
                text += (
                    " ("
                    + QCoreApplication.translate("ApprovalCard", "sent: %1").replace("%1", lines)
                    + ")"
                )
        else:
            text = QCoreApplication.translate("ApprovalCard", "Approved: %1").replace(
                "%1", self.summary
            )
        self.collapse(text)
        self.decided.emit()

    def collapse(self, text: str) -> None:
        """Show only one line of text."""
        had_focus = self.body.isAncestorOf(QApplication.focusWidget())
        self.body.hide()
        self.result_label.setText(text)
        self.result_label.show()
        if had_focus:
            parent = self.parentWidget()
            if parent is not None:
                parent.setFocus(Qt.FocusReason.OtherFocusReason)


class ApprovalCard(QFrame):
    """All calls of one pause. Emits `decided` once every call is decided."""

    decided = pyqtSignal(list)  # list[UserDecision]

    def __init__(self, requests: list[ApprovalRequest], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("approvalCard")
        self.setAccessibleName(QCoreApplication.translate("ApprovalCard", "Approval needed"))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        # One call: its own title is the question ("Delete Switch1 with its links?"). Several:
        # how many wait, never who asks (on a practice card the app itself acts).
        self.heading = QLabel(
            QCoreApplication.translate(
                "ApprovalCard", "%n changes wait for your decision:", "", len(requests)
            ),
            self,
        )
        self.heading.setVisible(len(requests) > 1)
        self.heading.setWordWrap(True)
        self.heading.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.heading)
        self.items = [ApprovalItem(r, self) for r in requests]
        for item in self.items:
            item.decided.connect(self._item_decided)
            layout.addWidget(item)
        self.batch_row = QWidget(self)
        buttons = QHBoxLayout(self.batch_row)
        buttons.setContentsMargins(0, 0, 0, 0)
        self.approve_all_button = QPushButton(
            QCoreApplication.translate("ApprovalCard", "Approve all"), self.batch_row
        )
        self.reject_all_button = QPushButton(
            QCoreApplication.translate("ApprovalCard", "Reject all"), self.batch_row
        )
        for button in (self.approve_all_button, self.reject_all_button):
            button.setAutoDefault(False)
            button.setAccessibleName(button.text())
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.approve_all_button.clicked.connect(self.approve_all)
        self.reject_all_button.clicked.connect(self.reject_all)
        self.batch_row.setVisible(len(requests) > 1)
        layout.addWidget(self.batch_row)
        self.result_label = QLabel(self)
        self.result_label.setObjectName("muted")
        self.result_label.setWordWrap(True)
        self.result_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.result_label.hide()
        layout.addWidget(self.result_label)
        self._done = False
        self.locked = False

    @property
    def done(self) -> bool:
        """Decided (or locked): nothing on it can be clicked any more."""
        return self._done

    def approve_all(self, *_: object) -> None:
        """Approve every undecided call as shown (edits included)."""
        for item in self.items:
            if item.choice is None:
                item._approve_clicked()

    def reject_all(self, *_: object) -> None:
        """Reject every undecided call (with the reasons typed)."""
        for item in self.items:
            if item.choice is None:
                item.confirm_reject()

    def decisions(self) -> list[UserDecision]:
        """The decisions made so far."""
        return [d for d in (item.decision() for item in self.items) if d is not None]

    def _item_decided(self) -> None:
        if self._done or any(item.choice is None for item in self.items):
            return
        self._done = True
        decisions = self.decisions()
        approved = sum(1 for d in decisions if d.action == "approve")
        if len(decisions) > 1:
            text = QCoreApplication.translate("ApprovalCard", "%1 approved, %2 rejected").replace(
                "%1", str(approved)
            )
            self._collapse(text.replace("%2", str(len(decisions) - approved)))
        else:
            self._collapse(self.items[0].result_label.text())
        self.decided.emit(decisions)

    def _collapse(self, text: str) -> None:
        self.heading.hide()
        self.batch_row.hide()
        for item in self.items:
            item.hide()
        self.result_label.setText(text)
        self.result_label.show()
        self.setToolTip("\n".join(item.result_label.text() for item in self.items))

    def lock(self, text: str) -> bool:
        """The turn moved on without a decision: say so, remove every button. False when the
        card was already decided."""
        if self._done:
            return False
        self._done = True
        self.locked = True
        self._collapse(text)
        return True

    def focus_first(self) -> None:
        """Offer the card to the keyboard without taking it from a text box the user types in.

        The focus goes to the card frame (Tab then reaches the first Approve/Reject), never to a
        button: a key typed for the message box must not decide a call.
        """
        focused = QApplication.focusWidget()
        if isinstance(focused, QLineEdit | QTextEdit | QPlainTextEdit):
            return
        self.setFocus(Qt.FocusReason.OtherFocusReason)
