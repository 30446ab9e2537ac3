"""`ProjectPicker`: the header's project choice and the chat panel switched to it.

It lists the server's projects and follows the one open in GNS3 (`ProjectFollower`); picking
another project by hand pins it, "Follow GNS3" goes back to following. When the project changes
the panel stops, empties and loads that project's sessions (with what happened to them, e.g. a
damaged file replaced, kept under the header while the project is shown).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PyQt6.QtCore import QCoreApplication, QObject

from gns3_copilot_desktop.core.errors import CopilotError, Gns3AuthError, ServicesClosedError
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.qt_async import spawn

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.header.header import CopilotHeader

log = logging.getLogger(__name__)


class ProjectPicker(QObject):
    """The project combo and "Follow GNS3", and the switch of the chat to the current project."""

    def __init__(self, header: CopilotHeader) -> None:
        super().__init__(header)
        self.header = header
        self._driving = False

    async def refresh_projects(self) -> None:
        """Reload the server's projects; the follower then picks the current one."""
        header = self.header
        try:
            await header.workspace.list_projects()
        except Gns3AuthError:
            header.login.auth_failed()
            return
        except CopilotError as exc:
            header.show_message(exc.user_message, error=True)
            return
        self.fill()
        await self.switch_to(header.workspace.follower.current)

    def fill(self) -> None:
        """The combo and "Follow GNS3" as the follower says (no signal while filling)."""
        follower = self.header.workspace.follower
        combo, follow = self.header.project_combo, self.header.follow_button
        combo.blockSignals(True)
        combo.clear()
        for project in follower.projects:
            label = project.name
            if project.status != "opened":
                label = QCoreApplication.translate("CopilotHeader", "{name} (closed)").format(
                    name=project.name
                )
            combo.addItem(label, project.project_id)
        combo.setCurrentIndex(combo.findData(follower.current))
        combo.blockSignals(False)
        follow.blockSignals(True)
        follow.setChecked(not follower.pinned)
        follow.blockSignals(False)

    def picked(self, index: int) -> None:
        """A project chosen by hand: pin it."""
        project_id = self.header.project_combo.itemData(index)
        if isinstance(project_id, str):
            self.header.workspace.follower.pin(project_id)
            self.fill()

    def follow_toggled(self, following: bool) -> None:
        """The "Follow GNS3" button: on follows GNS3's project again; off pins the current one."""
        follower = self.header.workspace.follower
        if following:
            follower.follow()
        elif follower.current is not None:
            follower.pin(follower.current)
        self.fill()

    def follower_changed(self, project_id: str | None) -> None:
        """The follower's current project changed (GNS3 opened one, or the user picked one)."""
        header = self.header
        if header.closed:
            return
        self.fill()
        if not self._driving and not header.external:  # the GNS3 GUI drives it (set_project)
            spawn(self.switch_to(project_id), name="switch-project")

    async def set_project(self, project_id: str | None) -> None:
        """Work on `project_id` (pinned), as the GNS3 GUI asks when its project changes."""
        if project_id is not None and self.header.workspace.follower.project(project_id) is None:
            await self.quiet_refresh()
        self._driving = True
        try:
            self.header.workspace.follower.pin(project_id)
        finally:
            self._driving = False
        self.fill()
        await self.switch_to(project_id)

    async def quiet_refresh(self) -> None:
        """Read the projects again; a failure is only logged (the next event tries again)."""
        try:
            await self.header.workspace.list_projects()
        except CopilotError as exc:
            log.warning("could not list the projects: %s", exc.user_message)

    async def switch_to(self, project_id: str | None) -> None:
        """The chat is now about `project_id`: stop, empty, and load its sessions."""
        header = self.header
        if project_id == header.backend.project_id:
            return
        if header.project_notice is not None:
            notice, header.project_notice = header.project_notice, None
            if header.message_label.text() == core_text(notice):
                header.show_message(None)
        header.panel.stop()
        header.backend.project_id = project_id
        header.workspace.keep_project_open(project_id)
        self.clear_panel()
        header.project_changed.emit(project_id)
        await header.models.update_composer()
        if project_id is not None:
            await header.workspace.remember_project(project_id)
        await header.labs.refresh_node_links()
        await self.reload_panel()

    def clear_panel(self) -> None:
        """No session open: the chat shows a new conversation."""
        panel = self.header.panel
        panel.session_id = None
        panel.sessions.set_current(None)
        panel.view.clear()
        panel.set_session_mode(None)  # practice-ui: no mode badge, no practice panel
        panel.title_label.setText(QCoreApplication.translate("CopilotHeader", "New conversation"))
        panel.status.reset()

    async def reload_panel(self) -> None:
        """Load the current project's sessions into the panel, and what happened to them."""
        header = self.header
        try:
            await header.panel.start()
            notices = await header.backend.project_notices()
            if notices:
                # Kept while this project is shown: a later "all clear" (a login, the server
                # back) must not wipe what happened to its conversations.
                header.project_notice = "\n".join(notices)
                header.show_message(header.project_notice)
        except ServicesClosedError:
            raise  # logged out or closing while the sessions loaded: the whole step ends quietly
        except CopilotError as exc:
            header.show_message(exc.user_message, error=True)
