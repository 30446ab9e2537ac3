"""The settings' Permissions tab: the tools that run without asking, per project, to revoke."""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from gns3_copilot_desktop.core.settings import Settings
from gns3_copilot_desktop.ui.settings.widgets import push_button


class PermissionsTab(QWidget):
    """Lists the always-allowed tools of the settings being edited; Revoke removes one."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        label = QLabel(
            QCoreApplication.translate(
                "SettingsDialog", "Tools that run without asking, per project:"
            ),
            self,
        )
        self.grants_list = QListWidget(self)
        self.grants_list.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Always-allowed tools")
        )
        revoke = push_button(
            QCoreApplication.translate("SettingsDialog", "Revoke"), self, self.revoke
        )
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.grants_list)
        layout.addWidget(revoke)
        self._reload()

    def _reload(self) -> None:
        self.grants_list.clear()
        for key, tools in sorted(self._settings.always_allow.items()):
            server, _, project = key.partition("|")
            for tool in tools:
                item = QListWidgetItem(f"{tool} — {project} @ {server}")
                item.setData(256, (key, tool))
                self.grants_list.addItem(item)

    def revoke(self, *_: object) -> None:
        """Revoke the selected grant (the tool asks again)."""
        item = self.grants_list.currentItem()
        if item is None:
            return
        key, tool = item.data(256)
        server, _, project = key.partition("|")
        self._settings.revoke_always_allow(server, project, tool)
        self._reload()
