"""The Classroom button of the chat panel's bar and the panel it opens in place of the
conversation (the copilot is off or Tutor only during an exam: the exam needs the room)."""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import QBoxLayout, QToolButton, QWidget

from gns3_copilot_desktop.ui.backends.base import classroom_client
from gns3_copilot_desktop.ui.classroom.panel import ClassroomPanel


class ClassroomToggle(QToolButton):
    """Checkable "Class" button; shown only when the dock uses a copilot service."""

    def __init__(
        self,
        backend: object,
        column: QWidget,
        column_layout: QBoxLayout,
        conversation: list[QWidget],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._backend = backend
        self._conversation = conversation
        self._hidden_by_us: list[QWidget] = []
        self.setText(QCoreApplication.translate("ChatPanel", "Class"))
        self.setCheckable(True)
        self.setAccessibleName(QCoreApplication.translate("ChatPanel", "Show the classroom"))
        self.setToolTip(QCoreApplication.translate("ChatPanel", "Exams and results of your class"))
        self.panel = ClassroomPanel(backend, column)
        self.panel.hide()
        column_layout.insertWidget(0, self.panel, 1)
        self.toggled.connect(self._show_panel)
        self.follow_backend()

    def follow_backend(self) -> None:
        """Show the button when the dock uses a copilot service; close the panel otherwise."""
        available = classroom_client(self._backend) is not None
        self.setVisible(available)
        if not available and self.isChecked():
            self.setChecked(False)

    def _show_panel(self, shown: bool) -> None:
        if shown:
            self._hidden_by_us = [w for w in self._conversation if not w.isHidden()]
            for widget in self._hidden_by_us:
                widget.hide()
            self.panel.show()
        else:
            self.panel.hide()
            for widget in self._hidden_by_us:
                widget.show()
            self._hidden_by_us = []
