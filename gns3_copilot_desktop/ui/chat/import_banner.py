"""The banner over the composer while the open session is an imported, read-only one, with its
"Continue this conversation" button (the chat panel connects it)."""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget


class ImportBanner(QWidget):
    """ "Imported conversation — read only" and the button that continues it; hidden at first."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("importBanner")
        line = QHBoxLayout(self)
        line.setContentsMargins(8, 4, 8, 4)
        self.import_label = QLabel(
            QCoreApplication.translate("ChatPanel", "Imported conversation — read only"), self
        )
        self.import_label.setWordWrap(True)
        self.continue_button = QPushButton(
            QCoreApplication.translate("ChatPanel", "Continue this conversation"), self
        )
        self.continue_button.setToolTip(
            QCoreApplication.translate(
                "ChatPanel",
                "Talk about this conversation: the copilot reads it as quoted text; nothing in it "
                "runs",
            )
        )
        self.continue_button.setAccessibleName(
            QCoreApplication.translate("ChatPanel", "Continue this imported conversation")
        )
        line.addWidget(self.import_label, 1)
        line.addWidget(self.continue_button)
        self.hide()
