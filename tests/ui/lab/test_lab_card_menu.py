"""The Lab card without a server: a picture that comes while the card is hidden waits for it
to show (only the latest is drawn), a click on a node offers its console (and "Show in GNS3"
only when the app can reach the GNS3 GUI), and a hostile project name stays text."""

from __future__ import annotations

import itertools

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QDesktopServices
from PyQt6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
from gns3_copilot_desktop.ui.lab.lab_card import TopologyCard
from gns3_copilot_desktop.ui.lab.node_links import NodeLinks
from tests.ui.lab.test_node_links import _node, _Telnet

HOSTILE = "<b>PC</b><img src=x>"


def _picture(*names: str) -> LabPicture:
    nodes = tuple(
        PictureNode(name, "vpcs", i * 200, 0, status="started") for i, name in enumerate(names)
    )
    links = tuple(
        PictureLink(a.name, "Ethernet0", b.name, "Ethernet0") for a, b in itertools.pairwise(nodes)
    )
    return LabPicture(nodes, links)


async def _never() -> LabPicture:
    raise AssertionError("the card should not read the lab in this test")


def test_a_hidden_card_draws_only_the_latest_picture_once_it_shows(qtbot: QtBot) -> None:
    card = TopologyCard(HOSTILE, _never)
    qtbot.addWidget(card)
    card.update_picture(_picture("PC1"))
    card.update_picture(_picture("PC1", "PC2", "PC3"))
    assert card.refreshes == 0 and card.drawing.picture.nodes == ()
    card.resize(420, 400)
    card.show()
    qtbot.waitUntil(lambda: card.refreshes == 1)
    assert [n.name for n in card.drawing.picture.nodes] == ["PC1", "PC2", "PC3"]
    assert "3 nodes (3 running), 2 links" in card.summary.text()
    card.update_picture(_picture("PC1"))  # visible: drawn at once
    assert card.refreshes == 2 and len(card.drawing.picture.nodes) == 1
    # the project's name is shown as written
    assert card.title.textFormat() == Qt.TextFormat.PlainText
    assert HOSTILE in card.title.text()
    assert not any(
        label.textFormat() == Qt.TextFormat.RichText for label in card.findChildren(QLabel)
    )


def test_a_click_on_a_node_offers_its_console_and_show_in_gns3(qtbot: QtBot) -> None:
    card = TopologyCard("lab", _never)
    qtbot.addWidget(card)
    card.resize(500, 400)
    card.show()
    qtbot.waitExposed(card)
    card.update_picture(_picture(HOSTILE, "PC2"))
    qtbot.waitUntil(lambda: card.drawing.node_centre(HOSTILE) is not None)
    centre = card.drawing.node_centre(HOSTILE)
    assert centre is not None

    qtbot.mouseClick(card.drawing, Qt.MouseButton.LeftButton, pos=centre.toPoint())
    menu = card.node_menu
    assert menu is not None and menu.title() == HOSTILE
    assert [a.text() for a in menu.actions()] == ["Open console"]  # not in the GNS3 GUI
    with qtbot.waitSignal(card.open_console, timeout=2000) as console:
        menu.actions()[0].trigger()
    assert console.args == [HOSTILE]
    menu.close()

    selected: list[str] = []
    card.select_in_gns3 = selected.append
    other = card.drawing.node_centre("PC2")
    assert other is not None
    qtbot.mouseClick(card.drawing, Qt.MouseButton.LeftButton, pos=other.toPoint())
    menu = card.node_menu
    assert menu is not None
    assert [a.text() for a in menu.actions()] == ["Open console", "Show in GNS3"]
    with qtbot.waitSignal(card.select_node, timeout=2000) as shown:
        menu.actions()[1].trigger()
    assert shown.args == ["PC2"] and selected == ["PC2"]
    menu.close()


def test_open_console_on_the_lab_card_opens_the_nodes_console(qtbot: QtBot) -> None:
    """Alone: the OS's telnet handler gets the node's console host and port; docked: the GNS3
    GUI's canvas opens it (and "Show in GNS3" selects it), by the node's id."""
    telnet = _Telnet()
    QDesktopServices.setUrlHandler("telnet", telnet, "open")
    links = NodeLinks()
    try:
        links.set_nodes(
            [_node("PC1", "started", "192.0.2.7"), _node("PC2", "stopped")], "192.0.2.9"
        )
        card = TopologyCard("lab", _never, node_links=links)
        qtbot.addWidget(card)
        card.resize(500, 400)
        card.show()
        qtbot.waitExposed(card)
        card.update_picture(_picture("PC1", "PC2"))
        centre = card.drawing.node_centre("PC1")
        assert centre is not None
        qtbot.mouseClick(card.drawing, Qt.MouseButton.LeftButton, pos=centre.toPoint())
        menu = card.node_menu
        assert menu is not None and menu.parent() is None  # a pop-up of its own
        [console] = menu.actions()
        with qtbot.waitSignal(card.open_console, timeout=2000):
            console.trigger()
        assert [(u.host(), u.port()) for u in telnet.opened] == [("192.0.2.7", 5001)]
        menu.close()
        card._node_clicked("PC2")  # stopped: says why there is no console
        [console] = card.node_menu.actions() if card.node_menu else []
        assert not console.isEnabled() and "not running" in console.toolTip()

        canvas = _Canvas()
        links.canvas = canvas
        card._node_clicked("PC1")
        assert card.node_menu is not None
        console, show = card.node_menu.actions()
        assert show.text() == "Show in GNS3"
        console.trigger()
        show.trigger()
        assert canvas.consoles == ["id-PC1"] and canvas.selected == ["id-PC1"]
        assert len(telnet.opened) == 1  # the GUI's console, not a second telnet
    finally:
        links.close()
        QDesktopServices.unsetUrlHandler("telnet")


class _Canvas:
    """Stands in for the GNS3 GUI's canvas (the real one: tests/gns3_gui)."""

    def __init__(self) -> None:
        self.selected: list[str] = []
        self.consoles: list[str] = []

    def select_node(self, node_id: str) -> bool:
        self.selected.append(node_id)
        return True

    def open_console(self, node_id: str) -> bool:
        self.consoles.append(node_id)
        return True
