"""The dock in a main window, long answers laid out in frozen chunks, open code, the theme."""

from __future__ import annotations

import asyncio

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QApplication, QLabel, QMainWindow
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.cards.tool_widgets import monospace_font
from gns3_copilot_desktop.ui.chat.messages import AssistantMessage
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.chat.text_blocks import BLOCK_SPACING, CHUNK_BLOCKS, TextSegment
from gns3_copilot_desktop.ui.dock import CopilotDock
from gns3_copilot_desktop.ui.theme import colors, dark_palette, is_dark, light_palette
from tests.helpers.fake_backend import ScriptedBackend, content, done


def _segment(panel: ChatPanel) -> TextSegment:
    turn = panel.view.message_widgets()[-1]
    assert isinstance(turn, AssistantMessage) and turn.segments
    return turn.segments[0]


def test_dock_goes_into_any_main_window(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, backend: ScriptedBackend
) -> None:
    window = QMainWindow()
    window.setCentralWidget(QLabel("topology"))
    qtbot.addWidget(window)
    dock = CopilotDock(backend)
    dock.add_to(window)
    window.resize(1000, 700)
    window.show()
    window.resizeDocks([dock], [360], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: dock.width() <= 400)
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert dock.objectName() == "CopilotDock"
    assert not dock.panel.sessions.isVisible()  # narrow: sessions behind the toggle
    window.resizeDocks([dock], [800], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: dock.panel.width() >= 700)
    qtbot.waitUntil(dock.panel.sessions.isVisible)  # wide: beside the conversation


def test_long_answer_is_chunked_and_refits_when_narrowed(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    paragraphs = [
        content(f"Paragraph {i}: the router R{i} forwards packets between its interfaces.\n\n")
        for i in range(CHUNK_BLOCKS * 3)
    ]
    backend.add_turn(*paragraphs, done())
    panel.resize(700, 700)
    panel.send("explain")
    qtbot.waitUntil(lambda: backend.streams_closed == 1 and not panel.composer.running)
    segment = _segment(panel)
    chunks = segment._chunks
    assert len(chunks) == 3 and all(c.frozen for c in chunks)
    assert len(segment.block_widgets()) == CHUNK_BLOCKS * 3

    def fitted() -> bool:
        for chunk in chunks:
            width, blocks = chunk.width(), chunk.widgets()
            heights = [b.heightForWidth(width) for b in blocks]
            stacked = sum(heights) + BLOCK_SPACING * (len(blocks) - 1)
            if width <= 0 or chunk.height() != stacked:
                return False
            if any(
                b.width() != width or b.height() != h for b, h in zip(blocks, heights, strict=True)
            ):
                return False
        return True

    qtbot.waitUntil(fitted)
    wide = chunks[0].height()
    panel.resize(360, 700)
    qtbot.waitUntil(lambda: fitted() and chunks[0].height() > wide)  # text wraps more
    label = segment.block_widgets()[0]
    assert isinstance(label, QLabel)
    assert label.height() >= label.heightForWidth(label.width())  # nothing clipped


def test_unfinished_code_block_streams_as_plain_monospace(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    gate = asyncio.Event()
    backend.add_turn(content("Run:\n\n```bash\nshow ip route\n# not a heading\n"), gate, done())
    panel.send("how?")
    qtbot.waitUntil(lambda: "show ip route" in _segment(panel)._open.text())
    open_label = _segment(panel)._open
    assert open_label.textFormat() == Qt.TextFormat.PlainText
    assert open_label.text() == "show ip route\n# not a heading"
    assert open_label.font().family() == monospace_font().family()
    gate.set()
    qtbot.waitUntil(lambda: not panel.composer.running)


def test_theme_follows_the_palette(qapp: QApplication) -> None:
    assert is_dark(dark_palette())
    assert not is_dark(light_palette())
    assert colors(dark_palette()).dark and not colors(light_palette()).dark
    assert colors(dark_palette()).user_bubble != colors(light_palette()).user_bubble
