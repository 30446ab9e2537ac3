"""The approval card's argument editor: the arguments as a person reads them, and edited.

Rich-text rows (the folded Details among them), a device's configuration lines or commands as
editable monospace blocks, the form behind "Edit arguments", and a lab plan's editable tables
behind "Edit plan"; `edited_arguments` is what the user changed. A mixin of `ApprovalItem`, which
owns the widgets' layout and the decision.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QCoreApplication, Qt
from PyQt6.QtGui import QFontDatabase
from PyQt6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.cards.approval_arguments import (
    ArgumentField,
    chip,
    device_blocks,
    is_internal,
    readable_value,
)
from gns3_copilot_desktop.ui.core_text import argument_name
from gns3_copilot_desktop.ui.lab.plan_editor import PlanEditor
from gns3_copilot_desktop.ui.lab.plan_view import PlanView


class ArgumentEditor:
    """The arguments part of an `ApprovalItem`: shown, folded, edited."""

    request: ApprovalRequest
    summary: str
    body: QWidget
    _chip_bg: str

    if TYPE_CHECKING:

        def _edited(self) -> None: ...
        def _refresh_approve(self) -> None: ...

    def _build_arguments(self, request: ApprovalRequest, layout: QVBoxLayout) -> None:
        """Add the plan view, device blocks, argument rows, Details and the edit form."""
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
