"""TopologyCache on the real GNS3 server: changes made through GNS3's API (as the GUI makes
them) reach the next summary through the project's notifications, and a second GNS3 account
never gets the first one's copy."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.topology_cache import TopologyCache
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from tests.helpers.gns3_server import Gns3Server

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


@pytest_asyncio.fixture
async def cache() -> AsyncIterator[TopologyCache]:
    made = TopologyCache()
    yield made
    await made.close()


async def _until(
    cache: TopologyCache, client: Gns3Client, pid: str, ok: Callable[[str], bool]
) -> str:
    """The summary, asked again until ``ok`` holds (10 s at most)."""
    async with asyncio.timeout(10):
        while True:
            text, _ = await cache.summary(client, pid)
            if ok(text):
                return text
            await asyncio.sleep(0.05)


async def _primed(cache: TopologyCache, client: Gns3Client, pid: str) -> str:
    """The summary once the watch vouches for it: a call served without reading GNS3."""
    async with asyncio.timeout(10):
        while True:
            reads = cache.reads
            text, _ = await cache.summary(client, pid)
            if cache.reads == reads:
                return text
            await asyncio.sleep(0.05)


async def test_a_node_added_or_renamed_in_gns3_is_in_the_next_summary(
    cache: TopologyCache, gns3_client: Gns3Client, gns3_project: Project
) -> None:
    pid = gns3_project.project_id
    await gns3_client.create_node(pid, "PC1", "vpcs")
    assert '"PC1"' in await _primed(cache, gns3_client, pid)

    added = await gns3_client.create_node(pid, "PC2", "vpcs")  # not through the cache
    await _until(cache, gns3_client, pid, lambda text: '"PC2"' in text)
    assert '"PC2"' in await _primed(cache, gns3_client, pid)  # and cached again

    await gns3_client.update_node(pid, added.node_id, name="Branch")
    text = await _until(cache, gns3_client, pid, lambda text: '"Branch"' in text)
    assert '"PC2"' not in text


async def _new_user(server: Gns3Server, admin_token: str, shared: str | None = None) -> str:
    """A GNS3 account made through GNS3's own API; its token. ``shared``: a project it gets
    GNS3's "User" role on (else it has none)."""
    name, password = f"cache{secrets.token_hex(3)}", secrets.token_urlsafe(12)
    admin = {"Authorization": f"Bearer {admin_token}"}
    async with httpx.AsyncClient(base_url=f"{server.base_url}/v3") as http:
        made = await http.post(
            "/access/users",
            json={"username": name, "password": password, "email": f"{name}@lab.example.org"},
            headers=admin,
        )
        assert made.status_code == 201, made.text
        if shared is not None:
            roles = (await http.get("/access/roles", headers=admin)).json()
            ace = {
                "ace_type": "user",
                "path": f"/projects/{shared}",
                "user_id": made.json()["user_id"],
                "role_id": next(r["role_id"] for r in roles if r["name"] == "User"),
                "propagate": True,
                "allowed": True,
            }
            granted = await http.post("/access/acl", json=ace, headers=admin)
            assert granted.status_code == 201, granted.text
        login = await http.post(
            "/access/users/authenticate", json={"username": name, "password": password}
        )
        login.raise_for_status()
        return str(login.json()["access_token"])


async def test_other_logins_never_get_the_cached_copy(
    cache: TopologyCache,
    gns3_server: Gns3Server,
    gns3_token: str,
    gns3_client: Gns3Client,
    gns3_project: Project,
) -> None:
    pid = gns3_project.project_id
    await gns3_client.create_node(pid, "Lab-PC", "vpcs")
    assert '"Lab-PC"' in await _primed(cache, gns3_client, pid)

    # a user GNS3 does not let in: reads with their own login, which GNS3 refuses
    stranger_token = await _new_user(gns3_server, gns3_token)
    async with Gns3Client(gns3_server.base_url, token=stranger_token) as stranger:
        reads = cache.reads
        text, types = await cache.summary(stranger, pid)
    assert cache.reads == reads + 1
    assert "Lab-PC" not in text and "could not be read" in text and not types

    # a user the project is shared with: their own read first, then their own copy
    student_token = await _new_user(gns3_server, gns3_token, shared=pid)
    async with Gns3Client(gns3_server.base_url, token=student_token) as student:
        reads = cache.reads
        text, _ = await cache.summary(student, pid)
        assert cache.reads == reads + 1 and '"Lab-PC"' in text
        assert '"Lab-PC"' in await _primed(cache, student, pid)
    assert '"Lab-PC"' in (await cache.summary(gns3_client, pid))[0]
