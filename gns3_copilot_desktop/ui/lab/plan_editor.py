"""A lab plan's tables made editable on its approval card ("Edit plan").

The editor starts from the spec the model wrote (the call's arguments) and rebuilds it from the
tables: nodes, links, and the subnets and addresses when the spec has them. Every other field of
the spec (the pairs to reach, the removals) is kept as it was, except that renaming a node renames
it wherever the spec refers to it, and removing a node the project does not have removes the
links, addresses and pairs that need it.

What the user types is data: the rebuilt spec is parsed by the spec's own model (`LabSpec`) and
checked by `spec_problems` (subnets, references) as it changes; the first problem is shown as
plain text under the tables, in a space kept for it, and the card keeps Approve disabled while
there is one. A removal (with what it took along) can be undone: Undo remove, or Ctrl+Z. An approved
edit is validated against the project and compared again by the plan tool before anything runs.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PyQt6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.lab_plan.consistency import spec_problems
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.ui.lab.plan_edits import PlanRowEdits
from gns3_copilot_desktop.ui.lab.spec_table import Column, SpecTable

ERROR_LINES = 2
"""Lines kept for the problem line under the tables, shown or not."""


def _node_columns() -> list[Column]:
    return [
        Column(("name",), QCoreApplication.translate("PlanView", "Name")),
        Column(("template",), QCoreApplication.translate("PlanView", "Template")),
        Column(("x",), QCoreApplication.translate("PlanView", "X"), "int"),
        Column(("y",), QCoreApplication.translate("PlanView", "Y"), "int"),
        Column(("platform",), QCoreApplication.translate("PlanView", "Platform"), "platform"),
        Column(("ospf",), QCoreApplication.translate("PlanView", "OSPF"), "bool"),
    ]


def _link_columns() -> list[Column]:
    return [
        Column(("a", "node"), QCoreApplication.translate("PlanView", "Node A")),
        Column(("a", "port"), QCoreApplication.translate("PlanView", "Port A"), "port"),
        Column(("b", "node"), QCoreApplication.translate("PlanView", "Node B")),
        Column(("b", "port"), QCoreApplication.translate("PlanView", "Port B"), "port"),
        Column(("subnet",), QCoreApplication.translate("PlanView", "Subnet"), "optional"),
    ]


def _subnet_columns() -> list[Column]:
    return [
        Column(("name",), QCoreApplication.translate("PlanView", "Name")),
        Column(("prefix",), QCoreApplication.translate("PlanView", "Prefix")),
        Column(("gateway",), QCoreApplication.translate("PlanView", "Gateway"), "optional"),
    ]


def _address_columns() -> list[Column]:
    return [
        Column(("node",), QCoreApplication.translate("PlanView", "Node")),
        Column(("interface",), QCoreApplication.translate("PlanView", "Interface")),
        Column(("address",), QCoreApplication.translate("PlanView", "Address")),
        Column(("gateway",), QCoreApplication.translate("PlanView", "Gateway"), "optional"),
    ]


def project_node_names(plan: dict[str, Any]) -> set[str]:
    """The names of the project's nodes, as the plan's picture and node table list them."""
    picture = plan.get("picture")
    drawn = picture.get("nodes") if isinstance(picture, dict) else None
    listed = plan.get("nodes")
    rows = (drawn if isinstance(drawn, list) else []) + (listed if isinstance(listed, list) else [])
    return {
        row["name"]
        for row in rows
        if isinstance(row, dict) and isinstance(row.get("name"), str) and row.get("state") != "new"
    }


def _rows_of(arguments: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = arguments.get(key)
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


class PlanEditor(PlanRowEdits):
    """The spec's lists as editable tables; `edited_spec` is the spec they make."""

    changed = pyqtSignal()

    def __init__(
        self, arguments: dict[str, Any], plan: dict[str, Any], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.original = copy.deepcopy(arguments)
        self.project_nodes = project_node_names(plan)
        reach = arguments.get("reach")
        self.reach: list[list[Any]] = (
            [list(pair) for pair in reach if isinstance(pair, list | tuple)]
            if isinstance(reach, list)
            else []
        )
        self._busy = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(2)
        self.nodes = self._section(
            layout,
            QCoreApplication.translate("PlanView", "Nodes"),
            _node_columns(),
            _rows_of(arguments, "nodes"),
            (QCoreApplication.translate("PlanView", "Add node"), self.add_node),
            (QCoreApplication.translate("PlanView", "Remove node"), self.remove_nodes),
        )
        self.links = self._section(
            layout,
            QCoreApplication.translate("PlanView", "Links"),
            _link_columns(),
            _rows_of(arguments, "links"),
            (QCoreApplication.translate("PlanView", "Add link"), self.add_link),
            (
                QCoreApplication.translate("PlanView", "Remove link"),
                lambda: self._remove(self.links),
            ),
        )
        self.tables: dict[str, SpecTable] = {"nodes": self.nodes, "links": self.links}
        self.subnets: SpecTable | None = None
        self.addresses: SpecTable | None = None
        if _rows_of(arguments, "subnets"):
            self.subnets = self._section(
                layout,
                QCoreApplication.translate("PlanView", "Subnets"),
                _subnet_columns(),
                _rows_of(arguments, "subnets"),
                (
                    QCoreApplication.translate("PlanView", "Add subnet"),
                    lambda: self._add(self.subnets, {}),
                ),
                (
                    QCoreApplication.translate("PlanView", "Remove subnet"),
                    lambda: self._remove(self.subnets),
                ),
            )
            self.tables["subnets"] = self.subnets
        if _rows_of(arguments, "addresses"):
            self.addresses = self._section(
                layout,
                QCoreApplication.translate("PlanView", "Addressing"),
                _address_columns(),
                _rows_of(arguments, "addresses"),
                (
                    QCoreApplication.translate("PlanView", "Add address"),
                    lambda: self._add(self.addresses, {}),
                ),
                (
                    QCoreApplication.translate("PlanView", "Remove address"),
                    lambda: self._remove(self.addresses),
                ),
            )
            self.tables["addresses"] = self.addresses
        undo_row = QHBoxLayout()
        undo_row.setContentsMargins(0, 0, 0, 0)
        self.undo_button = QToolButton(self)
        self.undo_button.setText(QCoreApplication.translate("PlanView", "Undo remove"))
        self.undo_button.setToolTip(
            QCoreApplication.translate("PlanView", "Put back the rows removed last (Ctrl+Z)")
        )
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(self.undo_remove)
        undo_row.addWidget(self.undo_button)
        undo_row.addStretch(1)
        layout.addLayout(undo_row)
        undo_keys = QShortcut(QKeySequence.StandardKey.Undo, self)
        undo_keys.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        undo_keys.activated.connect(self.undo_remove)
        self._removed: list[tuple[dict[str, list[dict[str, Any]]], list[list[Any]]]] = []
        # The problem line keeps its two lines when empty: its coming and going never moves the
        # tables (or scrolls the chat) while the user types in them. Longer text is cut short
        # there and read whole in its tooltip.
        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorText")
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what was typed
        self.error_label.setWordWrap(True)
        self.error_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.error_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.error_label.setFixedHeight(ERROR_LINES * self.error_label.fontMetrics().lineSpacing())
        policy = self.error_label.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.error_label.setSizePolicy(policy)
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self.note = QLabel(
            QCoreApplication.translate(
                "PlanView",
                "The drawing shows the plan as proposed. When you approve, your edits are "
                "checked against the project and compared with it again before anything changes.",
            ),
            self,
        )
        self.note.setObjectName("muted")
        self.note.setWordWrap(True)
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.note)
        self._initial = self._snapshot()
        self._problem: str | None = None
        self.nodes.itemChanged.connect(self._node_renamed)
        for table in self.tables.values():
            table.itemChanged.connect(self._edited)
        self._check()

    def _section(
        self,
        layout: QVBoxLayout,
        title: str,
        columns: list[Column],
        rows: list[dict[str, Any]],
        add: tuple[str, Callable[[], object]],
        remove: tuple[str, Callable[[], object]],
    ) -> SpecTable:
        heading = QLabel(title, self)
        heading.setTextFormat(Qt.TextFormat.PlainText)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        layout.addWidget(heading)
        table = SpecTable(title, columns, rows, self)
        layout.addWidget(table)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 4)
        for text, action in (add, remove):
            button = QToolButton(self)
            button.setText(text)
            button.setAutoRaise(False)
            button.clicked.connect(lambda *_, act=action: act())
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        return table

    # --- what the tables say -------------------------------------------------------------

    def spec(self) -> dict[str, Any]:
        """The spec the tables make (the fields they do not show as the model wrote them)."""
        result = copy.deepcopy(self.original)
        for key, table in self.tables.items():
            result[key] = table.rows()
        if self.reach or "reach" in result:
            result["reach"] = copy.deepcopy(self.reach)
        return result

    def _snapshot(self) -> tuple[Any, ...]:
        return (*(t.snapshot() for t in self.tables.values()), copy.deepcopy(self.reach))

    @property
    def is_changed(self) -> bool:
        """Whether any cell differs from the plan as proposed."""
        return self._snapshot() != self._initial

    @property
    def problem(self) -> str | None:
        """The first reason the edited spec is refused (one line, plain text), or None."""
        return self._problem

    def edited_spec(self) -> dict[str, Any] | None:
        """The edited spec when something changed and it is valid, else None."""
        if self._problem is not None or not self.is_changed:
            return None
        return self.spec()

    def _check(self) -> None:
        self._problem = self._find_problem()
        self._show_problem()
        self.changed.emit()

    def _show_problem(self) -> None:
        text = self._problem or ""
        self.error_label.setToolTip(text)
        self.error_label.setAccessibleDescription(text)
        self.error_label.setText(self._fitted(text))
        self.error_label.setVisible(self._problem is not None)

    def _fitted(self, text: str) -> str:
        """`text` cut at a word, with an ellipsis, so it fits the reserved lines."""
        width = self.error_label.width()
        if width <= 0 or not text:
            return text
        metrics = self.error_label.fontMetrics()
        room = self.error_label.height()
        flags = int(Qt.TextFlag.TextWordWrap.value)

        def fits(t: str) -> bool:
            return metrics.boundingRect(0, 0, width, 10_000, flags, t).height() <= room

        if fits(text):
            return text
        words = text.split(" ")
        while len(words) > 1 and not fits(" ".join(words) + "…"):
            words.pop()
        return " ".join(words) + "…"

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        self._show_problem()

    # --- undoing a removal ---------------------------------------------------------------

    def _remember_rows(self) -> None:
        """What the tables hold before a removal, for Undo remove."""
        rows = {key: table.rows() for key, table in self.tables.items()}
        self._removed.append((rows, copy.deepcopy(self.reach)))
        self.undo_button.setEnabled(True)

    def undo_remove(self) -> None:
        """Put back the tables as they were before the last removal (its links and pairs too)."""
        if not self._removed:
            return
        rows, reach = self._removed.pop()
        self._busy = True
        try:
            for key, table in self.tables.items():
                table.setRowCount(0)
                for row in rows[key]:
                    table.add_row(row)
                table.fit_height()
            self.reach = reach
        finally:
            self._busy = False
        self.undo_button.setEnabled(bool(self._removed))
        self._check()

    def _find_problem(self) -> str | None:
        try:
            spec = LabSpec.model_validate(self.spec())
        except ValidationError as exc:
            return self._where(exc.errors()[0])
        problems = spec_problems(spec, self.project_nodes)
        return problems[0][:300] if problems else None

    def _where(self, error: Any) -> str:
        message = str(error.get("msg", "")).removeprefix("Value error, ")[:300]
        loc = tuple(error.get("loc") or ())
        table = self.tables.get(str(loc[0])) if loc else None
        if table is None or len(loc) < 2 or not isinstance(loc[1], int):
            return message
        column = table.column_of(tuple(str(p) for p in loc[2:]))
        header = table.columns[column].header if column >= 0 else ""
        where = (
            QCoreApplication.translate("PlanView", "%1, row %2, %3").replace("%3", header)
            if header
            else QCoreApplication.translate("PlanView", "%1, row %2")
        )
        where = where.replace("%1", table.title).replace("%2", str(loc[1] + 1))
        return (
            QCoreApplication.translate("PlanView", "%1: %2")
            .replace("%2", message)
            .replace("%1", where)
        )
