"""Node names in answers become links: a click offers "Open console" and, docked in the GNS3 GUI,
"Show in GNS3".

The answer's Markdown gets ``[R1](gns3-node:R1)`` links for the current project's node names
(whole words only, never inside code or another link; only names that are safe in a Markdown link:
letters, digits, ``_ . -``). Qt hands a click on such a link to the URL handler of the
``gns3-node`` scheme registered here, which shows the menu at the pointer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Protocol
from urllib.parse import quote, unquote

from PyQt6.QtCore import QCoreApplication, QObject, QUrl, pyqtSlot
from PyQt6.QtGui import QAction, QCursor, QDesktopServices
from PyQt6.QtWidgets import QMenu

from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.platform import open_node_console

SCHEME = "gns3-node"
SAFE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# Inline code, Markdown links and images, autolinks and bare URLs: left as they are.
_PROTECTED = re.compile(r"(`+)[^`]*?\1|!?\[[^\]]*\]\([^)]*\)|<[^>\s]+>|https?://\S+")
_WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "0:0:0:0:0:0:0:0"})


@dataclass(frozen=True)
class NodeEntry:
    """What a node link needs: its id, console and status."""

    node_id: str
    name: str
    status: str
    console_type: str | None
    console_host: str | None
    console: int | None


class Gns3Canvas(Protocol):
    """The GNS3 GUI's side, when the dock lives inside it."""

    def select_node(self, node_id: str) -> bool: ...

    def open_console(self, node_id: str) -> bool: ...


def linkify(markdown: str, names: set[str]) -> str:
    """``markdown`` with whole-word occurrences of ``names`` turned into node links."""
    safe = sorted((n for n in names if SAFE_NAME.fullmatch(n)), key=len, reverse=True)
    if not safe or not markdown:
        return markdown
    word = re.compile(r"(?<![\w.\-\[/:])(" + "|".join(map(re.escape, safe)) + r")(?![\w\-]|\.\w)")
    out: list[str] = []
    last = 0
    for protected in _PROTECTED.finditer(markdown):
        out.append(_link_words(markdown[last : protected.start()], word))
        out.append(protected.group(0))
        last = protected.end()
    out.append(_link_words(markdown[last:], word))
    return "".join(out)


def unlink(markdown: str) -> str:
    """``markdown`` without the node links `linkify` added (the words as the answer had them)."""
    return _NODE_LINK.sub(r"\1", markdown)


_NODE_LINK = re.compile(r"\[([A-Za-z0-9_.-]{1,64})\]\(" + SCHEME + r":[^)\s]*\)")


def _link_words(text: str, word: re.Pattern[str]) -> str:
    return word.sub(lambda m: f"[{m.group(1)}]({SCHEME}:{quote(m.group(1))})", text)


_active: NodeLinks | None = None
"""The app's node links (one per process, like the URL handler Qt keeps for the scheme)."""


def linked(markdown: str) -> str:
    """``markdown`` with the current project's node names as links (as it is without them)."""
    return linkify(markdown, _active.names) if _active is not None else markdown


def mentioned_nodes(texts: list[str]) -> list[str]:
    """The current project's node names that appear as whole words in ``texts`` (sorted)."""
    names = _active.names if _active is not None else set()
    safe = [n for n in names if SAFE_NAME.fullmatch(n)]
    if not safe:
        return []
    joined = "\n".join(texts)
    return sorted(
        n for n in safe if re.search(r"(?<![\w.\-])" + re.escape(n) + r"(?![\w\-]|\.\w)", joined)
    )


def node_anchors(names: list[str]) -> str:
    """``names`` as rich-text links a click on which shows the node's menu."""
    return ", ".join(
        f"<a href='{SCHEME}:{quote(name)}'>{escape(name)}</a>"
        for name in names
        if SAFE_NAME.fullmatch(name)
    )


class NodeLinks(QObject):
    """The project's nodes, and the handler of clicks on their links."""

    def __init__(self, server_host: str = "127.0.0.1", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.nodes: dict[str, NodeEntry] = {}
        self.server_host = server_host
        self.canvas: Gns3Canvas | None = None
        self.menu: QMenu | None = None
        QDesktopServices.setUrlHandler(SCHEME, self, "open_link")
        global _active
        _active = self

    def close(self) -> None:
        """Stop handling node links."""
        global _active
        QDesktopServices.unsetUrlHandler(SCHEME)
        if _active is self:
            _active = None

    @property
    def names(self) -> set[str]:
        return set(self.nodes)

    def set_nodes(self, nodes: list[Node], server_host: str | None = None) -> None:
        """The current project's nodes (an empty list: no links)."""
        if server_host:
            self.server_host = server_host
        self.nodes = {
            n.name: NodeEntry(
                n.node_id, n.name, n.status, n.console_type, n.console_host, n.console
            )
            for n in nodes
        }

    @pyqtSlot(QUrl)
    def open_link(self, url: QUrl) -> None:
        """A node link was clicked: the menu at the pointer."""
        entry = self.nodes.get(unquote(url.path()))
        if entry is not None:
            self.menu = self.build_menu(entry)
            self.menu.popup(QCursor.pos())

    def build_menu(self, entry: NodeEntry) -> QMenu:
        """The actions on one node."""
        menu = QMenu()
        menu.setTitle(entry.name)
        console = QAction(QCoreApplication.translate("NodeLinks", "Open console"), menu)
        url = self.console_url(entry)
        if self.canvas is None and url is None:
            console.setEnabled(False)
            console.setToolTip(self.no_console_reason(entry))
        console.triggered.connect(lambda *_: self.open_console(entry))
        menu.addAction(console)
        if self.canvas is not None:
            show = QAction(QCoreApplication.translate("NodeLinks", "Show in GNS3"), menu)
            canvas = self.canvas
            show.triggered.connect(lambda *_: canvas.select_node(entry.node_id))
            menu.addAction(show)
        menu.setToolTipsVisible(True)
        return menu

    def console_url(self, entry: NodeEntry) -> QUrl | None:
        """The telnet URL of a started node's console, or None."""
        if entry.status != "started" or entry.console_type != "telnet" or not entry.console:
            return None
        host = entry.console_host or ""
        if host in _WILDCARD_HOSTS:
            host = self.server_host
        url = QUrl()
        url.setScheme("telnet")
        url.setHost(host)
        url.setPort(entry.console)
        return url

    def no_console_reason(self, entry: NodeEntry) -> str:
        if entry.status != "started":
            return QCoreApplication.translate("NodeLinks", "%1 is not running.").replace(
                "%1", entry.name
            )
        return QCoreApplication.translate("NodeLinks", "%1 has no telnet console.").replace(
            "%1", entry.name
        )

    def open_console(self, entry: NodeEntry) -> bool:
        """The GNS3 GUI's own console when docked, else the OS's telnet handler."""
        if self.canvas is not None and self.canvas.open_console(entry.node_id):
            return True
        url = self.console_url(entry)
        return url is not None and open_node_console(
            url.host(), url.port(), entry.name, desktop=lambda: QDesktopServices.openUrl(url)
        )
