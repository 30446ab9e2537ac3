"""The approval card turns the user's choices into decisions."""

from __future__ import annotations

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QCheckBox, QLineEdit, QSpinBox
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.backend import UserDecision

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Node name"},
        "x": {"type": "integer"},
        "start": {"type": "boolean"},
        "console_type": {"enum": ["telnet", "vnc", "none"]},
    },
}


def _request(call_id: str = "c1", name: str = "create_node") -> ApprovalRequest:
    return ApprovalRequest(
        tool_call_id=call_id,
        tool_name=name,
        arguments={"name": "R1", "x": 10, "start": False, "console_type": "telnet"},
        summary="Create router R1",
        risk="change",
        arguments_schema=SCHEMA,
    )


def _card(
    qtbot: QtBot, *requests: ApprovalRequest
) -> tuple[ApprovalCard, list[list[UserDecision]]]:
    card = ApprovalCard(list(requests))
    qtbot.addWidget(card)
    card.show()
    got: list[list[UserDecision]] = []
    card.decided.connect(got.append)
    return card, got


def test_approve_without_edits(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    qtbot.mouseClick(card.submit_button, Qt.MouseButton.LeftButton)
    assert got == [[UserDecision("c1", "approve")]]
    card.submit()  # a second submit does nothing
    assert len(got) == 1
    assert not card.submit_button.isVisible()


def test_form_is_generated_from_the_schema_and_edits_are_returned(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    fields = {f.name: f.widget for f in card.items[0].fields}
    assert isinstance(fields["name"], QLineEdit) and isinstance(fields["x"], QSpinBox)
    assert isinstance(fields["start"], QCheckBox)
    fields["name"].clear()
    qtbot.keyClicks(fields["name"], "Core1")
    fields["x"].setValue(200)
    card.items[0].always.setChecked(True)
    card.submit()
    assert got == [
        [
            UserDecision(
                "c1",
                "approve",
                arguments={"name": "Core1", "x": 200, "start": False, "console_type": "telnet"},
                always_allow=True,
            )
        ]
    ]


def test_reject_with_a_reason(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    item = card.items[0]
    assert not item.reason.isEnabled()
    item.reject.setChecked(True)
    assert item.reason.isEnabled() and card.submit_button.text() == "Reject"
    qtbot.keyClicks(item.reason, "use the template instead")
    qtbot.mouseClick(card.submit_button, Qt.MouseButton.LeftButton)
    assert got == [[UserDecision("c1", "reject", reason="use the template instead")]]


def test_several_calls_are_decided_together(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request("c1"), _request("c2", "start_node"))
    card.items[1].reject.setChecked(True)
    card.submit()
    assert [(d.tool_call_id, d.action) for d in got[0]] == [("c1", "approve"), ("c2", "reject")]


def test_keyboard_reaches_the_decision(qtbot: QtBot) -> None:
    card, got = _card(qtbot, _request())
    card.focus_first()
    qtbot.waitUntil(card.submit_button.hasFocus)
    assert card.items[0].reject.focusPolicy() != Qt.FocusPolicy.NoFocus
    qtbot.keyClick(card.submit_button, Qt.Key.Key_Space)
    assert got and got[0][0].action == "approve"
