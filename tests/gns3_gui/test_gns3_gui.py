"""The Copilot docked in the REAL GNS3 GUI 3.0.6, against the real GNS3 server 3.0.6.

The GUI runs in a subprocess (gui_driver.py) with an isolated config (XDG_CONFIG_HOME, HOME, the
working directory) that points it at the test server as a remote controller, with no setup
wizard, update check, README or crash reports. The driver opens projects through the GUI's own
code and reports what the Copilot did as JSON lines; this test asserts on them and on what the
scripted model server received.

Set ``GNS3_COPILOT_UPDATE_SCREENSHOTS=1`` to copy the screenshot into docs/screenshots/.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import pytest
from PyQt6.QtGui import QColor, QImage

from gns3_copilot_desktop.app import AppOptions, paths_for
from gns3_copilot_desktop.core.errors import Gns3Error
from gns3_copilot_desktop.core.gns3 import Gns3Client, LinkEnd, Project
from gns3_copilot_desktop.core.settings import LlmProfile, Settings, SettingsStore
from tests.helpers.copilot_app import Login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.ui.lab.test_lab_card_host_style import is_hue

pytestmark = [pytest.mark.gns3, pytest.mark.slow]

DRIVER = Path(__file__).with_name("gui_driver.py")
REPO = Path(__file__).resolve().parents[2]
SCREENSHOT = REPO / "docs" / "screenshots" / "gns3-gui-docked.png"
DRIVER_TIMEOUT_S = 150.0
ANSWER = (
    "**Branch lab** has PC1 and PC2 on hub HUB1. Both PCs are stopped: start them and "
    "I can ping PC2 from PC1 for you."
)
QUESTION = "What is in this lab, and is it running?"


class GuiLogin(Login, Protocol):
    """Where the GNS3 GUI connects and with which GNS3 account."""

    @property
    def password(self) -> str: ...


def write_gui_config(config_home: Path, server: GuiLogin) -> Path:
    """The GNS3 GUI's own config: the test server as remote controller, no optional dialogs."""
    url = urlsplit(server.base_url)
    path = config_home / "GNS3" / "3.0" / "gns3_gui.conf"
    path.parent.mkdir(parents=True)
    settings = {
        "MainWindow": {
            "hide_setup_wizard": True,
            "check_for_update": False,
            "auto_open_readme": False,
            "multi_profiles": False,
            "hide_getting_started_dialog": True,
            "overlay_notifications": False,
            # a headless machine has no terminal: GNS3 opens a started VPCS's console itself
            # (its "auto start console"), which would only print "no xterm" errors
            "telnet_console_command": "true %h %p",
        },
        "Controller": {
            "remote": True,
            "auto_start": False,
            "report_errors": False,
            "protocol": url.scheme,
            "host": url.hostname,
            "port": url.port,
            "username": server.username,
            "password": server.password,
        },
    }
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return path


async def build_lab(client: Gns3Client, name: str) -> Project:
    """A small project worth looking at: two PCs on a hub."""
    project = await client.create_project(name, auto_close=False)
    hub = await client.create_node(project.project_id, "HUB1", "ethernet_hub", x=0, y=-120)
    for index, x in enumerate((-220, 220)):
        pc = await client.create_node(project.project_id, f"PC{index + 1}", "vpcs", x=x, y=80)
        await client.create_link(
            project.project_id,
            LinkEnd(node_id=pc.node_id, adapter_number=0, port_number=0),
            LinkEnd(node_id=hub.node_id, adapter_number=0, port_number=index),
        )
    return project


def write_copilot_settings(home: Path, model_base_url: str, service_url: str | None = None) -> None:
    """A saved LLM profile for the loopback model, as a user would have (no API key needed),
    and the trainer's copilot service when there is one."""
    profile = LlmProfile(
        id="local",
        name="Local model",
        provider="openai_compatible",
        model="scripted-model",
        base_url=model_base_url,
    )
    settings = Settings(
        llm_profiles=[profile], active_llm_profile=profile.id, copilot_service_url=service_url
    )
    SettingsStore(paths_for(AppOptions(home=home)).ensure().settings_file).save(settings)


def driver_env(tmp: Path) -> dict[str, str]:
    """Everything the GUI reads or writes stays under ``tmp``; no proxy for loopback, offscreen.

    The keyring is the session's (the suite runs in a private D-Bus session): with the GNS3 GUI's
    login and a key-less local model, nothing is written to it.
    """
    home = tmp / "home"
    home.mkdir()
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_"))}
    return {
        **keep,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "QT_QPA_PLATFORM": "offscreen",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
    }


async def run_driver(config: dict[str, Any], tmp: Path) -> tuple[list[dict[str, Any]], str]:
    """Run the driver to its end (bounded); return its result events and its output."""
    config_file = tmp / "driver.json"
    config_file.write_text(json.dumps(config), encoding="utf-8")
    cwd = tmp / "cwd"  # a gns3_gui.conf in the working directory would override the config
    cwd.mkdir()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(DRIVER),
        str(config_file),
        cwd=cwd,
        env=driver_env(tmp),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), DRIVER_TIMEOUT_S)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # the group we created for it
        await process.wait()
        output = b"(killed after the timeout)"
    return read_events(Path(config["results"])), output.decode(errors="replace")


def read_events(results: Path) -> list[dict[str, Any]]:
    """The driver's JSON lines (none when it died before writing any)."""
    lines = results.read_text(encoding="utf-8").splitlines() if results.exists() else []
    return [json.loads(line) for line in lines]


def events_named(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == name]


@pytest.mark.asyncio
async def test_the_dock_follows_the_gui_project_and_streams_a_turn(
    gns3_server: Gns3Server,
    gns3_client: Gns3Client,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
) -> None:
    first = await build_lab(gns3_client, "Branch lab")
    second = await gns3_client.create_project("Core lab", auto_close=False)
    scripted_openai.set_title_responder("Branch lab status")
    scripted_openai.push(ScriptedTurn.text(ANSWER, chunks=6))
    write_gui_config(tmp_path / "config", gns3_server)
    write_copilot_settings(tmp_path / "copilot-home", scripted_openai.base_url)
    screenshot = tmp_path / "gns3-gui-docked.png"
    config = {
        "results": str(tmp_path / "results.jsonl"),
        "home": str(tmp_path / "copilot-home"),
        "message": QUESTION,
        "screenshot": str(screenshot),
        "projects": [
            {"id": first.project_id, "name": first.name},
            {"id": second.project_id, "name": second.name},
        ],
    }
    try:
        events, output = await run_driver(config, tmp_path)
    finally:
        for project in (first, second):
            with contextlib.suppress(Gns3Error):
                await gns3_client.close_project(project.project_id)
            with contextlib.suppress(Gns3Error):
                await gns3_client.delete_project(project.project_id)

    context = f"driver events: {json.dumps(events, indent=1)}\ndriver output:\n{output[-4000:]}"
    assert events_named(events, "error") == [], context
    (exit_event,) = events_named(events, "exit")
    assert exit_event["code"] == 0, context
    assert exit_event["sentry_initialized"] is False  # GNS3's crash reports stay off

    (docked,) = events_named(events, "docked")
    assert docked["right"] and docked["visible"], context
    assert docked["window_class"] == "gns3.main_window.MainWindow"
    # The Copilot is docked once the GUI is logged in, so it starts logged in too.
    assert docked["logged_in"] and "Not logged in" not in docked["header_account"], context
    (connected,) = events_named(events, "connected")
    assert connected["base_url"] == gns3_server.base_url

    followed = events_named(events, "followed")
    assert [f["project_id"] for f in followed] == [first.project_id, second.project_id], context
    assert [f["gui_project_name"] for f in followed] == ["Branch lab", "Core lab"]
    assert followed[0]["window_title"].startswith("Branch lab")

    (turn,) = events_named(events, "turn")
    assert turn["outcome"] == "done" and turn["errors"] == [], context
    assert turn["streamed"] == ANSWER and turn["pieces"] > 1
    assert turn["shown"] == ANSWER
    # GNS3's style sheet does not paint its grey into the user's bubble (it did, like a field).
    assert turn["bubble_host_grey"] == [0.0], context
    assert turn["session_id"] in turn["sessions"]
    # The second project has its own (empty) sessions: the dock switched its backend.
    assert turn["session_id"] not in followed[1]["sessions"]

    agent_calls = [r for r in scripted_openai.chat_requests() if r.tool_names]
    assert agent_calls and agent_calls[-1].last_user_text == QUESTION
    # The topology in the prompt was read with the GNS3 GUI's own JWT: no second login.
    prompt = agent_calls[-1].system_prompt
    assert "PC1" in prompt and "HUB1" in prompt, prompt

    # A node link's "Show in GNS3" selects the node on the GUI's canvas and centres on it
    (shown,) = events_named(events, "show_node")
    assert shown["actions"] == ["Open console", "Show in GNS3"], context
    assert shown["selected"] == ["PC1"] and shown["distance"] < 40, context

    # The Lab card inside the GNS3 GUI, under its charcoal style sheet: a running dot and
    # square green, a stopped one red (both were black), its menu painted before any hover
    # (it was a black box), "Open console" opening GNS3's own console of the node (it did
    # nothing) and "Show in GNS3" selecting it
    (lab,) = events_named(events, "lab_card")
    assert lab["statuses"] == {"HUB1": "started", "PC1": "stopped", "PC2": "stopped"}, context
    assert is_hue(QColor(*lab["dots"]["HUB1"]), "green"), lab
    assert is_hue(QColor(*lab["dots"]["PC1"]), "red"), lab
    assert is_hue(QColor(*lab["squares"]["started"]), "green"), lab
    assert is_hue(QColor(*lab["squares"]["stopped"]), "red"), lab
    assert not lab["hovered"]
    for red, green, blue, alpha in lab["menu_pixels"]:
        assert alpha == 255 and max(red, green, blue) > 40, lab
    assert lab["actions"] == ["Open console", "Show in GNS3"], lab
    assert lab["opened"] == [["PC1", "127.0.0.1", lab["pc1_console"]]], lab
    assert isinstance(lab["pc1_console"], int) and lab["selected"] == ["PC1"], lab

    (shot,) = events_named(events, "screenshot")
    assert shot["saved"] and QImage(str(screenshot)).width() == shot["width"] >= 1200
    if os.environ.get("GNS3_COPILOT_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(screenshot, SCREENSHOT)
