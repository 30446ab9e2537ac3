"""A list of a lab spec (its nodes, links, subnets or addresses) as a compact editable table.

Each column says where its value sits in a row of the spec and what it holds; a row read back is
the spec's row with the cells' values put in (typed: whole numbers, 'any' for an empty port, left
out when an optional cell is empty), every field no column shows kept as it was. The cells are
plain text: whatever is typed is shown as typed, never as markup, and parsed by the spec's model.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal, get_args

from PyQt6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PyQt6.QtGui import QResizeEvent
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from gns3_copilot_desktop.core.lab_plan.spec import ANY_PORT, Platform

ColumnKind = Literal["text", "optional", "port", "int", "platform", "bool"]
PLATFORMS: tuple[str, ...] = get_args(Platform)
MAX_SHOWN_ROWS = 10
NAME_ROLE = Qt.ItemDataRole.UserRole + 1  # a node row's name as the other tables know it
ROW_ROLE = Qt.ItemDataRole.UserRole + 2  # the row as the spec had it (fields kept as they were)


@dataclass(frozen=True)
class Column:
    """One column of a table: where its value sits in a row of the spec, and what it holds."""

    path: tuple[str, ...]
    header: str
    kind: ColumnKind = "text"


def _get(row: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = row
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _put(row: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    *parents, last = path
    for key in parents:
        child = row.get(key)
        if not isinstance(child, dict):
            child = row[key] = {}
        row = child
    if value is None:
        row.pop(last, None)
    else:
        row[last] = value


def _shown(value: Any, kind: ColumnKind) -> str:
    """A spec value as a cell's text (the text is data: it is shown as typed, never as markup)."""
    if kind == "port" and value is None:
        return ANY_PORT
    if kind == "platform" and value is None:
        return PLATFORMS[0]
    if value is None or isinstance(value, bool):
        return ""
    return str(value)


class _ChoiceDelegate(QStyledItemDelegate):
    """Edits a cell with a list to choose from (the platform)."""

    def __init__(self, choices: tuple[str, ...], parent: QWidget) -> None:
        super().__init__(parent)
        self.choices = choices

    def createEditor(
        self, parent: QWidget | None, option: QStyleOptionViewItem, index: QModelIndex
    ) -> QWidget | None:
        combo = QComboBox(parent)
        combo.addItems(self.choices)
        return combo

    def setEditorData(self, editor: QWidget | None, index: QModelIndex) -> None:
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(index.data() or ""))

    def setModelData(
        self, editor: QWidget | None, model: QAbstractItemModel | None, index: QModelIndex
    ) -> None:
        if isinstance(editor, QComboBox) and model is not None:
            model.setData(index, editor.currentText())


class SpecTable(QTableWidget):
    """One list of the spec (nodes, links, ...) as a compact editable table."""

    def __init__(
        self, title: str, columns: list[Column], rows: list[dict[str, Any]], parent: QWidget
    ) -> None:
        super().__init__(0, len(columns), parent)
        self.title = title
        self.columns = columns
        self.setAccessibleName(title)
        self.setHorizontalHeaderLabels([c.header for c in columns])
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setTabKeyNavigation(False)  # Tab leaves the table: the card's buttons stay reachable
        self.setWordWrap(False)
        self.setAlternatingRowColors(True)
        row_height = self.fontMetrics().height() + 6
        vertical = self.verticalHeader()
        assert vertical is not None
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setMinimumSectionSize(row_height)
        vertical.setDefaultSectionSize(row_height)
        horizontal = self.horizontalHeader()
        assert horizontal is not None
        horizontal.setStretchLastSection(True)
        horizontal.setMinimumSectionSize(36)
        for index, column in enumerate(columns):
            if column.kind == "platform":
                self.setItemDelegateForColumn(index, _ChoiceDelegate(PLATFORMS, self))
        for row in rows:
            self.add_row(row)
        self.resizeColumnsToContents()
        for index in range(len(columns)):
            self.setColumnWidth(index, min(max(self.columnWidth(index), 44), 170))
        self.fit_height()

    def add_row(self, row: dict[str, Any]) -> int:
        """Append `row` (a row of the spec); the new row's index."""
        index = self.rowCount()
        self.insertRow(index)
        for col, column in enumerate(self.columns):
            value = _get(row, column.path)
            item = QTableWidgetItem(_shown(value, column.kind))
            if column.kind == "bool":
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled
                    | Qt.ItemFlag.ItemIsSelectable
                    | Qt.ItemFlag.ItemIsUserCheckable
                )
                item.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
            if col == 0:
                item.setData(ROW_ROLE, copy.deepcopy(row))
                item.setData(NAME_ROLE, item.text())
            self.setItem(index, col, item)
        self.fit_height()
        return index

    def value(self, row: int, col: int) -> Any:
        """The typed value of a cell, as the spec takes it (None: left out)."""
        item = self.item(row, col)
        kind = self.columns[col].kind
        if item is None:
            return None
        if kind == "bool":
            return item.checkState() == Qt.CheckState.Checked
        text = item.text()
        if kind == "port":
            return text or ANY_PORT
        if kind in ("optional", "int") and not text.strip():
            return None
        if kind == "int":
            try:
                return int(text.strip())
            except ValueError:
                return text  # the spec's model refuses it, and says why
        return text

    def rows(self) -> list[dict[str, Any]]:
        """Every row as a row of the spec (fields no column shows kept as they were)."""
        result = []
        for row in range(self.rowCount()):
            first = self.item(row, 0)
            original = first.data(ROW_ROLE) if first is not None else None
            built = copy.deepcopy(original) if isinstance(original, dict) else {}
            for col, column in enumerate(self.columns):
                _put(built, column.path, self.value(row, col))
            result.append(built)
        return result

    def snapshot(self) -> list[tuple[Any, ...]]:
        """The cells' values (to tell whether anything changed)."""
        return [
            tuple(self.value(row, col) for col in range(self.columnCount()))
            for row in range(self.rowCount())
        ]

    def selected_rows(self) -> list[int]:
        """The rows with a selected cell, highest first (so they can be removed in turn)."""
        model = self.selectionModel()
        if model is None:
            return []
        return sorted({index.row() for index in model.selectedIndexes()}, reverse=True)

    def column_of(self, path: tuple[str, ...]) -> int:
        """The column showing `path`, or -1."""
        return next((i for i, c in enumerate(self.columns) if c.path == path), -1)

    def fit_height(self) -> None:
        """As tall as its rows (up to MAX_SHOWN_ROWS, then it scrolls), plus the horizontal
        scroll bar when the columns are wider than the card."""
        header = self.horizontalHeader()
        bar = self.horizontalScrollBar()
        shown = min(max(self.rowCount(), 1), MAX_SHOWN_ROWS)
        height = (header.height() if header is not None else 0) + 2 * self.frameWidth()
        height += shown * self.verticalHeader().defaultSectionSize()  # type: ignore[union-attr]
        wide = header is not None and header.length() > self.viewport().width()  # type: ignore[union-attr]
        if wide and bar is not None:
            height += bar.sizeHint().height()
        self.setFixedHeight(height)

    def resizeEvent(self, e: QResizeEvent | None) -> None:
        super().resizeEvent(e)
        self.fit_height()
