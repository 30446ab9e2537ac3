"""Turn httpx failures and error answers into the project's Gns3 errors.

The GNS3 server answers errors as ``{"message": "..."}``; request validation errors (422) carry
FastAPI's error list, either as ``{"detail": [...]}`` or flattened into the message as Python
reprs. Both are rewritten to ``field.path: problem`` sentences.
"""

from __future__ import annotations

import errno
import re
import ssl
from pathlib import Path
from typing import Any, TypeVar

import httpx

from gns3_copilot_desktop.core.errors import (
    Gns3AuthError,
    Gns3ConflictError,
    Gns3ConnectionError,
    Gns3Error,
    Gns3NotFoundError,
    Gns3PermissionError,
    Gns3ValidationError,
)

_BY_STATUS: dict[int, type[Gns3Error]] = {
    403: Gns3PermissionError,
    404: Gns3NotFoundError,
    409: Gns3ConflictError,
    422: Gns3ValidationError,
}
_REPR_ITEM = re.compile(r"'loc': \(([^)]*)\),\s*'msg': (?:'([^']*)'|\"([^\"]*)\")")
_MAX_TEXT = 300
_E = TypeVar("_E", bound=BaseException)


def status_error(
    server: str, response: httpx.Response, *, login_user: str | None = None
) -> Gns3Error:
    """The error for an HTTP error answer, with the server's own message where it sent one."""
    code = response.status_code
    message = server_message(response)
    if code == 401:
        if login_user is not None:
            text = f"{server} refused the login for '{login_user}': {message}"
        else:
            text = (
                f"The authentication with {server} expired or is invalid ({message}). "
                "Please log in again."
            )
        return Gns3AuthError(text, server=server, status_code=code)
    error_type = _BY_STATUS.get(code)
    if error_type is not None:
        return error_type(message, server=server, status_code=code)
    return Gns3Error(
        f"{server} failed to handle the request (HTTP {code}): {message}",
        server=server,
        status_code=code,
    )


def server_message(response: httpx.Response) -> str:
    """The readable error text of an error answer."""
    try:
        body: Any = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        if "message" in body:
            return _readable(body["message"])
        if "detail" in body:
            return _readable(body["detail"])
    text = response.text.strip()
    if text:
        return _shorten(text)
    return response.reason_phrase or f"HTTP {response.status_code}"


def _readable(value: object) -> str:
    if isinstance(value, list):
        parts = [_validation_item(item) for item in value]
        return "; ".join(part for part in parts if part) or _shorten(str(value))
    text = str(value)
    items = _REPR_ITEM.findall(text)
    if items:
        # FastAPI's RequestValidationError flattened into a string by the server.
        return "; ".join(_field_problem(loc, msg_a or msg_b) for loc, msg_a, msg_b in items)
    return _shorten(text)


def _validation_item(item: object) -> str:
    if not isinstance(item, dict):
        return _shorten(str(item))
    loc = item.get("loc") or []
    loc_text = ", ".join(repr(part) for part in loc) if isinstance(loc, list | tuple) else ""
    return _field_problem(loc_text, str(item.get("msg", "invalid value")))


def _field_problem(loc_repr: str, msg: str) -> str:
    parts = [p.strip().strip("'\"") for p in loc_repr.split(",") if p.strip()]
    if parts and parts[0] in ("body", "query", "path"):
        parts = parts[1:]
    field = ".".join(parts)
    return f"{field}: {msg}" if field else msg


def _shorten(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def transport_error(server: str, exc: httpx.HTTPError, timeout: float) -> Gns3ConnectionError:
    """The error for a request that got no answer: refused, DNS, TLS, timeout, broken."""
    text = _transport_text(server, exc, timeout)
    return Gns3ConnectionError(text, server=server)


def _transport_text(server: str, exc: httpx.HTTPError, timeout: float) -> str:
    if isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout):
        return f"Could not connect to {server}: no answer within {timeout:g} s (timed out)."
    if isinstance(exc, httpx.TimeoutException):
        return f"{server} did not answer within {timeout:g} s (timed out)."
    detail = _root_cause_text(exc)
    lowered = detail.lower()
    tls = _find_cause(exc, ssl.SSLError)
    if tls is not None or "certificate" in lowered or "ssl" in lowered:
        reason = _tls_reason(tls, detail)
        return (
            f"The TLS connection to {server} failed: {reason}. If the server uses a self-signed "
            "certificate, set its CA certificate file in the server settings."
        )
    if any(
        s in lowered
        for s in (
            "name or service not known",
            "nodename nor servname",
            "getaddrinfo failed",
            "temporary failure in name resolution",
            "no address associated",
        )
    ):
        return f"The host name of {server} could not be resolved (DNS): check the address."
    if (
        "refused" in lowered
        or f"errno {errno.ECONNREFUSED}]" in lowered
        or _errno(exc) == errno.ECONNREFUSED
    ):
        return (
            f"{server} refused the connection: is the GNS3 server running and listening on that "
            "address and port?"
        )
    if isinstance(exc, httpx.ConnectError):
        return f"Could not connect to {server}: {detail}"
    if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
        return f"The connection to {server} broke off: {detail}"
    return f"Talking to {server} failed: {detail}"


def _tls_reason(tls: ssl.SSLError | None, detail: str) -> str:
    # ssl sets these attributes only on errors it raised itself, hence getattr.
    verify_message = getattr(tls, "verify_message", None)
    if verify_message:
        return f"certificate verify failed ({verify_message})"
    reason = getattr(tls, "reason", None)
    if reason:
        return str(reason).replace("_", " ").lower()
    return detail


def _causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _find_cause(exc: BaseException, kind: type[_E]) -> _E | None:
    for cause in _causes(exc):
        if isinstance(cause, kind):
            return cause
    return None


def _errno(exc: BaseException) -> int | None:
    found = _find_cause(exc, OSError)
    return found.errno if found is not None else None


def _root_cause_text(exc: BaseException) -> str:
    texts = [str(c) for c in _causes(exc) if str(c)]
    return texts[-1] if texts else type(exc).__name__


def ca_cert_error(server: str, ca_cert: Path, exc: Exception) -> Gns3ConnectionError:
    """The error for a trusted-certificate file that cannot be used."""
    return Gns3ConnectionError(
        f"The CA certificate file {ca_cert} set for {server} cannot be used: {exc}",
        server=server,
    )


def expired_token_error(server: str) -> Gns3AuthError:
    """The error for a token whose lifetime is over (checked before sending it)."""
    return Gns3AuthError(
        f"The authentication with {server} expired or is invalid (the token's lifetime is over). "
        "Please log in again.",
        server=server,
        status_code=401,
    )
