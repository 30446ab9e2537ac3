"""The chat keeps its own look inside a host with a global style sheet (the GNS3 GUI's).

GNS3's "charcoal" style sets ``QWidget { background-color: #535353 }`` and a light text colour on
every QLabel; without isolation, the user's bubble showed a dark grey, light-text label inside its
blue frame (it looked like a selected text field) and the conversation turned grey.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from PyQt6.QtGui import QColor, QImage, QPalette
from PyQt6.QtWidgets import QApplication, QMainWindow, QWidget
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.dock import CopilotDock
from gns3_copilot_desktop.ui.theme import colors, style_sheet
from tests.helpers.fake_backend import ScriptedBackend

HOST_GREY = QColor("#535353")
HOST_STYLE = """
QWidget { color: black; background-color: #535353; }
QLabel { color: #dedede; }
QPushButton { color: #dedede; }
"""


def _share(widget: QWidget, colour: QColor) -> float:
    """The share of the widget's pixels within a few steps of `colour`."""
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    hits = total = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            pixel = image.pixelColor(x, y)
            total += 1
            hits += all(
                abs(a - b) <= 6
                for a, b in zip(pixel.getRgb()[:3], colour.getRgb()[:3], strict=True)
            )
    return hits / max(total, 1)


@pytest.fixture
def windows(qtbot: QtBot) -> Iterator[list[QMainWindow]]:
    """Keeps the test's windows alive (qtbot holds them weakly) and closes them after it."""
    kept: list[QMainWindow] = []
    yield kept
    for window in kept:
        window.close()


def _docked(qtbot: QtBot, windows: list[QMainWindow], host_style: str) -> CopilotDock:
    window = QMainWindow()
    qtbot.addWidget(window)
    windows.append(window)
    window.setStyleSheet(host_style)
    dock = CopilotDock(ScriptedBackend(), window)
    dock.add_to(window)
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    return dock


def test_the_user_bubble_and_conversation_keep_their_colours_under_a_host_style_sheet(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, windows: list[QMainWindow]
) -> None:
    dock = _docked(qtbot, windows, HOST_STYLE)
    bubble = dock.panel.view.add_user_message("What is in this lab, and is it running?")
    qtbot.waitUntil(lambda: bubble.isVisible() and bubble.height() > 10, timeout=3_000)
    palette = QApplication.palette()
    tint = QColor(colors(palette).user_bubble)

    assert _share(bubble, HOST_GREY) == 0.0  # no grey label box inside the bubble
    assert _share(bubble, tint) > 0.6  # the bubble is its own tint, text and all
    text = bubble.label.palette().color(QPalette.ColorRole.WindowText)
    assert abs(text.lightness() - palette.color(QPalette.ColorRole.Text).lightness()) < 40
    container = dock.panel.view.widget()
    assert container is not None and _share(container, HOST_GREY) < 0.01


def test_without_a_host_style_sheet_the_panel_keeps_the_plain_tints(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, windows: list[QMainWindow]
) -> None:
    dock = _docked(qtbot, windows, "")
    assert dock.panel.styleSheet() == style_sheet(QApplication.palette())
    assert "#conversation QWidget" not in dock.panel.styleSheet()
