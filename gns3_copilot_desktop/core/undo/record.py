"""What undoing one approved change does, recorded by the tool while it makes the change.

A change tool that touches the lab writes, next to its result, the inverse of what it did, with
the ids the server gave: the nodes it created (to delete), the names and places it changed (to
set back), the nodes and links it deleted (saved as the server described them, to create again),
the note it added, and the configuration lines that take a device back to what it ran before.
The record travels in the tool's structured result, so it is kept with the session in the
session's own database and deleted with it; it holds ids, names and lab settings, never a secret.

This is a journal, not a GNS3 snapshot: GNS3 3.0.6 refuses a snapshot while a node runs, so a
snapshot before every change would stop and start the lab each time, and restoring one would also
throw away everything done since. Undoing from the journal touches only what that change did.

A record read back from a database is parsed strictly (`UndoRecord.from_structured`); anything
that does not parse is no record at all, and no Undo is offered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gns3_copilot_desktop.core.devices.policy import check_command
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.gns3.models import Link, Node

UNDO_KEY = "undo"
"""The key of a tool's structured result that holds its `UndoRecord`."""
MAX_STEPS = 200

NODE_FIELDS = (
    "compute_id",
    "console_type",
    "label",
    "symbol",
    "z",
    "locked",
    "port_name_format",
    "port_segment_size",
    "first_port_name",
    "custom_adapters",
)
"""Node fields besides name/type/place/properties that the server takes back on create."""


MAX_FILE_CHARS = 65_536
"""Largest node file a record keeps (a VPCS startup file is a few hundred characters)."""
_FILE_NAME_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")


def node_file_problem(name: str, text: str) -> str | None:
    """Why a node file of a record must not be written back, or None. The name is put into a
    server URL (``.../nodes/ID/files/NAME``), so it is a plain name: no ``/``, ``\\``, ``..``
    or control character (``../../../../../access/users`` would reach another endpoint). The
    text is run by VPCS when the node starts, so each line passes the console's refusal list
    (a ``!`` line would run on the machine that runs GNS3)."""
    if not _FILE_NAME_RE.fullmatch(name) or ".." in name:
        return f"the file name {name[:80]!r} is not a plain name"
    if len(text) > MAX_FILE_CHARS:
        return f"the file {name} is longer than {MAX_FILE_CHARS} characters"
    for line in text.splitlines():
        refused = check_command(line.rstrip("\r"), kind=DeviceKind.VPCS)
        if refused is not None:
            return f"the file {name} holds a refused line: {refused.reason}"
    return None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SavedEnd(_Strict):
    """One end of a saved link."""

    node_id: str
    node_name: str
    adapter_number: int = Field(ge=0, le=1024)
    port_number: int = Field(ge=0, le=65535)
    port_name: str = ""


class SavedLink(_Strict):
    """A link as it was: its ends, suspended or not, its packet filters."""

    link_id: str
    ends: list[SavedEnd] = Field(min_length=2, max_length=2)
    suspend: bool = False
    filters: dict[str, list[int | str]] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        """``R1 e0/0 <-> SW1 Ethernet1``."""
        return " <-> ".join(f"{e.node_name} {e.port_name}".strip() for e in self.ends)

    @classmethod
    def from_link(cls, link: Link, nodes: Mapping[str, Node]) -> SavedLink | None:
        """The link with its ends named (None when an end's node is unknown)."""
        ends = []
        for end in link.nodes:
            node = nodes.get(end.node_id)
            if node is None:
                return None
            port = next(
                (
                    p.name
                    for p in node.ports
                    if (p.adapter_number, p.port_number) == (end.adapter_number, end.port_number)
                ),
                "",
            )
            ends.append(
                SavedEnd(
                    node_id=end.node_id,
                    node_name=node.name,
                    adapter_number=end.adapter_number,
                    port_number=end.port_number,
                    port_name=port,
                )
            )
        filters = {
            str(k): [v for v in values if isinstance(v, int | str)]
            for k, values in (link.filters or {}).items()
            if isinstance(values, list)
        }
        return cls(link_id=link.link_id, ends=ends, suspend=link.suspend, filters=filters)


class SavedNode(_Strict):
    """A node as the server described it before it was deleted, and its saved files."""

    node_id: str
    name: str
    node_type: str
    template_id: str | None = None
    x: int = 0
    y: int = 0
    properties: dict[str, Any] = Field(default_factory=dict)
    fields: dict[str, Any] = Field(default_factory=dict)
    """`NODE_FIELDS` the server reported (symbol, label, console type...)."""
    files: dict[str, str] = Field(default_factory=dict)
    """Small text files of the node (a VPCS's ``startup.vpc``), by plain name in the node's
    folder (`node_file_problem`: any other name or a refused line and the record is refused)."""

    @field_validator("files", mode="after")
    @classmethod
    def _plain_files(cls, files: dict[str, str]) -> dict[str, str]:
        for name, text in files.items():
            problem = node_file_problem(name, text)
            if problem:
                raise ValueError(problem)
        return files

    @classmethod
    def from_node(cls, node: Node, files: Mapping[str, str] | None = None) -> SavedNode:
        """The node's own description (the server's fields, as `Node` kept them)."""
        data = node.model_dump()
        return cls(
            node_id=node.node_id,
            name=node.name,
            node_type=node.node_type,
            template_id=node.template_id,
            x=node.x,
            y=node.y,
            properties=dict(node.properties),
            fields={k: data[k] for k in NODE_FIELDS if data.get(k) is not None},
            # a file that could not be written back safely is not kept (not the whole node)
            files={k: v for k, v in (files or {}).items() if node_file_problem(k, v) is None},
        )


class RemoveNode(_Strict):
    """Undo a create: delete the node."""

    kind: Literal["remove_node"] = "remove_node"
    node_id: str
    name: str
    node_type: str = ""
    """Lets Undo find the node by name and type once GNS3 has given it a new id."""


class RestoreNode(_Strict):
    """Undo a delete: create the node again (same id, settings, place, files)."""

    kind: Literal["restore_node"] = "restore_node"
    node: SavedNode


class RestoreFields(_Strict):
    """Undo a rename/move: set the name and place back."""

    kind: Literal["restore_fields"] = "restore_fields"
    node_id: str
    name: str
    """The node's name after the change (how the user knows it now)."""
    node_type: str = ""
    old_name: str | None = None
    x: int | None = None
    y: int | None = None


class RemoveLink(_Strict):
    """Undo a link create: delete the link."""

    kind: Literal["remove_link"] = "remove_link"
    link_id: str
    label: str
    ends: list[SavedEnd] = Field(default_factory=list, max_length=2)
    """The link's ends, so that Undo finds it by node names and ports after an id change."""


class RestoreLink(_Strict):
    """Undo a link delete (or a node delete's links): link the same ports again."""

    kind: Literal["restore_link"] = "restore_link"
    link: SavedLink


class RemoveDrawing(_Strict):
    """Undo a note: delete the drawing."""

    kind: Literal["remove_drawing"] = "remove_drawing"
    drawing_id: str
    label: str


class RestoreConfig(_Strict):
    """Undo a configuration push: push the lines that take the device back."""

    kind: Literal["restore_config"] = "restore_config"
    node_id: str
    name: str
    node_type: str = ""
    read_command: str
    lines: list[str] = Field(max_length=400)
    left_out: list[str] = Field(default_factory=list, max_length=50)


UndoStep = Annotated[
    RemoveNode
    | RestoreNode
    | RestoreFields
    | RemoveLink
    | RestoreLink
    | RemoveDrawing
    | RestoreConfig,
    Field(discriminator="kind"),
]


class UndoRecord(_Strict):
    """The inverse of one approved change, as steps; what `core.undo.apply` carries out."""

    version: Literal[1] = 1
    tool: str
    steps: list[UndoStep] = Field(min_length=1, max_length=MAX_STEPS)

    def dump(self) -> dict[str, Any]:
        """The JSON form kept in the tool's structured result."""
        return self.model_dump(mode="json")

    @classmethod
    def from_structured(cls, structured: object) -> UndoRecord | None:
        """The record in a tool's structured result, or None (none there, or not one we wrote)."""
        if not isinstance(structured, Mapping):
            return None
        raw = structured.get(UNDO_KEY)
        if raw is None:
            return None
        try:
            return cls.model_validate(raw)
        except ValidationError:
            return None


def with_undo(structured: dict[str, Any], tool: str, steps: list[Any]) -> dict[str, Any]:
    """``structured`` with the record of ``steps`` added (as it is when nothing can be undone)."""
    if not steps:
        return structured
    return {**structured, UNDO_KEY: UndoRecord(tool=tool, steps=steps[:MAX_STEPS]).dump()}
