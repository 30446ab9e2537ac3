"""The GNS3 client's connection: one ``httpx.AsyncClient`` per server, the bearer token, and the
mapping of every transport or HTTP failure to the project's Gns3 errors.

The API parts (`projects_api`, `nodes_api`, `links_api`) and `Gns3Client` build on
`Gns3Connection`; the JWT is sent as a bearer header and never logged.
"""

from __future__ import annotations

import functools
import logging
import ssl
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from gns3_copilot_desktop.core.errors import Gns3ConnectionError, Gns3Error, Gns3ProtocolError
from gns3_copilot_desktop.core.gns3 import _errors
from gns3_copilot_desktop.core.gns3.models import token_expired

_log = logging.getLogger(__name__)
_T = TypeVar("_T")
EMPTY_BODY: dict[str, Any] = {}  # power actions need a JSON body, even an empty one


class Gns3Connection:
    """The HTTP session to one GNS3 server (``base_url`` without ``/v3``) and its token."""

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
        self._ca_cert = ca_cert
        self._transport = transport
        self._ssl_context = build_ssl_context(ca_cert, server=self.base_url)
        self._http = httpx.AsyncClient(
            base_url=f"{self.base_url}/v3",
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            verify=self._ssl_context,
            transport=transport,
            limits=httpx.Limits(max_connections=20, max_keepalive_connections=10),
            headers={"Accept": "application/json"},
        )

    async def aclose(self) -> None:
        """Close the pooled connections."""
        await self._http.aclose()

    def sibling(self) -> Self:
        """A client of its own for the same server, TLS trust and token: for work that
        outlives this client's owner (a turn closes its client; a notification follower does
        not end with the turn). The caller closes it."""
        return type(self)(
            self.base_url,
            token=self.token,
            ca_cert=self._ca_cert,
            timeout=self.timeout,
            transport=self._transport,
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def _client(self) -> httpx.AsyncClient:
        """The HTTP client, or a `Gns3ConnectionError` once it was closed: something that kept
        this client (a chat card's reader, a timer) outlived a logout or a change of server."""
        if self._http.is_closed:
            raise Gns3ConnectionError(
                f"The connection to {self.base_url} was closed (logged out, or another server "
                "was chosen).",
                server=self.base_url,
            )
        return self._http

    async def _get_model(self, model: type[_T], path: str) -> _T:
        return parse_model(model, await self._request("GET", path), self.base_url)

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
            response = await self._client().request(
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

    async def _post_content(
        self, path: str, content: bytes, *, params: dict[str, str] | None = None
    ) -> httpx.Response:
        """POST raw bytes (an archive, a file's text); returns the server's successful answer."""
        try:
            response = await self._client().post(
                path, params=params, content=content, headers=self._headers(True)
            )
        except httpx.HTTPError as exc:
            raise _errors.transport_error(self.base_url, exc, self.timeout) from exc
        if response.is_error:
            raise _errors.status_error(self.base_url, response)
        return response

    async def _stream_into(self, path: str, into: bytearray, max_bytes: int) -> None:
        try:
            async with self._client().stream("GET", path, headers=self._headers(True)) as response:
                if response.is_error:
                    await response.aread()
                    raise _errors.status_error(self.base_url, response)
                async for chunk in response.aiter_bytes():
                    into.extend(chunk)
                    if len(into) >= max_bytes:
                        return
        except httpx.HTTPError as exc:
            raise _errors.transport_error(self.base_url, exc, self.timeout) from exc


def segment(path_segment: str) -> str:
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


def parse_model(model: type[_T] | Any, data: Any, server: str) -> _T:
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
