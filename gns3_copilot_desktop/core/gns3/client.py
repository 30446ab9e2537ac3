"""Async client for the GNS3 server's v3 REST API.

One ``httpx.AsyncClient`` per server (connection reuse, timeouts). Every call returns a model from
:mod:`.models`; every failure is one of the :mod:`gns3_copilot_desktop.core.errors` Gns3 errors
with a sentence a person can act on. The JWT is sent as a bearer header and never logged.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import ssl
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from gns3_copilot_desktop.core.errors import Gns3Error, Gns3NotFoundError, Gns3ProtocolError
from gns3_copilot_desktop.core.gns3 import _errors, notifications
from gns3_copilot_desktop.core.gns3.archive_check import CheckedArchive
from gns3_copilot_desktop.core.gns3.models import (
    AuthToken,
    Drawing,
    Link,
    LinkEnd,
    Node,
    Notification,
    Project,
    ProjectStats,
    Snapshot,
    Template,
    User,
    Version,
    token_expired,
)

_log = logging.getLogger(__name__)
_T = TypeVar("_T")
_EMPTY_BODY: dict[str, Any] = {}  # power actions need a JSON body, even an empty one


class Gns3Client:
    """A typed async client for one GNS3 server (``base_url`` without ``/v3``)."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        ca_cert: Path | None = None,
        timeout: float = 15.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = normalize_base_url(base_url)
        self.token = token
        self.timeout = timeout
        self._ssl_context = build_ssl_context(ca_cert, server=self.base_url)
        self._http = httpx.AsyncClient(
            base_url=f"{self.base_url}/v3",
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            verify=self._ssl_context,
            transport=transport,
            limits=httpx.Limits(max_connections=20, max_keepalive_connections=10),
            headers={"Accept": "application/json"},
        )

    def __repr__(self) -> str:
        return f"Gns3Client({self.base_url!r})"

    async def aclose(self) -> None:
        """Close the pooled connections."""
        await self._http.aclose()

    async def __aenter__(self) -> Gns3Client:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # --- server and auth ---------------------------------------------------------------------

    async def version(self) -> Version:
        """The server's version (no authentication needed)."""
        return _parse(Version, await self._request("GET", "/version"), self.base_url)

    async def authenticate(self, username: str, password: str) -> AuthToken:
        """Log in; returns the JWT with its expiry. Does not change ``self.token``."""
        body = {"username": username, "password": password}
        data = await self._request(
            "POST", "/access/users/authenticate", json=body, auth=False, login_user=username
        )
        if not isinstance(data, dict) or not isinstance(data.get("access_token"), str):
            raise Gns3ProtocolError(
                f"{self.base_url} answered the login without a token.", server=self.base_url
            )
        return AuthToken.from_jwt(data["access_token"], str(data.get("token_type", "bearer")))

    async def current_user(self) -> User:
        """The user the token belongs to."""
        return _parse(User, await self._request("GET", "/access/users/me"), self.base_url)

    # --- projects ----------------------------------------------------------------------------

    async def list_projects(self) -> list[Project]:
        """Every project the user may see."""
        return _parse(list[Project], await self._request("GET", "/projects"), self.base_url)

    async def get_project(self, project_id: str) -> Project:
        """One project."""
        return await self._get_model(Project, f"/projects/{_q(project_id)}")

    async def create_project(
        self, name: str, *, auto_close: bool = False, **fields: Any
    ) -> Project:
        """Create a project; ``auto_close`` is off so it stays open without listeners."""
        body = {"name": name, "auto_close": auto_close, **fields}
        return _parse(Project, await self._request("POST", "/projects", json=body), self.base_url)

    async def open_project(self, project_id: str) -> Project:
        """Open a closed project."""
        data = await self._request("POST", f"/projects/{_q(project_id)}/open", json=_EMPTY_BODY)
        return _parse(Project, data, self.base_url)

    async def close_project(self, project_id: str) -> None:
        """Close a project (its nodes stop)."""
        await self._request("POST", f"/projects/{_q(project_id)}/close", json=_EMPTY_BODY)

    async def delete_project(self, project_id: str) -> None:
        """Delete a project and its files."""
        await self._request("DELETE", f"/projects/{_q(project_id)}")

    async def update_project(self, project_id: str, **fields: Any) -> Project:
        """Change project fields (name, auto_close, scene size...)."""
        data = await self._request("PUT", f"/projects/{_q(project_id)}", json=fields)
        return _parse(Project, data, self.base_url)

    async def project_stats(self, project_id: str) -> ProjectStats:
        """Counts of nodes, links, drawings and snapshots."""
        return await self._get_model(ProjectStats, f"/projects/{_q(project_id)}/stats")

    # --- nodes -------------------------------------------------------------------------------

    async def list_nodes(self, project_id: str) -> list[Node]:
        """Every node of a project."""
        data = await self._request("GET", f"/projects/{_q(project_id)}/nodes")
        return _parse(list[Node], data, self.base_url)

    async def get_node(self, project_id: str, node_id: str) -> Node:
        """One node."""
        return await self._get_model(Node, f"/projects/{_q(project_id)}/nodes/{_q(node_id)}")

    async def create_node(
        self,
        project_id: str,
        name: str,
        node_type: str,
        *,
        x: int = 0,
        y: int = 0,
        compute_id: str = "local",
        **props: Any,
    ) -> Node:
        """Create a node by type; ``props`` are further node fields (e.g. ``properties={...}``)."""
        body = {"name": name, "node_type": node_type, "compute_id": compute_id, "x": x, "y": y}
        body.update(props)
        data = await self._request("POST", f"/projects/{_q(project_id)}/nodes", json=body)
        return _parse(Node, data, self.base_url)

    async def create_node_from_template(
        self, project_id: str, template_id: str, *, x: int, y: int, name: str | None = None
    ) -> Node:
        """Create a node from a template at (x, y)."""
        body: dict[str, Any] = {"x": x, "y": y, "compute_id": "local"}
        if name is not None:
            body["name"] = name
        path = f"/projects/{_q(project_id)}/templates/{_q(template_id)}"
        return _parse(Node, await self._request("POST", path, json=body), self.base_url)

    async def update_node(self, project_id: str, node_id: str, **fields: Any) -> Node:
        """Change node fields (name, x, y, properties...)."""
        path = f"/projects/{_q(project_id)}/nodes/{_q(node_id)}"
        return _parse(Node, await self._request("PUT", path, json=fields), self.base_url)

    async def delete_node(self, project_id: str, node_id: str) -> None:
        """Delete a node (and its links)."""
        await self._request("DELETE", f"/projects/{_q(project_id)}/nodes/{_q(node_id)}")

    async def start_node(self, project_id: str, node_id: str) -> None:
        """Start one node."""
        await self._node_action(project_id, node_id, "start")

    async def stop_node(self, project_id: str, node_id: str) -> None:
        """Stop one node."""
        await self._node_action(project_id, node_id, "stop")

    async def suspend_node(self, project_id: str, node_id: str) -> None:
        """Suspend one node."""
        await self._node_action(project_id, node_id, "suspend")

    async def reload_node(self, project_id: str, node_id: str) -> None:
        """Reload (restart) one node."""
        await self._node_action(project_id, node_id, "reload")

    async def start_all_nodes(self, project_id: str) -> None:
        """Start every node of the project."""
        await self._node_action(project_id, None, "start")

    async def stop_all_nodes(self, project_id: str) -> None:
        """Stop every node of the project."""
        await self._node_action(project_id, None, "stop")

    async def suspend_all_nodes(self, project_id: str) -> None:
        """Suspend every node of the project."""
        await self._node_action(project_id, None, "suspend")

    async def reload_all_nodes(self, project_id: str) -> None:
        """Reload every node of the project."""
        await self._node_action(project_id, None, "reload")

    async def node_links(self, project_id: str, node_id: str) -> list[Link]:
        """The links attached to one node."""
        data = await self._request("GET", f"/projects/{_q(project_id)}/nodes/{_q(node_id)}/links")
        return _parse(list[Link], data, self.base_url)

    # --- links -------------------------------------------------------------------------------

    async def list_links(self, project_id: str) -> list[Link]:
        """Every link of a project."""
        data = await self._request("GET", f"/projects/{_q(project_id)}/links")
        return _parse(list[Link], data, self.base_url)

    async def get_link(self, project_id: str, link_id: str) -> Link:
        """One link."""
        return await self._get_model(Link, f"/projects/{_q(project_id)}/links/{_q(link_id)}")

    async def create_link(self, project_id: str, a: LinkEnd, b: LinkEnd) -> Link:
        """Link two node ports (409 :class:`Gns3ConflictError` when a port is in use)."""
        ends = [end.model_dump(exclude_none=True) for end in (a, b)]
        data = await self._request(
            "POST", f"/projects/{_q(project_id)}/links", json={"nodes": ends}
        )
        return _parse(Link, data, self.base_url)

    async def update_link(
        self,
        project_id: str,
        link_id: str,
        *,
        suspend: bool | None = None,
        filters: dict[str, list[int | str]] | None = None,
    ) -> Link:
        """Suspend or resume a link, or set its packet filters (``{"packet_loss": [30]}``;
        ``{}`` clears them). Only the fields given are sent."""
        body: dict[str, Any] = {}
        if suspend is not None:
            body["suspend"] = suspend
        if filters is not None:
            body["filters"] = filters
        path = f"/projects/{_q(project_id)}/links/{_q(link_id)}"
        return _parse(Link, await self._request("PUT", path, json=body), self.base_url)

    async def link_filters(self, project_id: str, link_id: str) -> list[str]:
        """The packet filters the link's compute can apply (none when its traffic does not pass
        through ubridge, e.g. between two dynamips switches)."""
        path = f"/projects/{_q(project_id)}/links/{_q(link_id)}/available_filters"
        data = await self._request("GET", path)
        return (
            [str(f.get("type")) for f in data if isinstance(f, dict)]
            if isinstance(data, list)
            else []
        )

    async def delete_link(self, project_id: str, link_id: str) -> None:
        """Delete a link."""
        await self._request("DELETE", f"/projects/{_q(project_id)}/links/{_q(link_id)}")

    async def start_capture(
        self,
        project_id: str,
        link_id: str,
        *,
        data_link_type: str = "DLT_EN10MB",
        capture_file_name: str | None = None,
    ) -> Link:
        """Start a packet capture on a link; returns the link with its capture file."""
        body: dict[str, Any] = {"data_link_type": data_link_type}
        if capture_file_name is not None:
            body["capture_file_name"] = capture_file_name
        path = f"/projects/{_q(project_id)}/links/{_q(link_id)}/capture/start"
        return _parse(Link, await self._request("POST", path, json=body), self.base_url)

    async def stop_capture(self, project_id: str, link_id: str) -> None:
        """Stop the packet capture of a link."""
        path = f"/projects/{_q(project_id)}/links/{_q(link_id)}/capture/stop"
        await self._request("POST", path, json=_EMPTY_BODY)

    async def download_capture(
        self, project_id: str, link_id: str, *, duration: float = 2.0, max_bytes: int = 10_000_000
    ) -> bytes:
        """The pcap of a link's capture.

        While the capture runs, the server streams the file for as long as it is written, so this
        reads the stream for at most ``duration`` seconds or ``max_bytes`` bytes (dynamips buffers
        its writes: a quiet link may have written nothing yet). Once the capture is stopped, the
        finished file is downloaded from the project's files.
        """
        link = await self.get_link(project_id, link_id)
        if not link.capturing:
            return await self._finished_capture(project_id, link)
        path = f"/projects/{_q(project_id)}/links/{_q(link_id)}/capture/stream"
        received = bytearray()
        try:
            async with asyncio.timeout(duration):
                await self._stream_into(path, received, max_bytes)
        except TimeoutError:
            pass  # the stream is endless while capturing: the duration is the normal end
        return bytes(received)

    async def _finished_capture(self, project_id: str, link: Link) -> bytes:
        if not link.capture_file_name:
            raise Gns3Error(
                f"Link {link.link_id} has no packet capture to download.", server=self.base_url
            )
        path = (
            f"/projects/{_q(project_id)}/files/project-files/captures/{_q(link.capture_file_name)}"
        )
        received = bytearray()
        await self._stream_into(path, received, max_bytes=2**62)
        return bytes(received)

    # --- templates, drawings, snapshots ------------------------------------------------------

    async def list_templates(self) -> list[Template]:
        """Every template (built-in ones included)."""
        return _parse(list[Template], await self._request("GET", "/templates"), self.base_url)

    async def list_drawings(self, project_id: str) -> list[Drawing]:
        """Every drawing of a project."""
        data = await self._request("GET", f"/projects/{_q(project_id)}/drawings")
        return _parse(list[Drawing], data, self.base_url)

    async def create_drawing(
        self, project_id: str, svg: str, x: int, y: int, z: int = 1
    ) -> Drawing:
        """Add an SVG drawing to the canvas."""
        body = {"svg": svg, "x": x, "y": y, "z": z}
        data = await self._request("POST", f"/projects/{_q(project_id)}/drawings", json=body)
        return _parse(Drawing, data, self.base_url)

    async def delete_drawing(self, project_id: str, drawing_id: str) -> None:
        """Delete a drawing."""
        await self._request("DELETE", f"/projects/{_q(project_id)}/drawings/{_q(drawing_id)}")

    async def export_project(self, project_id: str, *, max_bytes: int = 2**31) -> bytes:
        """The project as a GNS3 portable project archive (zip, without images)."""
        received = bytearray()
        await self._stream_into(
            f"/projects/{_q(project_id)}/export?compression=zip", received, max_bytes
        )
        if len(received) >= max_bytes:
            raise Gns3Error("The project is too large to export here.", server=self.base_url)
        return bytes(received)

    async def import_project(self, name: str, archive: CheckedArchive) -> Project:
        """Import a portable project archive as a new project called ``name``. Only an archive
        that passed `check_project_archive` is accepted: GNS3 unpacks what it is given."""
        path = f"/projects/{uuid.uuid4()}/import"
        try:
            response = await self._http.post(
                path, params={"name": name}, content=archive.data, headers=self._headers(True)
            )
        except httpx.HTTPError as exc:
            raise _errors.transport_error(self.base_url, exc, self.timeout) from exc
        if response.is_error:
            raise _errors.status_error(self.base_url, response)
        return _parse(Project, response.json(), self.base_url)

    async def read_node_file(
        self, project_id: str, node_id: str, path: str, *, max_bytes: int = 256_000
    ) -> str | None:
        """A small text file of a node's folder (e.g. a VPCS's ``startup.vpc``), or None when the
        node has none (or it is larger than ``max_bytes`` or not UTF-8 text)."""
        received = bytearray()
        segments = "/".join(_q(part) for part in path.split("/"))
        try:
            await self._stream_into(
                f"/projects/{_q(project_id)}/nodes/{_q(node_id)}/files/{segments}",
                received,
                max_bytes + 1,
            )
        except Gns3NotFoundError:
            return None
        if len(received) > max_bytes:
            return None
        try:
            return received.decode("utf-8")
        except UnicodeDecodeError:
            return None

    async def write_node_file(self, project_id: str, node_id: str, path: str, text: str) -> None:
        """Write a text file into a node's folder."""
        segments = "/".join(_q(part) for part in path.split("/"))
        url = f"/projects/{_q(project_id)}/nodes/{_q(node_id)}/files/{segments}"
        try:
            response = await self._http.post(
                url, content=text.encode("utf-8"), headers=self._headers(True)
            )
        except httpx.HTTPError as exc:
            raise _errors.transport_error(self.base_url, exc, self.timeout) from exc
        if response.is_error:
            raise _errors.status_error(self.base_url, response)

    async def list_snapshots(self, project_id: str) -> list[Snapshot]:
        """Every snapshot of a project, oldest first."""
        data = await self._request("GET", f"/projects/{_q(project_id)}/snapshots")
        return _parse(list[Snapshot], data, self.base_url)

    async def create_snapshot(self, project_id: str, name: str) -> Snapshot:
        """Save a snapshot of the project."""
        data = await self._request(
            "POST", f"/projects/{_q(project_id)}/snapshots", json={"name": name}
        )
        return _parse(Snapshot, data, self.base_url)

    async def restore_snapshot(self, project_id: str, snapshot_id: str) -> Project:
        """Restore a snapshot; returns the reloaded project."""
        path = f"/projects/{_q(project_id)}/snapshots/{_q(snapshot_id)}/restore"
        return _parse(Project, await self._request("POST", path, json=_EMPTY_BODY), self.base_url)

    # --- notifications -----------------------------------------------------------------------

    def project_notifications(
        self,
        project_id: str,
        *,
        backoff: notifications.Backoff | None = None,
        on_link: notifications.OnLink | None = None,
    ) -> AsyncIterator[Notification]:
        """Events of one project, reconnecting with backoff (see :mod:`.notifications`);
        ``on_link`` hears when the subscription is up (and when it is lost).

        Raises :class:`Gns3NotFoundError` when the project does not exist (any more).
        """
        path = f"/v3/projects/{_q(project_id)}/notifications/ws"
        return self._notifications(
            path, backoff, check=lambda: self.get_project(project_id), on_link=on_link
        )

    def controller_notifications(
        self,
        *,
        backoff: notifications.Backoff | None = None,
        on_link: notifications.OnLink | None = None,
    ) -> AsyncIterator[Notification]:
        """Controller-wide events (computes, projects), reconnecting with backoff; ``on_link``
        hears when the connection is lost and when it is back."""
        return self._notifications(
            "/v3/notifications/ws", backoff, check=self.current_user, on_link=on_link
        )

    def _notifications(
        self,
        path: str,
        backoff: notifications.Backoff | None,
        *,
        check: Callable[[], Awaitable[object]],
        on_link: notifications.OnLink | None = None,
    ) -> AsyncIterator[Notification]:
        return notifications.stream_notifications(
            notifications.WsTarget(
                server=self.base_url,
                path=path,
                token=lambda: self.token,
                ssl_context=self._ssl_context if self.base_url.startswith("https") else None,
                open_timeout=self.timeout,
                check=check,
            ),
            backoff or notifications.Backoff(),
            on_link,
        )

    # --- plumbing ----------------------------------------------------------------------------

    async def _get_model(self, model: type[_T], path: str) -> _T:
        return _parse(model, await self._request("GET", path), self.base_url)

    async def _node_action(self, project_id: str, node_id: str | None, action: str) -> None:
        target = f"/nodes/{_q(node_id)}" if node_id else "/nodes"
        await self._request(
            "POST", f"/projects/{_q(project_id)}{target}/{action}", json=_EMPTY_BODY
        )

    def _headers(self, auth: bool) -> dict[str, str]:
        if not auth or not self.token:
            return {}
        if token_expired(self.token):
            # GNS3 3.0.x does not check ``exp`` itself: without this, an expired token would work.
            raise _errors.expired_token_error(self.base_url)
        return {"Authorization": f"Bearer {self.token}"}

    async def _request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        auth: bool = True,
        login_user: str | None = None,
    ) -> Any:
        """Send one request; returns the decoded JSON body (``None`` for an empty one)."""
        try:
            response = await self._http.request(
                method, path, json=json, headers=self._headers(auth)
            )
        except httpx.HTTPError as exc:
            raise _errors.transport_error(self.base_url, exc, self.timeout) from exc
        if response.is_error:
            raise _errors.status_error(self.base_url, response, login_user=login_user)
        _log.debug("%s %s -> %s", method, path, response.status_code)
        if not response.content:
            return None
        try:
            return response.json()
        except ValueError as exc:
            raise Gns3ProtocolError(
                f"{self.base_url} answered {method} {path} with something that is not JSON.",
                server=self.base_url,
                status_code=response.status_code,
            ) from exc

    async def _stream_into(self, path: str, into: bytearray, max_bytes: int) -> None:
        try:
            async with self._http.stream("GET", path, headers=self._headers(True)) as response:
                if response.is_error:
                    await response.aread()
                    raise _errors.status_error(self.base_url, response)
                async for chunk in response.aiter_bytes():
                    into.extend(chunk)
                    if len(into) >= max_bytes:
                        return
        except httpx.HTTPError as exc:
            raise _errors.transport_error(self.base_url, exc, self.timeout) from exc


def _q(path_segment: str) -> str:
    """One URL path segment: ids come from models and tools, never let them add ``/`` or ``..``."""
    return quote(path_segment, safe="")


def normalize_base_url(base_url: str) -> str:
    """``http://host:3080/v3/`` -> ``http://host:3080`` (the client adds ``/v3`` itself)."""
    url = base_url.strip().rstrip("/")
    if url.endswith("/v3"):
        url = url[: -len("/v3")]
    if not url.startswith(("http://", "https://")):
        raise Gns3Error(
            f"'{base_url}' is not a server address: it must start with http:// or https://.",
            server=base_url,
        )
    return url


def build_ssl_context(ca_cert: Path | None, *, server: str) -> ssl.SSLContext:
    """The TLS context: system CAs, plus ``ca_cert`` when the server's certificate is self-signed.

    Verification is never turned off: an explicit trusted certificate is the only way to accept a
    self-signed server.
    """
    if ca_cert is None:
        return _system_context()
    context = ssl.create_default_context()
    try:
        context.load_verify_locations(cafile=str(ca_cert))
    except (OSError, ssl.SSLError) as exc:
        raise _errors.ca_cert_error(server, ca_cert, exc) from exc
    return context


@functools.cache
def _system_context() -> ssl.SSLContext:
    # Loading the system's CAs costs tens of milliseconds of CPU; a service makes a client per
    # request, and one context serves any number of connections.
    return ssl.create_default_context()


@functools.cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    # Building a TypeAdapter is costly; list[Node] and friends are reused for every call.
    return TypeAdapter(model)


def _parse(model: type[_T] | Any, data: Any, server: str) -> _T:
    """Validate ``data`` as ``model`` (a model class or ``list[Model]``)."""
    try:
        if isinstance(model, type) and issubclass(model, BaseModel):
            return model.model_validate(data)  # type: ignore[return-value]
        return _adapter(model).validate_python(data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise Gns3ProtocolError(
            f"{server} answered in a form this app does not understand "
            f"({exc.error_count()} problem(s), first: {exc.errors()[0]['msg']}).",
            server=server,
        ) from exc
