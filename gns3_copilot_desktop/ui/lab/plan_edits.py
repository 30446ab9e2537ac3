"""Editing a plan's tables row by row: a renamed node renamed wherever the plan names it, rows
added (a new node from the last row's template, a link to fill in) and removed, and a removed
node's links, addresses and pairs to reach removed with it."""

from __future__ import annotations

from typing import Any

from PyQt6.QtWidgets import (
    QTableWidgetItem,
    QWidget,
)

from gns3_copilot_desktop.ui.lab.spec_table import NAME_ROLE, SpecTable


class PlanRowEdits(QWidget):
    """The row edits of `PlanEditor` (which builds the tables and checks the plan they make)."""

    nodes: SpecTable
    links: SpecTable
    addresses: SpecTable | None
    reach: list[list[Any]]
    project_nodes: set[str]
    _busy: bool

    def _check(self) -> None:
        """Check the edited plan and show its problem (the editor's)."""
        raise NotImplementedError

    def _remember_rows(self) -> None:
        """Keep the rows for Undo remove (the editor's)."""
        raise NotImplementedError

    def _edited(self, *_: object) -> None:
        if not self._busy:
            self._check()

    def _node_renamed(self, item: QTableWidgetItem) -> None:
        if self._busy or item.column() != 0:
            return
        old, new = item.data(NAME_ROLE), item.text()
        if not isinstance(old, str) or not old or not new or old == new:
            return
        self._busy = True
        try:
            item.setData(NAME_ROLE, new)
            self._rename(old, new)
        finally:
            self._busy = False

    def _rename(self, old: str, new: str) -> None:
        """`old` is called `new` now wherever the spec refers to it."""
        key = old.casefold()
        refs: list[tuple[SpecTable, tuple[str, ...]]] = [
            (self.links, ("a", "node")),
            (self.links, ("b", "node")),
        ]
        if self.addresses is not None:
            refs.append((self.addresses, ("node",)))
        for table, path in refs:
            col = table.column_of(path)
            for row in range(table.rowCount()):
                cell = table.item(row, col)
                if cell is not None and cell.text().casefold() == key:
                    cell.setText(new)
        self.reach = [
            [new if isinstance(n, str) and n.casefold() == key else n for n in pair]
            for pair in self.reach
        ]

    def add_node(self) -> None:
        """A new node row, named NodeN, from the last row's template."""
        taken = {self.nodes.item(r, 0).text().casefold() for r in range(self.nodes.rowCount())}  # type: ignore[union-attr]
        taken |= {n.casefold() for n in self.project_nodes}
        number = next(i for i in range(1, 1000) if f"node{i}" not in taken)
        rows = self.nodes.rows()
        template = rows[-1].get("template", "") if rows else ""
        self._add(self.nodes, {"name": f"Node{number}", "template": template})

    def add_link(self) -> None:
        """A new link row: its ends to fill in, on any free port."""
        self._add(self.links, {"a": {"node": ""}, "b": {"node": ""}})

    def _add(self, table: SpecTable | None, row: dict[str, Any]) -> None:
        if table is None:
            return
        self._busy = True
        try:
            index = table.add_row(row)
        finally:
            self._busy = False
        self._check()
        table.setCurrentCell(index, 0)
        table.scrollToItem(table.item(index, 0))

    def _remove(self, table: SpecTable | None) -> None:
        if table is None or not table.selected_rows():
            return
        self._remember_rows()
        self._busy = True
        try:
            for row in table.selected_rows():
                table.removeRow(row)
            table.fit_height()
        finally:
            self._busy = False
        self._check()

    def remove_nodes(self) -> None:
        """Remove the selected node rows, and what needs them: the links, addresses and pairs
        to reach that name a node the project does not have either."""
        rows = self.nodes.selected_rows()
        if not rows:
            return
        self._remember_rows()
        gone = {
            self.nodes.item(r, 0).text().casefold()  # type: ignore[union-attr]
            for r in rows
        }
        self._busy = True
        try:
            for row in rows:
                self.nodes.removeRow(row)
            left = {n.get("name", "").casefold() for n in self.nodes.rows()}
            gone -= left | {n.casefold() for n in self.project_nodes}
            self._drop_references(gone)
            self.nodes.fit_height()
        finally:
            self._busy = False
        self._check()

    def _drop_references(self, gone: set[str]) -> None:
        refs: list[tuple[SpecTable, list[tuple[str, ...]]]] = [
            (self.links, [("a", "node"), ("b", "node")])
        ]
        if self.addresses is not None:
            refs.append((self.addresses, [("node",)]))
        for table, paths in refs:
            cols = [table.column_of(p) for p in paths]
            for row in reversed(range(table.rowCount())):
                names = {table.item(row, c).text().casefold() for c in cols}  # type: ignore[union-attr]
                if names & gone:
                    table.removeRow(row)
            table.fit_height()
        self.reach = [
            pair
            for pair in self.reach
            if not any(isinstance(n, str) and n.casefold() in gone for n in pair)
        ]
