"""The sessions panel over the scripted backend: order, search, rename, pin, delete."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QAbstractItemView, QInputDialog, QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.backends.base import AssistantTurn, UserTurn
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.sessions.panel import SessionsPanel, relative_time
from tests.helpers.fake_backend import ScriptedBackend


@pytest.fixture
def sessions(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, backend: ScriptedBackend
) -> SessionsPanel:
    backend.add_session("Old lab", [UserTurn("hello"), AssistantTurn("hi")], age=timedelta(days=3))
    backend.add_session(
        "OSPF area design", [UserTurn("configure ospf on R1")], age=timedelta(hours=2)
    )
    backend.add_session("Pinned notes", pinned=True, age=timedelta(days=30))
    backend.add_session("Newest", age=timedelta(minutes=5))
    panel = SessionsPanel(backend)
    qtbot.addWidget(panel)
    panel.resize(300, 400)
    panel.show()
    _refresh(qtbot, panel)
    return panel


def _refresh(qtbot: QtBot, panel: SessionsPanel) -> None:
    task = spawn(panel.refresh())
    qtbot.waitUntil(task.done)


def _titles(panel: SessionsPanel) -> list[str]:
    return [e.title for e in panel.entries]


def _select(panel: SessionsPanel, title: str) -> None:
    panel.list.setCurrentRow(_titles(panel).index(title))


def test_pinned_first_then_newest_with_relative_times(sessions: SessionsPanel) -> None:
    assert _titles(sessions) == ["Pinned notes", "Newest", "OSPF area design", "Old lab"]
    rows = [sessions.list.item(i).text() for i in range(sessions.list.count())]  # type: ignore[union-attr]
    assert rows[0].startswith("★ Pinned notes")
    assert rows[1] == "Newest\n5 min ago"
    assert rows[2] == "OSPF area design\n2 h ago"
    assert rows[3] == "Old lab\n3 days ago"


def test_search_matches_message_text_not_only_titles(qtbot: QtBot, sessions: SessionsPanel) -> None:
    qtbot.keyClicks(sessions.search_edit, "ospf on r1")
    qtbot.waitUntil(lambda: _titles(sessions) == ["OSPF area design"])
    assert sessions.entries[0].snippet == "configure ospf on R1"
    sessions.search_edit.clear()
    qtbot.waitUntil(lambda: len(sessions.entries) == 4)


def test_rename(qtbot: QtBot, sessions: SessionsPanel, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Lab 1 (renamed)", True))
    _select(sessions, "Old lab")
    sessions.rename_button.click()
    qtbot.waitUntil(lambda: "Lab 1 (renamed)" in _titles(sessions))
    assert "Old lab" not in _titles(sessions)


def _start_editing(qtbot: QtBot, panel: SessionsPanel, title: str, how: str) -> QLineEdit:
    _select(panel, title)
    row = _titles(panel).index(title)
    item = panel.list.item(row)
    assert item is not None
    if how == "F2":
        panel.list.setFocus()
        qtbot.keyClick(panel.list, Qt.Key.Key_F2)
    else:
        rect = panel.list.visualItemRect(item)
        # a real double-click: press and release, then the double-click on the same row
        qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    editing = QAbstractItemView.State.EditingState
    qtbot.waitUntil(lambda: panel.list.state() == editing, timeout=3000)
    editor = panel.list.indexWidget(panel.list.indexFromItem(item))
    assert isinstance(editor, QLineEdit)
    assert editor.text() == title  # the title alone, not the row's second line
    return editor


@pytest.mark.parametrize("how", ["F2", "double-click"])
def test_rename_in_place_enter_saves(qtbot: QtBot, sessions: SessionsPanel, how: str) -> None:
    editor = _start_editing(qtbot, sessions, "Old lab", how)
    editor.selectAll()
    qtbot.keyClicks(editor, "  Lab 1 (renamed) ")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Lab 1 (renamed)" in _titles(sessions), timeout=3000)
    assert "Old lab" not in _titles(sessions)
    assert sessions.list.state() != QAbstractItemView.State.EditingState


def test_rename_in_place_esc_cancels_and_empty_is_refused(
    qtbot: QtBot, sessions: SessionsPanel, backend: ScriptedBackend
) -> None:
    editor = _start_editing(qtbot, sessions, "Old lab", "F2")
    editor.selectAll()
    qtbot.keyClicks(editor, "Not this")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    idle = QAbstractItemView.State.NoState
    qtbot.waitUntil(lambda: sessions.list.state() == idle, timeout=3000)
    editor = _start_editing(qtbot, sessions, "Old lab", "F2")
    editor.selectAll()
    qtbot.keyClicks(editor, "   ")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: sessions.list.state() == idle, timeout=3000)
    _refresh(qtbot, sessions)  # what the backend holds now
    assert sorted(_titles(sessions)) == ["Newest", "OSPF area design", "Old lab", "Pinned notes"]


def test_pin_moves_the_session_on_top(qtbot: QtBot, sessions: SessionsPanel) -> None:
    _select(sessions, "Old lab")
    assert sessions.pin_button.text() == "Pin"
    sessions.pin_button.click()
    # both pinned now: newest first among them
    qtbot.waitUntil(lambda: _titles(sessions)[:2] == ["Old lab", "Pinned notes"])
    assert sessions.entries[0].pinned


@pytest.mark.parametrize("confirm", [True, False])
def test_delete_asks_first(
    qtbot: QtBot,
    sessions: SessionsPanel,
    backend: ScriptedBackend,
    monkeypatch: pytest.MonkeyPatch,
    confirm: bool,
) -> None:
    asked: list[str] = []

    def question(_parent: object, _title: str, text: str, *_a: object) -> object:
        asked.append(text)
        return QMessageBox.StandardButton.Yes if confirm else QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    _select(sessions, "Newest")
    deleted: list[str] = []
    sessions.session_deleted.connect(deleted.append)
    sessions.delete_button.click()
    assert asked and "Newest" in asked[0]
    if confirm:
        qtbot.waitUntil(lambda: "Newest" not in _titles(sessions))
        assert len(deleted) == 1 and deleted[0] not in backend.sessions
    else:
        qtbot.wait(50)
        assert "Newest" in _titles(sessions) and deleted == []


def test_new_session_is_created_and_selected(qtbot: QtBot, sessions: SessionsPanel) -> None:
    with qtbot.waitSignal(sessions.session_selected) as signal:
        sessions.new_button.click()
    sid = signal.args[0]  # type: ignore[index]
    assert sessions.current_session == sid
    assert any(e.session_id == sid for e in sessions.entries)


def test_relative_time() -> None:
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    assert relative_time(now - timedelta(seconds=5), now) == "just now"
    assert relative_time(now - timedelta(days=1, hours=1), now) == "yesterday"
    assert relative_time(now - timedelta(days=40), now).startswith("2026-03-")
