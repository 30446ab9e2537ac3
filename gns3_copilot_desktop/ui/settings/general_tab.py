"""The settings' General tab: the heartbeat while the agent works, and the language."""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QComboBox, QDoubleSpinBox, QFormLayout, QWidget

from gns3_copilot_desktop.core.settings import Settings

# Each language by its own name; "" follows the system (its label is translated where shown).
LANGUAGES: list[tuple[str, str]] = [("", "System"), ("en", "English"), ("zh_CN", "简体中文")]


class GeneralTab(QWidget):
    """Shows the heartbeat interval and the language; `store` writes them into the settings."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heartbeat_spin = QDoubleSpinBox(self)
        self.heartbeat_spin.setRange(0.0, 300.0)
        self.heartbeat_spin.setSuffix(QCoreApplication.translate("SettingsDialog", " s"))
        self.heartbeat_spin.setSpecialValueText(QCoreApplication.translate("SettingsDialog", "Off"))
        self.heartbeat_spin.setValue(settings.heartbeat_interval_s)
        self.heartbeat_spin.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Heartbeat interval")
        )
        self.language_combo = QComboBox(self)
        self.language_combo.setAccessibleName(
            QCoreApplication.translate("SettingsDialog", "Language")
        )
        system = QCoreApplication.translate("SettingsDialog", "System")
        for code, label in LANGUAGES:
            self.language_combo.addItem(label if code else system, code)
        current = self.language_combo.findData(settings.language or "")
        self.language_combo.setCurrentIndex(max(0, current))
        form = QFormLayout(self)
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "Heartbeat while working"),
            self.heartbeat_spin,
        )
        form.addRow(
            QCoreApplication.translate("SettingsDialog", "Language (after restart)"),
            self.language_combo,
        )

    def store(self, settings: Settings) -> None:
        """Write the shown heartbeat and language into `settings`."""
        settings.heartbeat_interval_s = self.heartbeat_spin.value()
        settings.language = self.language_combo.currentData() or None
