"""The sessions panel's "Export…" button writes the selected session, with its tool calls."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from PyQt6.QtCore import QStandardPaths
from PyQt6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.ui.backends.base import AssistantTurn, ToolRecord, UserTurn
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.sessions.panel import SessionsPanel
from gns3_copilot_desktop.ui.sessions.session_files import (
    export_target,
    proposed_export_path,
)
from tests.helpers.fake_backend import ScriptedBackend

HISTORY = [
    UserTurn("start R1"),
    ToolRecord("c1", "start_node", {"node": "R1"}, output="R1 started"),
    AssistantTurn("R1 is running."),
]


@pytest.fixture
def panel(
    qtbot: QtBot, qasync_loop: asyncio.AbstractEventLoop, backend: ScriptedBackend
) -> SessionsPanel:
    backend.add_session("Start R1", HISTORY)
    panel = SessionsPanel(backend)
    qtbot.addWidget(panel)
    panel.show()
    task = spawn(panel.refresh())
    qtbot.waitUntil(task.done)
    return panel


@pytest.mark.parametrize(
    ("name", "chosen"), [("lab.md", "Markdown (*.md)"), ("lab", "JSON (*.json)")]
)
def test_export_writes_the_chosen_format(
    qtbot: QtBot,
    panel: SessionsPanel,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    chosen: str,
) -> None:
    asked: list[str] = []
    proposed: list[str] = []

    def save_file_name(*args: object, **_: object) -> tuple[str, str]:
        proposed.append(str(args[2]))
        asked.append(str(args[3]))
        return str(tmp_path / name), chosen

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_file_name)
    assert not panel.export_button.isEnabled()
    assert panel.export_button.accessibleName() == "Export session"
    panel.list.setCurrentRow(0)
    panel.export_button.click()
    written = tmp_path / ("lab.md" if name == "lab.md" else "lab.json")
    qtbot.waitUntil(written.exists, timeout=5000)
    assert asked == ["Markdown (*.md);;JSON (*.json)"]
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    assert documents
    assert proposed == [str(Path(documents) / "Start R1.md")]
    if chosen.startswith("JSON"):
        qtbot.waitUntil(lambda: written.read_text(encoding="utf-8").endswith("\n"))
        data = json.loads(written.read_text(encoding="utf-8"))
        assert data["session"]["title"] == "Start R1"
        call = data["messages"][1]["tool_calls"][0]["function"]
        assert call == {"name": "start_node", "arguments": '{"node": "R1"}'}
        assert data["messages"][2]["content"] == "R1 started"
    else:
        qtbot.waitUntil(lambda: "R1 is running." in written.read_text(encoding="utf-8"))
        text = written.read_text(encoding="utf-8")
        assert text.startswith("# Start R1\n")
        assert "Tool call `start_node`:" in text
        assert '"arguments": {\n    "node": "R1"\n  }' in text
        assert "```\nR1 started\n```" in text


def test_the_proposed_path_is_in_the_documents_folder_named_after_the_session() -> None:
    docs = Path("/home/ana/Documents")
    assert proposed_export_path("OSPF: area 0/1", docs) == docs / "OSPF_ area 0_1.md"
    assert proposed_export_path("", docs) == docs / "session.md"


@pytest.mark.parametrize(
    ("typed", "chosen", "written", "fmt"),
    [
        ("/d/lab", "Markdown (*.md)", "/d/lab.md", "markdown"),
        ("/d/lab", "JSON (*.json)", "/d/lab.json", "json"),
        ("/d/lab.v2", "JSON (*.json)", "/d/lab.v2.json", "json"),
        ("/d/lab.md", "JSON (*.json)", "/d/lab.md", "markdown"),
        ("/d/lab.JSON", "Markdown (*.md)", "/d/lab.JSON", "json"),
    ],
)
def test_the_extension_is_added_when_none_was_typed(
    typed: str, chosen: str, written: str, fmt: str
) -> None:
    assert export_target(typed, chosen) == (Path(written), fmt)


def test_device_output_with_crlf_is_exported_with_plain_line_ends(
    qtbot: QtBot,
    qasync_loop: asyncio.AbstractEventLoop,
    backend: ScriptedBackend,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Consoles end lines with \\r\\n; the Markdown a user opens, diffs or shares has \\n only, on
    every system (the export goes through the platform's writer, which Windows' text mode would
    otherwise turn into \\r\\r\\n)."""
    output = "R1#show ip interface brief\r\nInterface  IP-Address\r\nEthernet0  10.0.0.1\r\n"
    history = [UserTurn("read R1"), ToolRecord("c1", "run", {}, output=output)]
    backend.add_session("Read R1", history)
    panel = SessionsPanel(backend)
    qtbot.addWidget(panel)
    panel.show()
    task = spawn(panel.refresh())
    qtbot.waitUntil(task.done)
    written = tmp_path / "r1.md"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (str(written), "Markdown (*.md)")
    )
    panel.list.setCurrentRow(0)
    panel.export_button.click()
    qtbot.waitUntil(lambda: written.exists() and b"Ethernet0" in written.read_bytes())
    data = written.read_bytes()
    assert b"\r" not in data
    assert b"Interface  IP-Address\nEthernet0  10.0.0.1" in data
