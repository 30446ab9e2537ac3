"""Notification streams of a GNS3 server as async iterators of typed events.

The server pushes ``{"action": ..., "event": {...}}`` messages over a websocket that takes the JWT
as a ``?token=`` query parameter. :func:`stream_notifications` connects, yields
:class:`~.models.Notification` objects, and reconnects with bounded, jittered exponential backoff
when the connection drops. An authentication failure (close code 1008, HTTP 401/403) raises
:class:`Gns3AuthError` instead of retrying forever, and so does giving up after
``Backoff.max_failures`` connection attempts in a row (:class:`Gns3ConnectionError`; a backoff
without a limit retries until the server is back). ``on_link`` is told each time the connection is
lost and each time it is up again, so a window can say the server is unreachable meanwhile.

The URL with the token is never logged: log lines name the server and the path only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
import ssl
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import quote

from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from gns3_copilot_desktop.core.errors import (
    Gns3AuthError,
    Gns3ConnectionError,
    Gns3Error,
    Gns3NotFoundError,
    Gns3PermissionError,
)
from gns3_copilot_desktop.core.gns3.models import Notification, token_expired

_log = logging.getLogger(__name__)
POLICY_VIOLATION = 1008  # what the server closes with when the token is refused
_TOKEN_IN_URL = re.compile(r"([?&]token=)[^&\s]*")


class _RedactTokenFilter(logging.Filter):
    """websockets logs the request line (``GET /...?token=<jwt>``) at DEBUG: cut the token out."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = _TOKEN_IN_URL.sub(r"\1<redacted>", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


# The logger handed to websockets for these connections (its default one would see the URL).
_ws_log = logging.getLogger(f"{__name__}.websocket")
_ws_log.addFilter(_RedactTokenFilter())


@dataclass(frozen=True)
class Backoff:
    """Reconnect delays: ``initial * factor**n``, capped at ``maximum``, +/- ``jitter``."""

    initial: float = 0.5
    maximum: float = 30.0
    factor: float = 2.0
    jitter: float = 0.2
    max_failures: int | None = 8
    """Attempts in a row after which the stream gives up; None: never (the caller cancels)."""

    def delay(self, failures: int) -> float:
        """The wait before attempt ``failures + 1`` (``failures`` >= 1)."""
        base = min(self.maximum, self.initial * self.factor ** max(0, failures - 1))
        spread = base * self.jitter
        return max(0.0, base + random.uniform(-spread, spread))


@dataclass(frozen=True)
class LinkState:
    """The notification connection as `stream_notifications` reports it to ``on_link``."""

    connected: bool
    reason: str | None = None
    """Why it is down (the connection error, short; never the URL)."""
    failures: int = 0
    """Attempts in a row that delivered nothing."""


OnLink = Callable[[LinkState], None]


@dataclass(frozen=True)
class WsTarget:
    """Where to connect: ``server`` is ``http(s)://host:port``, ``path`` starts with ``/v3``.

    ``token`` is read at each (re)connection, so a re-login is picked up. ``check`` is awaited
    when a connection delivered nothing; it raises the error that explains why (see
    :func:`_run_check`).
    """

    server: str
    path: str
    token: Callable[[], str | None]
    ssl_context: ssl.SSLContext | None = None
    open_timeout: float = 15.0
    check: Callable[[], Awaitable[object]] | None = None

    def url(self, token: str) -> str:
        """The websocket URL, token included: never log it."""
        scheme = "wss" if self.server.startswith("https://") else "ws"
        host = self.server.split("://", 1)[1]
        return f"{scheme}://{host}{self.path}?token={quote(token, safe='')}"

    @property
    def label(self) -> str:
        """A loggable name for the stream (no token)."""
        return f"{self.server}{self.path}"


async def stream_notifications(
    target: WsTarget, backoff: Backoff, on_link: OnLink | None = None
) -> AsyncIterator[Notification]:
    """Yield the events of one notification websocket, reconnecting after drops.

    ``failures`` counts attempts in a row that delivered nothing (refused, or dropped before the
    first message); a subscription that delivered something resets it. ``on_link`` hears of
    every change between connected and not (not of each failed attempt while down).
    """
    failures = 0
    link = _LinkReporter(on_link)
    while True:
        token = _usable_token(target)
        delivered = False
        cause: BaseException | None = None
        try:
            async with connect(
                target.url(token),
                ssl=target.ssl_context,
                open_timeout=target.open_timeout,
                max_size=2**24,
                logger=_ws_log,
            ) as ws:
                _log.info("notifications: connected to %s", target.label)
                link.report(LinkState(connected=True))
                async with contextlib.aclosing(_receive(ws, target)) as events:
                    async for notification in events:
                        if not delivered:
                            delivered, failures = True, 0
                        yield notification
        except InvalidStatus as exc:
            raise _handshake_error(target, exc.response.status_code) from exc
        except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
            cause = exc
        reason = _describe(cause) if cause is not None else "closed by the server"
        failures += 1
        link.report(LinkState(connected=False, reason=reason, failures=failures))
        if not delivered:
            await _run_check(target)
        if backoff.max_failures is not None and failures >= backoff.max_failures:
            raise Gns3ConnectionError(
                f"Lost the notifications of {target.server} and could not reconnect after "
                f"{failures} attempts ({reason}).",
                server=target.server,
            ) from cause
        _log.warning("notifications: %s dropped (%s); retry %d", target.label, reason, failures)
        await asyncio.sleep(backoff.delay(failures))


class _LinkReporter:
    """Calls ``on_link`` when the connection goes up or down (not again while it stays so)."""

    def __init__(self, on_link: OnLink | None) -> None:
        self._on_link = on_link
        self._connected: bool | None = None

    def report(self, state: LinkState) -> None:
        if self._on_link is None or state.connected == self._connected:
            return
        self._connected = state.connected
        self._on_link(state)


def _usable_token(target: WsTarget) -> str:
    token = target.token()
    if not token:
        raise Gns3AuthError(
            f"Not logged in to {target.server}: notifications need a token.",
            server=target.server,
        )
    if token_expired(token):
        raise _auth_closed(target, "the token's lifetime is over")
    return token


async def _run_check(target: WsTarget) -> None:
    """Ask the REST API why a stream delivered nothing (e.g. the project was deleted).

    The server accepts the websocket before it looks the project up, so a missing project shows
    only as a dropped connection. The check raises the real error (not found, auth); an
    unreachable server is left to the retry loop.
    """
    if target.check is None:
        return
    try:
        await target.check()
    except Gns3ConnectionError:
        return


async def _receive(ws: ClientConnection, target: WsTarget) -> AsyncGenerator[Notification, None]:
    last_error: str | None = None
    try:
        async for raw in ws:
            notification = _decode(raw, target)
            if notification.error_message:
                last_error = notification.error_message
            yield notification
    except ConnectionClosed as exc:
        if _close_code(exc) == POLICY_VIOLATION:
            raise _auth_closed(target, last_error) from exc
        raise
    if ws.close_code == POLICY_VIOLATION:
        raise _auth_closed(target, last_error)


UNREADABLE = "unreadable"
"""The action of a message that did not parse: no follower acts on it by name, and one that
counts changes (`change_watch`) counts it, so a copy of the lab is read again."""


def _decode(raw: str | bytes, target: WsTarget) -> Notification:
    try:
        return Notification.model_validate(json.loads(raw))
    except (ValueError, ValidationError):
        _log.warning("notifications: %s sent a message that is not an event", target.label)
        return Notification(action=UNREADABLE)


def _close_code(exc: ConnectionClosed) -> int | None:
    frame = exc.rcvd or exc.sent
    return frame.code if frame is not None else None


def _auth_closed(target: WsTarget, server_message: str | None) -> Gns3AuthError:
    detail = f" ({server_message})" if server_message else ""
    return Gns3AuthError(
        f"The authentication with {target.server} expired or is invalid{detail}. "
        "Please log in again.",
        server=target.server,
        status_code=401,
    )


def _handshake_error(target: WsTarget, status: int) -> Gns3Error:
    if status == 401:
        return _auth_closed(target, None)
    if status == 403:
        return Gns3PermissionError(
            f"{target.server} does not allow these notifications for this user.",
            server=target.server,
            status_code=status,
        )
    if status == 404:
        return Gns3NotFoundError(
            f"{target.server} has no notification stream at {target.path}.",
            server=target.server,
            status_code=status,
        )
    return Gns3ConnectionError(
        f"{target.server} refused the notification stream (HTTP {status}).",
        server=target.server,
        status_code=status,
    )


def _describe(exc: BaseException) -> str:
    # websockets' messages never contain the URL, OSError's neither; keep them short.
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"
