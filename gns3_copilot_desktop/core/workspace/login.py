"""The workspace's GNS3 login: which server, which client, who is logged in.

The password is only sent to the server; with "remember me" the JWT goes to the OS keyring
(per server + username) and `restore_login` finds it at the next start. `logout` removes it. An
expired or refused token raises `Gns3AuthError`, which the UI answers by opening the login again.

With an external auth source (the GNS3 GUI's own connection) there is no login here: the token is
read from it before every use, because the GUI re-authenticates on its own; when its URL changes
(the GUI was pointed at another server) the client, services and projects follow it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from gns3_copilot_desktop.core.errors import Gns3AuthError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import token_expired
from gns3_copilot_desktop.core.project_follower import ProjectFollower
from gns3_copilot_desktop.core.settings import ServerProfile, normalize_server_url
from gns3_copilot_desktop.core.workspace.model import WorkspaceModel

log = logging.getLogger(__name__)

DEFAULT_SERVER_URL = "http://127.0.0.1:3080"
NOT_LOGGED_IN_TEXT = "You are not logged in to the GNS3 server. Log in to continue."
EXPIRED_TEXT = "Your GNS3 login has expired. Log in again to continue."


class TokenSource(Protocol):
    """Somebody else's connection to the GNS3 controller (the GNS3 GUI's)."""

    def base_url(self) -> str:
        """The controller URL, without ``/v3``."""
        ...

    def token(self) -> str | None:
        """The current JWT (read fresh each time: the owner may have re-authenticated)."""
        ...

    def username(self) -> str | None:
        """Who is logged in, when known."""
        ...


@dataclass(frozen=True)
class LoginInfo:
    """Who is logged in where, and whether the token was remembered in the keyring."""

    server_url: str
    username: str
    remembered: bool


class WorkspaceLogin(WorkspaceModel):
    """The current server, its client and the login on it (or the GNS3 GUI's)."""

    external_auth: TokenSource | None
    _server_override: str | None
    _client: Gns3Client | None
    _login: LoginInfo | None
    _closed: bool
    follower: ProjectFollower

    @property
    def server_url(self) -> str:
        """The GNS3 server in use: external > command line > last used > GNS3's local default."""
        if self.external_auth is not None:
            return normalize_server_url(self.external_auth.base_url())
        if self._login is not None:
            return self._login.server_url
        return self._server_override or self.settings.current_server or DEFAULT_SERVER_URL

    @property
    def client(self) -> Gns3Client | None:
        """The client of the logged-in server (None when logged out)."""
        return self._client

    @property
    def login_info(self) -> LoginInfo | None:
        """The current login (None when logged out or with external auth)."""
        return self._login

    @property
    def username(self) -> str | None:
        """Who is logged in."""
        if self.external_auth is not None:
            return self.external_auth.username()
        return self._login.username if self._login else None

    @property
    def logged_in(self) -> bool:
        """True when there is a client with a token (it may still have expired)."""
        if self.external_auth is not None:
            token = self.external_auth.token()
            return bool(token) and not token_expired(token or "")
        return self._client is not None and bool(self._client.token)

    def saved_username(self, server_url: str | None = None) -> str:
        """The username last used on the server (to prefill the login form)."""
        profile = self._server_profile(server_url or self.server_url)
        return profile.username or "" if profile else ""

    def token_expired(self) -> bool:
        """True when logged in with a token whose ``exp`` has passed."""
        client = self.require_client()
        return bool(client.token) and token_expired(client.token or "")

    def require_client(self) -> Gns3Client:
        """The client with a fresh token; `Gns3AuthError` when there is no usable login.

        With external auth the client is always given (its token may be None until the GUI is
        connected): the GUI owns the login, and the server's answer tells what is wrong.
        """
        client = self._client
        if self.external_auth is not None and client is not None:
            client.token = self.external_auth.token()
            return client
        if client is None or not client.token:
            raise Gns3AuthError(NOT_LOGGED_IN_TEXT, server=self.server_url)
        return client

    def check_login(self) -> Gns3Client:
        """`require_client`, and `Gns3AuthError` when the token's expiry has passed."""
        client = self.require_client()
        if client.token and token_expired(client.token):
            raise Gns3AuthError(EXPIRED_TEXT, server=self.server_url, status_code=401)
        return client

    async def follow_external_server(self) -> bool:
        """With external auth: move to the server the GUI now uses; True when it changed.

        The GNS3 GUI may be pointed at another controller: the client of the old one, its agent
        services and its notification watcher are closed, the projects forgotten.
        """
        auth = self.external_auth
        if auth is None or self._closed:
            return False
        url = normalize_server_url(auth.base_url())
        current = self._client
        if current is not None and normalize_server_url(current.base_url) == url:
            return False
        log.info("the GNS3 GUI uses %s now; the copilot follows it", url)
        await self._switch_login(self._gui_client(auth), None)
        self.follower.pin(None)  # the GUI says which project is current (as at the start)
        return True

    async def login(self, server_url: str, username: str, password: str, remember: bool) -> str:
        """Authenticate; remember the JWT in the keyring when asked. Returns the server URL.

        The password is sent to the server and forgotten. Raises `Gns3AuthError` for a wrong
        password and `Gns3ConnectionError` when nothing answers.
        """
        url = normalize_server_url(server_url)
        current = self._client
        same = (
            current is not None
            and normalize_server_url(current.base_url) == url
            and self.external_auth is None
        )
        client = (
            current if same and current is not None else Gns3Client(url, ca_cert=self._ca_cert(url))
        )
        try:
            token = await client.authenticate(username, password)
        except BaseException:
            if client is not current:
                await client.aclose()
            raise
        if remember:
            await self.secrets.set_jwt(url, username, token.access_token)
        else:
            await self.secrets.delete_jwt(url, username)
        client.token = token.access_token
        if same:
            # A new token for the same server (e.g. after expiry): services and the project
            # follower stay, so the conversation on screen goes on.
            self._login = LoginInfo(url, username, remember)
        else:
            await self._switch_login(client, LoginInfo(url, username, remember))
        await self._remember_server(url, username)
        log.info("logged in to %s as %s (remembered: %s)", url, username, remember)
        return url

    async def restore_login(self) -> bool:
        """Log in with the JWT remembered for the current server; False when there is none.

        An expired or refused token is removed from the keyring (the UI then asks to log in).
        """
        if self.external_auth is not None:
            return self.logged_in
        url = self.server_url
        username = self.saved_username(url)
        if not username:
            return False
        jwt = await self.secrets.get_jwt(url, username)
        if not jwt:
            return False
        if token_expired(jwt):
            await self.secrets.delete_jwt(url, username)
            return False
        client = Gns3Client(url, token=jwt, ca_cert=self._ca_cert(url))
        try:
            await client.current_user()
        except Gns3AuthError:
            await client.aclose()
            await self.secrets.delete_jwt(url, username)
            return False
        except BaseException:
            await client.aclose()
            raise
        await self._switch_login(client, LoginInfo(url, username, True))
        return True

    async def logout(self) -> None:
        """Forget the login: the JWT leaves the keyring, the client and agent services close."""
        login = self._login
        if login is not None:
            await self.secrets.delete_jwt(login.server_url, login.username)
        await self._switch_login(None, None)
        if login is not None:
            log.info("logged out of %s", login.server_url)

    async def _switch_login(self, client: Gns3Client | None, login: LoginInfo | None) -> None:
        """Take ``client`` and ``login`` as the current ones; the old client is closed (what ran
        over it is ended first, by `WorkspaceAgents`)."""
        old, self._client, self._login = self._client, client, login
        self.follower.reset()
        if old is not None and old is not client:
            await old.aclose()

    async def _remember_server(self, url: str, username: str) -> None:
        servers = [s for s in self.settings.servers if normalize_server_url(s.url) != url]
        previous = self._server_profile(url)
        ca_cert = previous.ca_cert if previous else None
        self.settings.servers = [
            ServerProfile(url=url, username=username, ca_cert=ca_cert),
            *servers,
        ]
        self.settings.current_server = url
        await self.save_settings()

    def _server_profile(self, url: str) -> ServerProfile | None:
        wanted = normalize_server_url(url)
        return next(
            (s for s in self.settings.servers if normalize_server_url(s.url) == wanted), None
        )

    def _ca_cert(self, url: str) -> Any:
        profile = self._server_profile(url)
        return profile.ca_cert if profile else None

    def _gui_client(self, auth: TokenSource) -> Gns3Client:
        """A client of the server the GNS3 GUI uses, with the GUI's token."""
        return Gns3Client(auth.base_url(), token=auth.token())
