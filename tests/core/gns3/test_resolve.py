"""Names as people write them resolve to the node, port, template or link they mean."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.gns3.layout import SPACING, overlaps, place_nodes
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node, Port, Template
from gns3_copilot_desktop.core.gns3.resolve import (
    NameResolutionError,
    free_port,
    resolve_link,
    resolve_node,
    resolve_port,
    resolve_template,
    used_ports,
)


def ports(names: list[str], *, by_adapter: bool = False) -> list[Port]:
    out = []
    for i, name in enumerate(names):
        adapter, number = (i, 0) if by_adapter else (0, i)
        out.append(Port(name=name, adapter_number=adapter, port_number=number))
    return out


SWITCH = Node(
    node_id="sw",
    name="SW1",
    node_type="ethernet_switch",
    ports=ports([f"Ethernet{i}" for i in range(8)]),
)
ROUTER = Node(
    node_id="r1",
    name="R1",
    node_type="dynamips",
    ports=[
        Port(name="FastEthernet0/0", short_name="f0/0", adapter_number=0, port_number=0),
        Port(name="FastEthernet0/1", short_name="f0/1", adapter_number=0, port_number=1),
        Port(name="GigabitEthernet1/0", short_name="g1/0", adapter_number=1, port_number=0),
    ],
)
IOU = Node(
    node_id="iou",
    name="IOU1",
    node_type="iou",
    ports=[
        Port(name=f"Ethernet{a}/{p}", adapter_number=a, port_number=p)
        for a in range(2)
        for p in range(4)
    ],
)
DOCKER = Node(
    node_id="d", name="Alpine-1", node_type="docker", ports=ports(["eth0", "eth1"], by_adapter=True)
)
PC = Node(node_id="pc", name="PC1", node_type="vpcs", ports=ports(["Ethernet0"]))
NODES = [SWITCH, ROUTER, IOU, DOCKER, PC]


@pytest.mark.parametrize(
    ("node", "spec", "expected"),
    [
        (SWITCH, "Ethernet3", "Ethernet3"),
        (SWITCH, "e3", "Ethernet3"),
        (SWITCH, "3", "Ethernet3"),
        (SWITCH, "port 3", "Ethernet3"),
        (SWITCH, "eth 5", "Ethernet5"),
        (SWITCH, "0/2", "Ethernet2"),
        (ROUTER, "f0/1", "FastEthernet0/1"),
        (ROUTER, "Fa0/1", "FastEthernet0/1"),
        (ROUTER, "fastethernet 0/0", "FastEthernet0/0"),
        (ROUTER, "gi1/0", "GigabitEthernet1/0"),
        (ROUTER, "1/0", "GigabitEthernet1/0"),
        (IOU, "e1/2", "Ethernet1/2"),
        (IOU, "Ethernet0/3", "Ethernet0/3"),
        (DOCKER, "eth1", "eth1"),
        (DOCKER, "1", "eth1"),
        (DOCKER, "interface eth0", "eth0"),
        (PC, "0", "Ethernet0"),
        (PC, "e0", "Ethernet0"),
    ],
)
def test_port_names_people_use(node: Node, spec: str, expected: str) -> None:
    assert resolve_port(node, spec).name == expected


def test_unknown_and_ambiguous_ports_explain_themselves() -> None:
    with pytest.raises(
        NameResolutionError, match=r"no port named 'Ethernet9' on SW1.*Did you mean"
    ):
        resolve_port(SWITCH, "Ethernet9")
    with pytest.raises(NameResolutionError, match="could mean"):
        resolve_port(IOU, "3")  # Ethernet0/3 and Ethernet1/3
    with pytest.raises(NameResolutionError, match="Existing ports: Ethernet0"):
        resolve_port(PC, "Serial0")


def test_nodes_resolve_by_name_case_space_or_id_and_suggest() -> None:
    assert resolve_node(NODES, "sw1") is SWITCH
    assert resolve_node(NODES, "alpine-1") is DOCKER
    assert resolve_node(NODES, "r1") is ROUTER
    assert resolve_node(NODES, "pc") is PC  # the id
    with pytest.raises(NameResolutionError, match=r"no node named 'PC2'.*Did you mean: PC1\?"):
        resolve_node(NODES, "PC2")


def test_templates_resolve_by_name_or_type() -> None:
    templates = [
        Template(template_id="t1", name="VPCS", template_type="vpcs"),
        Template(template_id="t2", name="Ethernet switch", template_type="ethernet_switch"),
        Template(template_id="t3", name="Ethernet hub", template_type="ethernet_hub"),
    ]
    assert resolve_template(templates, "vpcs").template_id == "t1"
    assert resolve_template(templates, "ethernet switch").template_id == "t2"
    assert resolve_template(templates, "ethernet_hub").template_id == "t3"
    with pytest.raises(NameResolutionError, match="Did you mean: Ethernet switch"):
        resolve_template(templates, "Ethernet swtich")


def test_links_by_ends_and_free_ports() -> None:
    links = [
        Link(
            link_id="l1",
            nodes=[
                LinkEnd(node_id="sw", adapter_number=0, port_number=0),
                LinkEnd(node_id="pc", adapter_number=0, port_number=0),
            ],
        ),
        Link(
            link_id="l2",
            nodes=[
                LinkEnd(node_id="sw", adapter_number=0, port_number=1),
                LinkEnd(node_id="r1", adapter_number=0, port_number=0),
            ],
        ),
    ]
    assert resolve_link(NODES, links, "PC1").link_id == "l1"
    assert resolve_link(NODES, links, "SW1", None, "R1").link_id == "l2"
    assert resolve_link(NODES, links, "SW1", "e0").link_id == "l1"
    assert resolve_link(NODES, links, "l2").link_id == "l2"
    with pytest.raises(NameResolutionError, match="matches 2 links"):
        resolve_link(NODES, links, "SW1")
    with pytest.raises(
        NameResolutionError,
        match=r"No link matches 'PC1 <-> R1'\. Links of PC1: SW1 Ethernet0 <-> PC1 Ethernet0",
    ):
        resolve_link(NODES, links, "PC1", None, "R1")
    used = used_ports(links)
    assert free_port(SWITCH, used).name == "Ethernet2"
    assert free_port(SWITCH, used, {("sw", 0, 2)}).name == "Ethernet3"
    with pytest.raises(NameResolutionError, match="PC1 has no free port"):
        free_port(PC, used)


def test_layout_never_overlaps() -> None:
    existing = [(0, 0), (150, 0), (40, 160), (600, 300)]
    placed = place_nodes(existing, 10)
    assert len(placed) == 10 and overlaps([*existing, *placed]) == []
    assert place_nodes([], 2) == [(0, 0), (SPACING, 0)]
    crowded = place_nodes(existing, 3, near=(0, 0))
    assert overlaps([*existing, *crowded]) == []
