"""The chat's keyboard: shortcuts approve, reject, start and search sessions, return to the
message box and show their list; Shift+Tab from the message box reaches the waiting card; every
button and field on a card has a name a screen reader says; renaming updates the header."""

from __future__ import annotations

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QLineEdit,
    QPlainTextEdit,
)
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.agent.tools.change_tools import DeleteNodesArgs
from gns3_copilot_desktop.core.agent.tools.device_tools import ConfigureDevicesArgs
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from tests.helpers.fake_backend import ScriptedBackend, approval, content, done


def _delete(call_id: str = "c1", node: str = "R3") -> ApprovalRequest:
    return ApprovalRequest(
        tool_call_id=call_id,
        tool_name="delete_nodes",
        arguments={"nodes": [node]},
        summary=f"delete {node} with its links",
        risk="change",
        arguments_schema=DeleteNodesArgs.model_json_schema(),
        destructive=True,
    )


def _push() -> ApprovalRequest:
    return ApprovalRequest(
        tool_call_id="c2",
        tool_name="configure_devices",
        arguments={"devices": [{"node": "PC1", "lines": ["ip 10.0.0.1/24"]}]},
        summary="configure PC1: ip 10.0.0.1/24",
        risk="device-config",
        arguments_schema=ConfigureDevicesArgs.model_json_schema(),
    )


def _waiting_card(qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend) -> ApprovalCard:
    backend.add_turn(content("Deleting."), approval(_delete(), _push()), done())
    backend.add_turn(content("Done."), done())
    panel.composer.edit.setPlainText("delete R3")
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.view.open_approval is not None and not panel.composer.running)
    card = panel.view.open_approval
    assert card is not None
    # The card is put on screen by a later pass of the event loop; focus skips hidden widgets.
    qtbot.waitUntil(lambda: all(item.approve.isVisible() for item in card.items))
    panel.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is panel.window())
    panel.composer.edit.setFocus()
    qtbot.waitUntil(lambda: panel.composer.edit.hasFocus())
    return card


def test_ctrl_enter_approves_the_first_waiting_call_from_the_message_box(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    card = _waiting_card(qtbot, panel, backend)
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert card.items[0].choice is not None and card.items[0].choice.action == "approve"
    assert card.items[1].choice is None  # one press, one call
    assert [text for text, _ in backend.sent] == ["delete R3"]  # Ctrl+Enter sent nothing
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(backend.decisions) == 1)
    assert [d.action for d in backend.decisions[0]] == ["approve", "approve"]


def test_ctrl_shift_backspace_asks_why_and_enter_rejects(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    card = _waiting_card(qtbot, panel, backend)
    modifiers = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_Backspace, modifiers)
    item = card.items[0]
    assert not item.reason_row.isHidden() and QApplication.focusWidget() is item.reason
    qtbot.keyClicks(item.reason, "keep R3")
    qtbot.keyClick(item.reason, Qt.Key.Key_Return)
    assert item.choice is not None and item.choice.action == "reject"
    assert item.choice.reason == "keep R3"


def test_shift_tab_from_the_message_box_reaches_approve_within_two_presses(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    card = _waiting_card(qtbot, panel, backend)
    reached = []
    for _ in range(2):
        focused = QApplication.focusWidget()
        assert focused is not None
        qtbot.keyClick(focused, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        reached.append(QApplication.focusWidget())
    assert card.items[0].approve in reached


def test_ctrl_n_ctrl_f_ctrl_l_and_f1(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    before = len(backend.sessions)
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(backend.sessions) == before + 1 and panel.session_id is not None)
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert panel.sessions.isVisible() and panel.sessions.search_edit.hasFocus()
    qtbot.keyClick(panel.sessions.search_edit, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert panel.composer.edit.hasFocus()
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_F1)
    assert panel.help_overlay.isVisible()
    shown = panel.help_overlay.table.text()
    for keys in ("Ctrl+Return", "Ctrl+Shift+Backspace", "Ctrl+N", "Ctrl+F", "Ctrl+L"):
        assert keys in shown
    qtbot.keyClick(panel.help_overlay, Qt.Key.Key_Escape)
    assert not panel.help_overlay.isVisible()


def test_the_shortcuts_are_in_the_tooltips(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    card = _waiting_card(qtbot, panel, backend)
    assert "Ctrl+Return" in card.items[0].approve.toolTip()
    assert "Ctrl+Shift+Backspace" in card.items[0].reject.toolTip()
    assert "Ctrl+N" in panel.sessions.new_button.toolTip()
    assert "Ctrl+F" in panel.sessions_toggle.toolTip()


def test_every_button_and_field_on_a_card_has_an_accessible_name(qtbot: QtBot) -> None:
    card = ApprovalCard([_delete(), _push()])
    qtbot.addWidget(card)
    for item in card.items:
        item.edit_button.setChecked(True)  # the edit form's fields too
    controls = [
        *card.findChildren(QAbstractButton),
        *card.findChildren(QLineEdit),
        *card.findChildren(QPlainTextEdit),
        *card.findChildren(QAbstractSpinBox),
    ]
    assert len(controls) > 10
    unnamed = [
        f"{type(w).__name__} {w.objectName()!r}"
        for w in controls
        if not w.accessibleName()
        and w.parentWidget() is not None
        # the spin box's own inner line edit is named through the spin box
        and not isinstance(w.parentWidget(), QAbstractSpinBox)
    ]
    assert unnamed == []


def test_renaming_the_open_session_updates_the_header(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: panel.session_id is not None)
    session_id = panel.session_id
    assert session_id is not None
    panel.sessions._title_edited(session_id, "OSPF lab")
    qtbot.waitUntil(lambda: panel.title_label.text() == "OSPF lab")
