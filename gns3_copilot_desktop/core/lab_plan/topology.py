"""The lab as it is now, as a picture: every node with its status, every link with its ports."""

from __future__ import annotations

from gns3_copilot_desktop.core.gns3.models import Link, Node
from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode


def picture_of_lab(nodes: list[Node], links: list[Link]) -> LabPicture:
    """The project's nodes at their positions with their status, and its links (a link whose
    end is not a known node is left out; a port the node does not list is named adapter/port)."""
    by_id = {n.node_id: n for n in nodes}
    drawn = tuple(
        PictureNode(name=n.name, node_type=n.node_type, x=n.x, y=n.y, status=n.status)
        for n in nodes
    )
    lines: list[PictureLink] = []
    for link in links:
        if len(link.nodes) != 2 or not all(e.node_id in by_id for e in link.nodes):
            continue
        ea, eb = link.nodes
        a, b = by_id[ea.node_id], by_id[eb.node_id]
        lines.append(
            PictureLink(
                a=a.name,
                a_port=port_name(a, ea.adapter_number, ea.port_number),
                b=b.name,
                b_port=port_name(b, eb.adapter_number, eb.port_number),
                suspended=link.suspend,
                filtered=bool(link.filters),
            )
        )
    return LabPicture(nodes=drawn, links=tuple(lines))


def port_name(node: Node, adapter: int, port: int) -> str:
    """The name of a node's port (``Ethernet0``), or ``adapter/port`` when it is not listed."""
    for p in node.ports:
        if (p.adapter_number, p.port_number) == (adapter, port):
            return p.name
    return f"{adapter}/{port}"
