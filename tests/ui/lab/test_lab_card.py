"""The header's "Lab" button draws the project's topology in the chat from the real GNS3 server,
and the card follows GNS3's notifications (a node renamed and moved elsewhere shows up)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytestqt.qtbot import QtBot

from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.keyring_backends import MemoryKeyring

pytestmark = pytest.mark.gns3

WAIT_MS = 15_000


def test_the_lab_card_draws_the_project_and_follows_its_changes(
    e2e_project: dict[str, Any],
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    gns3_server: Gns3Server,
    gns3_token: str,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    project_id = e2e_project["project_id"]
    api = f"{gns3_server.base_url}/v3/projects/{project_id}"
    headers = {"Authorization": f"Bearer {gns3_token}"}
    ids = {}
    for name, x in (("PC1", -200), ("PC2", 200)):
        body = {"name": name, "node_type": "vpcs", "compute_id": "local", "x": x, "y": 0}
        response = httpx.post(f"{api}/nodes", json=body, headers=headers)
        response.raise_for_status()
        ids[name] = response.json()["node_id"]
    ends = [{"node_id": ids[n], "adapter_number": 0, "port_number": 0} for n in ("PC1", "PC2")]
    httpx.post(f"{api}/links", json={"nodes": ends}, headers=headers).raise_for_status()

    remember_login(tmp_path, gns3_server, gns3_token, app_keyring)
    app = copilot_app()
    open_project(app, project_id, qtbot)
    card = app.header.labs.show_lab()
    assert card is not None
    qtbot.waitUntil(lambda: len(card.drawing.picture.nodes) == 2, timeout=WAIT_MS)
    picture = card.drawing.picture
    assert {(n.name, n.status) for n in picture.nodes} == {("PC1", "stopped"), ("PC2", "stopped")}
    [link] = picture.links
    assert {link.a_port, link.b_port} == {"Ethernet0"}
    assert "2 nodes (0 running), 1 links" in card.summary.text()
    left, right = card.drawing.node_centre("PC1"), card.drawing.node_centre("PC2")
    assert left is not None and right is not None and left.x() < right.x()

    # GNS3 says PC2 changed (renamed, moved left of PC1): the card reads the lab again
    qtbot.waitUntil(lambda: card.following, timeout=WAIT_MS)  # subscribed to the project
    qtbot.waitUntil(lambda: not card._timer.isActive(), timeout=WAIT_MS)
    before = card.refreshes
    seen = app.header.watch.notifications_seen
    print("VISIBLE", card.isVisible(), "SEEN", seen)
    update = {"name": "PC9", "x": -400, "y": 0}
    httpx.put(f"{api}/nodes/{ids['PC2']}", json=update, headers=headers).raise_for_status()
    qtbot.waitUntil(
        lambda: (
            card.refreshes > before
            and {n.name for n in card.drawing.picture.nodes} == {"PC1", "PC9"}
        ),
        timeout=WAIT_MS,
    ) if print(
        "AFTER",
        app.header.watch.notifications_seen,
        card.refreshes,
        [n.name for n in card.drawing.picture.nodes],
    ) is None else None
    moved, kept = card.drawing.node_centre("PC9"), card.drawing.node_centre("PC1")
    assert moved is not None and kept is not None and moved.x() < kept.x()
