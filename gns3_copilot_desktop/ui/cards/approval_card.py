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
  (`ui.cards.approval_editor`, `ui.cards.approval_preview` and `ui.cards.approval_decision` hold
  these three parts of a call; this module lays them out and records the decision)
- a decided call collapses to one line, and so does the card once every call is decided;
- a card whose turn moved on (the user sent a new message) locks: "Not run: ...", no buttons.
"""

from __future__ import annotations

from html import escape

from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtGui import QFontDatabase
from PyQt6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.backends.base import UserDecision
from gns3_copilot_desktop.ui.cards.approval_decision import DecisionControls
from gns3_copilot_desktop.ui.cards.approval_editor import ArgumentEditor
from gns3_copilot_desktop.ui.cards.approval_preview import EditPreview
from gns3_copilot_desktop.ui.core_text import argument_name, core_text, tool_display_name
from gns3_copilot_desktop.ui.theme import colors


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


_RISK_TEXT = {
    "read": QT_TRANSLATE_NOOP("ApprovalCard", "reads only"),
    "change": QT_TRANSLATE_NOOP("ApprovalCard", "changes the project"),
    "device-config": QT_TRANSLATE_NOOP("ApprovalCard", "configures a device"),
}


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


class ApprovalItem(ArgumentEditor, EditPreview, DecisionControls, QFrame):
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

        self._build_arguments(request, layout)
        self._build_preview(request, layout)
        self._build_decision(layout)

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

    # --- what the user decided -----------------------------------------------------------

    def decision(self) -> UserDecision | None:
        """What the user decided for this call, or None while undecided."""
        return self.choice

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
