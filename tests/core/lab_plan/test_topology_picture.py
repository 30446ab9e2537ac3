"""The project as a picture: node names, types, positions and status; links named by the ports
GNS3 shows, suspended and filtered. Unit tests on hostile names, one live scenario."""

from __future__ import annotations

from typing import Any

import pytest

from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node
from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
from gns3_copilot_desktop.core.lab_plan.topology import picture_of_lab

HOSTILE = {
    "long": "R" * 500,
    "rtl": "\u05e0\u05ea\u05d1 \u202eR1\u202c",
    "newline": "PC1\nPC2 started",
    "html": "<b>SW</b><img src=x>",
}


def _node(node_id: str, name: str, node_type: str = "vpcs", **fields: Any) -> Node:
    ports = fields.pop(
        "ports",
        [{"name": f"Ethernet{i}", "adapter_number": 0, "port_number": i} for i in range(2)],
    )
    return Node.model_validate(
        {"node_id": node_id, "name": name, "node_type": node_type, "ports": ports, **fields}
    )


def _link(a: str, b: str, a_port: int = 0, b_port: int = 0, **fields: Any) -> Link:
    return Link(
        link_id=f"{a}-{b}",
        nodes=[
            LinkEnd(node_id=a, adapter_number=0, port_number=a_port),
            LinkEnd(node_id=b, adapter_number=0, port_number=b_port),
        ],
        **fields,
    )


def test_nodes_keep_name_type_position_and_status() -> None:
    nodes = [
        _node("1", "PC1", x=-100, y=20, status="started"),
        _node("2", "SW1", "ethernet_switch", x=50, y=-30, status="suspended"),
    ]
    picture = picture_of_lab(nodes, [])
    assert picture == LabPicture(
        nodes=(
            PictureNode("PC1", "vpcs", -100, 20, status="started"),
            PictureNode("SW1", "ethernet_switch", 50, -30, status="suspended"),
        ),
        links=(),
    )


def test_link_ends_are_named_by_their_ports_and_keep_suspend_and_filters() -> None:
    nodes = [_node("1", "PC1"), _node("2", "SW1", "ethernet_switch")]
    links = [
        _link("1", "2", 0, 1, suspend=True),
        _link("2", "1", 0, 1, filters={"packet_loss": [30]}),
    ]
    picture = picture_of_lab(nodes, links)
    assert picture.links == (
        PictureLink("PC1", "Ethernet0", "SW1", "Ethernet1", suspended=True, filtered=False),
        PictureLink("SW1", "Ethernet0", "PC1", "Ethernet1", suspended=False, filtered=True),
    )
    assert all(link.state == "unchanged" and link.subnet == "" for link in picture.links)


def test_a_port_the_node_does_not_list_is_named_by_its_numbers() -> None:
    nodes = [_node("1", "PC1", ports=[]), _node("2", "R1", "dynamips")]
    picture = picture_of_lab(nodes, [_link("1", "2", 3, 1)])
    assert picture.links[0].a_port == "0/3"
    assert picture.links[0].b_port == "Ethernet1"


def test_links_to_unknown_nodes_or_with_other_than_two_ends_are_left_out() -> None:
    nodes = [_node("1", "PC1"), _node("2", "PC2")]
    dangling = _link("1", "gone")
    one_end = Link(link_id="x", nodes=[LinkEnd(node_id="1", adapter_number=0, port_number=0)])
    no_end = Link(link_id="y")
    picture = picture_of_lab(nodes, [dangling, one_end, no_end, _link("1", "2")])
    assert [(link.a, link.b) for link in picture.links] == [("PC1", "PC2")]


def test_hostile_names_stay_data_and_one_line() -> None:
    nodes = [_node(key, name) for key, name in HOSTILE.items()]
    ports = [{"name": "e0\n<i>x</i>", "adapter_number": 0, "port_number": 0}]
    nodes.append(_node("p", "P", ports=ports))
    links = [_link("long", "rtl"), _link("newline", "html"), _link("p", "long", 0, 1)]
    picture = picture_of_lab(nodes, links)
    names = [node.name for node in picture.nodes]
    assert names[0] == "R" * 500
    assert names[1] == HOSTILE["rtl"].replace("\u202e", "\\u202e").replace("\u202c", "\\u202c")
    assert names[2] == "PC1\\u000aPC2 started"
    assert names[3] == "<b>SW</b><img src=x>"
    assert all("\n" not in name for name in names)
    assert picture.links[1] == PictureLink(
        "PC1\\u000aPC2 started", "Ethernet0", names[3], "Ethernet0"
    )
    assert picture.links[2].a_port == "e0\\u000a<i>x</i>"


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_live_lab_of_two_vpcs_and_a_switch(
    gns3_client: Gns3Client, gns3_project: Project, requires_dynamips: None
) -> None:
    pid = gns3_project.project_id
    pc1 = await gns3_client.create_node(pid, "PC1", "vpcs", x=-200, y=100)
    pc2 = await gns3_client.create_node(pid, "PC<2>", "vpcs", x=200, y=100)
    switch = await gns3_client.create_node(pid, "SW1", "ethernet_switch", x=0, y=-50)
    first = await gns3_client.create_link(
        pid,
        LinkEnd(node_id=pc1.node_id, adapter_number=0, port_number=0),
        LinkEnd(node_id=switch.node_id, adapter_number=0, port_number=0),
    )
    second = await gns3_client.create_link(
        pid,
        LinkEnd(node_id=switch.node_id, adapter_number=0, port_number=5),
        LinkEnd(node_id=pc2.node_id, adapter_number=0, port_number=0),
    )
    await gns3_client.update_link(pid, first.link_id, suspend=True)
    await gns3_client.update_link(pid, second.link_id, filters={"packet_loss": [20]})

    nodes, links = await gns3_client.list_nodes(pid), await gns3_client.list_links(pid)
    picture = picture_of_lab(nodes, links)

    by_name = {node.name: node for node in picture.nodes}
    assert set(by_name) == {"PC1", "PC<2>", "SW1"}
    assert (by_name["PC1"].x, by_name["PC1"].y, by_name["PC1"].node_type) == (-200, 100, "vpcs")
    assert (by_name["SW1"].x, by_name["SW1"].y) == (0, -50)
    assert by_name["SW1"].node_type == "ethernet_switch"
    assert by_name["SW1"].status == "started"  # a switch runs as soon as it exists
    assert by_name["PC1"].status == "stopped"
    links = {(link.a, link.b): link for link in picture.links}
    assert links[("PC1", "SW1")] == PictureLink(
        "PC1", "Ethernet0", "SW1", "Ethernet0", suspended=True, filtered=False
    )
    assert links[("SW1", "PC<2>")] == PictureLink(
        "SW1", "Ethernet5", "PC<2>", "Ethernet0", suspended=False, filtered=True
    )
    assert len(picture.links) == 2
