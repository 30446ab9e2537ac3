"""The card shows exactly what will run: edited arguments on the real app, the real GNS3 server
and (for a push) real VPCS consoles, with only the model scripted.

Edits are checked through the real `ServiceBackend.preview_call` (the session's pending call, the
turn's `RunContext`, the tool's own consequence read from the server), and Approve sends only
arguments whose card is the one shown. Set GNS3_COPILOT_SCREENSHOTS=<dir> to save the edited
card at 360 px, in English and in Simplified Chinese.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QApplication, QLineEdit
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.app import install_translator, remove_translator
from gns3_copilot_desktop.core.agent.approval import NOT_PENDING_TEXT, CallPreview
from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices, target_for_node
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.ui.cards.approval_card import ApprovalCard, ApprovalItem
from gns3_copilot_desktop.ui.cards.tool_card import ToolCard, ToolState
from gns3_copilot_desktop.ui.qt_async import pending_tasks
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login, run
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = pytest.mark.gns3

WAIT_MS = 30_000
DOCK_WIDTH = 360


# --- driving the app ------------------------------------------------------------------------------


def _send(app: CopilotApp, qtbot: QtBot, text: str) -> None:
    qtbot.waitUntil(lambda: app.panel.composer.disabled_reason is None, timeout=WAIT_MS)
    before = app.panel.controller.task
    app.panel.composer.edit.setPlainText(text)
    app.panel.composer.submit()
    qtbot.waitUntil(lambda: app.panel.controller.task is not before, timeout=WAIT_MS)


def _wait_finished(app: CopilotApp, qtbot: QtBot) -> None:
    qtbot.waitUntil(
        lambda: app.panel.controller.task is not None and app.panel.controller.task.done(),
        timeout=WAIT_MS,
    )


def _pending_card(app: CopilotApp, qtbot: QtBot) -> ApprovalCard:
    def pending() -> list[ApprovalCard]:
        return [c for c in app.panel.view.findChildren(ApprovalCard) if not c.done]

    qtbot.waitUntil(lambda: len(pending()) == 1, timeout=WAIT_MS)
    return pending()[0]


def _previews_done(qtbot: QtBot) -> None:
    qtbot.waitUntil(
        lambda: not [t for t in pending_tasks() if t.get_name() == "preview-edits"],
        timeout=WAIT_MS,
    )


def _field(item: ApprovalItem, name: str) -> QLineEdit:
    [widget] = [f.widget for f in item.fields if f.name == name]
    assert isinstance(widget, QLineEdit)
    return widget


def _reloaded_card(app: CopilotApp, qtbot: QtBot, call_id: str) -> ToolCard:
    """Open the session again (the view is rebuilt from the stored transcript) and return the
    call's card as the history shows it."""
    session_id = app.panel.session_id
    assert session_id is not None
    before = app.panel.view.card(call_id)
    run(qtbot, app.panel.open_session(session_id), WAIT_MS)

    def cards() -> list[ToolCard]:
        found = app.panel.view.findChildren(ToolCard)
        return [c for c in found if c.tool_call_id == call_id and c is not before]

    qtbot.waitUntil(lambda: len(cards()) == 1, timeout=WAIT_MS)
    return cards()[0]


@contextlib.contextmanager
def _chinese() -> Iterator[None]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    translator = install_translator(app, "zh_CN")
    assert translator is not None
    try:
        yield
    finally:
        remove_translator(app, translator)


# --- an edited delete ----------------------------------------------------------------------------


def _lab_of_four(server: Gns3Server, token: str, project_id: str) -> dict[str, str]:
    """VPCS R1..R4 on the server, R1-R2 and R3-R4 linked (over plain HTTP)."""
    api = f"{server.base_url}/v3/projects/{project_id}"
    headers = {"Authorization": f"Bearer {token}"}
    ids = {}
    for i, name in enumerate(("R1", "R2", "R3", "R4")):
        body = {"name": name, "node_type": "vpcs", "compute_id": "local", "x": i * 120, "y": 0}
        response = httpx.post(f"{api}/nodes", json=body, headers=headers)
        response.raise_for_status()
        ids[name] = str(response.json()["node_id"])
    for a, b in (("R1", "R2"), ("R3", "R4")):
        ends = [{"node_id": ids[n], "adapter_number": 0, "port_number": 0} for n in (a, b)]
        httpx.post(f"{api}/links", json={"nodes": ends}, headers=headers).raise_for_status()
    return ids


def _names_and_links(server: Gns3Server, token: str, project_id: str) -> tuple[list[str], int]:
    api = f"{server.base_url}/v3/projects/{project_id}"
    headers = {"Authorization": f"Bearer {token}"}
    nodes = httpx.get(f"{api}/nodes", headers=headers).json()
    links = httpx.get(f"{api}/links", headers=headers).json()
    return sorted(n["name"] for n in nodes), len(links)


def _refusals_are_said_and_the_card_never_chooses_the_tool(
    app: CopilotApp, qtbot: QtBot, item: ApprovalItem
) -> None:
    item.edit_button.click()
    nodes = _field(item, "nodes")
    for text, said in (
        ('["R1", "<b>R9</b>"]', "<b>R9</b>"),  # no such node: the tool would refuse it
        ('["R1", ', "nodes"),  # does not parse
        ("[]", "nodes"),  # the schema refuses it
    ):
        nodes.setText(text)
        assert not item.approve.isEnabled()
        qtbot.waitUntil(
            lambda: "Not possible as edited" in item.edit_status.text(), timeout=WAIT_MS
        )
        assert said in item.edit_status.text() and not item.approve.isEnabled()
        assert item.edit_status.textFormat() == Qt.TextFormat.PlainText
        assert "R9" not in item.title.text()  # the card still shows the last checked call
    nodes.setText('["R1", "R2"]')  # back to the proposal: nothing to check, Approve on
    assert item.approve.isEnabled() and not item.edit_status.isVisible()
    item.edit_button.click()

    # The backend looks the call up among the session's pending ones: a forged tool name or
    # call id from the widget side cannot make another tool's card.
    backend, session_id = app.header.backend, app.panel.session_id
    forged = item.request.model_copy(update={"tool_name": "create_nodes"})
    answer = run(qtbot, backend.preview_call(session_id, forged, {"nodes": ["R4"]}), WAIT_MS)
    assert answer.request is not None and answer.request.tool_name == "delete_nodes"
    other = item.request.model_copy(update={"tool_call_id": "call_elsewhere"})
    answer = run(qtbot, backend.preview_call(session_id, other, {"nodes": ["R4"]}), WAIT_MS)
    assert answer.request is None and answer.problem == NOT_PENDING_TEXT


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_an_edited_delete_is_named_before_approve_and_deletes_exactly_that(
    language: str,
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    pid = e2e_project["project_id"]
    _lab_of_four(gns3_server, gns3_token, pid)
    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    with _chinese() if language == "zh_CN" else contextlib.nullcontext():
        app = copilot_app()
        app.window.resize(DOCK_WIDTH, 900)
        open_project(app, pid, qtbot)
        scripted_openai.push(
            ScriptedTurn.tool("delete_nodes", {"nodes": ["R1", "R2"]}, id="call_delete"),
            ScriptedTurn.text("Deleted what you approved.", chunks=2),
        )
        _send(app, qtbot, "Delete R1 and R2")
        card = _pending_card(app, qtbot)
        _wait_finished(app, qtbot)
        item = card.items[0]
        assert "R3" not in item.title.text() and "R3" not in item.consequence_label.text()

        if language == "en":
            _refusals_are_said_and_the_card_never_chooses_the_tool(app, qtbot, item)

        # The first check's answer is held until the test lets it through, so that it arrives
        # after a newer edit: it must be dropped.
        real = item.previewer
        assert real is not None
        held: list[tuple[dict[str, Any], asyncio.Event]] = []

        async def held_back(pending: ApprovalRequest, arguments: dict[str, Any]) -> CallPreview:
            answer = await real(pending, arguments)  # the server's answer for this text
            gate = asyncio.Event()
            held.append((arguments, gate))
            await gate.wait()
            return answer

        item.set_previewer(held_back)
        item.edit_button.click()
        nodes = _field(item, "nodes")
        nodes.setText('["R1", "R2", "R4"]')
        assert not item.approve.isEnabled()  # never before the edit is checked
        qtbot.waitUntil(lambda: len(held) == 1, timeout=WAIT_MS)
        nodes.setText('["R1", "R2", "R3"]')
        qtbot.waitUntil(lambda: len(held) == 2, timeout=WAIT_MS)
        assert not item.approve.isEnabled()
        held[1][1].set()  # the answer for the text shown now
        qtbot.waitUntil(item.approve.isEnabled, timeout=WAIT_MS)
        held[0][1].set()  # the older answer (R4) arrives last: ignored
        _previews_done(qtbot)
        assert item.approve.isEnabled()
        title, consequence = item.title.text(), item.consequence_label.text()
        assert "R1, R2, R3" in title and "R4" not in title
        # One heading line per node that goes (its links indented under it): R4 is named only
        # as the far end of R3's link, it is not deleted.
        for text in (consequence, item.shown.consequence or ""):
            going = [line.split()[0] for line in text.splitlines() if not line.startswith(" ")]
            assert going == ["R1", "R2", "R3"], text
        assert "R3 Ethernet0 <-> R4 Ethernet0" in consequence
        assert item.risk_label.objectName() == "riskDestructive"
        suffix = "" if language == "en" else "-zh-CN"
        app.shot(f"edited-card-delete{suffix}", app.handle.dock)

        item.approve.click()
        qtbot.waitUntil(
            lambda: "Deleted what you approved." in "".join(app.assistant_texts()),
            timeout=WAIT_MS,
        )
        _wait_finished(app, qtbot)
    # exactly what the card said: R1, R2, R3 and their links; R4 stays
    assert _names_and_links(gns3_server, gns3_token, pid) == (["R4"], 0)
    if language == "en":
        assert card.result_label.text() == (
            "Approved with your edits: delete R1, R2, R3 with their links"
        )
        tool_card = app.panel.view.card("call_delete")
        assert tool_card.state == ToolState.DONE
        assert tool_card.arguments == {"nodes": ["R1", "R2", "R3"]}
        # the model was told the call ran with the user's edits
        tool_message = next(
            m for m in scripted_openai.chat_requests()[-1].messages if m.get("role") == "tool"
        )
        assert '"nodes": ["R1", "R2", "R3"]' in tool_message["content"]
        reloaded = _reloaded_card(app, qtbot, "call_delete")
        assert reloaded.arguments == {"nodes": ["R1", "R2", "R3"]}
        assert "R1, R2, R3" in reloaded.summary


# --- an edited push on real VPCS consoles ---------------------------------------------------


async def _started_pc1_at(client: Gns3Client, pid: str, base_url: str, line: str) -> None:
    """Start both PCs (a bounded wait on the server) and give PC1 `line` over its console."""
    nodes = await client.list_nodes(pid)
    for node in nodes:
        await client.start_node(pid, node.node_id)
    for _ in range(600):
        nodes = await client.list_nodes(pid)
        if all(n.status == "started" for n in nodes):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError(f"the PCs did not start: {[n.status for n in nodes]}")
    pc1 = next(n for n in nodes if n.name == "PC1")
    [outcome] = await run_on_devices([DeviceJob(target_for_node(pc1, base_url), (line,))])
    assert outcome.ok, outcome.error


async def _show_ip(client: Gns3Client, pid: str, base_url: str) -> str:
    pc1 = next(n for n in await client.list_nodes(pid) if n.name == "PC1")
    [outcome] = await run_on_devices([DeviceJob(target_for_node(pc1, base_url), ("show ip",))])
    return outcome.results[0].output


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_an_edited_push_is_previewed_by_state_and_named_when_decided_and_reloaded(
    language: str,
    gns3_vpcs_lab: Gns3VpcsLab,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    lab = gns3_vpcs_lab
    stack = contextlib.AsyncExitStack()

    async def setup() -> tuple[Gns3Client, str]:
        client, pid, _pc1, _pc2 = await stack.enter_async_context(
            two_linked_pcs(lab, f"edited-push-{language}")
        )
        await _started_pc1_at(client, pid, lab.base_url, "ip 10.1.1.3/24 10.1.1.1")
        return client, pid

    client, pid = run(qtbot, setup(), 120_000)
    try:
        lab_login = SimpleNamespace(base_url=lab.base_url, username=lab.username)
        remember_login(tmp_path, lab_login, client.token or "", app_keyring)  # type: ignore[arg-type]
        with _chinese() if language == "zh_CN" else contextlib.nullcontext():
            app = copilot_app(server_url=lab.base_url)
            app.window.resize(DOCK_WIDTH, 900)
            open_project(app, pid, qtbot)
            proposed = {"devices": [{"node": "PC1", "lines": ["ip 10.1.1.3/24 10.1.1.1"]}]}
            scripted_openai.push(
                ScriptedTurn.tool("configure_devices", proposed, id="call_push"),
                ScriptedTurn.text("PC1 is configured.", chunks=2),
            )
            _send(app, qtbot, "Give PC1 its address")
            card = _pending_card(app, qtbot)
            _wait_finished(app, qtbot)
            item = card.items[0]
            # by state: PC1 already has this address and gateway, so the line is not "+"
            assert item.shown.diff == "== PC1 (show ip) ==\n  ip 10.1.1.3/24 10.1.1.1"
            assert item.shown.consequence == "PC1: 0 new line(s), 1 already there"

            [block] = item.text_blocks.values()
            block.setPlainText("ip 10.1.1.30/24 10.1.1.1")
            assert not item.approve.isEnabled()
            qtbot.waitUntil(item.approve.isEnabled, timeout=WAIT_MS)
            assert item.shown.diff == "== PC1 (show ip) ==\n+ ip 10.1.1.30/24 10.1.1.1"
            assert item.shown.consequence == "PC1: 1 new line(s), 0 already there"
            assert "10.1.1.30" in item.title.text() and "10.1.1.3 " not in item.title.text()
            assert item.diff_view.toPlainText() == item.shown.diff
            suffix = "" if language == "en" else "-zh-CN"
            app.shot(f"edited-card{suffix}", app.handle.dock)

            item.approve.click()
            qtbot.waitUntil(
                lambda: "PC1 is configured." in "".join(app.assistant_texts()), timeout=WAIT_MS
            )
            _wait_finished(app, qtbot)
            decided = card.result_label.text()
            app.shot(f"edited-card-decided{suffix}", app.handle.dock)
        shown = run(qtbot, _show_ip(client, pid, lab.base_url), WAIT_MS)
        assert "10.1.1.30/24" in shown, shown
        if language == "en":
            assert decided == "Approved with your edits: configure PC1: ip 10.1.1.30/24 10.1.1.1"
            live = app.panel.view.card("call_push")
            assert live.summary == "configure PC1: ip 10.1.1.30/24 10.1.1.1"
            assert live.arguments["devices"][0]["lines"] == ["ip 10.1.1.30/24 10.1.1.1"]
            # the transcript names the pushed line with the new value
            again = _reloaded_card(app, qtbot, "call_push")
            assert again.summary == "configure PC1: ip 10.1.1.30/24 10.1.1.1"
            assert again.arguments["devices"][0]["lines"] == ["ip 10.1.1.30/24 10.1.1.1"]
        else:
            assert "10.1.1.30" in decided
    finally:
        run(qtbot, stack.aclose(), 60_000)
