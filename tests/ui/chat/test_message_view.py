"""Message view: auto-scroll and "jump to latest", lazy history, compact mode, approvals."""

from __future__ import annotations

import asyncio

import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.core.sessions.models import TranscriptMessage
from gns3_copilot_desktop.ui.backends.base import AssistantTurn
from gns3_copilot_desktop.ui.backends.service import history_items
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard
from gns3_copilot_desktop.ui.cards.tool_card import ToolState
from gns3_copilot_desktop.ui.chat.messages import AssistantMessage
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.chat.view_history import HISTORY_BATCH
from gns3_copilot_desktop.ui.qt_async import spawn
from tests.helpers.fake_backend import (
    ScriptedBackend,
    approval,
    content,
    done,
    long_history,
    tool_end,
    tool_start,
)


def _bar(panel: ChatPanel):  # type: ignore[no-untyped-def]
    bar = panel.view.verticalScrollBar()
    assert bar is not None
    return bar


def test_autoscroll_stops_when_scrolled_up_and_jump_returns(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    gate, more = asyncio.Event(), asyncio.Event()
    lines = [content(f"Line {i} of a long answer.\n\n") for i in range(80)]
    backend.add_turn(*lines, gate, *lines, more, done())
    panel.send("long please")
    qtbot.waitUntil(lambda: _bar(panel).maximum() > 500)
    qtbot.waitUntil(lambda: _bar(panel).value() == _bar(panel).maximum())
    assert panel.view.following and not panel.view.jump_button.isVisible()
    _bar(panel).setValue(0)  # the user scrolls up
    assert not panel.view.following
    assert panel.view.jump_button.isVisible()
    old_max = _bar(panel).maximum()
    gate.set()
    qtbot.waitUntil(lambda: _bar(panel).maximum() > old_max + 500)
    assert _bar(panel).value() == 0  # did not follow
    qtbot.mouseClick(panel.view.jump_button, Qt.MouseButton.LeftButton)
    assert _bar(panel).value() == _bar(panel).maximum()
    assert panel.view.following and not panel.view.jump_button.isVisible()
    more.set()
    qtbot.waitUntil(lambda: not panel.composer.running)


def test_history_renders_lazily_and_loads_earlier_at_the_top(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    entry = backend.add_session("Big", long_history(500, 100))
    task = spawn(panel.open_session(entry.session_id))
    qtbot.waitUntil(task.done)
    built = panel.view.message_widgets()
    assert len(built) == HISTORY_BATCH
    assert panel.view.unrendered_batches > 0
    assert panel.view.earlier_button.isVisible() or panel.view.earlier_button.isVisibleTo(panel)
    before = panel.view.unrendered_batches
    _bar(panel).setValue(0)
    qtbot.waitUntil(lambda: panel.view.unrendered_batches == before - 1)
    assert len(panel.view.message_widgets()) == 2 * HISTORY_BATCH
    assert _bar(panel).value() > 0  # kept the same content in view


def test_compact_mode_hides_cards_behind_a_count(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    backend.add_turn(
        tool_start("a", "list_nodes"),
        tool_end("a", "list_nodes", "[]"),
        tool_start("b", "list_links"),
        tool_end("b", "list_links", "[]"),
        content("Nothing yet."),
        done(),
    )
    panel.send("show")
    qtbot.waitUntil(lambda: backend.streams_closed == 1 and not panel.composer.running)
    cards = [panel.view.card("a"), panel.view.card("b")]
    qtbot.waitUntil(lambda: all(c is not None and c.isVisible() for c in cards))
    qtbot.mouseClick(panel.compact_toggle, Qt.MouseButton.LeftButton)
    assert all(c is not None and not c.isVisible() for c in cards)
    turn = panel.view.message_widgets()[-1]
    assert isinstance(turn, AssistantMessage)
    assert turn.groups[0].count_button.isVisible()
    assert "2 tool call(s)" in turn.groups[0].count_button.text()


def test_approval_flow_resumes_with_the_decisions(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    request = ApprovalRequest(
        tool_call_id="c9",
        tool_name="create_node",
        arguments={"name": "R9"},
        summary="Create R9",
        risk="change",
    )
    backend.add_turn(content("I will create R9."), approval(request), done())
    backend.add_turn(
        tool_start("c9", "create_node"), tool_end("c9", "create_node", "created"), done()
    )
    panel.send("add a router")
    qtbot.waitUntil(lambda: panel.view.card("c9") is not None and not panel.composer.running)
    card = panel.view.card("c9")
    assert card is not None and card.state is ToolState.AWAITING_APPROVAL
    assert panel.announcer.history[-1].startswith("Approval needed")
    approval_cards = panel.view.findChildren(ApprovalCard)
    assert len(approval_cards) == 1
    approval_cards[0].items[0].approve.click()
    qtbot.waitUntil(lambda: backend.streams_closed == 2 and not panel.composer.running)
    assert backend.decisions[0][0].tool_call_id == "c9"
    assert backend.decisions[0][0].action == "approve"
    assert card.state is ToolState.DONE


def test_a_decision_made_before_the_paused_stream_ends_is_kept_and_resumed(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    """The agent may still send a title after the approval request: deciding then is not lost."""
    request = ApprovalRequest(
        tool_call_id="c7",
        tool_name="create_node",
        arguments={"name": "R7"},
        summary="Create R7",
        risk="change",
    )
    title_sent = asyncio.Event()
    backend.add_turn(content("I will create R7."), approval(request), title_sent, done())
    backend.add_turn(
        tool_start("c7", "create_node"), tool_end("c7", "create_node", "created"), done()
    )
    panel.send("add a router")
    qtbot.waitUntil(lambda: bool(panel.view.findChildren(ApprovalCard)))
    assert panel.controller.running  # the first stream has not ended yet
    panel.view.findChildren(ApprovalCard)[0].items[0].approve.click()
    title_sent.set()
    qtbot.waitUntil(lambda: backend.streams_closed == 2 and not panel.composer.running)
    assert [d.tool_call_id for d in backend.decisions[0]] == ["c7"]
    card = panel.view.card("c7")
    assert card is not None and card.state is ToolState.DONE


def test_a_budget_notice_is_shown_once_per_answer(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    from PyQt6.QtWidgets import QLabel

    from gns3_copilot_desktop.core.protocol import ChatChunk, TokenUsage

    notice = "The model's context window (8,192 tokens) is too small for all 25 tools"
    usage = ChatChunk(
        type="usage",
        usage=TokenUsage(input_tokens=10, output_tokens=2),
        context_tokens=7000,
        context_window=8192,
        notice=notice,
    )
    backend.add_turn(usage, content("Here is what I can read."), usage, done())
    panel.send("change R1")
    qtbot.waitUntil(lambda: not panel.composer.running)
    notes = [w for w in panel.view.findChildren(QLabel) if notice in w.text()]
    assert len(notes) == 1 and notes[0].text().startswith("Note: ")
    # the turn's widgets are shown by Qt on a later pass of the loop, which can follow the end
    qtbot.waitUntil(notes[0].isVisible)
    assert any(notice in a for a in panel.announcer.history)


def test_a_provider_error_keeps_its_own_text_behind_details(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    from gns3_copilot_desktop.core.protocol import ChatChunk
    from gns3_copilot_desktop.ui.chat.messages import ErrorBanner
    from tests.helpers.fake_backend import error

    raw = "1 validation error for ChatCompletionRequest\nmessages.1.content\n  Input should be ..."
    backend.add_turn(
        content("Partial"),
        ChatChunk(
            type="error",
            error="The model server refused the request: its answer is in Details.",
            error_kind="provider",
            error_details=raw,
        ),
        done(),
    )
    backend.add_turn(error("The model did not answer in time.", kind="timeout"), done())
    panel.send("hello")
    qtbot.waitUntil(lambda: not panel.composer.running)
    [banner] = panel.view.findChildren(ErrorBanner)
    # The turn's widget joins a shown layout, which Qt shows on a later pass of the event loop;
    # the turn can end first. Wait until the banner is on screen, else "folded away" below
    # would hold only because nothing is shown yet, and the click could show nothing.
    qtbot.waitUntil(banner.isVisible)
    assert raw not in banner.label.text()  # one sentence shown, the raw text folded away
    assert banner.details_button is not None and banner.details_view is not None
    assert not banner.details_view.isVisible()
    banner.details_button.click()
    assert banner.details_view.isVisible() and banner.details_view.toPlainText() == raw
    panel.send("again")
    qtbot.waitUntil(lambda: len(panel.view.findChildren(ErrorBanner)) == 2)
    qtbot.waitUntil(lambda: not panel.composer.running)
    assert panel.view.findChildren(ErrorBanner)[1].details_button is None  # none without text


def test_a_conversation_that_cannot_be_created_is_an_error_with_retry(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gns3_copilot_desktop.core.errors import CopilotError
    from gns3_copilot_desktop.ui.chat.messages import ErrorBanner

    original = backend.create_session
    refusals = [CopilotError("The copilot service did not answer.")]

    async def create_session() -> object:
        if refusals:
            raise refusals.pop()
        return await original()

    monkeypatch.setattr(backend, "create_session", create_session)
    backend.add_turn(content("Hello again."), done())
    panel.send("hello")
    qtbot.waitUntil(lambda: bool(panel.view.findChildren(ErrorBanner)))
    [banner] = panel.view.findChildren(ErrorBanner)
    assert "did not answer" in banner.label.text() and not panel.composer.running
    assert panel.session_id is None
    banner.retry_button.click()
    qtbot.waitUntil(
        lambda: backend.sent == [("hello", panel.session_id)] and not panel.composer.running
    )


def test_cli_output_keeps_its_columns_and_scrolls_sideways_in_a_narrow_dock(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    from gns3_copilot_desktop.ui.chat.text_blocks import CodeBlock

    table = (
        "Interface              IP-Address      OK? Method Status                Protocol\n"
        "GigabitEthernet0/0     10.0.12.1       YES manual up                    up\n"
        "GigabitEthernet0/1     unassigned      YES unset  administratively down down"
    )
    panel.resize(360, 700)
    backend.add_turn(content(f"Here:\n\n```\n{table}\n```\n\nDone."), done())
    panel.send("show ip interface brief")
    qtbot.waitUntil(lambda: bool(panel.view.findChildren(CodeBlock)) and not panel.composer.running)
    [block] = panel.view.findChildren(CodeBlock)
    qtbot.waitUntil(lambda: block.isVisible() and block.width() > 0)
    assert block.width() < block.text_view.natural_width()  # wider than the dock
    bar = block.scroller.horizontalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)  # it scrolls sideways
    line_height = block.text_view._labels[0].fontMetrics().lineSpacing()
    # no line wrapped: three lines take three lines' height (columns stay aligned)
    assert block._lines_height() <= 3 * line_height + 8
    assert block.text_view.text() == table
    panel.resize(1400, 700)
    qtbot.waitUntil(lambda: bar.maximum() == 0)  # wide enough: no scroll bar


def test_a_reopened_answer_that_ended_early_says_so(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    # The core's marks, as the service stores them, through the adapter the app uses.
    transcript = [
        TranscriptMessage(role="user", content="First"),
        TranscriptMessage(role="assistant", content="Half", metadata={"incomplete": "cancelled"}),
        TranscriptMessage(role="user", content="Second"),
        TranscriptMessage(role="assistant", content="Part", metadata={"incomplete": "cut_off"}),
        TranscriptMessage(role="user", content="Third"),
        TranscriptMessage(role="assistant", content="Whole answer.", metadata={}),
    ]
    items = history_items(transcript)
    assert [i.incomplete for i in items if isinstance(i, AssistantTurn)] == [
        "stopped",
        "cut_off",
        None,
    ]
    entry = backend.add_session("Marks", items)
    task = spawn(panel.open_session(entry.session_id))
    qtbot.waitUntil(task.done)
    answers = [w for w in panel.view.message_widgets() if isinstance(w, AssistantMessage)]
    assert len(answers) == 3

    def marks(message: AssistantMessage) -> list[str]:
        return [
            label.text()
            for label in message.findChildren(QLabel)
            if label.objectName() == "muted"
            and label.parent() is message
            and label.isVisibleTo(message)
        ]

    assert marks(answers[0]) == ["Stopped before the end"]
    assert marks(answers[1]) == ["Cut off: the model's answer ended early"]
    assert marks(answers[2]) == []
