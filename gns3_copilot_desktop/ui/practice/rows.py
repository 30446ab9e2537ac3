"""The rows of the Practice panel, one per thing the learner sees or does.

Choosing an exercise (`SetupRow`), a trainer's exercise file (`TrainerRow`), the running
exercise's buttons (`ActiveRow`), its checks, hints and answer (`ResultsArea`) and the past
exercises (`PastExercises`). They only lay out and show; the panel wires their buttons to the
engine. Their texts keep the "PracticePanel" translation context.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PyQt6.QtCore import QCoreApplication, Qt, QTimer
from PyQt6.QtGui import QResizeEvent
from PyQt6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.ui.practice.texts import difficulty_name, duration_text, past_row

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.practice.store import ExerciseRecord

DIFFICULTIES = ("beginner", "intermediate", "advanced")
RESULTS_HEIGHT = 130
"""The fixed height of the checks, hints and answer area (it scrolls beyond)."""


def plain_label(parent: QWidget, name: str = "") -> QLabel:
    """A wrapping, selectable label that shows its text as plain text."""
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # lab names and catalog text are data
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    if name:
        label.setObjectName(name)
    return label


def _row(parent: QWidget) -> QHBoxLayout:
    layout = QHBoxLayout(parent)
    layout.setContentsMargins(0, 0, 0, 0)
    return layout


def _buttons(*buttons: QPushButton) -> None:
    """No button of the panel is the dock's default; each is named by its text."""
    for button in buttons:
        button.setAutoDefault(False)
        button.setAccessibleName(button.text())


class SetupRow(QWidget):
    """Choosing an exercise: level, topic, number of faults, Start."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        setup = _row(self)
        self.difficulty_combo = QComboBox(self)
        self.difficulty_combo.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Difficulty")
        )
        for level in DIFFICULTIES:
            self.difficulty_combo.addItem(difficulty_name(level), level)
        self.topic_combo = QComboBox(self)
        self.topic_combo.setAccessibleName(QCoreApplication.translate("PracticePanel", "Topic"))
        self.topic_combo.addItem(QCoreApplication.translate("PracticePanel", "Any"), None)
        self.count_spin = QSpinBox(self)
        self.count_spin.setRange(1, 3)
        self.count_spin.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Number of faults")
        )
        self.count_spin.setToolTip(QCoreApplication.translate("PracticePanel", "Number of faults"))
        spin_edit = self.count_spin.lineEdit()
        if spin_edit is not None:
            spin_edit.setAccessibleName(
                QCoreApplication.translate("PracticePanel", "Number of faults")
            )
        self.start_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Start exercise"), self
        )
        _buttons(self.start_button)
        setup.addWidget(self.difficulty_combo)
        setup.addWidget(self.topic_combo, 1)
        setup.addWidget(self.count_spin)
        setup.addWidget(self.start_button)

    def controls(self) -> tuple[QWidget, ...]:
        """What the learner can use (off while the engine works)."""
        return (self.start_button, self.difficulty_combo, self.topic_combo, self.count_spin)

    def set_topics(self, topics: list[str]) -> None:
        """Offer "Any" and `topics`, keeping the topic chosen before when it is still there."""
        chosen = self.topic_combo.currentData()
        self.topic_combo.clear()
        self.topic_combo.addItem(QCoreApplication.translate("PracticePanel", "Any"), None)
        for topic in topics:
            self.topic_combo.addItem(topic, topic)
        index = self.topic_combo.findData(chosen)
        self.topic_combo.setCurrentIndex(max(0, index))


class TrainerRow(QWidget):
    """A trainer's exercise: export the prepared one, import one, start an imported one."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        trainer = _row(self)
        self.imported_label = QLabel(
            QCoreApplication.translate(
                "PracticePanel", "A trainer's exercise is ready in this project."
            ),
            self,
        )
        self.imported_label.setWordWrap(True)
        self.start_imported_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Start the trainer's exercise"), self
        )
        self.start_lab_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Start the lab"), self
        )
        self.start_lab_button.setToolTip(
            QCoreApplication.translate(
                "PracticePanel",
                "Start every stopped node of this lab, as GNS3's Start button does; the "
                "trainer's exercise is prepared once the lab runs.",
            )
        )
        self.export_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Export for students…"), self
        )
        self.export_button.setToolTip(
            QCoreApplication.translate(
                "PracticePanel",
                "Save this exercise and the lab as it is now in one file, encrypted with a "
                "passphrase, for students to import. Nothing is injected here.",
            )
        )
        self.import_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Import an exercise…"), self
        )
        _buttons(
            self.start_imported_button,
            self.start_lab_button,
            self.export_button,
            self.import_button,
        )
        trainer.addWidget(self.imported_label, 1)
        trainer.addWidget(self.start_imported_button)
        trainer.addWidget(self.start_lab_button)
        trainer.addWidget(self.export_button)
        trainer.addStretch(0)
        trainer.addWidget(self.import_button)
        self.imported_label.hide()
        self.start_imported_button.hide()
        self.start_lab_button.hide()
        self.export_button.hide()

    def controls(self) -> tuple[QWidget, ...]:
        """What the trainer can use (off while the engine works)."""
        return (
            self.start_imported_button,
            self.start_lab_button,
            self.export_button,
            self.import_button,
        )

    def show_imported(self, waiting: bool) -> None:
        """Whether a trainer's exercise waits in this project to be started."""
        self.imported_label.setVisible(waiting)
        self.start_imported_button.setVisible(waiting)
        if not waiting:
            self.start_lab_button.hide()

    def show_start_lab(self, stopped: bool) -> None:
        """The waiting exercise's lab is stopped: offer "Start the lab" in place of starting
        the exercise (which follows once the lab runs)."""
        self.start_lab_button.setVisible(stopped)
        self.start_imported_button.setVisible(not stopped and self.imported_label.isVisible())


class ActiveRow(QWidget):
    """The running exercise: its elapsed time, Check my fix, Hint, Give up."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.started_at: datetime | None = None
        self._clock = QTimer(self)
        self._clock.setInterval(1000)
        self._clock.timeout.connect(self._tick)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(2)
        self._rows = rows
        active = QHBoxLayout()
        rows.addLayout(active)
        self._buttons_row = active
        self._narrow = False
        self.elapsed_label = QLabel(self)
        self.elapsed_label.setObjectName("muted")
        self.check_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Check my fix"), self
        )
        self.hint_button = QPushButton(QCoreApplication.translate("PracticePanel", "Hint"), self)
        self.give_up_button = QPushButton(
            QCoreApplication.translate("PracticePanel", "Give up"), self
        )
        _buttons(self.check_button, self.hint_button, self.give_up_button)
        active.addWidget(self.elapsed_label, 1)
        active.addWidget(self.check_button)
        active.addWidget(self.hint_button)
        active.addWidget(self.give_up_button)

    def controls(self) -> tuple[QWidget, ...]:
        """What the learner can use (off while the engine works)."""
        return (self.check_button, self.hint_button, self.give_up_button)

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        """Too narrow for the time and the buttons on one line: the time goes above them."""
        super().resizeEvent(event)
        self._arrange()

    def _arrange(self) -> None:
        spacing = self._buttons_row.spacing()
        buttons = sum(b.sizeHint().width() + spacing for b in self.controls())
        narrow = self.width() < buttons + self.elapsed_label.sizeHint().width()
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self._buttons_row.removeWidget(self.elapsed_label)
        if narrow:
            self._rows.insertWidget(0, self.elapsed_label)
            self._buttons_row.insertStretch(0, 1)
        else:
            self._rows.removeWidget(self.elapsed_label)
            stretch = self._buttons_row.takeAt(0)
            del stretch
            self._buttons_row.insertWidget(0, self.elapsed_label, 1)

    def start_clock(self, started_at: datetime) -> None:
        """Show the time since `started_at`, every second."""
        self.started_at = started_at
        self._tick()
        self._clock.start()

    def stop_clock(self) -> None:
        """No exercise runs."""
        self.started_at = None
        self._clock.stop()

    def _tick(self) -> None:
        if self.started_at is None:
            return
        seconds = int((datetime.now(UTC) - self.started_at).total_seconds())
        self.elapsed_label.setText(
            QCoreApplication.translate("PracticePanel", "Exercise running: %1").replace(
                "%1", duration_text(seconds)
            )
        )
        self._arrange()


class ResultsArea(QScrollArea):
    """Checks, hints and the answer, in a scrolling area of its own height below the buttons:
    the panel keeps its height, so a new hint never moves a button nor squeezes the chat."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("practiceResults")
        self.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Checks, hints and the answer")
        )
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget(self)
        results = QVBoxLayout(inner)
        results.setContentsMargins(0, 0, 0, 0)
        self.checks_label = plain_label(inner)
        self.checks_label.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Check results")
        )
        self.hints_label = plain_label(inner)
        self.hints_label.setAccessibleName(QCoreApplication.translate("PracticePanel", "Hints"))
        self.headline_label = plain_label(inner)
        font = self.headline_label.font()
        font.setBold(True)
        self.headline_label.setFont(font)
        self.answer_label = plain_label(inner)
        self.answer_label.setAccessibleName(QCoreApplication.translate("PracticePanel", "Answer"))
        self.waiting_label = plain_label(inner, "muted")
        self.waiting_label.setText(
            QCoreApplication.translate(
                "PracticePanel", "The results of Check my fix and the hints you ask for show here."
            )
        )
        results.addWidget(self.waiting_label)
        for label in self.labels():
            results.addWidget(label)
        results.addStretch(1)
        self.setWidget(inner)
        self.setFixedHeight(RESULTS_HEIGHT)
        self.hide()

    def open(self) -> None:
        """Show the area before anything is in it (saying what will be), so the first check or
        hint fills it in place and moves no button."""
        self.waiting_label.setVisible(not any(label.text() for label in self.labels()))
        self.show()

    def labels(self) -> tuple[QLabel, ...]:
        """The checks, the hints, the headline and the answer, top to bottom."""
        return (self.checks_label, self.hints_label, self.headline_label, self.answer_label)

    def show_result(self, label: QLabel, text: str) -> None:
        """Put ``text`` in one label of the area, shown, scrolled to it."""
        label.setText(text)
        label.show()
        self.waiting_label.hide()
        self.show()
        self.ensureWidgetVisible(label)

    def clear(self) -> None:
        """Empty and hide every label and the area."""
        for label in self.labels():
            label.clear()
            label.hide()
        self.hide()


class PastExercises(QWidget):
    """The exercises done in this project, folded under a "Past exercises (n)" toggle."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.past_toggle = QToolButton(self)
        self.past_toggle.setText(QCoreApplication.translate("PracticePanel", "Past exercises"))
        self.past_toggle.setCheckable(True)
        self.past_toggle.setAutoRaise(True)
        self.past_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.past_toggle.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Past exercises")
        )
        self.past_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.past_list = QListWidget(self)
        self.past_list.setAccessibleName(
            QCoreApplication.translate("PracticePanel", "Past exercises")
        )
        self.past_list.setMaximumHeight(110)
        self.past_list.hide()
        self.past_toggle.toggled.connect(self._toggle)
        layout.addWidget(self.past_toggle)
        layout.addWidget(self.past_list)

    def _toggle(self, shown: bool) -> None:
        self.past_list.setVisible(shown)
        arrow = Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow
        self.past_toggle.setArrowType(arrow)

    def fill(self, history: list[ExerciseRecord]) -> None:
        """One row per exercise that was started or cancelled (a plan waiting is not past)."""
        self.past_list.clear()
        for record in history:
            if record.status != "planned":
                self.past_list.addItem(past_row(record))
        self.past_toggle.setText(
            QCoreApplication.translate("PracticePanel", "Past exercises (%1)").replace(
                "%1", str(self.past_list.count())
            )
        )

    def rows(self) -> list[str]:
        """The text of each row."""
        return [self.past_list.item(i).text() for i in range(self.past_list.count())]  # type: ignore[union-attr]
