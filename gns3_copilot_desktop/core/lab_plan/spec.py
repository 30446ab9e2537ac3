"""The declarative lab spec the model writes: nodes, links, addressing, routing, removals.

Everything here is data from the model, so it is parsed strictly: unknown fields are refused,
lists and strings are bounded, and names are plain words (letters, digits, ``_ . -``) so that a
name can never carry a quote, a newline or a command into a device console or a prompt.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

MAX_NODES = 40
MAX_LINKS = 80
MAX_NAME = 48
ANY_PORT = "any"

_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_PORT_CHARS = _NAME_CHARS | {"/", " "}
_TEMPLATE_CHARS = _PORT_CHARS | {"(", ")", "+"}


def _plain(kind: str, allowed: set[str], value: str) -> str:
    bad = sorted({c for c in value if c not in allowed})
    if bad:
        shown = ", ".join(repr(c) for c in bad[:5])
        raise ValueError(
            f"the {kind} {value[:40]!r} has characters a {kind} may not have ({shown}); "
            "use letters, digits, '_', '.' and '-'"
        )
    if value != value.strip():
        raise ValueError(f"the {kind} {value[:40]!r} starts or ends with a space")
    return value


def _node_name(value: str) -> str:
    _plain("node name", _NAME_CHARS, value)
    if value.lower() == ANY_PORT:
        raise ValueError("'any' is not a node name")
    return value


NodeName = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_node_name)]
PortName = Annotated[
    str,
    Field(min_length=1, max_length=24, description="Port name ('Ethernet0', 'e0/0') or 'any'."),
    AfterValidator(lambda v: _plain("port name", _PORT_CHARS, v)),
]
TemplateName = Annotated[
    str,
    Field(min_length=1, max_length=64),
    AfterValidator(lambda v: _plain("template name", _TEMPLATE_CHARS, v)),
]
Coordinate = Annotated[int, Field(ge=-20_000, le=20_000)]
Platform = Literal["auto", "vpcs", "ios", "frr", "none"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlanNode(_Strict):
    """One node of the lab."""

    name: NodeName
    template: TemplateName = Field(description="Template name as listed by list_templates.")
    x: Coordinate | None = None
    y: Coordinate | None = None
    platform: Platform = Field(
        default="auto",
        description="How to configure it: auto (from the template type), vpcs, ios, frr, none.",
    )
    ospf: bool = Field(default=False, description="Run OSPF (area 0) on its addressed interfaces.")


class PlanLinkEnd(_Strict):
    """One end of a link: a node of the plan (or of the project) and a port, or any free port."""

    node: NodeName
    port: PortName = ANY_PORT

    @property
    def any_port(self) -> bool:
        """Whether the port is chosen automatically."""
        return self.port.lower() == ANY_PORT


class PlanLink(_Strict):
    """A link between two ends; ``subnet`` names the subnet it carries (for the picture)."""

    a: PlanLinkEnd
    b: PlanLinkEnd
    subnet: NodeName | None = None


class PlanSubnet(_Strict):
    """A subnet (a point-to-point link or a LAN) and its default gateway for hosts."""

    name: NodeName
    prefix: ipaddress.IPv4Network = Field(description="e.g. '192.0.2.0/24' (host bits zero).")
    gateway: ipaddress.IPv4Address | None = None


class PlanAddress(_Strict):
    """An address on one interface of one node."""

    node: NodeName
    interface: PortName = Field(description="The port it is on, e.g. 'Ethernet0', 'e0/0', 'eth0'.")
    address: ipaddress.IPv4Interface = Field(description="e.g. '192.0.2.10/24'.")
    gateway: ipaddress.IPv4Address | None = Field(
        default=None, description="Default gateway (hosts); the subnet's gateway when omitted."
    )


class PlanRemoval(_Strict):
    """Something to delete: a node (and its links), or with ``peer`` the links node <-> peer."""

    node: NodeName
    peer: NodeName | None = None


class LabSpec(_Strict):
    """A whole lab, declared. What exists and matches is kept; nothing is deleted unless in
    ``remove``."""

    nodes: list[PlanNode] = Field(default_factory=list, max_length=MAX_NODES)
    links: list[PlanLink] = Field(default_factory=list, max_length=MAX_LINKS)
    subnets: list[PlanSubnet] = Field(default_factory=list, max_length=MAX_LINKS)
    addresses: list[PlanAddress] = Field(default_factory=list, max_length=4 * MAX_NODES)
    reach: list[tuple[NodeName, NodeName]] = Field(
        default_factory=list,
        max_length=MAX_NODES,
        description="Pairs of hosts that should ping each other once applied.",
    )
    remove: list[PlanRemoval] = Field(default_factory=list, max_length=MAX_NODES)

    @model_validator(mode="after")
    def _something(self) -> LabSpec:
        if not (self.nodes or self.links or self.remove):
            raise ValueError("the plan holds no node, link or removal")
        return self
