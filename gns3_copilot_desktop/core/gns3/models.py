"""Typed views of what the GNS3 server (v3 API) answers.

The server sends many more fields than the app uses and adds new ones between releases, so every
model keeps unknown fields (``extra="allow"``) instead of rejecting them. Only the fields the app
relies on are typed here.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator


def visible(text: str) -> str:
    """``text`` with every non-printing character written as its ``\\uXXXX`` escape.

    Names come from whoever made the project (a shared project, a course download). A newline,
    a Unicode line separator or a terminal escape in a node name would let it forge lines in
    everything that lists names: the model's prompt, tool results, the UI. Escaped, the name stays
    one visible line, and the same on every path (tools resolve the names they were shown)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


class Gns3Model(BaseModel):
    """Base of every server model: unknown fields are kept, not rejected; names are made
    `visible` (no control or line-breaking characters)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    @field_validator("name", "filename", "console_host", check_fields=False)
    @classmethod
    def _visible(cls, value: object) -> object:
        return visible(value) if isinstance(value, str) else value


_M = TypeVar("_M", bound=Gns3Model)


class Version(Gns3Model):
    """``GET /v3/version``."""

    version: str
    local: bool = False
    controller_host_id: str | None = None


class AuthToken(Gns3Model):
    """A JWT from ``POST /v3/access/users/authenticate``.

    ``expires_at`` and ``username`` are read from the token's payload without verifying its
    signature: the client only needs them to know when to log in again.
    """

    access_token: str = Field(repr=False)
    token_type: str = "bearer"
    expires_at: datetime | None = None
    username: str | None = None

    @classmethod
    def from_jwt(cls, access_token: str, token_type: str = "bearer") -> AuthToken:
        """Build a token, decoding ``exp`` and ``sub`` from the JWT payload."""
        payload = decode_jwt_payload(access_token)
        exp = payload.get("exp")
        expires_at = datetime.fromtimestamp(exp, tz=UTC) if isinstance(exp, int | float) else None
        sub = payload.get("sub")
        return cls(
            access_token=access_token,
            token_type=token_type,
            expires_at=expires_at,
            username=sub if isinstance(sub, str) else None,
        )

    def is_expired(self, now: datetime | None = None) -> bool:
        """True when the token's ``exp`` is in the past (unknown expiry counts as valid)."""
        if self.expires_at is None:
            return False
        return (now or datetime.now(tz=UTC)) >= self.expires_at


def token_expired(token: str, now: datetime | None = None) -> bool:
    """True when the JWT's ``exp`` has passed (a token without a readable ``exp`` is not)."""
    return AuthToken.from_jwt(token).is_expired(now)


def decode_jwt_payload(token: str) -> dict[str, Any]:
    """Return the (unverified) payload of a JWT, or ``{}`` when it is not a readable JWT."""
    parts = token.split(".")
    if len(parts) != 3:
        return {}
    padded = parts[1] + "=" * (-len(parts[1]) % 4)
    try:
        payload = json.loads(base64.urlsafe_b64decode(padded))
    except (binascii.Error, ValueError):
        return {}
    return payload if isinstance(payload, dict) else {}


class User(Gns3Model):
    """``GET /v3/access/users/me``."""

    user_id: str
    username: str
    is_superadmin: bool = False
    is_active: bool = True
    email: str | None = None
    full_name: str | None = None


class UserGroup(Gns3Model):
    """``GET /v3/access/groups``: a group of GNS3 users (a class, a team)."""

    user_group_id: str
    name: str


class Project(Gns3Model):
    """A GNS3 project."""

    project_id: str
    name: str
    status: str = "opened"
    path: str | None = None
    filename: str | None = None
    auto_close: bool = True
    auto_open: bool = False
    auto_start: bool = False


class Port(Gns3Model):
    """One network port of a node."""

    name: str
    adapter_number: int
    port_number: int
    short_name: str | None = None
    link_type: str | None = None
    adapter_type: str | None = None
    mac_address: str | None = None
    data_link_types: dict[str, str] = Field(default_factory=dict)


class Node(Gns3Model):
    """A node of a project, with its ports and console."""

    node_id: str
    name: str
    node_type: str
    project_id: str | None = None
    compute_id: str | None = None
    template_id: str | None = None
    status: str = "stopped"
    console: int | None = None
    console_host: str | None = None
    console_type: str | None = None
    x: int = 0
    y: int = 0
    z: int = 1
    ports: list[Port] = Field(default_factory=list)
    properties: dict[str, Any] = Field(default_factory=dict)


class LinkEnd(Gns3Model):
    """One end of a link: a node's adapter/port (the label is optional)."""

    node_id: str
    adapter_number: int
    port_number: int
    label: dict[str, Any] | None = None


class Link(Gns3Model):
    """A link between two node ports."""

    link_id: str
    project_id: str | None = None
    nodes: list[LinkEnd] = Field(default_factory=list)
    link_type: str | None = None
    capturing: bool = False
    capture_file_name: str | None = None
    capture_file_path: str | None = None
    capture_compute_id: str | None = None
    suspend: bool = False
    filters: dict[str, Any] = Field(default_factory=dict)


class Template(Gns3Model):
    """A node template (built-in or user-defined)."""

    template_id: str
    name: str
    template_type: str | None = None
    category: str | None = None
    builtin: bool = False
    compute_id: str | None = None
    symbol: str | None = None


class Drawing(Gns3Model):
    """A drawing (SVG shape or text) on the project canvas."""

    drawing_id: str
    project_id: str | None = None
    svg: str = ""
    x: int = 0
    y: int = 0
    z: int = 1
    rotation: int = 0
    locked: bool = False


class Snapshot(Gns3Model):
    """A saved snapshot of a project."""

    snapshot_id: str
    name: str
    project_id: str | None = None
    created_at: int | None = None


class ProjectStats(Gns3Model):
    """``GET /v3/projects/{id}/stats``: counts of what the project holds."""

    nodes: int = 0
    links: int = 0
    drawings: int = 0
    snapshots: int = 0


class Notification(Gns3Model):
    """One message of a notification stream: ``{"action": ..., "event": {...}}``."""

    action: str
    event: dict[str, Any] = Field(default_factory=dict)

    @field_validator("event", mode="before")
    @classmethod
    def _wrap_non_dict(cls, value: object) -> object:
        # A few actions carry a bare value; keep it reachable under one key.
        if value is None:
            return {}
        return value if isinstance(value, dict) else {"value": value}

    @property
    def is_ping(self) -> bool:
        """The server's periodic heartbeat (cpu/memory usage)."""
        return self.action == "ping"

    @property
    def node(self) -> Node | None:
        """The node of a ``node.*`` event, when the event carries one."""
        return self._event_as(Node, "node.")

    @property
    def link(self) -> Link | None:
        """The link of a ``link.*`` event, when the event carries one."""
        return self._event_as(Link, "link.")

    @property
    def project(self) -> Project | None:
        """The project of a ``project.*`` event, when the event carries one."""
        return self._event_as(Project, "project.")

    @property
    def error_message(self) -> str | None:
        """The text of a ``log.error`` event."""
        if self.action != "log.error":
            return None
        message = self.event.get("message")
        return message if isinstance(message, str) else None

    def _event_as(self, model: type[_M], prefix: str) -> _M | None:
        if not self.action.startswith(prefix):
            return None
        try:
            return model.model_validate(self.event)
        except ValueError:
            return None
