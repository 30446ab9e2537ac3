"""Every text the dock draws is readable: contrast >= 4.5:1 against what it is drawn on, in the
light and dark palettes and inside the GNS3 GUI's dark style sheet (muted text was
1.3:1 there).

Measured on pixels, as a user sees them: for each visible label, the background is the colour
most of its pixels have, and the text is its most contrasting pixel (glyph stems reach the full
text colour).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator

import pytest
from PyQt6.QtGui import QColor, QImage
from PyQt6.QtWidgets import QApplication, QLabel, QMainWindow
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.dock import CopilotDock
from gns3_copilot_desktop.ui.theme import contrast_ratio, dark_palette, light_palette
from tests.helpers.fake_backend import (
    ScriptedBackend,
    approval,
    content,
    done,
    error,
    tool_end,
    tool_start,
)
from tests.tools.screenshots import approval_requests

GNS3_CHARCOAL = """
QWidget { color: #dedede; background-color: #535353; }
QLabel { color: #dedede; }
QPushButton { color: #dedede; background-color: #6b6b6b; }
"""
MINIMUM = 4.5


def _label_contrast(window: QImage, label: QLabel, root: QMainWindow) -> float:
    """The label as the window shows it (parents' backgrounds included)."""
    top_left = label.mapTo(root, label.rect().topLeft())
    image = window.copy(top_left.x(), top_left.y(), label.width(), label.height())
    pixels = [image.pixel(x, y) for y in range(image.height()) for x in range(image.width())]
    if not pixels:
        return 21.0
    background = QColor(Counter(pixels).most_common(1)[0][0])
    return max(contrast_ratio(QColor(p), background) for p in set(pixels))


@pytest.fixture
def palette_restored(qapp: QApplication) -> Iterator[None]:
    saved = qapp.palette()
    yield
    qapp.setPalette(saved)


@pytest.mark.parametrize("style", ["light", "dark", "gns3-charcoal"])
def test_every_label_has_enough_contrast(
    qtbot: QtBot,
    qapp: QApplication,
    qasync_loop: asyncio.AbstractEventLoop,
    palette_restored: None,
    style: str,
) -> None:
    qapp.setPalette(dark_palette() if style == "dark" else light_palette())
    backend = ScriptedBackend()
    window = QMainWindow()
    qtbot.addWidget(window)
    if style == "gns3-charcoal":
        window.setStyleSheet(GNS3_CHARCOAL)
    dock = CopilotDock(backend, window)
    dock.add_to(window)
    window.resize(1000, 1400)
    window.show()
    qtbot.waitExposed(window)
    backend.add_turn(
        content("The lab has **two** PCs."),
        tool_start("t1", "get_topology", summary="Read the topology of the current project"),
        tool_end("t1", "get_topology", "PC1 PC2"),
        approval(*approval_requests()),
        done(),
    )
    dock.panel.send("What is in my lab?")
    qtbot.waitUntil(lambda: dock.panel.view.open_approval is not None)
    qtbot.waitUntil(lambda: not dock.panel.composer.running)
    backend.add_turn(error("The model did not answer in time.", kind="timeout"), done())
    dock.panel.view.open_approval.reject_all()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: not dock.panel.composer.running and backend.turns == [])
    dock.panel.view.show_notice("A note on how the model was asked.")

    shot = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    poor = []
    for label in window.findChildren(QLabel):
        if not label.isVisible() or label.width() < 4:
            continue
        if not any(ch.isalnum() for ch in label.text()):
            continue  # a lone dash or bullet: its 1-pixel stroke never reaches full colour
        ratio = _label_contrast(shot, label, window)
        if ratio < MINIMUM:
            poor.append(
                f"{label.objectName() or type(label).__name__} {label.text()[:40]!r}: {ratio:.2f}"
            )
    assert poor == [], "\n".join(poor)
