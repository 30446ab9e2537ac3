"""The picture an approval card draws travels as JSON (stored with the pending approval): it
round-trips, and a damaged or hostile form is read without trusting it."""

from __future__ import annotations

from gns3_copilot_desktop.core.lab_plan.picture import (
    LabPicture,
    PictureLink,
    PictureNode,
    picture_from_json,
    picture_to_json,
)


def test_a_picture_round_trips() -> None:
    picture = LabPicture(
        nodes=(
            PictureNode("PC1", "vpcs", -120, 40, "new", None, ("192.0.2.1/24",)),
            PictureNode("SW1", "ethernet_switch", 0, 0, "unchanged", "started"),
        ),
        links=(PictureLink("PC1", "Ethernet0", "SW1", "Ethernet1", "new", "192.0.2.0/24"),),
    )
    assert picture_from_json(picture_to_json(picture)) == picture


def test_malformed_entries_are_left_out_and_states_are_not_trusted() -> None:
    data = {
        "nodes": [
            {"name": "R1", "node_type": "dynamips", "x": 1.5, "y": 2, "state": "exploded"},
            {"name": "R2", "node_type": "dynamips", "x": True, "y": 0},
            {"name": 7, "node_type": "vpcs", "x": 0, "y": 0},
            {"name": "R3", "node_type": "vpcs", "x": 1e12, "y": 0},
            "not a node",
            {"name": "X" * 5000, "node_type": "vpcs", "x": 0, "y": 0, "addresses": ["a"] * 99},
        ],
        "links": [
            {"a": "R1", "a_port": "e0", "b": "R9", "b_port": None},
            {"a": "R1", "a_port": "e0", "b": "X", "b_port": "e1", "suspended": "yes"},
        ],
    }
    picture = picture_from_json(data)
    assert [n.name[:2] for n in picture.nodes] == ["R1", "XX"]
    assert picture.nodes[0].state == "unchanged" and picture.nodes[0].x == 1
    assert len(picture.nodes[1].name) == 200 and len(picture.nodes[1].addresses) == 8
    assert len(picture.links) == 1 and picture.links[0].suspended is False
    assert picture_from_json("garbage") == LabPicture((), ())
    assert picture_from_json({"nodes": [{}] * 10_000}).nodes == ()
