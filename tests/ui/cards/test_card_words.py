"""The cards speak a network engineer's language: every tool has a human name (English and
Chinese), titles never show a tool id, JSON or ``key=value``, plurals agree, and red is kept for
what destroys."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from PyQt6.QtCore import QTranslator
from PyQt6.QtWidgets import QApplication, QCheckBox, QLabel
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.app import install_translator, remove_translator
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard, ToolState

# One call of every registered tool as a model would send it (a complete call), and as the card
# first sees it while the arguments still stream in (a part of them).
EXAMPLES: dict[str, dict[str, Any]] = {
    "list_templates": {"query": "switch"},
    "get_node_details": {"nodes": ["Switch1"]},
    "get_links": {"node": "Switch1"},
    "get_template_details": {"templates": ["VPCS"]},
    "create_nodes": {"nodes": [{"template": "VPCS", "name": "PC1"}]},
    "update_nodes": {"changes": [{"node": "PC1", "new_name": "Client1"}]},
    "delete_nodes": {"nodes": ["Switch1"]},
    "create_links": {"links": [{"node_a": "PC1", "node_b": "Switch1"}]},
    "delete_links": {"links": [{"node_a": "PC1", "node_b": "Switch1"}]},
    "plan_lab": {"nodes": [{"name": "SW2", "template": "Ethernet switch"}], "links": []},
    "start_nodes": {"nodes": ["PC1"]},
    "stop_nodes": {"nodes": ["PC1"]},
    "suspend_nodes": {"nodes": ["PC1"]},
    "reload_nodes": {"nodes": ["PC1"]},
    "create_snapshot": {"name": "before OSPF"},
    "restore_snapshot": {"name": "before OSPF"},
    "add_note": {"text": "Lab 1: OSPF area 0"},
    "start_capture": {"link": {"node_a": "PC1", "node_b": "Switch1"}},
    "stop_capture": {"link": {"node_a": "PC1", "node_b": "Switch1"}},
    "summarize_capture": {"link": {"node_a": "PC1", "node_b": "Switch1"}},
    "run_device_commands": {"devices": [{"node": "PC1", "commands": ["show ip"]}]},
    "configure_devices": {"devices": [{"node": "PC1", "lines": ["ip 10.0.0.1/24"]}]},
}
PARTIAL: dict[str, dict[str, Any]] = {
    "plan_lab": {"nodes": [{"name": "SW2", "template": "Ethernet switch", "x": 10}]},
    "delete_nodes": {"nodes": ["Switch1"], "force": None},
    "configure_devices": {"devices": [{"node": "PC1"}]},
}
TOOL_ID = re.compile(r"[a-z]+_[a-z_]+")


def _bad_title(text: str) -> list[str]:
    return [*TOOL_ID.findall(text), *(c for c in "{[=" if c in text)]


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[QTranslator]:
    translator = install_translator(qapp, "zh_CN")
    assert translator is not None
    try:
        yield translator
    finally:
        remove_translator(qapp, translator)


def _request(name: str, arguments: dict[str, Any]) -> ApprovalRequest:
    registry = network_registry()
    tool = registry.get(name)
    assert tool is not None
    args = tool.args_schema.model_validate(arguments)
    return ApprovalRequest(
        tool_call_id=f"c-{name}",
        tool_name=name,
        arguments=args.model_dump(mode="json"),
        summary=tool.summary(args),
        risk=tool.risk_for(args),
        arguments_schema=tool.args_schema.model_json_schema(),
        destructive=tool.is_destructive(args),
    )


def _check_every_tool(qtbot: QtBot) -> None:
    registry = network_registry()
    for name in registry.names():
        arguments = EXAMPLES.get(name, {})
        for args in (arguments, PARTIAL.get(name, arguments)):
            for state in (ToolState.QUEUED, ToolState.AWAITING_APPROVAL, ToolState.DONE):
                card = ToolCard(f"c-{name}", name, args, "", state)
                qtbot.addWidget(card)
                for text in (card.title_label.text(), card.accessibleName()):
                    assert _bad_title(text) == [], f"{name}: {text!r}"
                assert card.display_name != name
        if registry.get(name).risk == "read":  # type: ignore[union-attr]
            continue
        approval = ApprovalCard([_request(name, arguments)])
        qtbot.addWidget(approval)
        item = approval.items[0]
        for text in (
            item.title.text(),
            item.risk_label.text(),
            item.always.text(),
            approval.heading.text(),
        ):
            assert _bad_title(text.replace("<b>", "").replace("</b>", "")) == [], (
                f"{name}: {text!r}"
            )
        assert "assistant" not in approval.heading.text().lower()


def test_every_tool_has_a_human_title_in_english(qtbot: QtBot) -> None:
    _check_every_tool(qtbot)
    card = ToolCard("c1", "delete_nodes", {"nodes": ["Switch1"]}, "", ToolState.QUEUED)
    qtbot.addWidget(card)
    assert card.title_label.text() == "Delete nodes · delete Switch1 with its links"
    plan = ToolCard("c2", "plan_lab", PARTIAL["plan_lab"], "", ToolState.QUEUED)
    qtbot.addWidget(plan)
    assert plan.title_label.text() == "Lab plan · plan a lab of 1 node and 0 links"


def test_every_tool_has_a_human_title_in_chinese(qtbot: QtBot, chinese: QTranslator) -> None:
    _check_every_tool(qtbot)
    approval = ApprovalCard([_request("configure_devices", EXAMPLES["configure_devices"])])
    qtbot.addWidget(approval)
    assert approval.items[0].always.text() == "在此项目中始终允许“配置设备”"


def test_every_registered_tool_has_a_translated_display_name(chinese: QTranslator) -> None:
    from gns3_copilot_desktop.ui.core_text import tool_display_name

    for name, english in network_registry().display_names().items():
        assert english and english != name and "_" not in english, name
        chinese_name = tool_display_name(name)
        assert chinese_name != english and re.search(r"[\u4e00-\u9fff]", chinese_name), name


def test_plurals_agree() -> None:
    registry = network_registry()
    assert registry.call_summary("delete_nodes", {"nodes": ["Switch1"]}) == (
        "delete Switch1 with its links"
    )
    assert registry.call_summary("delete_nodes", {"nodes": ["PC3", "PC4"]}) == (
        "delete PC3, PC4 with their links"
    )
    two = [{"name": "A", "template": "VPCS"}, {"name": "B", "template": "VPCS"}]
    assert registry.call_summary("plan_lab", {"nodes": two, "links": []}) == (
        "plan a lab of 2 nodes and 0 links"
    )
    assert registry.call_summary(
        "plan_lab", {"nodes": [{"name": "A", "template": "VPCS"}], "links": []}
    ) == ("plan a lab of 1 node and 0 links")


def test_a_vpcs_address_push_is_not_marked_destructive(qtbot: QtBot) -> None:
    address = _request("configure_devices", EXAMPLES["configure_devices"])
    assert not address.destructive
    card = ApprovalCard([address])
    qtbot.addWidget(card)
    item = card.items[0]
    assert item.objectName() == "approvalItem"
    assert item.approve.objectName() != "approveDestructive"
    assert item.risk_label.objectName() == "muted"
    assert "<b>" not in item.title.text()
    # a line that removes something is red
    removal = _request("configure_devices", {"devices": [{"node": "R1", "lines": ["no ip route"]}]})
    assert removal.destructive
    red = ApprovalCard([removal])
    qtbot.addWidget(red)
    assert red.items[0].objectName() == "approvalItemDestructive"


def test_a_delete_card_lists_the_links_that_go(qtbot: QtBot, chinese: QTranslator) -> None:
    request = _request("delete_nodes", {"nodes": ["Switch1"]}).model_copy(
        update={
            "consequence": "Switch1 goes with its 2 links:\n"
            "  Switch1 Ethernet0 <-> PC1 Ethernet0\n"
            "  Switch1 Ethernet1 <-> PC2 Ethernet0\n"
            "Switch1 is running now"
        }
    )
    card = ApprovalCard([request])
    qtbot.addWidget(card)
    text = card.items[0].consequence_label.text()
    assert text.split("\n") == [
        "Switch1 及其 2 条链路将被删除：",
        "  Switch1 Ethernet0 <-> PC1 Ethernet0",
        "  Switch1 Ethernet1 <-> PC2 Ethernet0",
        "Switch1 正在运行",
    ]
    assert card.items[0].title.text() == "<b>删除 Switch1 及其链路？</b>"
    assert not any(
        isinstance(w, QLabel | QCheckBox) and "delete_nodes" in w.text()
        for w in card.findChildren(QLabel) + card.findChildren(QCheckBox)
    )
