"""`LabCards`: the project's topology drawn in the chat, and its node names as links.

The header's "Lab" button adds a `TopologyCard` kept current by the project's notifications;
after each answer the project's nodes are read again so their names in the chat become links
(the card's node menu opens consoles from the same `NodeLinks`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PyQt6.QtCore import QCoreApplication, QObject

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.lab_plan.picture import LabPicture
from gns3_copilot_desktop.core.lab_plan.topology import picture_of_lab
from gns3_copilot_desktop.ui.lab.lab_card import TopologyCard

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.gns3.client import Gns3Client
    from gns3_copilot_desktop.ui.header.header import CopilotHeader

log = logging.getLogger(__name__)


class LabCards(QObject):
    """Opens topology cards in the chat and keeps the node links current."""

    def __init__(self, header: CopilotHeader) -> None:
        super().__init__(header)
        self.header = header

    async def refresh_node_links(self) -> None:
        """Read the project's nodes: their names in answers become links."""
        header = self.header
        project_id, client = header.backend.project_id, header.workspace.client
        if header.closed:
            return
        if project_id is None or client is None:
            header.node_links.set_nodes([])
            return
        try:
            nodes = await client.list_nodes(project_id)
        except CopilotError as exc:
            log.info("node links not refreshed: %s", exc.user_message)
            return
        if project_id == header.backend.project_id and not header.closed:
            header.node_links.set_nodes(nodes, urlsplit(client.base_url).hostname)

    def show_lab(self) -> TopologyCard | None:
        """Add a card with the current project's topology to the chat (kept current)."""
        header = self.header
        project_id = header.backend.project_id
        client = header.workspace.client
        if project_id is None or client is None:
            # not logged in, a project cannot be opened yet: say the step that comes first
            header.show_message(
                QCoreApplication.translate("CopilotHeader", "Log in to see your lab.")
                if client is None
                else QCoreApplication.translate("CopilotHeader", "Open a project to see its lab."),
                error=True,
            )
            return None
        title = header.project_combo.currentText() or project_id

        def live() -> Gns3Client:
            # the workspace's client of now: the card outlives a logout and a new login (the
            # client it was made with is then closed, and says so)
            return header.workspace.client or client

        async def read() -> LabPicture:
            current = live()
            nodes = await current.list_nodes(project_id)
            links = await current.list_links(project_id)
            if project_id == header.backend.project_id and not header.closed:
                # the card's node menu opens consoles from these (status, console port)
                header.node_links.set_nodes(nodes, urlsplit(current.base_url).hostname)
            return picture_of_lab(nodes, links)

        card = TopologyCard(
            title,
            read,
            lambda on_link: live().project_notifications(project_id, on_link=on_link),
            node_links=header.node_links,
        )
        header.panel.view.add_card(card)
        card.refresh_soon(0)
        return card
