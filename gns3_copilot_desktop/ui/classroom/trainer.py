"""A trainer's class in the dock: every student's state and score, live, and the export."""

from __future__ import annotations

from PyQt6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.classroom_client import ResultRow


class ClassTable(QFrame):
    """The exam's results: one row per student and task."""

    COLUMNS = (
        QT_TRANSLATE_NOOP("ClassroomPanel", "Student"),
        QT_TRANSLATE_NOOP("ClassroomPanel", "Status"),
        QT_TRANSLATE_NOOP("ClassroomPanel", "Score"),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        self.summary_label = QLabel(self)
        self.summary_label.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Submitted so far")
        )
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels(
            [QCoreApplication.translate("ClassroomPanel", c) for c in self.COLUMNS]
        )
        self.table.setAccessibleName(QCoreApplication.translate("ClassroomPanel", "Class results"))
        rows_header = self.table.verticalHeader()
        assert rows_header is not None
        rows_header.setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        assert header is not None
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QHBoxLayout()
        self.csv_button = QPushButton(
            QCoreApplication.translate("ClassroomPanel", "Export CSV…"), self
        )
        self.csv_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Export the results as CSV")
        )
        self.json_button = QPushButton(
            QCoreApplication.translate("ClassroomPanel", "Export JSON…"), self
        )
        self.json_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Export the results as JSON")
        )
        self.new_task_button = QPushButton(
            QCoreApplication.translate("ClassroomPanel", "Save this lab as a task…"), self
        )
        self.new_task_button.setAccessibleName(
            QCoreApplication.translate("ClassroomPanel", "Make a task from the lab open now")
        )
        buttons.addWidget(self.csv_button)
        buttons.addWidget(self.json_button)
        buttons.addStretch(1)
        layout.addWidget(self.new_task_button)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.rows: list[ResultRow] = []

    def show_rows(self, rows: list[ResultRow]) -> None:
        self.rows = rows
        statuses = {
            "not started": QCoreApplication.translate("ClassroomPanel", "not started"),
            "injecting": QCoreApplication.translate("ClassroomPanel", "starting"),
            "running": QCoreApplication.translate("ClassroomPanel", "working"),
            "grading": QCoreApplication.translate("ClassroomPanel", "checking"),
            "submitted": QCoreApplication.translate("ClassroomPanel", "submitted"),
        }
        self.table.setRowCount(len(rows))
        several = len({r.task_id for r in rows}) > 1
        for number, row in enumerate(rows):
            student = f"{row.student} · {row.task}" if several else row.student
            score = "—" if row.score is None else f"{row.score} / {row.points}"
            cells = (student, statuses.get(row.status, row.status), score)
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if row.checks:
                    item.setToolTip("\n".join(f"{c.title}: {c.message}" for c in row.checks))
                self.table.setItem(number, column, item)
        done = sum(r.status == "submitted" for r in rows)
        self.summary_label.setText(
            QCoreApplication.translate("ClassroomPanel", "{done} of {total} submitted").format(
                done=done, total=len(rows)
            )
        )
