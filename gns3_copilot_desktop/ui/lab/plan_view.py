"""A lab plan as the approval card and the plan's result show it: the drawing, then the tables.

The data is the plan's JSON form (`core.lab_plan.diff.LabDiff.to_json`), stored with the pending
approval: every value is read defensively and shown as text, never as markup.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PyQt6.QtCore import QCoreApplication, Qt, pyqtSignal
from PyQt6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.lab_plan.picture import picture_from_json
from gns3_copilot_desktop.core.undo.record import UndoRecord
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.lab.drawing import LabDrawing
from gns3_copilot_desktop.ui.lab.drawing_parts import state_colour

MAX_ROWS = 60


class PlanView(QWidget):
    """The drawing of a plan and its tables (nodes, links, addressing, configuration)."""

    def __init__(self, plan: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        self.drawing = LabDrawing(picture_from_json(plan.get("picture")), self)
        layout.addWidget(self.drawing)
        self.tables = QLabel(plan_tables(plan, self), self)
        self.tables.setTextFormat(Qt.TextFormat.RichText)
        self.tables.setWordWrap(True)
        self.tables.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.tables.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.tables)


def _rows(value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [v for v in value[:MAX_ROWS] if isinstance(v, dict)]


def _text(value: object) -> str:
    return escape(str(value)[:200]) if isinstance(value, str | int | float) else ""


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    if not rows:
        return ""
    head = "".join(f"<th align='left'>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f"<p style='margin:6px 0 2px 0'><b>{escape(title)}</b></p>"
        f"<table cellspacing='0' cellpadding='2'><tr>{head}</tr>{body}</table>"
    )


def plan_tables(plan: dict[str, Any], widget: QWidget) -> str:
    """The plan's tables as rich text (values escaped)."""
    palette = widget.palette()
    state_names = {
        "new": QCoreApplication.translate("PlanView", "new"),
        "unchanged": QCoreApplication.translate("PlanView", "kept"),
        "removed": QCoreApplication.translate("PlanView", "removed"),
    }

    def state(value: object) -> str:
        key = value if isinstance(value, str) and value in state_names else "unchanged"
        colour = state_colour(key, palette).name()
        return f"<span style='color:{colour}'>{escape(state_names[key])}</span>"

    nodes = [
        [_text(n.get("name")), _text(n.get("template")), state(n.get("state"))]
        for n in _rows(plan.get("nodes"))
    ]
    links = [
        [
            f"{_text(x.get('a'))} {_text(x.get('a_port'))} – {_text(x.get('b'))} "
            f"{_text(x.get('b_port'))}",
            _text(x.get("subnet")),
            state(x.get("state")),
        ]
        for x in _rows(plan.get("links"))
    ]
    addressing = [
        [
            _text(a.get("node")),
            _text(a.get("interface")),
            _text(a.get("address")),
            _text(a.get("gateway")),
        ]
        for a in _rows(plan.get("addressing"))
    ]
    configs = plan.get("configs")
    config_rows: list[list[str]] = []
    if isinstance(configs, dict):
        for device, lines in list(configs.items())[:MAX_ROWS]:
            if isinstance(lines, list) and lines:
                shown = "<br>".join(_text(line) for line in lines[:40])
                config_rows.append([_text(device), f"<code>{shown}</code>"])
    return "".join(
        (
            _table(
                QCoreApplication.translate("PlanView", "Nodes"),
                [
                    QCoreApplication.translate("PlanView", "Name"),
                    QCoreApplication.translate("PlanView", "Template"),
                    QCoreApplication.translate("PlanView", "Change"),
                ],
                nodes,
            ),
            _table(
                QCoreApplication.translate("PlanView", "Links"),
                [
                    QCoreApplication.translate("PlanView", "Ends"),
                    QCoreApplication.translate("PlanView", "Subnet"),
                    QCoreApplication.translate("PlanView", "Change"),
                ],
                links,
            ),
            _table(
                QCoreApplication.translate("PlanView", "Addressing"),
                [
                    QCoreApplication.translate("PlanView", "Node"),
                    QCoreApplication.translate("PlanView", "Interface"),
                    QCoreApplication.translate("PlanView", "Address"),
                    QCoreApplication.translate("PlanView", "Gateway"),
                ],
                addressing,
            ),
            _table(
                QCoreApplication.translate("PlanView", "Configuration"),
                [
                    QCoreApplication.translate("PlanView", "Device"),
                    QCoreApplication.translate("PlanView", "Lines"),
                ],
                config_rows,
            ),
        )
    )


class PlanOutcome(QWidget):
    """Under a finished plan_lab card: each verification check; Undo (the plan's undo record,
    planned against the project as it is now, after the user reads every action); and an
    explicit GNS3 snapshot (asked first: it saves the devices' configurations and stops the
    running nodes while it is taken)."""

    undo_requested = pyqtSignal(object)  # the tool's structured result
    snapshot_requested = pyqtSignal(object)  # the tool's structured result

    def __init__(self, structured: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.structured = structured
        self.record = UndoRecord.from_structured(structured)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(22, 0, 0, 4)
        palette = self.palette()
        rows = []
        for check in _rows(structured.get("checks")):
            passed = check.get("passed") is True
            colour = state_colour("new" if passed else "removed", palette).name()
            mark = "✓" if passed else "✗"
            check_text = check.get("check")
            shown = _text(core_text(check_text)) if isinstance(check_text, str) else ""
            rows.append(f"<span style='color:{colour}'>{mark}</span> {shown}")
        self.checks = QLabel("<br>".join(rows), self)
        self.checks.setTextFormat(Qt.TextFormat.RichText)
        self.checks.setWordWrap(True)
        self.checks.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.checks.setVisible(bool(rows))
        layout.addWidget(self.checks)
        row = QHBoxLayout()
        self.undo_button = QPushButton(
            QCoreApplication.translate("PlanView", "Undo this plan…"), self
        )
        self.undo_button.setAutoDefault(False)
        self.undo_button.setToolTip(
            QCoreApplication.translate(
                "PlanView",
                "Undo what the plan did, in the project as it is now (you see every action first)",
            )
        )
        self.undo_button.clicked.connect(lambda *_: self.undo_requested.emit(self.structured))
        self.undo_button.setVisible(self.record is not None)
        self.snapshot_button = QPushButton(
            QCoreApplication.translate("PlanView", "Take a GNS3 snapshot…"), self
        )
        self.snapshot_button.setAutoDefault(False)
        self.snapshot_button.setToolTip(
            QCoreApplication.translate(
                "PlanView",
                "Save the devices' configurations, stop the running nodes, take a GNS3 snapshot "
                "and start them again (you are asked first)",
            )
        )
        self.snapshot_button.clicked.connect(
            lambda *_: self.snapshot_requested.emit(self.structured)
        )
        self.snapshot_button.setVisible("done" in structured)  # a plan that was applied
        self.state = QLabel(self)
        self.state.setObjectName("muted")
        self.state.setWordWrap(True)
        self.state.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        snapshot_name = structured.get("snapshot_name")
        if self.record is None and isinstance(structured.get("snapshot_id"), str):
            # applied by an older version, which took a GNS3 snapshot instead of a record
            self.state.setText(
                QCoreApplication.translate(
                    "PlanView",
                    "This plan was applied by an older version: its undo is the GNS3 snapshot "
                    "'%1', which you can restore in GNS3 (Edit > Manage snapshots).",
                ).replace("%1", str(snapshot_name or "")[:200])
            )
        row.addWidget(self.undo_button)
        row.addWidget(self.snapshot_button)
        row.addStretch(1)
        layout.addLayout(row)
        # on its own line: beside the two buttons a narrow dock left it a few letters wide
        layout.addWidget(self.state)

    def set_busy(self, busy: bool, text: str = "") -> None:
        """While an undo or a snapshot runs, neither can be asked for again."""
        self.undo_button.setEnabled(not busy)
        self.snapshot_button.setEnabled(not busy)
        if busy:
            self.state.setText(text)

    def set_undone(self, text: str, *, done: bool = True) -> None:
        """What came of the undo; once done, Undo is not offered again."""
        self.state.setText(text)
        self.snapshot_button.setEnabled(True)
        self.undo_button.setEnabled(not done)
