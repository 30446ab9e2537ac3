"""Async client for the GNS3 server's v3 REST API.

One ``httpx.AsyncClient`` per server (connection reuse, timeouts), kept by `Gns3Connection`. Every
call returns a model from :mod:`.models`; every failure is one of the
:mod:`gns3_copilot_desktop.core.errors` Gns3 errors with a sentence a person can act on. The calls
are grouped by what they act on (`projects_api`, `nodes_api`, `links_api`); this module adds
the server, the login and the notification streams.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

from gns3_copilot_desktop.core.errors import Gns3ProtocolError
from gns3_copilot_desktop.core.gns3 import notifications
from gns3_copilot_desktop.core.gns3.connection import parse_model, segment
from gns3_copilot_desktop.core.gns3.links_api import LinksApi
from gns3_copilot_desktop.core.gns3.models import (
    AuthToken,
    Notification,
    User,
    UserGroup,
    Version,
)
from gns3_copilot_desktop.core.gns3.nodes_api import NodesApi
from gns3_copilot_desktop.core.gns3.projects_api import ProjectsApi


class Gns3Client(ProjectsApi, NodesApi, LinksApi):
    """A typed async client for one GNS3 server (``base_url`` without ``/v3``)."""

    def __repr__(self) -> str:
        return f"Gns3Client({self.base_url!r})"

    # --- server and auth ---------------------------------------------------------------------

    async def version(self) -> Version:
        """The server's version (no authentication needed)."""
        return parse_model(Version, await self._request("GET", "/version"), self.base_url)

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
        return parse_model(User, await self._request("GET", "/access/users/me"), self.base_url)

    async def list_groups(self) -> list[UserGroup]:
        """The server's user groups (GNS3 asks for the Group.Audit privilege)."""
        data = await self._request("GET", "/access/groups")
        return parse_model(list[UserGroup], data, self.base_url)

    async def group_members(self, group_id: str) -> list[User]:
        """The members of a user group (Group.Audit)."""
        data = await self._request("GET", f"/access/groups/{segment(group_id)}/members")
        return parse_model(list[User], data, self.base_url)

    async def user_groups(self, user_id: str) -> list[UserGroup]:
        """The groups a user is in (Group.Audit, even for one's own)."""
        data = await self._request("GET", f"/access/users/{segment(user_id)}/groups")
        return parse_model(list[UserGroup], data, self.base_url)

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
        path = f"/v3/projects/{segment(project_id)}/notifications/ws"
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
