"""The lab as it runs, shown in the chat: the drawing with each node's status, kept current.

The header's "Lab" button adds one; the app refreshes the visible cards when GNS3 says a node
or a link changed (bursts of notifications are coalesced; a hidden card is not redrawn: the last
picture waits until it shows). A click on a node offers "Open console" and, when the app can
reach the GNS3 GUI's canvas, "Show in GNS3": the same actions as a node's link in the chat
(`NodeLinks`, whose node list the app keeps current from the card's reads)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

from PyQt6.QtCore import QCoreApplication, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QAction, QCursor, QShowEvent
from PyQt6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
)

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Notification
from gns3_copilot_desktop.core.gns3.notifications import LinkState, OnLink
from gns3_copilot_desktop.core.lab_plan.picture import LabPicture
from gns3_copilot_desktop.ui.lab.drawing import LabDrawing
from gns3_copilot_desktop.ui.lab.node_links import NodeLinks
from gns3_copilot_desktop.ui.qt_async import spawn

REFRESH_DELAY_MS = 300
"""Notifications come in bursts (a start sends several): one read after the burst."""

PictureSource = Callable[[], Awaitable[LabPicture]]
EventSource = Callable[[OnLink], AsyncIterator[Notification]]
"""The project's events; the card passes what to call when the subscription is up or lost."""


class TopologyCard(QFrame):
    """A card with the lab's drawing, a status summary and Refresh."""

    refreshed = pyqtSignal()
    open_console = pyqtSignal(str)
    """A node's name: the user chose "Open console" on it."""
    select_node = pyqtSignal(str)
    """A node's name: the user chose "Show in GNS3" on it."""

    def __init__(
        self,
        title: str,
        source: PictureSource,
        events: EventSource | None = None,
        parent: QFrame | None = None,
        node_links: NodeLinks | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("toolCard")
        self._source = source
        self.node_links = node_links
        """The project's nodes (console, id) and the GNS3 GUI's canvas when docked."""
        self._follower: asyncio.Task[None] | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        top = QHBoxLayout()
        self.title = QLabel(
            QCoreApplication.translate("TopologyCard", "Lab %1").replace("%1", title), self
        )
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # a project named <img src=...>
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.refresh_button = QToolButton(self)
        self.refresh_button.setText(QCoreApplication.translate("TopologyCard", "Refresh"))
        self.refresh_button.setAccessibleName(
            QCoreApplication.translate("TopologyCard", "Refresh the lab drawing")
        )
        self.refresh_button.clicked.connect(lambda *_: self.refresh_soon(0))
        top.addWidget(self.title, 1)
        top.addWidget(self.refresh_button)
        layout.addLayout(top)
        self.summary = QLabel(self)
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.drawing = LabDrawing(parent=self)
        self.drawing.node_clicked.connect(self._node_clicked)
        layout.addWidget(self.drawing)
        self.select_in_gns3: Callable[[str], object] | None = None
        """Set by the app when it runs inside the GNS3 GUI: "Show in GNS3" calls it (and
        emits `select_node`)."""
        self.node_menu: QMenu | None = None
        self._pending: LabPicture | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(lambda: spawn(self.refresh(), name="lab-drawing"))
        self.refreshes = 0
        self.following = False
        """Whether the project's events reach the card now (the subscription is up)."""
        if events is not None:
            follower = spawn(self._follow(events), name="lab-drawing-events")
            self._follower = follower
            self.destroyed.connect(lambda *_: follower.cancel())

    async def _follow(self, events: EventSource) -> None:
        """Read the lab again after the project's node and link events (until closed)."""
        with contextlib.suppress(CopilotError):  # the project went away: the card stays as is
            async for event in events(self._link_changed):
                if event.action.startswith(("node.", "link.")):
                    self.refresh_soon()

    def _link_changed(self, state: LinkState) -> None:
        self.following = state.connected
        if state.connected:
            self.refresh_soon(0)  # catch up with what changed before (or while) it was down

    def stop_following(self) -> None:
        """Stop listening to the project's events (the card keeps its last drawing)."""
        if self._follower is not None:
            self._follower.cancel()

    def refresh_soon(self, delay_ms: int = REFRESH_DELAY_MS) -> None:
        """Read the lab again after ``delay_ms`` (restarted by each call: one read per burst);
        nothing while the card is not visible."""
        if self.isVisible() or delay_ms == 0:
            self._timer.start(delay_ms)

    async def refresh(self) -> None:
        """Read the lab now and redraw it."""
        try:
            picture = await self._source()
        except CopilotError as exc:
            self.summary.setText(exc.user_message)
            return
        self.update_picture(picture)

    def update_picture(self, picture: LabPicture) -> None:
        """Draw ``picture`` and say how many nodes run; while the card is hidden only the
        latest picture is kept, and drawn when it shows."""
        if not self.isVisible():
            self._pending = picture
            return
        self._pending = None
        self.refreshes += 1
        self.drawing.set_picture(picture)
        running = sum(1 for n in picture.nodes if n.status == "started")
        self.summary.setText(
            QCoreApplication.translate("TopologyCard", "%1 nodes (%2 running), %3 links")
            .replace("%1", str(len(picture.nodes)))
            .replace("%2", str(running))
            .replace("%3", str(len(picture.links)))
        )
        self.refreshed.emit()

    def showEvent(self, event: QShowEvent | None) -> None:
        """Draw the picture that came while the card was hidden."""
        super().showEvent(event)
        if self._pending is not None:
            QTimer.singleShot(0, self._draw_pending)

    def _draw_pending(self) -> None:
        if self._pending is not None and self.isVisible():
            self.update_picture(self._pending)

    def _node_clicked(self, name: str) -> None:
        if self.node_menu is not None:
            self.node_menu.deleteLater()
        self.node_menu = self.build_node_menu(name)
        self.node_menu.popup(QCursor.pos())

    def build_node_menu(self, name: str) -> QMenu:
        """What can be done with a node from the drawing: its console, and showing it in the
        GNS3 GUI when the app runs there.

        The menu has no parent: inside the chat, the conversation's isolation from a host style
        sheet makes every child widget's background transparent, and a transparent pop-up is a
        black box until an item is hovered (in the GNS3 GUI)."""
        menu = QMenu()
        menu.setTitle(name)
        entry = self.node_links.nodes.get(name) if self.node_links is not None else None
        console = QAction(QCoreApplication.translate("TopologyCard", "Open console"), menu)
        links = self.node_links
        if (
            links is not None
            and entry is not None
            and links.canvas is None
            and links.console_url(entry) is None
        ):
            console.setEnabled(False)
            console.setToolTip(links.no_console_reason(entry))
        console.triggered.connect(lambda *_: self._open_console(name))
        menu.addAction(console)
        select = self._selector(name)
        if select is not None:
            show = QAction(QCoreApplication.translate("TopologyCard", "Show in GNS3"), menu)

            def show_node(*_: object) -> None:
                select()
                self.select_node.emit(name)

            show.triggered.connect(show_node)
            menu.addAction(show)
        menu.setToolTipsVisible(True)
        return menu

    def _open_console(self, name: str) -> None:
        """The node's console: the GNS3 GUI's own when docked, else the OS's telnet handler."""
        links = self.node_links
        entry = links.nodes.get(name) if links is not None else None
        if links is not None and entry is not None:
            links.open_console(entry)
        self.open_console.emit(name)

    def _selector(self, name: str) -> Callable[[], object] | None:
        """What "Show in GNS3" calls for ``name``, or None outside the GNS3 GUI."""
        select = self.select_in_gns3
        if select is not None:
            return lambda: select(name)
        links = self.node_links
        canvas = links.canvas if links is not None else None
        entry = links.nodes.get(name) if links is not None else None
        if canvas is None or entry is None:
            return None
        node_id = entry.node_id
        return lambda: canvas.select_node(node_id)
