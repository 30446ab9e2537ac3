"""The work of one paint of a streaming answer must not grow with the length of the answer.

Counted, not timed: every Qt event delivered while a paint is handled (layout passes, moves,
resizes, repaints of widgets...), and the characters of text handed to labels (each is laid out
again). A layout that re-places all earlier blocks, a repaint of the whole answer, or a label
that holds a whole growing code listing shows up as more per paint in a long answer than in a
short one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from PyQt6.QtCore import QEvent, QObject
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.chat import text_blocks
from gns3_copilot_desktop.ui.chat.message_view import MessageView
from gns3_copilot_desktop.ui.chat.text_blocks import CHUNK_BLOCKS, CODE_LINES
from tests.helpers.fake_backend import long_history

# One cycle of a block-dense answer: prose, a list, a table, a code fence, a heading (5 blocks).
_CYCLE = [
    "The router **R1** has an OSPF adjacency with `R2` on Fa0/0. ",
    "\n\n- uptime 42 min\n",
    "- links 3\n\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
    "```\nR1# show ip route\nO 10.0.0.0/24 via 10.0.1.2\n```\n\n",
    "## Next\n\n",
]
_BLOCKS_PER_CYCLE = 5
_WINDOW = 16  # paints per measurement: 16 cycles = 80 blocks = 5 whole chunks
assert (_WINDOW * _BLOCKS_PER_CYCLE) % CHUNK_BLOCKS == 0


class _EventCounter(QObject):
    """Counts the events Qt delivers to any object while installed on the application."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter[str] = Counter()

    def eventFilter(self, watched: QObject | None, event: QEvent | None) -> bool:
        if event is not None:
            self.counts[event.type().name] += 1
        return False


@pytest.fixture
def laid_out_chars(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """A one-item list: the characters given to the view's labels so far."""
    total = [0]
    set_text = text_blocks.BlockLabel.setText

    def counting(label: text_blocks.BlockLabel, text: str | None) -> None:
        total[0] += len(text or "")
        set_text(label, text)

    monkeypatch.setattr(text_blocks.BlockLabel, "setText", counting)
    yield total


def _view(qtbot: QtBot) -> MessageView:
    view = MessageView()
    qtbot.addWidget(view)
    view.resize(420, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def _paint_cycles(view: MessageView, app: QApplication, cycles: int) -> None:
    for _ in range(cycles):
        for piece in _CYCLE:
            view.append_content(piece)
        view.flush()
        app.processEvents()


def _events_per_window(view: MessageView, app: QApplication) -> Counter[str]:
    counter = _EventCounter()
    app.installEventFilter(counter)
    try:
        _paint_cycles(view, app, _WINDOW)
    finally:
        app.removeEventFilter(counter)
    return counter.counts


def test_paint_work_does_not_grow_with_the_answer(
    qtbot: QtBot, qapp: QApplication, laid_out_chars: list[int]
) -> None:
    view = _view(qtbot)
    view.load_history(long_history(200, 40))
    view.add_user_message("Tell me everything")
    _paint_cycles(view, qapp, 4)
    before = laid_out_chars[0]
    short = _events_per_window(view, qapp)  # while the answer grows from 20 to 100 blocks
    short_chars = laid_out_chars[0] - before
    _paint_cycles(view, qapp, 10 * _WINDOW)
    before = laid_out_chars[0]
    long = _events_per_window(view, qapp)  # from 900 to 980 blocks
    assert laid_out_chars[0] - before == short_chars  # the same text, rendered once
    turn = view.current_turn
    assert turn is not None
    assert len(turn.segments[0].block_widgets()) == (4 + 12 * _WINDOW) * _BLOCKS_PER_CYCLE
    assert view.following
    total_short, total_long = sum(short.values()), sum(long.values())
    # The same text per paint must cost the same events, give or take a little noise.
    assert total_long <= total_short * 1.15 + 20, (short, long)
    for kind in ("Move", "Resize", "Paint", "LayoutRequest"):
        assert long[kind] <= short[kind] * 1.15 + 4, (kind, short[kind], long[kind])


def test_a_long_open_code_block_costs_the_same_per_line(
    qtbot: QtBot, qapp: QApplication, laid_out_chars: list[int]
) -> None:
    view = _view(qtbot)
    view.add_user_message("Show the running config")
    view.append_content("Here it is:\n\n```\n")

    def stream_lines(first: int, count: int, per_paint: int = 1) -> int:
        """Paint `count` pairs of lines; the characters handed to labels meanwhile."""
        before = laid_out_chars[0]
        for i in range(first, first + count):
            view.append_content(f"interface GigabitEthernet0/{i % 10}\n description link {i}\n")
            if i % per_paint == 0:
                view.flush()
                qapp.processEvents()
        return laid_out_chars[0] - before

    stream_lines(0, CODE_LINES)
    short = stream_lines(CODE_LINES, 2 * CODE_LINES)  # lines 80-240 of the open block
    stream_lines(3 * CODE_LINES, 20 * CODE_LINES, per_paint=CODE_LINES)
    long = stream_lines(23 * CODE_LINES, 2 * CODE_LINES)  # lines 1,840-2,000
    assert long <= short * 1.1, (short, long)
    turn = view.current_turn
    assert turn is not None
    segment = turn.segments[0]
    assert segment._open.text().count("\n") < 2 * CODE_LINES  # only the last lines
    view.append_content("```\n")
    view.finish_turn()
    code = segment.block_widgets()[-1]
    assert isinstance(code, text_blocks.CodeBlock)
    assert code.code.count("\n") == 2 * 25 * CODE_LINES - 1
    assert code.text_view.text() == code.code


def test_the_app_freezes_its_start_up_heap_after_the_warm_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio
    import gc

    from gns3_copilot_desktop import app
    from gns3_copilot_desktop.ui.heap import freeze_startup_heap

    calls: list[int] = []
    monkeypatch.setattr(app, "freeze_startup_heap", lambda: calls.append(1) or 1)
    loop = asyncio.new_event_loop()  # its own loop: the global one stays as the suite set it
    try:
        loop.run_until_complete(app._warm_up())
    finally:
        loop.close()
    assert calls == [1]  # the bench freezes its heap the same way (bench/bench_ui.py)
    try:
        assert freeze_startup_heap() > 10_000
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
