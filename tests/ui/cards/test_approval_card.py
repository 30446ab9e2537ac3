"""The approval card: what is about to happen, readable; one decision per call."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtGui import QTextDocument
from PyQt6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QPushButton, QSpinBox
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.agent.approval import CallPreview
from gns3_copilot_desktop.core.agent.tools.change_tools import CreateNodesArgs, DeleteNodesArgs
from gns3_copilot_desktop.core.agent.tools.device_tools import ConfigureDevicesArgs
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.backends.base import UserDecision
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.qt_async import pending_tasks

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Node name"},
        "x": {"type": "integer"},
        "count": {"type": "integer"},
    },
}


def _request(call_id: str = "c1", summary: str = "create router R1") -> ApprovalRequest:
    return ApprovalRequest(
        tool_call_id=call_id,
        tool_name="create_node",
        arguments={"name": "R1", "x": 10, "count": 1},
        summary=summary,
        risk="change",
        arguments_schema=SCHEMA,
    )


def _push() -> ApprovalRequest:
    return ApprovalRequest(
        tool_call_id="c_push",
        tool_name="configure_devices",
        arguments={
            "devices": [
                {"node": "R1", "lines": ["interface Gi0/0", " ip address 10.0.0.1 255.0.0.0"]},
                {"node": "R2", "lines": ["router ospf 1"]},
            ],
            "timeout_s": 30,
            "credential": None,
        },
        summary="configure R1, R2",
        risk="device-config",
        arguments_schema=ConfigureDevicesArgs.model_json_schema(),
        destructive=True,
    )


def _delete() -> ApprovalRequest:
    return ApprovalRequest(
        tool_call_id="c_del",
        tool_name="delete_nodes",
        arguments={"nodes": ["R3", "SW1"]},
        summary="delete R3, SW1 with their links",
        risk="change",
        arguments_schema=DeleteNodesArgs.model_json_schema(),
        destructive=True,
        consequence="deletes R3 and its 3 links; SW1 (no links)",
    )


def _card(
    qtbot: QtBot, *requests: ApprovalRequest, width: int = 420
) -> tuple[ApprovalCard, list[list[UserDecision]]]:
    card = ApprovalCard(list(requests))
    qtbot.addWidget(card)
    card.resize(width, 600)
    card.show()
    got: list[list[UserDecision]] = []
    card.decided.connect(got.append)
    return card, got


class EchoPreviews:
    """The card's previewer for these widget tests: answers with the request as edited (its
    summary naming the arguments), at once or when the test opens that answer's gate. The real
    previewer, the backend reading the lab, is proven in test_approval_card_live.py."""

    def __init__(self, hold: bool = False) -> None:
        self.asked: list[dict[str, Any]] = []
        self.gates: list[asyncio.Event] = []
        self.hold = hold

    async def __call__(self, pending: ApprovalRequest, arguments: dict[str, Any]) -> CallPreview:
        self.asked.append(arguments)
        gate = asyncio.Event()
        self.gates.append(gate)
        if not self.hold:
            gate.set()
        await gate.wait()
        summary = f"{pending.tool_name} {arguments}"
        return CallPreview(
            request=pending.model_copy(update={"arguments": arguments, "summary": summary})
        )


def _visible_texts(card: ApprovalCard) -> str:
    """What a person reads on the card (rich text as it is displayed)."""
    shown = []
    for label in card.findChildren(QLabel):
        if label.isVisibleTo(card) and label.text():
            document = QTextDocument()
            document.setHtml(label.text())
            shown.append(document.toPlainText())
    return "\n".join(shown)


def _visible_buttons(card: ApprovalCard) -> list[QPushButton]:
    return [b for b in card.findChildren(QPushButton) if b.isVisibleTo(card)]


def test_approve_collapses_the_card_to_one_line(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    qtbot.mouseClick(card.items[0].approve, Qt.MouseButton.LeftButton)
    assert got == [[UserDecision("c1", "approve")]]
    assert card.done and _visible_buttons(card) == []
    assert (
        card.result_label.isVisible() and "Approved: create router R1" in card.result_label.text()
    )
    card.items[0].decide(UserDecision("c1", "reject"))  # a second decision does nothing
    assert len(got) == 1


@pytest.mark.usefixtures("qasync_loop")
def test_edits_from_the_form_are_returned(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    item = card.items[0]
    item.set_previewer(EchoPreviews())
    assert not item.form_widget.isVisible()
    item.edit_button.click()
    fields = {f.name: f.widget for f in item.fields}
    assert isinstance(fields["name"], QLineEdit) and isinstance(fields["x"], QSpinBox)
    fields["name"].clear()
    qtbot.keyClicks(fields["name"], "Core1")
    item.always.setChecked(True)
    assert not item.approve.isEnabled()  # not before the edit is checked
    item.approve.click()
    assert got == []
    qtbot.waitUntil(item.approve.isEnabled, timeout=5000)
    assert "Core1" in item.title.text()  # the title is the edited call's
    item.approve.click()
    assert got == [
        [
            UserDecision(
                "c1", "approve", arguments={"name": "Core1", "x": 10, "count": 1}, always_allow=True
            )
        ]
    ]
    assert "with your edits" in card.result_label.text()


def test_reject_asks_for_an_optional_reason_inline(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    item = card.items[0]
    assert not item.reason_row.isVisible()
    item.reject.click()
    assert item.reason_row.isVisible() and not item.approve.isEnabled() and got == []
    qtbot.keyClicks(item.reason, "use the template instead")
    qtbot.keyClick(item.reason, Qt.Key.Key_Return)
    assert got == [[UserDecision("c1", "reject", reason="use the template instead")]]
    assert "use the template instead" in card.result_label.text()


def test_reject_can_be_taken_back_before_it_is_confirmed(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    item = card.items[0]
    item.reject.click()
    item.cancel_reject_button.click()
    assert not item.reason_row.isVisible() and item.approve.isEnabled() and got == []
    item.approve.click()
    assert got[0][0].action == "approve"


def test_a_batch_is_decided_call_by_call_and_sent_once(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request("c1"), _request("c2", "create R2"), _delete())
    assert card.approve_all_button.isVisible() and card.reject_all_button.isVisible()
    card.items[1].reject.click()
    card.items[1].confirm_reject_button.click()
    assert got == [] and card.items[1].result_label.isVisible()  # collapsed, card still open
    card.items[0].approve.click()
    assert got == []
    card.reject_all()  # decides only what is left
    assert [(d.tool_call_id, d.action) for d in got[0]] == [
        ("c1", "approve"),
        ("c2", "reject"),
        ("c_del", "reject"),
    ]
    assert "1 approved, 2 rejected" in card.result_label.text()


def test_approve_all_decides_every_call(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request("c1"), _request("c2", "create R2"))
    card.approve_all_button.click()
    assert [d.action for d in got[0]] == ["approve", "approve"]


@pytest.mark.usefixtures("qasync_loop")
def test_a_configuration_push_is_readable_and_editable_per_device(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _push())
    item = card.items[0]
    item.set_previewer(EchoPreviews())
    blocks = [b for b in card.findChildren(QPlainTextEdit) if b.isVisibleTo(card)]
    assert [b.toPlainText() for b in blocks] == [
        "interface Gi0/0\n ip address 10.0.0.1 255.0.0.0",
        "router ospf 1",
    ]
    assert all(b.font().fixedPitch() or b.objectName() == "codeBlock" for b in blocks)
    assert blocks[0].lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
    shown = _visible_texts(card)
    assert "{" not in shown and '"' not in shown  # no raw JSON for what a person reads
    # internals are folded under Details
    assert "timeout" not in shown and not item.details_label.isVisible()
    item.details_button.click()
    assert "timeout (s)</b>: 30" in item.details_label.text() and item.details_label.isVisible()
    assert "None" not in item.details_label.text()
    # editing a block as text is what runs
    blocks[1].setPlainText("router ospf 1\n network 10.0.0.0 0.255.255.255 area 0\n\n")
    qtbot.waitUntil(item.approve.isEnabled, timeout=5000)
    item.approve.click()
    [decision] = got[0]
    assert decision.arguments is not None
    assert decision.arguments["devices"][1]["lines"] == [
        "router ospf 1",
        " network 10.0.0.0 0.255.255.255 area 0",
    ]
    assert decision.arguments["devices"][0] == _push().arguments["devices"][0]
    assert decision.arguments["timeout_s"] == 30


def test_destructive_calls_are_red_say_what_goes_and_are_never_default(qtbot: QtBot) -> None:
    card, _ = _card(qtbot, _request(), _delete())
    calm, destructive = card.items
    assert calm.risk_label.objectName() == "muted" and calm.approve.objectName() == ""
    assert destructive.risk_label.objectName() == "riskDestructive"
    assert destructive.objectName() == "approvalItemDestructive"
    assert destructive.approve.objectName() == "approveDestructive"
    assert destructive.consequence_label.text() == "deletes R3 and its 3 links; SW1 (no links)"
    assert destructive.consequence_label.isVisible() and not calm.consequence_label.isVisible()
    assert (
        "R3" in destructive.arguments_label.text() and "SW1" in destructive.arguments_label.text()
    )
    for button in card.findChildren(QPushButton):
        assert not button.isDefault() and not button.autoDefault()


def test_lock_removes_every_button_and_says_why(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request("c1"), _delete())
    card.items[0].approve.click()
    assert card.lock("Not run: you sent a new message")
    assert card.locked and card.done and _visible_buttons(card) == []
    assert card.result_label.text() == "Not run: you sent a new message"
    card.reject_all()
    assert got == []  # a locked card decides nothing
    assert not card.lock("again")


def test_keyboard_reaches_each_decision_and_typing_elsewhere_decides_nothing(
    qtbot: QtBot,
) -> None:
    composer = QLineEdit()
    qtbot.addWidget(composer)
    composer.show()
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    card, got = _card(qtbot, _request())
    card.focus_first()  # the card does not take the focus from a text box being typed in
    assert composer.hasFocus()
    qtbot.keyClicks(composer, "yes ")
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    qtbot.keyClick(composer, Qt.Key.Key_Space)
    assert got == [] and not card.done

    card.activateWindow()
    card.setFocus()
    qtbot.waitUntil(card.hasFocus)
    reached = []
    for _ in range(8):
        qtbot.keyClick(card.focusWidget() or card, Qt.Key.Key_Tab)
        reached.append(card.focusWidget())
    item = card.items[0]
    assert item.approve in reached and item.reject in reached
    assert got == []  # moving around decides nothing
    item.approve.setFocus()
    qtbot.keyClick(item.approve, Qt.Key.Key_Space)
    assert got and got[0][0].action == "approve"


def test_a_narrow_dock_keeps_the_card_inside_it(qtbot: QtBot) -> None:
    request = ApprovalRequest(
        tool_call_id="c_new",
        tool_name="create_nodes",
        arguments={"nodes": [{"template": "c7200", "name": "R4", "x": None, "y": None}]},
        summary="create R4 (c7200)",
        risk="change",
        arguments_schema=CreateNodesArgs.model_json_schema(),
    )
    card, _ = _card(qtbot, request, _push(), _delete(), width=340)
    assert card.minimumSizeHint().width() <= 340
    assert "template" in card.items[0].arguments_label.text()
    assert "null" not in _visible_texts(card)


def test_the_push_is_shown_against_the_running_configuration_as_plain_text(
    qtbot: QtBot,
) -> None:
    hostile = "== R1 (show running-config) ==\n+ <b>banner</b> <img src=x>\n  hostname R1"
    request = _push().model_copy(update={"diff": hostile, "consequence": "R1: 1 new line(s)"})
    card, _ = _card(qtbot, request)
    view = card.items[0].diff_view
    assert view is not None and view.isReadOnly() and view.isVisibleTo(card)
    assert view.toPlainText() == hostile  # shown as the device printed it, never as markup
    blocks = [b for b in card.findChildren(QPlainTextEdit) if not b.isReadOnly()]
    assert len(blocks) == 2  # the editable lines stay what runs; the diff is only shown


@pytest.mark.usefixtures("qasync_loop")
def test_edits_are_checked_once_typing_pauses_and_a_stale_answer_is_dropped(
    qtbot: QtBot,
) -> None:
    card, got = _card(qtbot, _delete())
    item = card.items[0]
    previews = EchoPreviews(hold=True)  # answers wait until the test opens their gate
    item.set_previewer(previews)
    item.edit_button.click()
    [nodes] = [f.widget for f in item.fields if f.name == "nodes"]
    assert isinstance(nodes, QLineEdit)
    for name in "R9", "R1", "R10":  # typed quickly: one check, for the text typing paused on
        nodes.setText(f'["R3", "SW1", "{name}"]')
    qtbot.waitUntil(lambda: len(previews.asked) == 1, timeout=5000)
    assert previews.asked == [{"nodes": ["R3", "SW1", "R10"]}]
    nodes.setText('["R3", "SW1", "R11"]')  # typed while the first answer is on its way
    qtbot.waitUntil(lambda: len(previews.asked) == 2, timeout=5000)
    assert not item.approve.isEnabled()
    previews.gates[1].set()  # the newest answer first...
    qtbot.waitUntil(item.approve.isEnabled, timeout=5000)
    assert "R11" in item.title.text()
    previews.gates[0].set()  # ...then the older one arrives: it changes nothing
    qtbot.waitUntil(
        lambda: not [t for t in pending_tasks() if t.get_name() == "preview-edits"], timeout=5000
    )
    assert "R11" in item.title.text() and "R10" not in item.title.text()
    assert item.approve.isEnabled()
    item.approve.click()
    assert got[0][0].arguments == {"nodes": ["R3", "SW1", "R11"]}


@pytest.mark.usefixtures("qasync_loop")
def test_a_refused_edit_keeps_approve_off_and_says_why_as_plain_text(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _delete())
    item = card.items[0]

    async def refuse(pending: ApprovalRequest, arguments: dict[str, Any]) -> CallPreview:
        return CallPreview(problem="No node is named <b>R9</b>.")

    item.set_previewer(refuse)
    item.edit_button.click()
    [nodes] = [f.widget for f in item.fields if f.name == "nodes"]
    assert isinstance(nodes, QLineEdit)
    nodes.setText('["R9"]')
    qtbot.waitUntil(lambda: "R9" in item.edit_status.text(), timeout=5000)
    assert item.edit_status.textFormat() == Qt.TextFormat.PlainText
    assert "Not possible as edited" in item.edit_status.text()
    assert not item.approve.isEnabled()
    item._approve_clicked()
    assert got == []
    nodes.setText('["R3", "SW1"]')  # back to the proposal: nothing to check
    assert item.approve.isEnabled() and not item.edit_status.isVisible()
    item.approve.click()
    assert got[0][0].arguments is None


def test_a_card_that_cannot_check_edits_offers_the_call_only_as_proposed(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _push())
    item = card.items[0]  # no previewer: a copilot service on another computer, say
    block = next(iter(item.text_blocks.values()))
    block.setPlainText("interface Gi0/0\n ip address 10.9.9.9 255.0.0.0")
    assert block.isReadOnly() and block.toPlainText().endswith("10.0.0.1 255.0.0.0")
    assert "Approve the call as shown or Reject it" in item.edit_status.text()
    assert item.approve.isEnabled() and not item.edit_button.isVisible()
    item.approve.click()
    assert got[0][0].arguments is None
