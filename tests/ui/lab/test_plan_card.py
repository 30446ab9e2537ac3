"""A plan_lab approval shows the plan as a drawing and tables (the core's own diff of a project),
not the spec's raw arguments; hostile names in the stored plan stay text."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from tests.tools.screenshots import plan_request


def test_the_plan_card_draws_the_plan_and_lists_its_tables(qtbot: QtBot) -> None:
    request = plan_request()
    card = ApprovalCard([request])
    qtbot.addWidget(card)
    [item] = card.items
    assert item.plan_view is not None
    drawing = item.plan_view.drawing
    states = {n.name: n.state for n in drawing.picture.nodes}
    assert states == {
        "SW1": "unchanged",
        "PC1": "unchanged",
        "PC2": "unchanged",
        "SW2": "new",
        "PC3": "new",
        "PC4": "new",
    }
    tables = item.plan_view.tables.text()
    for text in ("SW2", "198.51.100.3/24", "ip 198.51.100.3/24", "SW1 Ethernet0 – SW2 Ethernet0"):
        assert text in tables
    assert not item.arguments_label.isVisible() and "subnets" not in item.arguments_label.text()


def test_hostile_names_in_a_stored_plan_stay_text(qtbot: QtBot) -> None:
    request = plan_request()
    assert request.plan is not None
    plan = dict(request.plan)
    plan["nodes"] = [{"name": "<img src=x onerror=1>", "template": "<b>VPCS</b>", "state": "x"}]
    plan["configs"] = {"<i>PC</i>": ["<script>", 7, None]}
    card = ApprovalCard([request.model_copy(update={"plan": plan})])
    qtbot.addWidget(card)
    tables = card.items[0].plan_view.tables.text()  # type: ignore[union-attr]
    assert "<img" not in tables and "&lt;img src=x onerror=1&gt;" in tables
    assert "<script>" not in tables and "&lt;b&gt;VPCS&lt;/b&gt;" in tables
