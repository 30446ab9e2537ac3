"""What a drawing of a lab shows: nodes at their GNS3 positions and the links between them.

The same picture serves a plan (what is new, removed or kept) and the topology as it is now
(each node's status). The UI draws it; the core builds it, from a plan or from the project.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
