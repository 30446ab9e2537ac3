"""Node names in answers are links: whole words only, never in code or other links, hostile names
left alone; a click offers Open console (the OS's telnet handler, through Qt's own URL handler
mechanism) and, docked in GNS3, Show in GNS3."""

from __future__ import annotations

from PyQt6.QtCore import QObject, Qt, QUrl, pyqtSlot
from PyQt6.QtGui import QDesktopServices
from PyQt6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.ui.chat.message_view import MessageView
from gns3_copilot_desktop.ui.lab.node_links import NodeLinks, linkify, unlink

NAMES = {"R1", "R10", "PC-1", "a.b", "R1 <b>", "C++", "x" * 80}


def test_whole_names_become_links_and_nothing_else() -> None:
    text = "R1 talks to R10; R1's link. See `R1 show` and [R1](http://e/R1) or http://h/R1 a.b."
    out = linkify(text, NAMES)
    assert out.startswith("[R1](gns3-node:R1) talks to [R10](gns3-node:R10)")
    assert "[R1](gns3-node:R1)'s link" in out
    assert "`R1 show`" in out and "[R1](http://e/R1)" in out and "http://h/R1" in out
    assert "[a.b](gns3-node:a.b)." in out
    assert linkify("R100 and xR1 and R1x", NAMES) == "R100 and xR1 and R1x"
    assert linkify("PC-1 up", NAMES) == "[PC-1](gns3-node:PC-1) up"
    # names that are not safe in a Markdown link are never turned into one
    assert linkify("C++ and R1 <b> and " + "x" * 80, {"C++", "R1 <b>", "x" * 80}) == (
        "C++ and R1 <b> and " + "x" * 80
    )
    assert linkify("R1", set()) == "R1"
    assert unlink(out) == text


class _Telnet(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.opened: list[QUrl] = []

    @pyqtSlot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url)


def _node(name: str, status: str, host: str = "0.0.0.0") -> Node:
    return Node(
        node_id=f"id-{name}",
        name=name,
        node_type="vpcs",
        status=status,
        console=5001,
        console_type="telnet",
        console_host=host,
    )


def test_a_node_link_opens_its_console_or_says_why_not(qtbot: QtBot) -> None:
    telnet = _Telnet()
    QDesktopServices.setUrlHandler("telnet", telnet, "open")
    links = NodeLinks()
    try:
        links.set_nodes([_node("PC1", "started"), _node("PC2", "stopped")], "192.0.2.9")
        view = MessageView()
        qtbot.addWidget(view)
        view.append_content("PC1 answers, PC2 is stopped.\n\nAnd `PC1` in code.\n\n")
        view.flush()
        labels = [lb.text() for lb in view.findChildren(QLabel)]
        assert any("[PC1](gns3-node:PC1)" in t and "[PC2](gns3-node:PC2)" in t for t in labels)
        assert any("`PC1`" in t for t in labels)

        QDesktopServices.openUrl(QUrl("gns3-node:PC1"))  # what a click on the link does
        assert links.menu is not None
        [console] = links.menu.actions()  # not docked in GNS3: no "Show in GNS3"
        assert console.isEnabled()
        console.trigger()
        assert [u.toString() for u in telnet.opened] == ["telnet://192.0.2.9:5001"]

        QDesktopServices.openUrl(QUrl("gns3-node:PC2"))
        [console] = links.menu.actions()
        assert not console.isEnabled() and "not running" in console.toolTip()

        class Canvas:
            def __init__(self) -> None:
                self.selected: list[str] = []

            def select_node(self, node_id: str) -> bool:
                self.selected.append(node_id)
                return True

            def open_console(self, node_id: str) -> bool:
                return False

        canvas = Canvas()
        links.canvas = canvas
        QDesktopServices.openUrl(QUrl("gns3-node:PC1"))
        console, show = links.menu.actions()
        show.trigger()
        assert canvas.selected == ["id-PC1"]
        QDesktopServices.openUrl(QUrl("gns3-node:nobody"))  # a stale link: nothing happens
    finally:
        links.close()
        QDesktopServices.unsetUrlHandler("telnet")


def test_a_tool_cards_nodes_are_links(qtbot: QtBot) -> None:
    from gns3_copilot_desktop.ui.cards.tool_card import ToolCard

    links = NodeLinks()
    try:
        links.set_nodes([_node("PC1", "started"), _node("SW1", "started"), _node("PC10", "x")])
        card = ToolCard(
            "c1",
            "delete_links",
            {"links": [{"node_a": "PC1", "node_b": "SW1"}], "note": "<b>PC10x</b>"},
            "delete link PC1 <-> SW1",
        )
        qtbot.addWidget(card)
        card.set_expanded(True)
        label = card.nodes_label
        assert label is not None and label.openExternalLinks()
        assert label.textFormat() == Qt.TextFormat.RichText
        assert label.text() == (
            "Nodes: <a href='gns3-node:PC1'>PC1</a>, <a href='gns3-node:SW1'>SW1</a>"
        )  # PC10 is not a word of the call; the markup in the arguments is not a name
        QDesktopServices.openUrl(QUrl("gns3-node:SW1"))  # what a click on the link does
        assert links.menu is not None and links.menu.title() == "SW1"

        quiet = ToolCard("c2", "list_projects", {}, "List projects")
        qtbot.addWidget(quiet)
        quiet.set_expanded(True)
        assert quiet.nodes_label is None
    finally:
        links.close()
