"""Every Gns3Client call against the real GNS3 server 3.0.6 (see tests/helpers/gns3_server.py)."""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from gns3_copilot_desktop.core.errors import (
    Gns3AuthError,
    Gns3ConflictError,
    Gns3ConnectionError,
    Gns3NotFoundError,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client, LinkEnd, Node, Project
from tests.helpers.gns3_server import Gns3Server, craft_hs256_token, free_port

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

MISSING_ID = "00000000-0000-4000-8000-000000000000"
PCAP_MAGICS = (b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4")


def _end(node: Node, port_index: int = 0) -> LinkEnd:
    port = node.ports[port_index]
    return LinkEnd(
        node_id=node.node_id, adapter_number=port.adapter_number, port_number=port.port_number
    )


# --- server and auth -----------------------------------------------------------------------------


async def test_version_needs_no_token(gns3_server: Gns3Server) -> None:
    async with Gns3Client(gns3_server.base_url + "/v3/") as client:
        version = await client.version()
    assert version.version == "3.0.6"
    assert client.base_url == gns3_server.base_url


async def test_authenticate_returns_token_with_expiry(gns3_server: Gns3Server) -> None:
    async with Gns3Client(gns3_server.base_url) as client:
        token = await client.authenticate(gns3_server.username, gns3_server.password)
        assert token.username == gns3_server.username
        assert token.expires_at is not None
        # The fixture's server hands out 120-minute tokens.
        remaining = token.expires_at - datetime.now(tz=UTC)
        assert timedelta(minutes=118) < remaining <= timedelta(minutes=120, seconds=5)
        assert token.access_token not in repr(token)
        client.token = token.access_token
        user = await client.current_user()
    assert user.username == gns3_server.username
    assert user.is_superadmin


async def test_bad_password_keeps_the_server_message(gns3_server: Gns3Server) -> None:
    async with Gns3Client(gns3_server.base_url) as client:
        with pytest.raises(Gns3AuthError) as info:
            await client.authenticate(gns3_server.username, "wrong-password")
    assert info.value.status_code == 401
    assert "Authentication was unsuccessful" in info.value.user_message
    assert "'admin'" in info.value.user_message


async def test_expired_token_is_an_auth_error_before_sending(gns3_server: Gns3Server) -> None:
    expired = gns3_server.craft_token(gns3_server.username, expires_in_s=-60)
    # GNS3 3.0.6 itself accepts an expired token (it does not check ``exp``)...
    async with httpx.AsyncClient() as raw:
        answer = await raw.get(
            f"{gns3_server.base_url}/v3/access/users/me",
            headers={"Authorization": f"Bearer {expired}"},
        )
    assert answer.status_code == 200
    # ...so the client checks the lifetime it decoded and refuses to use the token.
    async with Gns3Client(gns3_server.base_url, token=expired) as client:
        with pytest.raises(Gns3AuthError) as info:
            await client.current_user()
    assert "expired or is invalid" in info.value.user_message
    assert gns3_server.base_url in info.value.user_message


async def test_token_with_a_bad_signature_is_an_auth_error(gns3_server: Gns3Server) -> None:
    forged = craft_hs256_token("not-the-server-secret", gns3_server.username, time.time() + 600)
    async with Gns3Client(gns3_server.base_url, token=forged) as client:
        with pytest.raises(Gns3AuthError) as info:
            await client.list_projects()
    assert info.value.status_code == 401
    assert "expired or is invalid" in info.value.user_message
    assert "Could not validate credentials" in info.value.user_message


async def test_missing_token_is_an_auth_error(gns3_server: Gns3Server) -> None:
    async with Gns3Client(gns3_server.base_url) as client:
        with pytest.raises(Gns3AuthError, match="Not authenticated"):
            await client.list_projects()


async def test_connection_refused_names_the_server() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    async with Gns3Client(url, timeout=5) as client:
        with pytest.raises(Gns3ConnectionError) as info:
            await client.version()
    assert url in info.value.user_message
    assert "refused" in info.value.user_message
    assert info.value.server == url


# --- projects ------------------------------------------------------------------------------------


async def test_project_lifecycle(gns3_client: Gns3Client) -> None:
    name = f"life-{secrets.token_hex(3)}"
    project = await gns3_client.create_project(name)
    try:
        assert project.auto_close is False
        assert project.status == "opened"
        assert project.project_id in {p.project_id for p in await gns3_client.list_projects()}
        renamed = await gns3_client.update_project(project.project_id, name=name + "-x")
        assert renamed.name == name + "-x"
        assert (await gns3_client.get_project(project.project_id)).name == name + "-x"
        await gns3_client.close_project(project.project_id)
        assert (await gns3_client.get_project(project.project_id)).status == "closed"
        reopened = await gns3_client.open_project(project.project_id)
        assert reopened.status == "opened"
    finally:
        await gns3_client.delete_project(project.project_id)
    with pytest.raises(Gns3NotFoundError):
        await gns3_client.get_project(project.project_id)


@pytest.mark.allow_error_logs
async def test_missing_project_is_not_found_with_server_message(gns3_client: Gns3Client) -> None:
    with pytest.raises(Gns3NotFoundError) as info:
        await gns3_client.get_project(MISSING_ID)
    assert info.value.status_code == 404
    assert MISSING_ID in info.value.user_message


async def test_project_stats_count_what_was_added(
    gns3_client: Gns3Client, gns3_project: Project
) -> None:
    pid = gns3_project.project_id
    assert (await gns3_client.project_stats(pid)).nodes == 0
    await gns3_client.create_node(pid, "pc1", "vpcs")
    await gns3_client.create_drawing(pid, "<svg width='10' height='10'></svg>", 0, 0)
    stats = await gns3_client.project_stats(pid)
    assert (stats.nodes, stats.links, stats.drawings) == (1, 0, 1)


# --- nodes and links (vpcs: creation only, it cannot start on this machine) ----------------------


async def test_vpcs_nodes_links_and_port_in_use(
    gns3_client: Gns3Client, gns3_project: Project
) -> None:
    pid = gns3_project.project_id
    pc1 = await gns3_client.create_node(pid, "pc1", "vpcs", x=-100, y=0)
    pc2 = await gns3_client.create_node(pid, "pc2", "vpcs", x=100, y=0)
    pc3 = await gns3_client.create_node(pid, "pc3", "vpcs", x=0, y=100)
    assert pc1.node_type == "vpcs" and pc1.ports and pc1.console_type == "telnet"
    assert pc1.console is not None
    assert {n.node_id for n in await gns3_client.list_nodes(pid)} == {
        pc1.node_id,
        pc2.node_id,
        pc3.node_id,
    }
    moved = await gns3_client.update_node(pid, pc1.node_id, name="pc1-renamed", x=-120)
    assert (moved.name, moved.x) == ("pc1-renamed", -120)
    assert (await gns3_client.get_node(pid, pc1.node_id)).name == "pc1-renamed"

    link = await gns3_client.create_link(pid, _end(pc1), _end(pc2))
    assert {end.node_id for end in link.nodes} == {pc1.node_id, pc2.node_id}
    assert [lk.link_id for lk in await gns3_client.list_links(pid)] == [link.link_id]
    assert [lk.link_id for lk in await gns3_client.node_links(pid, pc2.node_id)] == [link.link_id]
    assert (await gns3_client.get_link(pid, link.link_id)).link_id == link.link_id

    with pytest.raises(Gns3ConflictError) as info:
        await gns3_client.create_link(pid, _end(pc1), _end(pc3))
    assert info.value.status_code == 409
    assert "already used" in info.value.user_message

    await gns3_client.delete_link(pid, link.link_id)
    assert await gns3_client.list_links(pid) == []
    await gns3_client.delete_node(pid, pc3.node_id)
    with pytest.raises(Gns3NotFoundError):
        await gns3_client.get_node(pid, pc3.node_id)


async def test_templates_and_node_from_template(
    gns3_client: Gns3Client, gns3_project: Project
) -> None:
    templates = await gns3_client.list_templates()
    by_type = {t.template_type: t for t in templates if t.builtin}
    assert {"vpcs", "ethernet_switch", "ethernet_hub", "cloud"} <= set(by_type)
    node = await gns3_client.create_node_from_template(
        gns3_project.project_id, by_type["vpcs"].template_id, x=50, y=60, name="from-template"
    )
    assert node.node_type == "vpcs"
    assert (node.x, node.y, node.template_id) == (50, 60, by_type["vpcs"].template_id)


# --- switches: start/stop/suspend/reload, capture (need dynamips) --------------------------------


@pytest.mark.usefixtures("requires_dynamips")
async def test_switch_power_actions(gns3_client: Gns3Client, gns3_project: Project) -> None:
    # Ethernet switches and hubs are "always on" in GNS3: the power calls answer 204 and change
    # nothing, which still proves each route and its ``{}`` body (without it: 422).
    pid = gns3_project.project_id
    switch = await gns3_client.create_node(pid, "sw1", "ethernet_switch")
    hub = await gns3_client.create_node(pid, "hub1", "ethernet_hub")
    assert switch.status == "started"
    for action in (
        gns3_client.stop_node,
        gns3_client.start_node,
        gns3_client.suspend_node,
        gns3_client.reload_node,
    ):
        await action(pid, switch.node_id)
    for all_action in (
        gns3_client.stop_all_nodes,
        gns3_client.start_all_nodes,
        gns3_client.suspend_all_nodes,
        gns3_client.reload_all_nodes,
    ):
        await all_action(pid)
    for node in (switch, hub):
        assert (await gns3_client.get_node(pid, node.node_id)).status == "started"


@pytest.mark.allow_error_logs
async def test_power_action_on_missing_node_is_not_found(
    gns3_client: Gns3Client, gns3_project: Project
) -> None:
    with pytest.raises(Gns3NotFoundError) as info:
        await gns3_client.start_node(gns3_project.project_id, MISSING_ID)
    assert MISSING_ID in info.value.user_message


@pytest.mark.usefixtures("requires_dynamips")
async def test_capture_start_download_stop(gns3_client: Gns3Client, gns3_project: Project) -> None:
    pid = gns3_project.project_id
    switch = await gns3_client.create_node(pid, "sw1", "ethernet_switch")
    hub = await gns3_client.create_node(pid, "hub1", "ethernet_hub")
    link = await gns3_client.create_link(pid, _end(switch), _end(hub))
    capturing = await gns3_client.start_capture(pid, link.link_id, capture_file_name="cap.pcap")
    assert capturing.capturing
    assert capturing.capture_file_name == "cap.pcap"
    # Live: the stream endpoint; a quiet link may have flushed nothing yet, never garbage.
    live = await gns3_client.download_capture(pid, link.link_id, duration=0.5)
    assert live == b"" or live[:4] in PCAP_MAGICS
    await gns3_client.stop_capture(pid, link.link_id)
    assert not (await gns3_client.get_link(pid, link.link_id)).capturing
    # Finished: the whole file, starting with the pcap global header (24 bytes).
    pcap = await gns3_client.download_capture(pid, link.link_id)
    assert pcap[:4] in PCAP_MAGICS
    assert len(pcap) >= 24
    assert pcap.startswith(live)


# --- drawings and snapshots ----------------------------------------------------------------------


async def test_drawings(gns3_client: Gns3Client, gns3_project: Project) -> None:
    pid = gns3_project.project_id
    svg = '<svg width="40" height="20"><rect width="40" height="20" fill="#ff0000"/></svg>'
    drawing = await gns3_client.create_drawing(pid, svg, 10, 20, z=2)
    assert (drawing.x, drawing.y, drawing.z) == (10, 20, 2)
    assert "rect" in drawing.svg
    assert [d.drawing_id for d in await gns3_client.list_drawings(pid)] == [drawing.drawing_id]
    await gns3_client.delete_drawing(pid, drawing.drawing_id)
    assert await gns3_client.list_drawings(pid) == []


async def test_snapshots_create_and_restore(gns3_client: Gns3Client, gns3_project: Project) -> None:
    pid = gns3_project.project_id
    await gns3_client.create_node(pid, "before", "vpcs")
    snapshot = await gns3_client.create_snapshot(pid, "one-node")
    assert snapshot.name == "one-node"
    assert [s.snapshot_id for s in await gns3_client.list_snapshots(pid)] == [snapshot.snapshot_id]
    await gns3_client.create_node(pid, "after", "vpcs")
    assert len(await gns3_client.list_nodes(pid)) == 2
    restored = await gns3_client.restore_snapshot(pid, snapshot.snapshot_id)
    assert restored.project_id == pid
    assert [n.name for n in await gns3_client.list_nodes(pid)] == ["before"]
