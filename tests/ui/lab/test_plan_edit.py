"""Edit plan: a plan_lab card's tables edited before approval. What is typed is parsed by the
spec's own model; an invalid edit keeps Approve off and says why in one plain line."""

from __future__ import annotations

from typing import Any

import pytest
from PyQt6.QtCore import QEvent, Qt
from PyQt6.QtWidgets import QApplication, QLabel, QTableWidgetItem
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.ui.backends.base import UserDecision
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard, ApprovalItem
from gns3_copilot_desktop.ui.lab.plan_editor import PlanEditor
from gns3_copilot_desktop.ui.lab.spec_table import SpecTable
from tests.tools.screenshots import plan_request


def _item(
    qtbot: QtBot, arguments: dict[str, Any] | None = None
) -> tuple[ApprovalCard, ApprovalItem]:
    request = plan_request()
    if arguments is not None:
        request = request.model_copy(update={"arguments": arguments})
    card = ApprovalCard([request])
    qtbot.addWidget(card)
    card.resize(360, 900)
    card.show()
    [item] = card.items
    return card, item


def _editor(
    qtbot: QtBot, arguments: dict[str, Any] | None = None
) -> tuple[ApprovalCard, ApprovalItem, PlanEditor]:
    card, item = _item(qtbot, arguments)
    item.edit_plan_button.click()
    assert item.plan_editor is not None
    return card, item, item.plan_editor


def _cell(table: SpecTable, row: int, path: tuple[str, ...]) -> QTableWidgetItem:
    cell = table.item(row, table.column_of(path))
    assert cell is not None
    return cell


def _column(table: SpecTable, path: tuple[str, ...]) -> list[str]:
    return [_cell(table, r, path).text() for r in range(table.rowCount())]


def test_a_plan_card_offers_edit_plan_not_the_json_form(qtbot: QtBot) -> None:
    _, item = _item(qtbot)
    assert item.edit_plan_button.isVisible() and not item.edit_button.isVisible()
    assert item.plan_editor is None  # built when first opened
    item.edit_plan_button.click()
    editor = item.plan_editor
    assert editor is not None and editor.isVisible()
    assert not item.plan_view.tables.isVisible()
    assert _column(editor.nodes, ("name",)) == ["SW2", "PC3", "PC4"]
    assert _column(editor.links, ("a", "node")) == ["SW1", "PC3", "PC4"]
    assert _column(editor.links, ("b", "port")) == ["any", "any", "any"]
    assert editor.subnets is not None and editor.addresses is not None
    assert item.approve.isEnabled() and not editor.error_label.isVisible()


def test_untouched_tables_approve_the_plan_as_proposed(qtbot: QtBot) -> None:
    _card, item, editor = _editor(qtbot)
    _cell(editor.nodes, 1, ("name",)).setText("PC3")  # typed again as it was
    editor.nodes.setCurrentCell(0, 0)
    assert item.edited_arguments() is None and not editor.is_changed
    with qtbot.waitSignal(item.decided):
        item.approve.click()
    assert item.decision() == UserDecision("plan1", "approve", arguments=None)
    assert "with your edits" not in item.result_label.text()


def test_renaming_a_node_renames_it_in_links_addresses_and_the_arguments(qtbot: QtBot) -> None:
    arguments = dict(plan_request().arguments, reach=[["PC3", "PC4"]])
    _card, item, editor = _editor(qtbot, arguments)
    _cell(editor.nodes, 1, ("name",)).setText("Host3")
    assert _column(editor.links, ("a", "node")) == ["SW1", "Host3", "PC4"]
    assert editor.addresses is not None
    assert _column(editor.addresses, ("node",)) == ["Host3", "PC4"]
    edited = item.edited_arguments()
    assert edited is not None
    spec = LabSpec.model_validate(edited)
    assert [n.name for n in spec.nodes] == ["SW2", "Host3", "PC4"]
    assert spec.links[1].a.node == "Host3" and spec.addresses[0].node == "Host3"
    assert spec.reach == [("Host3", "PC4")]
    # every field the tables do not show is kept, coordinates and subnets as written
    assert (spec.nodes[1].x, spec.nodes[1].y) == (140, 0)
    assert edited["subnets"] == arguments["subnets"]
    with qtbot.waitSignal(item.decided):
        item.approve.click()
    decision = item.decision()
    assert decision is not None and decision.arguments == edited
    assert "with your edits" in item.result_label.text()


def test_adding_a_link_and_removing_a_node(qtbot: QtBot) -> None:
    _card, item, editor = _editor(qtbot)
    editor.add_link()
    assert editor.links.rowCount() == 4
    assert not item.approve.isEnabled()  # its ends are still empty
    assert "Links, row 4" in editor.error_label.text()
    _cell(editor.links, 3, ("a", "node")).setText("PC1")
    _cell(editor.links, 3, ("b", "node")).setText("SW2")
    _cell(editor.links, 3, ("b", "port")).setText("Ethernet7")
    assert item.approve.isEnabled(), editor.error_label.text()
    # removing PC4 (new, not in the project) takes its link and address with it
    editor.nodes.setCurrentCell(2, 0)
    editor.remove_nodes()
    assert _column(editor.nodes, ("name",)) == ["SW2", "PC3"]
    assert _column(editor.links, ("a", "node")) == ["SW1", "PC3", "PC1"]
    assert editor.addresses is not None and _column(editor.addresses, ("node",)) == ["PC3"]
    assert item.approve.isEnabled(), editor.error_label.text()
    edited = item.edited_arguments()
    assert edited is not None
    spec = LabSpec.model_validate(edited)
    assert [n.name for n in spec.nodes] == ["SW2", "PC3"]
    assert (spec.links[-1].a.node, spec.links[-1].a.port) == ("PC1", "any")
    assert (spec.links[-1].b.node, spec.links[-1].b.port) == ("SW2", "Ethernet7")


def test_a_new_node_row_is_valid_and_removing_a_row_of_the_project_keeps_its_links(
    qtbot: QtBot,
) -> None:
    arguments = dict(plan_request().arguments)
    arguments["nodes"] = [{"name": "SW1", "template": "Ethernet switch"}, *arguments["nodes"]]
    _card, item, editor = _editor(qtbot, arguments)
    editor.add_node()
    assert _column(editor.nodes, ("name",))[-1] == "Node1"
    assert _cell(editor.nodes, 4, ("template",)).text() == "VPCS"
    assert item.approve.isEnabled(), editor.error_label.text()
    editor.nodes.setCurrentCell(0, 0)  # SW1 is in the project: its link stays valid
    editor.remove_nodes()
    assert _column(editor.links, ("a", "node")) == ["SW1", "PC3", "PC4"]
    assert item.approve.isEnabled(), editor.error_label.text()


@pytest.mark.parametrize(
    ("table", "path", "value", "said"),
    [
        ("nodes", ("name",), "PC 3", "Nodes, row 2, Name:"),
        ("nodes", ("name",), "PC'3", "characters a node name may not have"),
        ("nodes", ("x",), "left", "Nodes, row 2, X:"),
        ("links", ("b", "port"), 'e0"', "Links, row 2, Port B:"),
        ("links", ("subnet",), "lan9", "does not define"),
        ("subnets", ("prefix",), "198.51.100.0/33", "Subnets, row 1, Prefix:"),
        ("addresses", ("address",), "203.0.113.3/24", "not inside any subnet"),
    ],
)
def test_an_invalid_value_disables_approve_and_says_why(
    qtbot: QtBot, table: str, path: tuple[str, ...], value: str, said: str
) -> None:
    _card, item, editor = _editor(qtbot)
    row = 0 if table in ("subnets", "addresses") else 1
    _cell(editor.tables[table], row, path).setText(value)
    assert not item.approve.isEnabled()
    assert editor.error_label.isVisible() and said in editor.error_label.text()
    assert "\n" not in editor.error_label.text()
    assert item.edited_arguments() is None
    item._approve_clicked()  # Approve all reaches here too: nothing is decided
    assert item.decision() is None
    _cell(editor.tables[table], row, path).setText(value.replace(value, _fixed(table, path)))
    assert item.approve.isEnabled(), editor.error_label.text()


def _fixed(table: str, path: tuple[str, ...]) -> str:
    return {
        ("nodes", ("name",)): "PC3",
        ("nodes", ("x",)): "150",
        ("links", ("b", "port")): "any",
        ("links", ("subnet",)): "lan2",
        ("subnets", ("prefix",)): "198.51.100.0/24",
        ("addresses", ("address",)): "198.51.100.3/24",
    }[(table, path)]


def test_overlapping_subnets_are_refused(qtbot: QtBot) -> None:
    arguments = dict(plan_request().arguments)
    arguments["subnets"] = [
        {"name": "lan2", "prefix": "198.51.100.0/24"},
        {"name": "lan3", "prefix": "203.0.113.0/24"},
    ]
    _card, item, editor = _editor(qtbot, arguments)
    assert item.approve.isEnabled()
    assert editor.subnets is not None
    _cell(editor.subnets, 1, ("prefix",)).setText("198.51.100.128/25")
    assert not item.approve.isEnabled()
    assert "overlap" in editor.error_label.text()


@pytest.mark.parametrize("hostile", ["PC3\nreload", "<img src=x onerror=alert(1)>", "<b>R1</b>"])
def test_a_hostile_name_is_refused_and_stays_text(qtbot: QtBot, hostile: str) -> None:
    _card, item, editor = _editor(qtbot)
    _cell(editor.nodes, 1, ("name",)).setText(hostile)
    assert not item.approve.isEnabled()
    assert item.edited_arguments() is None
    label = editor.error_label
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert "\n" not in label.text()
    # a rename is propagated only to be refused as a whole: the links show the same text
    assert _column(editor.links, ("a", "node"))[1] == hostile
    for widget in item.findChildren(QLabel):
        if widget.textFormat() != Qt.TextFormat.PlainText:
            assert "<img" not in widget.text() and "<b>R1" not in widget.text()
    item._approve_clicked()
    assert item.decision() is None


def test_closing_the_editor_approves_the_plan_as_shown(qtbot: QtBot) -> None:
    _card, item, editor = _editor(qtbot)
    _cell(editor.nodes, 1, ("name",)).setText("PC 3")
    assert not item.approve.isEnabled()
    item.edit_plan_button.click()  # back to the plan as proposed
    assert item.approve.isEnabled() and not editor.isVisible()
    assert item.plan_view is not None and item.plan_view.tables.isVisible()
    assert item.edited_arguments() is None
    item.edit_plan_button.click()  # the edits are still there
    assert not item.approve.isEnabled() and _cell(editor.nodes, 1, ("name",)).text() == "PC 3"


def test_the_tables_fit_a_narrow_dock(qtbot: QtBot) -> None:
    _card, _, editor = _editor(qtbot)
    qtbot.wait(10)
    for table in editor.tables.values():
        assert table.width() <= 360
        rows = max(table.rowCount(), 1)
        assert (
            table.height()
            <= 3 * table.fontMetrics().height() + rows * (table.fontMetrics().height() + 6) + 40
        )


def test_arguments_as_the_agent_sends_them_round_trip(qtbot: QtBot) -> None:
    """The graph sends the parsed spec dumped (every default and None written out)."""
    dumped = LabSpec.model_validate(plan_request().arguments).model_dump(mode="json")
    dumped["reach"] = [["PC3", "PC4"]]
    dumped["remove"] = [{"node": "PC2", "peer": None}]
    _card, item, editor = _editor(qtbot, dumped)
    assert item.approve.isEnabled(), editor.error_label.text()
    assert item.edited_arguments() is None
    _cell(editor.nodes, 0, ("platform",)).setText("none")
    ospf = _cell(editor.nodes, 0, ("ospf",))
    ospf.setCheckState(Qt.CheckState.Checked)
    edited = item.edited_arguments()
    assert edited is not None
    assert edited["nodes"][0] == {
        "name": "SW2",
        "template": "Ethernet switch",
        "x": 240,
        "y": -160,
        "platform": "none",
        "ospf": True,
    }
    assert edited["remove"] == dumped["remove"] and edited["reach"] == dumped["reach"]
    assert LabSpec.model_validate(edited).nodes[1] == LabSpec.model_validate(dumped).nodes[1]


def _row_rects(card: ApprovalCard, editor: PlanEditor) -> list[tuple[int, int, int, int]]:
    """Where each table's first row sits on the card, once the pending layout has run."""
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)
    rects = []
    for table in editor.tables.values():
        viewport = table.viewport()
        assert viewport is not None
        rect = table.visualItemRect(table.item(0, 0))
        top_left = viewport.mapTo(card, rect.topLeft())
        rects.append((top_left.x(), top_left.y(), rect.width(), rect.height()))
    return rects


def test_the_problem_line_appearing_moves_no_row_and_keeps_the_card_s_height(
    qtbot: QtBot,
) -> None:
    card, item, editor = _editor(qtbot)
    before, height, hint = _row_rects(card, editor), editor.height(), card.sizeHint()
    assert not editor.error_label.isVisible()
    _cell(editor.nodes, 1, ("name",)).setText("PC 3")
    assert editor.error_label.isVisible() and not item.approve.isEnabled()
    assert _row_rects(card, editor) == before
    assert (editor.height(), card.sizeHint()) == (height, hint)
    # A problem longer than its two lines is cut there, and read whole in the tooltip.
    _cell(editor.links, 1, ("a", "node")).setText("PC3-" + "x" * 40)  # a node no one has
    shown = editor.error_label.text()
    assert shown.endswith("…") and len(shown) < len(editor.error_label.toolTip())
    assert editor.error_label.toolTip() == editor.problem
    metrics = editor.error_label.fontMetrics()
    assert editor.error_label.height() == 2 * metrics.lineSpacing()
    _cell(editor.nodes, 1, ("name",)).setText("PC3")
    _cell(editor.links, 1, ("a", "node")).setText("PC3")
    assert not editor.error_label.isVisible() and item.approve.isEnabled()
    assert _row_rects(card, editor) == before and editor.height() == height


def test_a_removed_node_comes_back_with_its_links_by_undo_and_ctrl_z(qtbot: QtBot) -> None:
    _card, item, editor = _editor(qtbot)
    assert not editor.undo_button.isEnabled()
    original = editor.spec()
    editor.nodes.setCurrentCell(2, 0)
    editor.remove_nodes()  # PC4 is new: its link and address go with it
    assert _column(editor.nodes, ("name",)) == ["SW2", "PC3"]
    assert len(editor.links.rows()) == 2
    editor.links.setCurrentCell(0, 0)
    editor._remove(editor.links)
    assert len(editor.links.rows()) == 1
    assert editor.undo_button.isEnabled()
    # Ctrl+Z where the focus is inside the editor puts back the last removal: the link
    editor.links.setFocus()
    qtbot.waitUntil(editor.links.hasFocus)
    qtbot.keyClick(editor.links, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(editor.links.rows()) == 2
    # Undo remove puts back the node with the link and the address it took along
    editor.undo_button.click()
    assert editor.spec() == original
    assert not editor.is_changed and item.edited_arguments() is None
    assert not editor.undo_button.isEnabled() and item.approve.isEnabled()
    editor.undo_button.click()  # nothing left to undo: nothing changes
    assert editor.spec() == original
