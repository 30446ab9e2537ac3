"""The settings dialog's "Copilot service" tab: where the agent runs.

"Copilot runs on: ( ) this computer ( ) a copilot service at URL [...]". The choice is written to
the dialog's copy of the settings as it is made (`Settings.copilot_service_url`); the dialog hands
that copy back when the user saves. A URL that is not an http(s) address is said so under the
field, and the copilot then stays on this computer.

An HTTPS service whose certificate a private CA signed (a school's own) is trusted through that
CA's file (`Settings.copilot_service_ca_file`); left empty, the system's trusted certificates.
"""

from __future__ import annotations

from pathlib import Path

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.core.settings import Settings, normalize_service_url


class CopilotServiceTab(QWidget):
    """Chooses between this computer's agent and a copilot service's."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        translate = QCoreApplication.translate
        title = QLabel(translate("CopilotServiceTab", "Copilot runs on:"), self)
        self.local_radio = QRadioButton(translate("CopilotServiceTab", "this computer"), self)
        self.remote_radio = QRadioButton(
            translate("CopilotServiceTab", "a copilot service at URL"), self
        )
        self.local_radio.setAccessibleName(
            translate("CopilotServiceTab", "Copilot runs on this computer")
        )
        self.remote_radio.setAccessibleName(
            translate("CopilotServiceTab", "Copilot runs on a copilot service")
        )
        self.url_edit = QLineEdit(self)
        self.url_edit.setAccessibleName(translate("CopilotServiceTab", "Copilot service URL"))
        self.url_edit.setPlaceholderText("http://lab-machine:3081")
        self.url_edit.setText(settings.copilot_service_url or "")
        self.hint = QLabel(
            translate(
                "CopilotServiceTab",
                "A service started with 'gns3-copilot serve' on another computer answers with "
                "its own model; your GNS3 login is sent with each request.",
            ),
            self,
        )
        self.hint.setWordWrap(True)
        self.ca_label = QLabel(
            translate(
                "CopilotServiceTab",
                "CA file for HTTPS (empty: the system's trusted certificates):",
            ),
            self,
        )
        self.ca_label.setWordWrap(True)
        self.ca_edit = QLineEdit(self)
        self.ca_edit.setAccessibleName(translate("CopilotServiceTab", "Copilot service CA file"))
        self.ca_edit.setText(settings.copilot_service_ca_file or "")
        self.ca_label.setBuddy(self.ca_edit)
        self.ca_browse = QPushButton(translate("CopilotServiceTab", "Choose..."), self)
        self.ca_browse.setAutoDefault(False)
        self.ca_browse.setAccessibleName(
            translate("CopilotServiceTab", "Choose the copilot service's CA file")
        )
        self.ca_browse.clicked.connect(self._choose_ca)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setAccessibleName(translate("CopilotServiceTab", "Copilot service problem"))
        self.problem.hide()
        group = QButtonGroup(self)
        group.addButton(self.local_radio)
        group.addButton(self.remote_radio)
        (self.remote_radio if settings.copilot_service_url else self.local_radio).setChecked(True)
        self.title_label = title
        title.setBuddy(self.local_radio)

        url_row = QHBoxLayout()
        url_row.addWidget(self.remote_radio)
        url_row.addWidget(self.url_edit, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.local_radio)
        layout.addLayout(url_row)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_edit, 1)
        ca_row.addWidget(self.ca_browse)
        layout.addWidget(self.ca_label)
        layout.addLayout(ca_row)
        layout.addWidget(self.problem)
        layout.addWidget(self.hint)
        layout.addStretch(1)
        self.remote_radio.toggled.connect(self._store)
        self.url_edit.textChanged.connect(self._store)
        self.ca_edit.textChanged.connect(self._store)
        self._store()

    def _choose_ca(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            QCoreApplication.translate("CopilotServiceTab", "CA file of the copilot service"),
            self.ca_edit.text(),
            QCoreApplication.translate("CopilotServiceTab", "Certificates (*.pem *.crt)"),
        )
        if path:
            self.ca_edit.setText(path)

    def _store(self, *_: object) -> None:
        remote = self.remote_radio.isChecked()
        for widget in (self.url_edit, self.ca_edit, self.ca_browse):
            widget.setEnabled(remote)
        text = self.url_edit.text().strip()
        url: str | None = None
        problem = ""
        if remote:
            try:
                url = normalize_service_url(text)
            except ValueError:
                problem = QCoreApplication.translate(
                    "CopilotServiceTab",
                    "Enter the http:// or https:// address of the copilot service; until then "
                    "the copilot runs on this computer.",
                )
        ca_file = self.ca_edit.text().strip() or None
        if remote and not problem and ca_file is not None and not Path(ca_file).is_file():
            problem = QCoreApplication.translate(
                "CopilotServiceTab",
                "The CA file does not exist: the copilot service cannot be trusted until it does.",
            )
        self._settings.copilot_service_url = url
        self._settings.copilot_service_ca_file = ca_file
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
