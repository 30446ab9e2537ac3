"""A tool call as a one-line card, expandable to its arguments and output.

The header says: icon, tool, a human summary, the state and the duration (ticking while it runs).
The body (arguments and output) is built only when the card is first opened, so a session with
hundreds of cards costs one line each. Long output shows its head and tail with "Show all"; a badge
marks output the model only saw truncated. `ToolGroup` holds consecutive cards and, in compact
mode, hides them behind a count.
"""

from __future__ import annotations

import enum
import json
import time
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QCoreApplication, Qt, QTimer, pyqtSignal
from PyQt6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gns3_copilot_desktop.ui.cards.tool_text import call_title, format_duration, head_and_tail
from gns3_copilot_desktop.ui.cards.tool_widgets import ReadOnlyText, ToolTitleLabel
from gns3_copilot_desktop.ui.core_text import tool_display_name

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.cards.undo_view import ChangeUndo
    from gns3_copilot_desktop.ui.lab.plan_view import PlanOutcome


class ToolState(enum.Enum):
    """The life of a tool call as the card shows it."""

    QUEUED = "queued"
    AWAITING_APPROVAL = "awaiting approval"
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"
    REJECTED = "rejected"
    CANCELLED = "cancelled"

    @property
    def label(self) -> str:
        """Translated text of the state."""
        return {
            ToolState.QUEUED: QCoreApplication.translate("ToolCard", "queued"),
            ToolState.AWAITING_APPROVAL: QCoreApplication.translate(
                "ToolCard", "awaiting approval"
            ),
            ToolState.RUNNING: QCoreApplication.translate("ToolCard", "running"),
            ToolState.DONE: QCoreApplication.translate("ToolCard", "done"),
            ToolState.ERROR: QCoreApplication.translate("ToolCard", "error"),
            ToolState.REJECTED: QCoreApplication.translate("ToolCard", "rejected"),
            ToolState.CANCELLED: QCoreApplication.translate("ToolCard", "cancelled"),
        }[self]

    @property
    def icon(self) -> str:
        """A glyph that reads without colour."""
        return {
            ToolState.QUEUED: "○",
            ToolState.AWAITING_APPROVAL: "?",
            ToolState.RUNNING: "◔",
            ToolState.DONE: "✓",
            ToolState.ERROR: "✗",
            ToolState.REJECTED: "⊘",
            ToolState.CANCELLED: "■",
        }[self]

    @property
    def finished(self) -> bool:
        """True for the end states."""
        return self in (ToolState.DONE, ToolState.ERROR, ToolState.REJECTED, ToolState.CANCELLED)


STATUS_TO_STATE = {
    "ok": ToolState.DONE,
    "error": ToolState.ERROR,
    "rejected": ToolState.REJECTED,
    "cancelled": ToolState.CANCELLED,
}

_STATE_STYLE = {
    ToolState.DONE: "stateOk",
    ToolState.ERROR: "stateError",
    ToolState.AWAITING_APPROVAL: "stateWaiting",
}


class ToolCard(QFrame):
    """One tool call. Update it with `set_state` / `finish`; the body is built on first expand."""

    expanded_changed = pyqtSignal(bool)

    def __init__(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any] | None = None,
        summary: str = "",
        state: ToolState = ToolState.QUEUED,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("toolCard")
        self.tool_call_id = tool_call_id
        self.tool_name = tool_name
        self.display_name = tool_display_name(tool_name)
        self.arguments: dict[str, Any] = dict(arguments or {})
        self.summary = call_title(tool_name, self.arguments, summary)
        self.output = ""
        self.progress = ""
        self.truncated = False
        self.duration_ms: int | None = None
        self.state = state
        self._started_at: float | None = None
        self._body: QWidget | None = None
        self._output_view: ReadOnlyText | None = None
        self._show_all: QPushButton | None = None
        self._ticker = QTimer(self)
        self._ticker.setInterval(1000)
        self._ticker.timeout.connect(self._refresh_header)
        self.plan_outcome: PlanOutcome | None = None
        self.change_undo: ChangeUndo | None = None
        self.structured: dict[str, Any] | None = None
        self.config_views: list[ReadOnlyText] = []
        self.nodes_label: QLabel | None = None
        self._build_header()
        self.set_state(state)

    # --- header ---------------------------------------------------------------------------

    def _build_header(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        layout.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(6)
        self.toggle = QToolButton(self)
        self.toggle.setCheckable(True)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self.set_expanded)
        self.title_label = ToolTitleLabel(self)
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        self.title_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.state_label = QLabel(self)
        self.duration_label = QLabel(self)
        self.duration_label.setObjectName("muted")
        self.badge = QLabel(QCoreApplication.translate("ToolCard", "truncated"), self)
        self.badge.setObjectName("truncatedBadge")
        self.badge.setToolTip(
            QCoreApplication.translate(
                "ToolCard", "The model saw a shortened version of this output."
            )
        )
        self.badge.hide()
        row.addWidget(self.toggle)
        row.addWidget(self.title_label, 1)
        row.addWidget(self.badge)
        row.addWidget(self.state_label)
        row.addWidget(self.duration_label)
        layout.addLayout(row)

    def show_plan_outcome(self, structured: dict[str, Any]) -> PlanOutcome:
        """A finished plan: its checks and Undo, always visible under the header."""
        from gns3_copilot_desktop.ui.lab.plan_view import PlanOutcome

        outcome = PlanOutcome(structured, self)
        layout = self.layout()
        assert layout is not None
        layout.addWidget(outcome)
        self.plan_outcome = outcome
        return outcome

    def show_undo(self, structured: dict[str, Any]) -> ChangeUndo | None:
        """A finished change whose result can be undone: Undo under the header (None when the
        result holds no undo record we can read)."""
        from gns3_copilot_desktop.core.undo.record import UndoRecord
        from gns3_copilot_desktop.ui.cards.undo_view import ChangeUndo

        record = UndoRecord.from_structured(structured)
        if record is None or self.change_undo is not None:
            return None
        undo = ChangeUndo(structured, record, self)
        layout = self.layout()
        assert layout is not None
        layout.addWidget(undo)
        self.change_undo = undo
        return undo

    def set_summary(self, summary: str) -> None:
        """The tool's own one-line summary (it arrives with tool_start, after the queued card)."""
        self.summary = call_title(self.tool_name, self.arguments, summary)
        self._refresh_header()

    def set_progress(self, text: str) -> None:
        """What a running tool reports (e.g. "2 of 3 nodes started"), shown after the summary."""
        self.progress = text
        self._refresh_header()

    def _refresh_header(self) -> None:
        progress = (
            f" — {self.progress}" if self.progress and self.state is ToolState.RUNNING else ""
        )
        self.title_label.set_parts(self.display_name, f"{self.summary}{progress}")
        self.title_label.setToolTip(f"{self.display_name}\n{self.summary}{progress}")
        self.state_label.setText(f"{self.state.icon} {self.state.label}")
        self.state_label.setObjectName(_STATE_STYLE.get(self.state, "stateMuted"))
        self.state_label.setStyleSheet("")  # re-polish after the objectName change
        self.duration_label.setText(self.duration_text())
        self.badge.setVisible(self.truncated)
        name = QCoreApplication.translate("ToolCard", "Tool %1: %2, %3").replace(
            "%1", self.display_name
        )
        name = name.replace("%2", self.summary).replace("%3", self.state.label)
        self.toggle.setAccessibleName(
            QCoreApplication.translate("ToolCard", "Show details of %1").replace(
                "%1", self.display_name
            )
        )
        self.setAccessibleName(name)

    def duration_text(self) -> str:
        """The final duration, or the elapsed time while running."""
        if self.duration_ms is not None:
            return format_duration(self.duration_ms)
        if self.state is ToolState.RUNNING and self._started_at is not None:
            # whole seconds while ticking: a changing "ms" figure would only flicker
            seconds = int(time.monotonic() - self._started_at)
            return QCoreApplication.translate("ToolCard", "%1 s").replace("%1", str(seconds))
        return ""

    # --- state ----------------------------------------------------------------------------

    def set_state(self, state: ToolState) -> None:
        """Move to `state`; running starts the elapsed-time ticker."""
        self.state = state
        if state is ToolState.RUNNING:
            if self._started_at is None:
                self._started_at = time.monotonic()
            self._ticker.start()
        else:
            self._ticker.stop()
        self._refresh_header()

    def finish(
        self,
        status: str,
        output: str = "",
        duration_ms: int | None = None,
        truncated: bool = False,
    ) -> None:
        """The tool_end of this call."""
        self.output = output
        self.truncated = truncated
        if duration_ms is None and self._started_at is not None:
            duration_ms = int((time.monotonic() - self._started_at) * 1000)
        self.duration_ms = duration_ms
        self.set_state(STATUS_TO_STATE.get(status, ToolState.ERROR))
        if self._output_view is not None:
            self._fill_output()

    # --- body -----------------------------------------------------------------------------

    @property
    def body_built(self) -> bool:
        """Whether the details were ever opened (the body is built lazily)."""
        return self._body is not None

    @property
    def expanded(self) -> bool:
        """Whether the details are shown."""
        return self.toggle.isChecked()

    def set_expanded(self, expanded: bool) -> None:
        """Show or hide arguments and output (building them the first time)."""
        if self.toggle.isChecked() != expanded:
            self.toggle.setChecked(expanded)
            return
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        if expanded and self._body is None:
            self._build_body()
        if self._body is not None:
            self._body.setVisible(expanded)
        self.expanded_changed.emit(expanded)

    def _build_body(self) -> None:
        from gns3_copilot_desktop.ui.lab.node_links import mentioned_nodes, node_anchors

        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(22, 0, 0, 4)
        names = mentioned_nodes([self.summary, json.dumps(self.arguments, ensure_ascii=False)])
        if names:
            # the nodes the call is about, as links: a click opens the node's menu (console, and
            # Show in GNS3 when docked); names are whole known node names, escaped
            self.nodes_label = QLabel(
                QCoreApplication.translate("ToolCard", "Nodes: %1").replace(
                    "%1", node_anchors(names)
                ),
                body,
            )
            self.nodes_label.setTextFormat(Qt.TextFormat.RichText)
            self.nodes_label.setOpenExternalLinks(True)
            self.nodes_label.setWordWrap(True)
            layout.addWidget(self.nodes_label)
        layout.addWidget(QLabel(QCoreApplication.translate("ToolCard", "Arguments"), body))
        args = json.dumps(self.arguments, indent=2, ensure_ascii=False)
        self.arguments_view = ReadOnlyText(
            args, QCoreApplication.translate("ToolCard", "Arguments"), 12, body
        )
        layout.addWidget(self.arguments_view)
        layout.addWidget(QLabel(QCoreApplication.translate("ToolCard", "Output"), body))
        self._output_view = ReadOnlyText(
            "", QCoreApplication.translate("ToolCard", "Output"), 24, body
        )
        layout.addWidget(self._output_view)
        self._show_all = QPushButton(QCoreApplication.translate("ToolCard", "Show all"), body)
        self._show_all.setAccessibleName(
            QCoreApplication.translate("ToolCard", "Show the whole output")
        )
        self._show_all.clicked.connect(self.show_all)
        layout.addWidget(self._show_all, 0, Qt.AlignmentFlag.AlignLeft)
        self._body = body
        self.layout().addWidget(body)  # type: ignore[union-attr]
        self._fill_output()
        self._add_config_views()

    def set_structured(self, structured: dict[str, Any] | None) -> None:
        """The call's structured result (a push's configuration before and after, its undo)."""
        self.structured = structured
        if self._body is not None:
            self._add_config_views()

    def _add_config_views(self) -> None:
        """Under the output: each device's running configuration before and after a push."""
        if self.config_views or self._body is None or not isinstance(self.structured, dict):
            return
        layout = self._body.layout()
        assert layout is not None
        devices = self.structured.get("devices")
        for device in devices if isinstance(devices, list) else []:
            if not isinstance(device, dict):
                continue
            name = str(device.get("device") or "")
            for key, title in (
                ("config_before", QCoreApplication.translate("ToolCard", "%1 before (%2)")),
                ("config_after", QCoreApplication.translate("ToolCard", "%1 after (%2)")),
            ):
                read = device.get(key)
                if not isinstance(read, dict) or not isinstance(read.get("text"), str):
                    continue
                label = title.replace("%2", str(read.get("command") or "")).replace("%1", name)
                caption = QLabel(label, self._body)
                caption.setTextFormat(Qt.TextFormat.PlainText)
                layout.addWidget(caption)
                view = ReadOnlyText(read["text"], label, 16, self._body)
                layout.addWidget(view)
                self.config_views.append(view)

    @property
    def output_view(self) -> ReadOnlyText | None:
        """The output text widget (None until the card was opened)."""
        return self._output_view

    @property
    def show_all_button(self) -> QPushButton | None:
        """The "Show all" button (None until the card was opened)."""
        return self._show_all

    def _fill_output(self) -> None:
        assert self._output_view is not None and self._show_all is not None
        text = self.output or (
            QCoreApplication.translate("ToolCard", "(no output yet)")
            if not self.state.finished
            else ""
        )
        short = head_and_tail(text)
        self._output_view.set_text(short[0] if short else text)
        self._show_all.setVisible(short is not None)

    def show_all(self, *_: object) -> None:
        """Show the whole output instead of head and tail."""
        if self._output_view is not None and self._show_all is not None:
            self._output_view.set_text(self.output)
            self._show_all.hide()


class ToolGroup(QFrame):
    """Consecutive tool cards of a turn; in compact mode only a count button is shown."""

    def __init__(self, compact: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cards: list[ToolCard] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.count_button = QPushButton(self)
        self.count_button.setObjectName("toolCount")
        self.count_button.setCheckable(True)
        self.count_button.setFlat(True)
        self.count_button.toggled.connect(self._apply)
        layout.addWidget(self.count_button, 0, Qt.AlignmentFlag.AlignLeft)
        self._compact = compact
        self._apply()

    def add_card(self, card: ToolCard) -> None:
        """Append a card to the group."""
        card.setParent(self)
        self.cards.append(card)
        self.layout().addWidget(card)  # type: ignore[union-attr]
        self._apply()

    def set_compact(self, compact: bool) -> None:
        """Hide the cards behind the count (compact) or show them all."""
        self._compact = compact
        self.count_button.setChecked(False)
        self._apply()

    def refresh(self) -> None:
        """Update the count text after a card changed state."""
        self._apply()

    def _apply(self, *_: object) -> None:
        running = sum(1 for c in self.cards if not c.state.finished)
        text = QCoreApplication.translate("ToolCard", "%n tool call(s)", "", len(self.cards))
        if running:
            text += " · " + QCoreApplication.translate("ToolCard", "%1 running").replace(
                "%1", str(running)
            )
        self.count_button.setText(("▾ " if self.count_button.isChecked() else "▸ ") + text)
        self.count_button.setAccessibleName(text)
        self.count_button.setVisible(self._compact)
        show = not self._compact or self.count_button.isChecked()
        for card in self.cards:
            card.setVisible(show)
