"""Who is calling: the caller's own GNS3 login, checked against the GNS3 server.

``Authorization: Bearer <GNS3 JWT>`` is asked of ``/v3/access/users/me``; the answer is kept for a
short while (keyed by a hash of the token, never the token) so a stream of requests does not ask
GNS3 each time. An expired token is refused before GNS3 is asked (GNS3 3.0.6 accepts expired
tokens). The token itself is never stored: it only goes into the RunContext of that request.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from gns3_copilot_desktop.core.errors import CopilotError, Gns3AuthError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import token_expired

CACHE_TTL_S = 30.0
_MAX_CACHED = 1024


class NotAuthenticatedError(CopilotError):
    """No usable GNS3 login came with the request (HTTP 401)."""


@dataclass(frozen=True)
class Caller:
    """The GNS3 user a request comes from, and the token for that request's GNS3 calls."""

    user_id: str
    username: str
    token: str
    token_key: str = ""
    """A hash of the token: what the service's caches are keyed by (never the token)."""
    is_superadmin: bool = False
    """GNS3 says this user is an administrator (read with the login, no second request)."""


class Authenticator:
    """Checks bearer tokens against one GNS3 server."""

    def __init__(self, gns3_url: str, *, ttl_s: float = CACHE_TTL_S) -> None:
        self.gns3_url = gns3_url
        self._ttl = ttl_s
        self.ttl_s = ttl_s
        self._cache: dict[str, tuple[float, str, str, bool]] = {}

    async def caller(self, authorization: str | None) -> Caller:
        """The caller of a request with this ``Authorization`` header.

        Raises `NotAuthenticatedError` when there is no usable GNS3 login in it."""
        scheme, _, token = (authorization or "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise NotAuthenticatedError("Send your GNS3 login: Authorization: Bearer <GNS3 token>.")
        if token_expired(token):
            raise NotAuthenticatedError("The GNS3 token has expired: log in to GNS3 again.")
        key = hashlib.sha256(token.encode()).hexdigest()
        now = time.monotonic()
        hit = self._cache.get(key)
        if hit is not None and hit[0] > now:
            return Caller(hit[1], hit[2], token, key, hit[3])
        try:
            async with Gns3Client(self.gns3_url, token=token) as client:
                user = await client.current_user()
        except Gns3AuthError as exc:
            self._cache.pop(key, None)
            raise NotAuthenticatedError(f"GNS3 refused the token: {exc.user_message}") from exc
        if len(self._cache) >= _MAX_CACHED:
            self._cache = {k: v for k, v in self._cache.items() if v[0] > now}
        self._cache[key] = (now + self._ttl, user.user_id, user.username, user.is_superadmin)
        return Caller(user.user_id, user.username, token, key, user.is_superadmin)
