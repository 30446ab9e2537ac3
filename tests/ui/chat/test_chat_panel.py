"""The chat panel end to end over the scripted backend: stream, send keys, stop, errors, titles."""

from __future__ import annotations

import asyncio

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QComboBox,
    QLabel,
    QLineEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import ChatChunk, TokenUsage
from gns3_copilot_desktop.ui.cards.tool_card import ToolState
from gns3_copilot_desktop.ui.chat.messages import ErrorBanner
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from tests.helpers.fake_backend import ScriptedBackend, content, done, error, tool_end, tool_start


def _visible_text(panel: ChatPanel) -> str:
    labels = panel.view.widget().findChildren(QLabel)  # type: ignore[union-attr]
    return "\n".join(label.text() for label in labels if label.isVisibleTo(panel))


def _send(qtbot: QtBot, panel: ChatPanel, text: str) -> None:
    panel.composer.edit.setFocus()
    qtbot.keyClicks(panel.composer.edit, text)
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_Return)


def _wait_idle(qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend, streams: int = 1) -> None:
    qtbot.waitUntil(lambda: backend.streams_closed == streams and not panel.composer.running)


def test_content_streams_into_the_view_with_batched_repaints(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    tokens = [content(f"w{i} ") for i in range(2000)]
    backend.add_turn(*tokens[:1000], 0.05, *tokens[1000:], done())
    _send(qtbot, panel, "hello")
    qtbot.waitUntil(lambda: not panel.controller.running and backend.streams_closed == 1)
    assert backend.sent[0][0] == "hello"
    qtbot.waitUntil(lambda: "w1999" in _visible_text(panel))
    assert "w0 w1 w2 w3" in _visible_text(panel)
    turn = panel.view.message_widgets()[-1]
    assert panel.view.paints <= 20  # 2,000 tokens, a handful of paints
    assert getattr(turn, "renders", 0) <= 20
    assert panel.announcer.history[-1] == "The answer is complete."


def test_enter_sends_and_shift_enter_inserts_a_newline(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    backend.add_turn(content("ok"), done())
    edit = panel.composer.edit
    edit.setFocus()
    qtbot.keyClicks(edit, "line one")
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(edit, "line two")
    assert edit.toPlainText() == "line one\nline two"
    assert backend.sent == []
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(backend.sent) == 1)
    assert backend.sent[0][0] == "line one\nline two"
    assert edit.toPlainText() == ""
    qtbot.waitUntil(lambda: not panel.composer.running)


@pytest.mark.parametrize("how", ["button", "escape"])
def test_stop_cancels_the_stream_task(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend, how: str
) -> None:
    stall = asyncio.Event()
    backend.add_turn(content("partial answer"), tool_start("c1", "start_node"), stall, done())
    _send(qtbot, panel, "start R1")
    qtbot.waitUntil(lambda: panel.view.card("c1") is not None)
    assert panel.composer.stop_button.isVisible()
    if how == "button":
        qtbot.mouseClick(panel.composer.stop_button, Qt.MouseButton.LeftButton)
    else:
        qtbot.keyClick(panel.composer.edit, Qt.Key.Key_Escape)
    qtbot.waitUntil(backend.cancelled.is_set)
    qtbot.waitUntil(lambda: not panel.composer.running)
    task = panel.controller.task
    assert task is not None and task.cancelled()
    card = panel.view.card("c1")
    assert card is not None and card.state is ToolState.CANCELLED
    assert "partial answer" in _visible_text(panel)
    assert panel.composer.send_button.isVisible()


def test_tool_card_goes_running_then_done_with_duration(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    gate = asyncio.Event()
    backend.add_turn(
        tool_start("c1", "list_nodes", '{"project": "lab"}', "List the nodes of lab"),
        gate,
        tool_end("c1", "list_nodes", "R1 started", duration_ms=1500),
        content("R1 is up."),
        done(),
    )
    _send(qtbot, panel, "what runs?")
    qtbot.waitUntil(lambda: panel.view.card("c1") is not None)
    card = panel.view.card("c1")
    assert card is not None
    assert card.state is ToolState.RUNNING
    assert "running" in card.state_label.text()
    assert "List the nodes of lab" in card.title_label.text()
    gate.set()
    qtbot.waitUntil(lambda: card.state is ToolState.DONE)
    assert card.duration_label.text() == "1.5 s"
    assert not card.body_built
    qtbot.waitUntil(lambda: "R1 is up." in _visible_text(panel))


@pytest.mark.allow_error_logs
def test_error_keeps_the_partial_answer_and_retry_resends(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    backend.add_turn(content("Half an ans"), error("The model provider timed out."), done())
    backend.add_turn(content("Full answer."), done())
    _send(qtbot, panel, "explain OSPF")
    qtbot.waitUntil(lambda: not panel.controller.running and backend.streams_closed == 1)
    banners = panel.view.widget().findChildren(ErrorBanner)  # type: ignore[union-attr]
    assert len(banners) == 1
    assert "timed out" in banners[0].label.text()
    qtbot.waitUntil(lambda: "Half an ans" in _visible_text(panel))
    assert panel.announcer.history[-1].startswith("Error:")
    qtbot.mouseClick(banners[0].retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: backend.streams_closed == 2 and not panel.controller.running)
    assert [m for m, _ in backend.sent] == ["explain OSPF", "explain OSPF"]
    qtbot.waitUntil(lambda: "Full answer." in _visible_text(panel))
    assert "Half an ans" in _visible_text(panel)


def test_title_chunk_updates_the_session_title(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    backend.add_turn(content("hi"), ChatChunk(type="title", title="OSPF basics"), done())
    _send(qtbot, panel, "teach me OSPF")
    qtbot.waitUntil(lambda: panel.title_label.text() == "OSPF basics")
    sid = panel.session_id
    assert sid is not None
    qtbot.waitUntil(lambda: any(e.title == "OSPF basics" for e in panel.sessions.entries))
    first = panel.sessions.list.item(0)
    assert first is not None and "OSPF basics" in first.text()


def test_heartbeat_and_usage_in_the_status_line(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    gate = asyncio.Event()
    backend.add_turn(
        ChatChunk(type="heartbeat", elapsed_s=12.0),
        ChatChunk(
            type="usage",
            usage=TokenUsage(input_tokens=1200, output_tokens=300),
            context_tokens=32000,
            context_window=128000,
        ),
        gate,
        done(),
    )
    _send(qtbot, panel, "slow question")
    qtbot.waitUntil(lambda: panel.status.working_text.startswith("working · 1"))
    assert panel.status.working_text in ("working · 12 s", "working · 13 s")
    assert "1.5k tokens" in panel.status.tokens_label.text()
    assert panel.status.context_meter.format() == "32k / 128k"
    gate.set()
    qtbot.waitUntil(lambda: panel.status.working_text == "")


def test_composer_disabled_with_a_reason_keeps_the_text(qtbot: QtBot, panel: ChatPanel) -> None:
    panel.composer.edit.setPlainText("draft")
    panel.composer.set_disabled_reason("Log in to the GNS3 server to chat.")
    assert panel.composer.reason_label.isVisible()
    qtbot.keyClick(panel.composer.edit, Qt.Key.Key_Return)
    assert panel.composer.text == "draft"
    assert not panel.composer.send_button.isEnabled()
    panel.composer.set_disabled_reason(None)
    assert panel.composer.send_button.isEnabled()


def test_every_interactive_widget_has_an_accessible_name(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    backend.add_turn(tool_start("c1", "list_nodes"), tool_end("c1", "list_nodes", "x"), done())
    panel.sessions_toggle.setChecked(True)
    _send(qtbot, panel, "go")
    _wait_idle(qtbot, panel, backend)
    card = panel.view.card("c1")
    assert card is not None
    card.set_expanded(True)
    interactive = (QAbstractButton, QLineEdit, QComboBox, QAbstractScrollArea)
    missing = [
        f"{type(w).__name__} {getattr(w, 'text', lambda: '')()!r}"
        for w in panel.findChildren(interactive)  # type: ignore[call-overload]
        if w.focusPolicy() != Qt.FocusPolicy.NoFocus
        and not w.accessibleName()
        and not _is_internal(w)
    ]
    assert missing == []


def _is_internal(widget: QWidget) -> bool:
    """Qt's own sub-widgets: a combo box's popup list, a line edit's clear button."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QComboBox):
            return True
        parent = parent.parentWidget()
    return type(widget).__name__ == "QLineEditIconButton"


def test_narrow_dock_has_no_horizontal_overflow(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    long_word = "x" * 300
    backend.add_turn(
        content(
            f"A very long word {long_word}\n\n```\n{'y' * 400}\n```\n\n"
            "| a | b |\n|--|--|\n| 1 | 2 |\n"
        ),
        tool_start("c1", "configure_device", '{"commands": "' + "z" * 200 + '"}'),
        tool_end("c1", "configure_device", "ok " * 200),
        done(),
    )
    panel.resize(360, 700)
    _send(qtbot, panel, "go " * 100)
    _wait_idle(qtbot, panel, backend)
    qtbot.wait(50)
    view = panel.view
    viewport = view.viewport()
    assert viewport is not None and view.widget() is not None
    assert view.widget().width() <= viewport.width()  # type: ignore[union-attr]
    bar = view.horizontalScrollBar()
    assert bar is not None and not bar.isVisible()
    assert panel.width() == 360


def test_an_unexpected_exception_keeps_the_panel_usable_and_reaches_the_excepthook(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    caught: list[BaseException] = []
    monkeypatch.setattr("sys.excepthook", lambda _t, exc, _tb: caught.append(exc))

    async def broken(message: str, session_id: str):  # type: ignore[no-untyped-def]
        yield content("partial")
        raise RuntimeError("bug in the agent")

    monkeypatch.setattr(backend, "stream_chat", broken)
    _send(qtbot, panel, "hi")
    qtbot.waitUntil(lambda: bool(caught) and not panel.composer.running)
    assert isinstance(caught[0], RuntimeError)
    banners = panel.view.widget().findChildren(ErrorBanner)  # type: ignore[union-attr]
    assert len(banners) == 1 and "unexpected" in banners[0].label.text()
    qtbot.waitUntil(lambda: "partial" in _visible_text(panel))


def test_queued_card_takes_the_tool_summary_then_shows_progress(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    """The agent's order: tool_call (queued, no summary), tool_start (summary), progress."""
    queued = ChatChunk.model_validate(
        {
            "type": "tool_call",
            "tool_call": {"id": "c2", "function": {"name": "start_nodes", "arguments": "{}"}},
        }
    )
    progress_gate, end_gate = asyncio.Event(), asyncio.Event()
    backend.add_turn(
        queued,
        tool_start("c2", "start_nodes", "{}", "start PC1, PC2 and wait for started"),
        progress_gate,
        tool_start("c2", "start_nodes", "{}", "1 of 2 nodes started"),
        end_gate,
        tool_end("c2", "start_nodes", "2 nodes started", duration_ms=900),
        done(),
    )
    _send(qtbot, panel, "start the PCs")
    qtbot.waitUntil(lambda: panel.view.card("c2") is not None)
    card = panel.view.card("c2")
    assert card is not None
    qtbot.waitUntil(lambda: card.state is ToolState.RUNNING)
    assert "start PC1, PC2 and wait for started" in card.title_label.text()
    progress_gate.set()
    qtbot.waitUntil(lambda: "1 of 2 nodes started" in card.title_label.text())
    assert "start PC1, PC2" in card.title_label.text()  # the summary stays
    end_gate.set()
    qtbot.waitUntil(lambda: card.state is ToolState.DONE)
    assert "1 of 2" not in card.title_label.text()
