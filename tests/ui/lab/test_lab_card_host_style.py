"""The Lab card under the GNS3 GUI's charcoal style sheet keeps its colours, and its node menu
is painted before any item is hovered.

Docked in the GNS3 GUI, the running and stopped dots and the legend's squares came out black
(their hues were moved toward the host's "color: black" on a background the conversation's
isolation had made transparent) and the node menu was a black box (a transparent pop-up) until
an item was hovered. The rules below are GNS3 3.0.6's ``charcoal.css`` ones that reach the card;
tests/gns3_gui checks the same pixels inside the real GNS3 GUI.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from PyQt6.QtCore import QPoint, QPointF
from PyQt6.QtGui import QColor, QImage
from PyQt6.QtWidgets import QMainWindow, QWidget
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
from gns3_copilot_desktop.ui.dock import CopilotDock
from gns3_copilot_desktop.ui.lab.lab_card import TopologyCard
from tests.helpers.fake_backend import ScriptedBackend

CHARCOAL = """
QWidget { color: black; background-color: #535353; }
QGraphicsView, QTextEdit, QPlainTextEdit, QLineEdit { color: black; background-color: #dedede; }
QLabel, QMenu, QStatusBar { color: black; color: #dedede; }
QMenu::item:selected { color: white; background-color: #5f5f5f; }
QToolButton:hover { background-color: #5f5f5f; }
QDockWidget, QMenuBar, QPushButton, QToolButton { color: #dedede; font: bold 11px; }
"""
PICTURE = LabPicture(
    nodes=(
        PictureNode("HUB1", "ethernet_hub", 0, -120, status="started"),
        PictureNode("PC1", "vpcs", -220, 80, status="stopped"),
        PictureNode("PC2", "vpcs", 220, 80, status="suspended"),
    ),
    links=(
        PictureLink("PC1", "Ethernet0", "HUB1", "Ethernet0"),
        PictureLink("PC2", "Ethernet0", "HUB1", "Ethernet1"),
    ),
)


async def _never() -> LabPicture:
    raise AssertionError("the card is given its picture")


def pixel(widget: QWidget, point: QPointF | QPoint) -> QColor:
    """The colour ``widget`` shows at ``point`` (grabbed as the screen shows it)."""
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)
    ratio = image.devicePixelRatio()
    return image.pixelColor(round(point.x() * ratio), round(point.y() * ratio))


def is_hue(colour: QColor, hue: str) -> bool:
    """Whether ``colour`` clearly is green, red or amber (not black, grey or white)."""
    r, g, b = colour.red(), colour.green(), colour.blue()
    if colour.alpha() < 255 or max(r, g, b) < 60:
        return False
    return {
        "green": g > r + 40 and g > b + 20,
        "red": r > g + 40 and r > b + 40,
        "amber": r > b + 60 and g > b + 40,
    }[hue]


@pytest.fixture
def docked_card(qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[TopologyCard]:
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setStyleSheet(CHARCOAL)
    dock = CopilotDock(ScriptedBackend(), window)
    dock.add_to(window)
    window.resize(1000, 800)
    window.show()
    qtbot.waitExposed(window)
    card = TopologyCard("Branch lab", _never)
    dock.panel.view.add_card(card)
    qtbot.waitUntil(card.isVisible)
    card.update_picture(PICTURE)
    drawing = card.drawing
    qtbot.waitUntil(lambda: drawing.height() >= drawing.heightForWidth(drawing.width()) > 0)
    yield card
    if card.node_menu is not None:
        card.node_menu.close()
    window.close()


def test_status_dots_and_legend_keep_their_hues_under_the_charcoal_style(
    docked_card: TopologyCard,
) -> None:
    drawing = docked_card.drawing
    for name, hue in (("HUB1", "green"), ("PC1", "red"), ("PC2", "amber")):
        dot = drawing.status_dot(name)
        assert dot is not None
        colour = pixel(drawing, dot)
        assert is_hue(colour, hue), (name, colour.name())
    squares = drawing.legend_swatches()
    for key, hue in (("started", "green"), ("stopped", "red"), ("suspended", "amber")):
        colour = pixel(drawing, squares[key].center())
        assert is_hue(colour, hue), (key, colour.name())


def test_the_node_menu_is_painted_before_it_is_hovered(
    qtbot: QtBot, docked_card: TopologyCard
) -> None:
    centre = docked_card.drawing.node_centre("PC1")
    assert centre is not None
    docked_card._node_clicked("PC1")
    menu = docked_card.node_menu
    assert menu is not None
    qtbot.waitExposed(menu)
    assert menu.activeAction() is None  # nothing hovered
    for point in (QPoint(menu.width() - 4, menu.height() // 2), QPoint(4, menu.height() - 4)):
        colour = pixel(menu, point)
        assert colour.alpha() == 255 and colour.lightness() > 40, colour.name(
            QColor.NameFormat.HexArgb
        )
