"""The status line: session token usage, the context meter and the "working · 12 s" heartbeat."""

from __future__ import annotations

import time

from PyQt6.QtCore import QCoreApplication, QTimer
from PyQt6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QSizePolicy, QWidget

from gns3_copilot_desktop.core.agent.pricing import estimate_cost, price_of
from gns3_copilot_desktop.core.protocol import TokenUsage


def compact_number(n: int) -> str:
    """1234 -> '1.2k', 128000 -> '128k', 999 -> '999'."""
    if n < 1000:
        return str(n)
    if n < 10_000:
        return f"{n / 1000:.1f}k"
    if n < 1_000_000:
        return f"{n // 1000}k"
    return f"{n / 1_000_000:.1f}M"


class StatusLine(QWidget):
    """Tokens used in the session, context used / window, and whether the agent is working."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 2)
        layout.setSpacing(8)
        self.working_label = QLabel(self)
        self.working_label.setAccessibleName(QCoreApplication.translate("StatusLine", "Activity"))
        self.tokens_label = QLabel(self)
        self.tokens_label.setObjectName("muted")
        self.tokens_label.setAccessibleName(QCoreApplication.translate("StatusLine", "Token usage"))
        self.tokens_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.cost_label = QLabel(self)
        self.cost_label.setObjectName("muted")
        self.cost_label.setAccessibleName(
            QCoreApplication.translate("StatusLine", "Estimated cost")
        )
        self.context_meter = QProgressBar(self)
        self.context_meter.setAccessibleName(
            QCoreApplication.translate("StatusLine", "Context used")
        )
        self.context_meter.setMaximumWidth(110)
        self.context_meter.setMinimumWidth(60)
        self.context_meter.setTextVisible(True)
        layout.addWidget(self.working_label)
        layout.addWidget(self.tokens_label, 1)
        layout.addWidget(self.cost_label)
        layout.addWidget(self.context_meter)
        self.usage = TokenUsage()
        self.context_tokens: int | None = None
        self.context_window: int | None = None
        self.model_name = ""
        self.model_provider = ""
        self.model_base_url: str | None = None
        self._started: float | None = None
        self._ticker = QTimer(self)
        self._ticker.setInterval(1000)
        self._ticker.timeout.connect(self._refresh_working)
        self._refresh_usage()
        self._refresh_working()

    # --- usage ------------------------------------------------------------------------------

    def set_session_usage(self, usage: TokenUsage) -> None:
        """The totals of a session that was opened."""
        self.usage = usage.model_copy()
        self._refresh_usage()

    def add_usage(
        self, usage: TokenUsage | None, context_tokens: int | None, context_window: int | None
    ) -> None:
        """A `usage` chunk: add the call's tokens, update the context meter."""
        if usage is not None:
            self.usage = TokenUsage(
                input_tokens=self.usage.input_tokens + usage.input_tokens,
                output_tokens=self.usage.output_tokens + usage.output_tokens,
            )
        if context_tokens is not None:
            self.context_tokens = context_tokens
        if context_window is not None:
            self.context_window = context_window
        self._refresh_usage()

    def set_model(self, name: str, provider: str = "", base_url: str | None = None) -> None:
        """The model answering the chat and where, to price the session's tokens.

        Unknown model, or a base URL other than the provider's own endpoint: a dash.
        """
        self.model_name = name
        self.model_provider = provider
        self.model_base_url = base_url
        self._refresh_usage()

    @property
    def cost_text(self) -> str:
        """The cost label's text: ``$0.0123`` or ``—``."""
        return self.cost_label.text()

    def reset(self) -> None:
        """A new or other session."""
        self.usage = TokenUsage()
        self.context_tokens = None
        self.context_window = None
        self._refresh_usage()

    def _refresh_usage(self) -> None:
        u = self.usage
        self.tokens_label.setText(
            QCoreApplication.translate("StatusLine", "%1 tokens").replace(
                "%1", compact_number(u.total_tokens)
            )
        )
        detail = QCoreApplication.translate(
            "StatusLine", "Session: %1 input and %2 output tokens"
        ).replace("%1", f"{u.input_tokens:,}")
        detail = detail.replace("%2", f"{u.output_tokens:,}")
        self.tokens_label.setToolTip(detail)
        self.tokens_label.setAccessibleDescription(detail)
        self._refresh_cost()
        used, window = self.context_tokens, self.context_window
        if window:
            self.context_meter.setRange(0, window)
            self.context_meter.setValue(min(used or 0, window))
            meter = f"{compact_number(used or 0)} / {compact_number(window)}"
        else:
            self.context_meter.setRange(0, 1)
            self.context_meter.setValue(0)
            meter = f"{compact_number(used) if used else '—'} / —"
        self.context_meter.setFormat(meter)
        self.context_meter.setToolTip(
            QCoreApplication.translate(
                "StatusLine", "Context used by the next request: %1"
            ).replace("%1", meter)
        )
        self.context_meter.setAccessibleDescription(meter)

    def _refresh_cost(self) -> None:
        u = self.usage
        cost = estimate_cost(
            self.model_provider,
            self.model_base_url,
            self.model_name,
            u.input_tokens,
            u.output_tokens,
        )
        self.cost_label.setText("—" if cost is None else f"${cost:.4f}")
        if cost is not None:
            tip = QCoreApplication.translate("StatusLine", "Estimated cost of the session (USD)")
        elif self.model_name and price_of(self.model_name) is not None:
            tip = QCoreApplication.translate(
                "StatusLine",
                "Cost shown only for the provider's own endpoint, not a custom base URL",
            )
        else:
            tip = QCoreApplication.translate("StatusLine", "Cost not known for this model")
        self.cost_label.setToolTip(tip)

    # --- working ----------------------------------------------------------------------------

    def set_working(self, working: bool) -> None:
        """Show or hide "working · N s"."""
        if working:
            self._started = time.monotonic()
            self._ticker.start()
        else:
            self._started = None
            self._ticker.stop()
        self._refresh_working()

    def heartbeat(self, elapsed_s: float) -> None:
        """The backend says how long the turn has been running."""
        if self._started is None:
            self._ticker.start()
        self._started = time.monotonic() - elapsed_s
        self._refresh_working()

    @property
    def working_text(self) -> str:
        """The text of the activity label."""
        return self.working_label.text()

    def _refresh_working(self) -> None:
        if self._started is None:
            self.working_label.setText("")
            return
        seconds = int(time.monotonic() - self._started)
        self.working_label.setText(
            QCoreApplication.translate("StatusLine", "working · %1 s").replace("%1", str(seconds))
        )
