"""The approval card's decision controls: Approve, Reject with its reason, Always allow.

Nothing is a default button (typing in the message box never decides a card); Reject asks for an
optional reason inline; "Always allow" lets later calls of the same tool in the project run
without asking. A mixin of `ApprovalItem`, which records the decision and collapses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QCoreApplication, Qt
from PyQt6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.backends.base import UserDecision
from gns3_copilot_desktop.ui.core_text import tool_display_name
from gns3_copilot_desktop.ui.shortcuts import APPROVE_KEYS, REJECT_KEYS, with_keys


class DecisionControls:
    """The decision part of an `ApprovalItem`."""

    request: ApprovalRequest
    summary: str
    body: QWidget

    if TYPE_CHECKING:

        def approvable(self) -> bool: ...
        def edited_arguments(self) -> dict[str, Any] | None: ...
        def decide(self, decision: UserDecision) -> None: ...

    def _build_decision(self, layout: QVBoxLayout) -> None:
        """Add Approve / Reject, Always allow and the hidden reason row."""
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
        self.display_name = tool_display_name(self.request.tool_name)
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

    def _refresh_approve(self) -> None:
        if self.reason_row.isHidden():  # a Reject being confirmed keeps Approve off
            self.approve.setEnabled(self.approvable())

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
