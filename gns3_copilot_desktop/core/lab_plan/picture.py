"""What a drawing of a lab shows: nodes at their GNS3 positions and the links between them.

The same picture serves a plan (what is new, removed or kept) and the topology as it is now
(each node's status). The UI draws it; the core builds it, from a plan or from the project.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

ItemState = Literal["new", "removed", "unchanged", "changed"]


@dataclass(frozen=True)
class PictureNode:
    """One node: its name, GNS3 node type, and the top-left corner of its symbol in GNS3's
    scene coordinates (the canvas's own ``x``/``y``)."""

    name: str
    node_type: str
    x: int
    y: int
    state: ItemState = "unchanged"
    status: str | None = None
    """started / stopped / suspended when the picture is of the running lab; None for a plan."""
    addresses: tuple[str, ...] = ()
    """Addresses to print under the node (``192.0.2.1/24``), if the plan or lab knows them."""


@dataclass(frozen=True)
class PictureLink:
    """One link between two named nodes' ports."""

    a: str
    a_port: str
    b: str
    b_port: str
    state: ItemState = "unchanged"
    subnet: str = ""
    suspended: bool = False
    filtered: bool = False


@dataclass(frozen=True)
class LabPicture:
    """A lab to draw."""

    nodes: tuple[PictureNode, ...]
    links: tuple[PictureLink, ...]


MAX_ITEMS = 500
"""More nodes or links than a drawing can show are left out of the JSON form."""


def picture_to_json(picture: LabPicture) -> dict[str, Any]:
    """The picture as JSON-able data (an approval or a tool result carries it)."""
    return {
        "nodes": [asdict(n) | {"addresses": list(n.addresses)} for n in picture.nodes],
        "links": [asdict(link) for link in picture.links],
    }


def picture_from_json(data: object) -> LabPicture:
    """The picture in ``data`` (from `picture_to_json`, possibly stored on disk): entries that are
    not well-formed are left out, never trusted; an unknown state reads as ``unchanged``."""
    if not isinstance(data, dict):
        return LabPicture(nodes=(), links=())
    nodes: list[PictureNode] = []
    for item in _items(data.get("nodes")):
        name, node_type = item.get("name"), item.get("node_type")
        x, y = _coordinate(item.get("x")), _coordinate(item.get("y"))
        if not (isinstance(name, str) and isinstance(node_type, str)):
            continue
        if x is None or y is None:
            continue
        addresses = item.get("addresses")
        nodes.append(
            PictureNode(
                name=name[:200],
                node_type=node_type[:40],
                x=x,
                y=y,
                state=_state(item.get("state")),
                status=item["status"] if isinstance(item.get("status"), str) else None,
                addresses=tuple(
                    a[:64]
                    for a in (addresses if isinstance(addresses, list) else [])[:8]
                    if isinstance(a, str)
                ),
            )
        )
    links: list[PictureLink] = []
    for item in _items(data.get("links")):
        ends = [item.get(k) for k in ("a", "a_port", "b", "b_port")]
        if not all(isinstance(e, str) for e in ends):
            continue
        a, a_port, b, b_port = (str(e)[:200] for e in ends)
        subnet = item.get("subnet")
        links.append(
            PictureLink(
                a=a,
                a_port=a_port,
                b=b,
                b_port=b_port,
                state=_state(item.get("state")),
                subnet=subnet[:64] if isinstance(subnet, str) else "",
                suspended=item.get("suspended") is True,
                filtered=item.get("filtered") is True,
            )
        )
    return LabPicture(nodes=tuple(nodes), links=tuple(links))


def _items(value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [v for v in value[:MAX_ITEMS] if isinstance(v, dict)]


def _coordinate(value: object) -> int | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 1e7:
        return int(value)
    return None


_STATES: dict[object, ItemState] = {
    "new": "new",
    "removed": "removed",
    "unchanged": "unchanged",
    "changed": "changed",
}


def _state(value: object) -> ItemState:
    return _STATES.get(value, "unchanged") if isinstance(value, str) else "unchanged"
