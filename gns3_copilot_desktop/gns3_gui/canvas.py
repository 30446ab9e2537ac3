"""The GNS3 GUI's canvas, for node links: select and centre a node, open its console the GUI's
way. Calls into GNS3 that may run a nested event loop are deferred to a plain Qt callback (see
the notes on re-entrancy)."""

from __future__ import annotations

from typing import Any

from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import QMainWindow


class GuiCanvas:
    """`ui.node_links.Gns3Canvas` over GNS3's main window."""

    def __init__(self, window: QMainWindow) -> None:
        self._window = window

    def _view(self) -> Any:
        return getattr(self._window, "uiGraphicsView", None)

    def _item(self, node_id: str) -> Any:
        view = self._view()
        scene = view.scene() if view is not None else None
        if scene is None:
            return None
        for item in scene.items():
            node = getattr(item, "node", None)
            if callable(node):
                try:
                    if node().node_id() == node_id:
                        return item
                except (AttributeError, TypeError):
                    continue
        return None

    def select_node(self, node_id: str) -> bool:
        """Select the node's item alone and centre the view on it."""
        item = self._item(node_id)
        if item is None:
            return False
        view = self._view()
        view.scene().clearSelection()
        item.setSelected(True)
        view.centerOn(item)
        return True

    def open_console(self, node_id: str) -> bool:
        """The GUI's own console action for the node (its configured terminal)."""
        item = self._item(node_id)
        if item is None:
            return False
        node = item.node()
        QTimer.singleShot(0, node.openConsole)
        return True
