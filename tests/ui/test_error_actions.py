"""Every error says what fixes it: the banner's action by kind, Retry only while it
would answer the latest message, and the composer's disabled reasons link to their fix."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.chat.messages import ErrorBanner
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from tests.helpers.fake_backend import ScriptedBackend, content, done, error


@pytest.mark.parametrize(
    ("kind", "action", "button"),
    [
        ("auth", "settings", "Open model settings"),
        ("bad_request", "settings", "Open model settings"),
        ("Gns3AuthError", "login", "Log in"),
        ("timeout", "retry", None),
        ("connection", "retry", None),
        ("rate_limit", "retry", None),
        ("cut_off", "retry", None),
        ("stale_decision", None, None),
    ],
)
def test_each_error_kind_carries_its_action(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend, kind: str, action: str, button: str
) -> None:
    backend.add_turn(content("Part"), error("It failed.", kind=kind), done())
    asked: list[str] = []
    panel.settings_requested.connect(lambda: asked.append("settings"))
    panel.login_requested.connect(lambda: asked.append("login"))
    panel.send("hello")
    qtbot.waitUntil(
        lambda: bool(panel.view.findChildren(ErrorBanner)) and not panel.composer.running
    )
    [banner] = panel.view.findChildren(ErrorBanner)
    # A new message is put on screen by a later pass of the event loop: a scripted turn can end
    # before it, so the banner's buttons are judged once the banner is shown.
    qtbot.waitUntil(banner.isVisible)
    assert banner.action == action
    assert banner.retry_button.isVisible() is (action == "retry")
    if button is None:
        assert banner.action_button is None
    else:
        assert banner.action_button is not None and banner.action_button.text() == button
        banner.action_button.click()
        assert asked == [action]


def test_retry_is_disabled_once_a_newer_turn_exists(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    backend.add_turn(error("The model did not answer in time.", kind="timeout"), done())
    backend.add_turn(content("Fine now."), done())
    panel.send("first")
    qtbot.waitUntil(
        lambda: bool(panel.view.findChildren(ErrorBanner)) and not panel.composer.running
    )
    [banner] = panel.view.findChildren(ErrorBanner)
    assert banner.retry_button.isEnabled()
    panel.send("second")
    qtbot.waitUntil(lambda: not panel.composer.running and backend.turns == [])
    assert not banner.retry_button.isEnabled()
    banner.retry_button.click()
    assert [m for m, _ in backend.sent] == ["first", "second"]  # nothing sent again


def test_the_composers_reason_links_to_its_fix(qtbot: QtBot, panel: ChatPanel) -> None:
    asked: list[str] = []
    panel.login_requested.connect(lambda: asked.append("login"))
    panel.settings_requested.connect(lambda: asked.append("settings"))
    composer = panel.composer
    composer.set_disabled_reason("Log in to the GNS3 server to chat with the copilot.", "login")
    assert '<a href="login">Log in</a>' in composer.reason_label.text()
    composer.reason_label.linkActivated.emit("login")
    composer.set_disabled_reason("No model is set up.", "settings")
    composer.reason_label.linkActivated.emit("settings")
    assert asked == ["login", "settings"]
    composer.set_disabled_reason("<b>not markup</b>")
    assert "&lt;b&gt;" in composer.reason_label.text()  # a reason is text, never markup
