"""At 360 px (the copilot docked beside the GNS3 canvas) opening Sessions leaves the chat at
least half the height and its full width, and the message box keeps its model picker whole."""

from __future__ import annotations

from collections.abc import Callable

from PyQt6.QtCore import QPoint, QRect
from PyQt6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from tests.helpers.copilot_app import CopilotApp


def _rect_in(widget: QWidget, ancestor: QWidget) -> QRect:
    return QRect(widget.mapTo(ancestor, QPoint(0, 0)), widget.size())


def test_sessions_at_360_px_leave_the_chat_half_the_height_and_the_model_picker(
    qtbot: QtBot, copilot_app: Callable[..., CopilotApp]
) -> None:
    app = copilot_app()
    panel = app.panel
    app.window.resize(360, 720)
    chat = panel.view.parentWidget()
    picker = panel.composer.model_combo
    # laid out at the new width (a widget not laid out yet is 100 px wide): the chat fills it
    qtbot.waitUntil(lambda: panel.width() <= 360 and chat.width() == panel.splitter.width() > 200)
    closed = (chat.width(), picker.width())
    panel.sessions_toggle.setChecked(True)
    qtbot.waitUntil(lambda: panel.sessions.isVisible() and panel.sessions.height() > 0)
    splitter = panel.splitter
    qtbot.waitUntil(lambda: chat.height() >= splitter.height() / 2)
    assert panel.sessions.height() > 0 and panel.sessions.list.isVisible()
    assert chat.width() == splitter.width() and (chat.width(), picker.width()) == closed
    # the picker is whole and inside the panel: nothing of it is cut on the right
    assert picker.isVisible() and picker.width() >= picker.minimumSizeHint().width()
    assert panel.rect().contains(_rect_in(picker, panel))
    # wide again: the sessions go back beside the chat
    app.window.resize(1000, 720)
    qtbot.waitUntil(lambda: panel.sessions.x() < chat.x())
    assert panel.sessions.height() == chat.height()
