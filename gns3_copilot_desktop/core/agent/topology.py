"""A compact text summary of a project's topology, given to the model on every call.

Two GET requests (nodes and links, concurrently) on the GNS3 server; the summary is a few lines per
node and link so it stays cheap in tokens: nodes with type, status and console, links with the
port names at both ends.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel

from gns3_copilot_desktop.core.agent.labtext import quote
from gns3_copilot_desktop.core.errors import CopilotError, Gns3AuthError
from gns3_copilot_desktop.core.gns3.models import Link, Node

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.gns3.client import Gns3Client


class TopologySnapshot(BaseModel):
    """The nodes and links of a project, as read at one moment."""

    nodes: list[Node]
    links: list[Link]


async def fetch_topology(client: Gns3Client, project_id: str) -> TopologySnapshot:
    """Read the nodes and links of a project (two requests, run concurrently)."""
    nodes, links = await asyncio.gather(
        client.list_nodes(project_id), client.list_links(project_id)
    )
    return TopologySnapshot(nodes=list(nodes), links=list(links))


def port_name(node: Node | None, adapter_number: int, port_number: int) -> str:
    """The port's name as the node shows it (``Ethernet0``, ``e0/0``), else adapter/port."""
    if node is not None:
        for port in node.ports:
            if port.adapter_number == adapter_number and port.port_number == port_number:
                return port.name
    return f"{adapter_number}/{port_number}"


_WORD = re.compile(r"[a-z0-9_]{1,32}")
_HOST = re.compile(r"[A-Za-z0-9.:_-]{1,64}")


def _plain(value: str | None, pattern: re.Pattern[str], default: str) -> str:
    """A server-side keyword (node type, status, console type) as is; anything else quoted."""
    text = value or default
    return text if pattern.fullmatch(text) else quote(text)


def _node_line(node: Node) -> str:
    console = (
        f"{_plain(node.console_type, _WORD, 'console')} "
        f"{_plain(node.console_host, _HOST, '?')}:{int(node.console)}"
        if node.console
        else "no console"
    )
    kind, status = _plain(node.node_type, _WORD, "?"), _plain(node.status, _WORD, "?")
    return f"- {quote(node.name)} ({kind}, {status}, {console})"


def _link_line(link: Link, nodes_by_id: dict[str, Node]) -> str:
    ends: list[str] = []
    for end in link.nodes:
        node = nodes_by_id.get(end.node_id)
        name = quote(node.name if node else end.node_id[:8])
        ends.append(f"{name} {quote(port_name(node, end.adapter_number, end.port_number))}")
    flags = " [capturing]" if link.capturing else ""
    flags += " [suspended]" if link.suspend else ""
    return "- " + " <-> ".join(ends) + flags


def summarize_topology(nodes: Sequence[Node], links: Sequence[Link]) -> str:
    """The compact summary: one line per node, one per link; names are JSON strings (they come
    from whoever made the project: see `labtext`)."""
    if not nodes and not links:
        return "The project is empty: no nodes, no links."
    nodes_by_id = {node.node_id: node for node in nodes}
    lines = [f"Nodes ({len(nodes)}):"]
    lines += [_node_line(node) for node in sorted(nodes, key=lambda n: n.name.lower())]
    lines.append(f"Links ({len(links)}):" if links else "Links: none")
    lines += sorted(_link_line(link, nodes_by_id) for link in links)
    return "\n".join(lines)


@dataclass(frozen=True)
class TopologySummary:
    """What the model is told of the lab: the text and the node types (they choose the device
    sheets the prompt carries); ``complete`` is False when the lab could not be read."""

    text: str
    node_types: frozenset[str]
    complete: bool = True


async def topology_summary(client: Gns3Client, project_id: str) -> tuple[str, set[str]]:
    """Fetch and summarise (see `read_summary`): the text and the node types."""
    summary = await read_summary(client, project_id)
    return summary.text, set(summary.node_types)


async def read_summary(client: Gns3Client, project_id: str) -> TopologySummary:
    """Fetch and summarise; a failure is described in the text instead of raised (no node
    types, not complete).

    Except a refused login (`Gns3AuthError`): the model can do nothing about it and every later
    request would be refused too, so it ends the turn and the user is asked to log in again.
    """
    try:
        snapshot = await fetch_topology(client, project_id)
    except Gns3AuthError:
        raise
    except CopilotError as exc:
        text = f"(The topology could not be read: {quote(exc.user_message, 400)})"
        return TopologySummary(text, frozenset(), complete=False)
    text = summarize_topology(snapshot.nodes, snapshot.links)
    return TopologySummary(text, frozenset(node.node_type for node in snapshot.nodes))
