"""Changing a link through the GNS3 API for a fault, and putting it back, as Practice and a
trainer's task both do: suspend it or set its packet filters, unplug a node while it is
configured, and make the compute forget a cleared filter.

These are the faults' own side effects on GNS3, so they live in one place: GNS3 3.0.6 keeps
a cleared filter alive in a running node's ubridge (`heal_link`), and a node configured while
unplugged must get every link back even when its console failed (`unplugged`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Link, Node
from gns3_copilot_desktop.core.practice.catalog import LinkAction

NO_PACKET = "len < 1"
"""A BPF filter that matches no packet: set, then cleared, it replaces a stale filter."""


async def heal_link(client: Gns3Client, project_id: str, link_id: str) -> None:
    """Make the compute forget a link's last filter once the API shows the link clean.

    GNS3 3.0.6 applies a link's filters to a running node's ubridge only when there are some:
    resuming a suspended link (or clearing its filters) leaves the old drop filter in place,
    and traffic stays blocked although the API says the link is fine. Setting a filter that
    matches no packet replaces the stale one; clearing it again leaves that harmless filter
    behind and the API as the user left it."""
    await client.update_link(project_id, link_id, filters={"bpf": [NO_PACKET]})
    await client.update_link(project_id, link_id, filters={})


async def set_link(client: Gns3Client, project_id: str, link_id: str, action: LinkAction) -> None:
    """Apply one side of a link fault (suspend or resume it, set or clear its filters)."""
    await client.update_link(project_id, link_id, suspend=action.suspend, filters=action.filters)
    if action.suspend is False or action.filters == {}:
        await heal_link(client, project_id, link_id)


@asynccontextmanager
async def unplugged(client: Gns3Client, project_id: str, node: Node) -> AsyncIterator[list[str]]:
    """The node with every link that carries traffic now suspended, for the block's length
    (a host configured while unplugged); the links are resumed and healed after, whatever
    happened inside."""
    links = [link for link in await client.node_links(project_id, node.node_id) if not link.suspend]
    suspended: list[str] = []
    try:
        for link in links:
            await client.update_link(project_id, link.link_id, suspend=True)
            suspended.append(link.link_id)
        yield suspended
    finally:
        for link_id in suspended:
            await client.update_link(project_id, link_id, suspend=False)
            await heal_link(client, project_id, link_id)


def links_between(links: list[Link], first: Node, second: Node) -> list[Link]:
    """The links that join the two nodes (either way round)."""
    wanted = {first.node_id, second.node_id}
    return [
        link
        for link in links
        if len(link.nodes) == 2 and {end.node_id for end in link.nodes} == wanted
    ]
