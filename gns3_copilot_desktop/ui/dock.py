"""`CopilotDock`: the Copilot as a dock widget for any QMainWindow (standalone or the GNS3 GUI)."""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication, Qt
from PyQt6.QtWidgets import QDockWidget, QMainWindow, QWidget

from gns3_copilot_desktop.ui.backends.base import ChatBackend
from gns3_copilot_desktop.ui.chat.panel import ChatPanel

MIN_WIDTH = 320


class CopilotDock(QDockWidget):
    """Holds a `ChatPanel`; works as a ~360 px side panel and as a wide window."""

    def __init__(self, backend: ChatBackend, parent: QWidget | None = None) -> None:
        super().__init__(QCoreApplication.translate("CopilotDock", "GNS3 Copilot"), parent)
        self.setObjectName("CopilotDock")  # saveState/restoreState key
        self.setAccessibleName(QCoreApplication.translate("CopilotDock", "GNS3 Copilot"))
        self.setAllowedAreas(
            Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.panel = ChatPanel(backend, self)
        self.panel.setMinimumWidth(MIN_WIDTH)
        self.setWidget(self.panel)

    def add_to(
        self, window: QMainWindow, area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea
    ) -> None:
        """Dock into `window` (on the right by default)."""
        window.addDockWidget(area, self)
