"""The approval card: tool calls that wait for the user's decision.

Each pending call shows its summary, risk and arguments as an editable form generated from the
tool's JSON schema (or, without one, from the argument values). The user approves or rejects each
one (a reason can go with a rejection), may "always allow" the tool in this project, and sends all
decisions together. Everything is reachable with the keyboard; Ctrl+Enter submits.
"""

from __future__ import annotations

import json
from typing import Any

from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtGui import QKeySequence, QShortcut
from PyQt6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.backend import UserDecision


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


_RISK_TEXT = {
    "read": QT_TRANSLATE_NOOP("ApprovalCard", "reads only"),
    "change": QT_TRANSLATE_NOOP("ApprovalCard", "changes the project"),
    "device-config": QT_TRANSLATE_NOOP("ApprovalCard", "configures a device"),
}


class ArgumentField:
    """One editable argument: a widget plus how to read its value back."""

    def __init__(self, name: str, schema: dict[str, Any], value: Any, parent: QWidget) -> None:
        self.name = name
        self.kind = _kind(schema, value)
        self.widget = self._make(schema, value, parent)
        self.widget.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Argument %1").replace("%1", name)
        )
        if schema.get("description"):
            self.widget.setToolTip(str(schema["description"]))

    def _make(self, schema: dict[str, Any], value: Any, parent: QWidget) -> QWidget:
        if "enum" in schema:
            combo = QComboBox(parent)
            for option in schema["enum"]:
                combo.addItem(str(option), option)
            if value in schema["enum"]:
                combo.setCurrentIndex(list(schema["enum"]).index(value))
            return combo
        if self.kind == "boolean":
            box = QCheckBox(parent)
            box.setChecked(bool(value))
            return box
        if self.kind == "integer":
            spin = QSpinBox(parent)
            spin.setRange(
                int(schema.get("minimum", -(2**31))), int(schema.get("maximum", 2**31 - 1))
            )
            spin.setValue(int(value or 0))
            return spin
        if self.kind == "number":
            dspin = QDoubleSpinBox(parent)
            dspin.setDecimals(3)
            dspin.setRange(float(schema.get("minimum", -1e12)), float(schema.get("maximum", 1e12)))
            dspin.setValue(float(value or 0))
            return dspin
        edit = QLineEdit(parent)
        edit.setText(value if self.kind == "string" else json.dumps(value, ensure_ascii=False))
        edit.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        edit.setMinimumWidth(60)
        return edit

    def value(self) -> Any:
        """The current value, typed as the schema says (JSON text for objects and arrays)."""
        w = self.widget
        if isinstance(w, QComboBox):
            return w.currentData()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QSpinBox | QDoubleSpinBox):
            return w.value()
        assert isinstance(w, QLineEdit)
        if self.kind == "string":
            return w.text()
        try:
            return json.loads(w.text())
        except json.JSONDecodeError:
            return w.text()


def _kind(schema: dict[str, Any], value: Any) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if isinstance(kind, str):
        return kind
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str) or value is None:
        return "string"
    return "object"


class ApprovalItem(QFrame):
    """The form for one pending call."""

    def __init__(self, request: ApprovalRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        risk_text = _RISK_TEXT.get(request.risk, request.risk)
        risk = QCoreApplication.translate("ApprovalCard", risk_text)
        title = QLabel(f"<b>{_escape(request.tool_name)}</b> — {_escape(request.summary)}", self)
        title.setWordWrap(True)
        title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        risk_label = QLabel(
            QCoreApplication.translate("ApprovalCard", "Risk: %1").replace("%1", risk), self
        )
        risk_label.setObjectName("stateWaiting")
        layout.addWidget(title)
        layout.addWidget(risk_label)
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        props: dict[str, Any] = (request.arguments_schema or {}).get("properties", {})
        names = list(props) + [k for k in request.arguments if k not in props]
        self.fields = [
            ArgumentField(
                n, props.get(n, {}), request.arguments.get(n, props.get(n, {}).get("default")), self
            )
            for n in names
        ]
        for f in self.fields:
            form.addRow(f.name, f.widget)
        self._initial = {f.name: f.value() for f in self.fields}
        layout.addLayout(form)
        row = QHBoxLayout()
        self.approve = QRadioButton(QCoreApplication.translate("ApprovalCard", "Approve"), self)
        self.reject = QRadioButton(QCoreApplication.translate("ApprovalCard", "Reject"), self)
        self.approve.setChecked(True)
        self.approve.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Approve %1").replace(
                "%1", request.tool_name
            )
        )
        self.reject.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Reject %1").replace("%1", request.tool_name)
        )
        group = QButtonGroup(self)
        group.addButton(self.approve)
        group.addButton(self.reject)
        row.addWidget(self.approve)
        row.addWidget(self.reject)
        row.addStretch(1)
        layout.addLayout(row)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(
            QCoreApplication.translate(
                "ApprovalCard", "Reason for rejecting (optional, the model sees it)"
            )
        )
        self.reason.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Reason for rejecting %1").replace(
                "%1", request.tool_name
            )
        )
        self.reason.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.reason.setEnabled(False)
        self.reject.toggled.connect(self.reason.setEnabled)
        layout.addWidget(self.reason)
        self.always = QCheckBox(
            QCoreApplication.translate("ApprovalCard", "Always allow %1 in this project").replace(
                "%1", request.tool_name
            ),
            self,
        )
        self.always.setAccessibleName(self.always.text())
        self.approve.toggled.connect(self.always.setEnabled)
        layout.addWidget(self.always)

    def edited_arguments(self) -> dict[str, Any] | None:
        """The arguments if the user changed any, else None."""
        values = {f.name: f.value() for f in self.fields}
        changed = {k: v for k, v in values.items() if v != self._initial[k]}
        return {**self.request.arguments, **changed} if changed else None

    def decision(self) -> UserDecision:
        """What the form says now."""
        if self.reject.isChecked():
            return UserDecision(
                self.request.tool_call_id, "reject", reason=self.reason.text().strip() or None
            )
        return UserDecision(
            self.request.tool_call_id,
            "approve",
            arguments=self.edited_arguments(),
            always_allow=self.always.isChecked(),
        )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ApprovalCard(QFrame):
    """All calls of one pause, decided together. Emits `decided` once."""

    decided = pyqtSignal(list)  # list[UserDecision]

    def __init__(self, requests: list[ApprovalRequest], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("approvalCard")
        self.setAccessibleName(QCoreApplication.translate("ApprovalCard", "Approval needed"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        heading = QLabel(
            QCoreApplication.translate(
                "ApprovalCard", "The assistant wants to run %n tool call(s):", "", len(requests)
            ),
            self,
        )
        heading.setWordWrap(True)
        heading.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(heading)
        self.items = [ApprovalItem(r, self) for r in requests]
        for item in self.items:
            layout.addWidget(item)
        buttons = QHBoxLayout()
        self.submit_button = QPushButton(
            QCoreApplication.translate("ApprovalCard", "Submit decisions")
            if len(requests) > 1
            else QCoreApplication.translate("ApprovalCard", "Approve"),
            self,
        )
        self.submit_button.setDefault(True)
        self.submit_button.setAccessibleName(self.submit_button.text())
        self.submit_button.clicked.connect(self.submit)
        self.approve_all_button = QPushButton(
            QCoreApplication.translate("ApprovalCard", "Approve all"), self
        )
        self.approve_all_button.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Approve all")
        )
        self.approve_all_button.clicked.connect(self.approve_all)
        self.reject_all_button = QPushButton(
            QCoreApplication.translate("ApprovalCard", "Reject all")
            if len(requests) > 1
            else QCoreApplication.translate("ApprovalCard", "Reject"),
            self,
        )
        self.reject_all_button.setAccessibleName(self.reject_all_button.text())
        self.reject_all_button.clicked.connect(self.reject_all)
        buttons.addWidget(self.submit_button)
        if len(requests) > 1:
            buttons.addWidget(self.approve_all_button)
        else:
            self.approve_all_button.hide()
            self.items[0].reject.toggled.connect(self._single_toggled)
        buttons.addWidget(self.reject_all_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.result_label = QLabel(self)
        self.result_label.setObjectName("muted")
        self.result_label.setWordWrap(True)
        self.result_label.hide()
        layout.addWidget(self.result_label)
        shortcut = QShortcut(QKeySequence("Ctrl+Return"), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.submit)
        self._done = False

    def _single_toggled(self, rejecting: bool) -> None:
        self.submit_button.setText(
            QCoreApplication.translate("ApprovalCard", "Reject")
            if rejecting
            else QCoreApplication.translate("ApprovalCard", "Approve")
        )

    def approve_all(self, *_: object) -> None:
        """Approve every call as shown (edits included) and submit."""
        for item in self.items:
            item.approve.setChecked(True)
        self.submit()

    def reject_all(self, *_: object) -> None:
        """Reject every call (with the reasons typed) and submit."""
        for item in self.items:
            item.reject.setChecked(True)
        self.submit()

    def decisions(self) -> list[UserDecision]:
        """The decisions as the forms stand."""
        return [item.decision() for item in self.items]

    def submit(self, *_: object) -> None:
        """Send the decisions (once) and freeze the card."""
        if self._done:
            return
        self._done = True
        decisions = self.decisions()
        for item in self.items:
            item.setEnabled(False)
        for button in (self.submit_button, self.approve_all_button, self.reject_all_button):
            button.hide()
        approved = sum(1 for d in decisions if d.action == "approve")
        text = QCoreApplication.translate("ApprovalCard", "%1 approved, %2 rejected").replace(
            "%1", str(approved)
        )
        self.result_label.setText(text.replace("%2", str(len(decisions) - approved)))
        self.result_label.show()
        self.decided.emit(decisions)

    def focus_first(self) -> None:
        """Put the keyboard focus on the decision button."""
        self.submit_button.setFocus(Qt.FocusReason.OtherFocusReason)
