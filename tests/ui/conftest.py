"""Fixtures of the UI tests: a shown ChatPanel over a ScriptedBackend."""

from __future__ import annotations

import asyncio

import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from tests.helpers.fake_backend import ScriptedBackend


@pytest.fixture
def backend() -> ScriptedBackend:
    """An empty scripted backend (tests add turns and sessions)."""
    return ScriptedBackend()


@pytest.fixture
def panel(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, backend: ScriptedBackend
) -> ChatPanel:
    """A chat panel, 420x700, shown offscreen."""
    widget = ChatPanel(backend)
    qtbot.addWidget(widget)
    widget.resize(420, 700)
    widget.show()
    qtbot.waitExposed(widget)
    return widget
