"""The work of one paint of a streaming answer must not grow with the length of the answer.

Counted, not timed: every Qt event delivered while a paint is handled (layout passes, moves,
resizes, repaints of widgets...). A layout that re-places all earlier blocks, or a repaint of
the whole answer, shows up as more events per paint in a long answer than in a short one.
"""

from __future__ import annotations

from collections import Counter

from PyQt6.QtCore import QEvent, QObject
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.message_view import CHUNK_BLOCKS, MessageView
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


def test_paint_work_does_not_grow_with_the_answer(qtbot: QtBot, qapp: QApplication) -> None:
    view = MessageView()
    qtbot.addWidget(view)
    view.resize(420, 700)
    view.show()
    qtbot.waitExposed(view)
    view.load_history(long_history(200, 40))
    view.add_user_message("Tell me everything")
    _paint_cycles(view, qapp, 4)
    short = _events_per_window(view, qapp)  # while the answer grows from 20 to 100 blocks
    _paint_cycles(view, qapp, 10 * _WINDOW)
    long = _events_per_window(view, qapp)  # from 900 to 980 blocks
    turn = view.current_turn
    assert turn is not None
    assert len(turn.segments[0].block_widgets()) == (4 + 12 * _WINDOW) * _BLOCKS_PER_CYCLE
    assert view.following
    total_short, total_long = sum(short.values()), sum(long.values())
    # The same text per paint must cost the same events, give or take a little noise.
    assert total_long <= total_short * 1.15 + 20, (short, long)
    for kind in ("Move", "Resize", "Paint", "LayoutRequest"):
        assert long[kind] <= short[kind] * 1.15 + 4, (kind, short[kind], long[kind])
