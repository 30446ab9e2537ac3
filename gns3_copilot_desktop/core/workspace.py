"""The app's services and state, without Qt: the one object the UI talks to for everything but chat.

`Workspace` owns the settings (file + model), the secret store, the `Gns3Client` of the current
server and who is logged in, the `ProjectFollower` of that server, and the `ProjectAgentManager`
(one `AgentService` per project). It resolves the model to use (explicit > active profile with its
key from the keyring > environment) and builds the `RunContext` of each turn.

Login: the password is only sent to the server; with "remember me" the JWT goes to the OS keyring
(per server + username) and `restore_login` finds it at the next start. `logout` removes it. An
expired or refused token raises `Gns3AuthError`, which the UI answers by opening the login again.

With an external auth source (the GNS3 GUI's own connection) there is no login here: the token is
read from it before every use, because the GUI re-authenticates on its own; when its URL changes
(the GUI was pointed at another server) the client, services and projects follow it.

LangChain and LangGraph are imported only when the first agent service or model is needed, so the
window shows before those heavy imports happen.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gns3_copilot_desktop.core.errors import (
    CopilotError,
    Gns3AuthError,
    Gns3ConnectionError,
    Gns3NotFoundError,
    ModelConfigError,
    ServicesClosedError,
)
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node, Notification, Project, token_expired
from gns3_copilot_desktop.core.gns3.notifications import Backoff, OnLink
from gns3_copilot_desktop.core.paths import AppPaths
from gns3_copilot_desktop.core.project_follower import ProjectFollower
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from gns3_copilot_desktop.core.settings import (
    LlmProfile,
    ServerProfile,
    Settings,
    SettingsStore,
    normalize_server_url,
)

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from gns3_copilot_desktop.core.agent.context import RunContext
    from gns3_copilot_desktop.core.agent.manager import ProjectAgentManager
    from gns3_copilot_desktop.core.agent.model_factory import LlmConfig
    from gns3_copilot_desktop.core.agent.service import AgentService
    from gns3_copilot_desktop.core.agent.tools import ToolRegistry
    from gns3_copilot_desktop.core.devices.batch import DeviceOutcome
    from gns3_copilot_desktop.core.sessions.migration import MigrationNotice
    from gns3_copilot_desktop.core.sessions.store import StoreNotice
    from gns3_copilot_desktop.core.undo.apply import ConfigPusher

log = logging.getLogger(__name__)

DEFAULT_SERVER_URL = "http://127.0.0.1:3080"
NOT_LOGGED_IN_TEXT = "You are not logged in to the GNS3 server. Log in to continue."
EXPIRED_TEXT = "Your GNS3 login has expired. Log in again to continue."
WATCH_BACKOFF = Backoff(maximum=10.0, max_failures=None)
"""The controller's notifications are retried until the server is back, at least every 10 s."""
LISTEN_BACKOFF = Backoff(initial=1.0, maximum=10.0, max_failures=None)
"""The shown project's listener (it keeps the project open) retries as long, less eagerly."""


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


class Workspace:
    """Settings, secrets, the GNS3 login, project following and the agent services of one app."""

    def __init__(
        self,
        paths: AppPaths,
        settings_store: SettingsStore,
        settings: Settings,
        secrets: SecretStore,
        *,
        server_url: str | None = None,
        explicit_llm: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        external_auth: TokenSource | None = None,
        settings_message: str | None = None,
    ) -> None:
        self.paths = paths
        self.settings_store = settings_store
        self.settings = settings
        self.secrets = secrets
        self.settings_message = settings_message
        self.external_auth = external_auth
        self._server_override = normalize_server_url(server_url) if server_url else None
        self.explicit_llm: dict[str, Any] | None = dict(explicit_llm) if explicit_llm else None
        """A model configuration that wins over the profiles (command line, self-test, tests)."""
        self._env = dict(os.environ if env is None else env)
        self._client: Gns3Client | None = None
        self._login: LoginInfo | None = None
        self._manager: ProjectAgentManager | None = None
        self._model_cache: tuple[LlmConfig, BaseChatModel] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._project_listener: asyncio.Task[None] | None = None
        self._listened_project: str | None = None
        self._closed = False
        self._tools: ToolRegistry | None = None
        self.follower = ProjectFollower(pinned=None)
        if external_auth is not None:
            self._client = Gns3Client(external_auth.base_url(), token=external_auth.token())

    @classmethod
    async def open(
        cls,
        paths: AppPaths,
        *,
        secrets: SecretStore | None = None,
        server_url: str | None = None,
        explicit_llm: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        external_auth: TokenSource | None = None,
    ) -> Workspace:
        """Create the folders, load the settings and open the keyring (all off the UI thread)."""
        await asyncio.to_thread(paths.ensure)
        store = SettingsStore(paths.settings_file)
        loaded = await store.aload()
        return cls(
            paths,
            store,
            loaded.settings,
            secrets if secrets is not None else await SecretStore.open(),
            server_url=server_url,
            explicit_llm=explicit_llm,
            env=env,
            external_auth=external_auth,
            settings_message=loaded.message,
        )

    # --- server and login -------------------------------------------------------------------

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
        await self._switch_login(Gns3Client(url, token=auth.token()), None)
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
        await self._stop_watching()
        if self._manager is not None:
            await self._manager.close()
            self._manager = None
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

    # --- projects ---------------------------------------------------------------------------

    async def list_projects(self) -> list[Project]:
        """The server's projects (the follower learns their status too)."""
        await self.follow_external_server()
        projects = await self.check_login().list_projects()
        self.follower.update_projects(projects, preferred=self.settings.last_project_id)
        return projects

    def watch_notifications(
        self,
        on_event: Callable[[Notification], Awaitable[None]] | None = None,
        on_link: OnLink | None = None,
    ) -> asyncio.Task[None]:
        """Follow the controller's notifications: projects opened/closed, services closed.

        ``on_event`` runs after the follower and the agent manager saw each event; ``on_link``
        hears when the server stops answering and when it is back. A server that is down is
        retried until it answers again; the task ends with an auth error (re-raised so the
        caller can ask to log in again) or when it is cancelled.
        """
        if self._watcher is not None and not self._watcher.done():
            return self._watcher
        client = self.check_login()
        self._watcher = asyncio.create_task(
            self._watch(client, on_event, on_link), name="workspace-notifications"
        )
        return self._watcher

    async def _watch(
        self,
        client: Gns3Client,
        on_event: Callable[[Notification], Awaitable[None]] | None,
        on_link: OnLink | None,
    ) -> None:
        stream = client.controller_notifications(backoff=WATCH_BACKOFF, on_link=on_link)
        try:
            async for notification in stream:
                if notification.is_ping:
                    continue
                self.follower.handle(notification)
                try:
                    if self._manager is not None:
                        await self._manager.handle_notification(notification)
                    if on_event is not None:
                        await on_event(notification)
                except CopilotError as exc:
                    # one event that could not be handled must not end the stream (every
                    # later project change would be missed, with nothing on screen saying so)
                    log.warning("notification %s not handled: %s", notification.action, exc)
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()

    async def _stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        listener, self._project_listener = self._project_listener, None
        self._listened_project = None
        await _end_tasks([t for t in (watcher, listener) if t is not None])

    def keep_project_open(self, project_id: str | None) -> None:
        """Listen to ``project_id``'s notifications while it is the copilot's project.

        GNS3 closes a project created with ``auto_close`` a few seconds after its last listener
        left ("no client listening"): without a listener of the app's own, closing a Lab card or
        starting a new conversation closed the project the user was working on. None stops
        listening (the user chose no project, or another one)."""
        if project_id == self._listened_project and (
            self._project_listener is not None and not self._project_listener.done()
        ):
            return
        old, self._project_listener = self._project_listener, None
        if old is not None:
            old.cancel()
        self._listened_project = project_id
        client = self._client
        if project_id is None or client is None or self._closed:
            return
        self._project_listener = asyncio.create_task(
            self._listen_to_project(client, project_id), name="project-listener"
        )

    @property
    def listening_to(self) -> str | None:
        """The project whose notifications the app listens to now (keeping it open)."""
        listener = self._project_listener
        return self._listened_project if listener is not None and not listener.done() else None

    async def _listen_to_project(self, client: Gns3Client, project_id: str) -> None:
        if self.external_auth is not None:
            client.token = self.external_auth.token()
        stream = client.project_notifications(project_id, backoff=LISTEN_BACKOFF)
        try:
            async for notification in stream:
                if notification.action in ("project.closed", "project.deleted"):
                    return  # closed by GNS3 or by someone else: the controller stream says so
        except CopilotError as exc:  # the project went away, or the login did
            log.info("stopped listening to project %s: %s", project_id, exc.user_message)
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()

    async def remember_project(self, project_id: str | None) -> None:
        """Save the project shown last, so the next start prefers it."""
        if self.settings.last_project_id != project_id:
            self.settings.last_project_id = project_id
            await self.save_settings()

    # --- agent services ---------------------------------------------------------------------

    @property
    def manager(self) -> ProjectAgentManager:
        """The per-project agent services of the current server (created on first use).

        Raises `ServicesClosedError` once the workspace is closed: a request that was waiting
        (for the server, for a login) when the app closed must not open a database nobody would
        ever close again."""
        if self._closed:
            raise ServicesClosedError("The copilot is closing.")
        if self._manager is None:
            from gns3_copilot_desktop.core.agent.manager import ProjectAgentManager

            self._manager = ProjectAgentManager(self._open_service)
        return self._manager

    async def service(self, project_id: str) -> AgentService:
        """The agent service of a project of the current server."""
        if self._closed:
            raise ServicesClosedError("The copilot is closing.")
        await self.follow_external_server()
        self.require_client()
        return await self.manager.get(project_id)

    async def _open_service(self, project_id: str) -> AgentService:
        """The project's agent service over its databases in the app's data folder; databases
        an older version kept in the project folder are moved there first (what the user must
        be told is added to the store's notices)."""
        from gns3_copilot_desktop.core.agent.service import AgentService
        from gns3_copilot_desktop.core.sessions.location import (
            is_local_server,
            legacy_dir,
            resolve_db_path,
        )
        from gns3_copilot_desktop.core.sessions.migration import migrate_project_databases

        db_path = await asyncio.to_thread(
            resolve_db_path, self.server_url, project_id, self.paths.data_dir
        )
        owner_key = await self.secrets.database_key()
        legacy = None
        if is_local_server(self.server_url):
            legacy = legacy_dir(await self._project_path(project_id))
        moved: list[MigrationNotice] = []
        if legacy is not None:
            moved = await asyncio.to_thread(
                migrate_project_databases, legacy, db_path.parent, owner_key
            )
        log.info("opening the sessions of project %s", project_id)
        service = await AgentService.open(
            db_path,
            project_id=project_id,
            tools=self.tools(),
            owner_key=owner_key,
            trust_unsigned=True,  # the app's private folder: nothing shared arrives there
        )
        service.store.notices[:0] = [migration_store_notice(n) for n in moved]
        return service

    def tools(self) -> ToolRegistry:
        """Every tool the app ships: read, change, capture and device tools (built once)."""
        if self._tools is None:
            from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
            from gns3_copilot_desktop.core.agent.tools.network import network_registry

            access = DeviceAccess(
                secret_store=self.secrets,
                refused_patterns=lambda: self.settings.device_refused_patterns,
                console_logins=lambda: self.settings.console_logins,
            )
            self._tools = network_registry(access)
        return self._tools

    def config_pusher(self, project_id: str) -> ConfigPusher | None:
        """Pushes lines to a node of the project outside a run (a restore the user approved),
        with the agent's console rules and logins; None when not logged in."""
        from gns3_copilot_desktop.core.agent.tools.device_tools import (
            ConfigureDevicesTool,
            DirectConsoleContext,
        )

        client = self.client
        tool = self.tools().get("configure_devices")
        if client is None or not isinstance(tool, ConfigureDevicesTool):
            return None
        where = DirectConsoleContext(client, project_id, self.server_url)

        async def push(node: Node, lines: Sequence[str]) -> DeviceOutcome:
            return await tool.push_lines(where, node, lines)

        return push

    async def _project_path(self, project_id: str) -> str | None:
        """The project's folder on the server, or None when the server cannot say.

        A project the server does not know, or a server never connected (no token yet, e.g. the
        self-test), gets its sessions in the app's data folder; other failures are raised.
        """
        client = self.check_login()
        try:
            project = await client.get_project(project_id)
        except (Gns3ConnectionError, Gns3NotFoundError) as exc:
            if isinstance(exc, Gns3ConnectionError) and client.token:
                raise  # a passing failure must not open a second, empty database elsewhere
            log.warning("project %s: %s", project_id, exc.user_message)
            return None
        return project.path

    # --- the model --------------------------------------------------------------------------

    def active_profile(self) -> LlmProfile | None:
        """The LLM profile chosen in the settings (the first one when none is marked)."""
        profiles = self.settings.llm_profiles
        active = self.settings.active_llm_profile
        return next((p for p in profiles if p.id == active), profiles[0] if profiles else None)

    async def llm_config(self) -> LlmConfig:
        """Explicit options > active profile (+ its key from the keyring) > environment."""
        from gns3_copilot_desktop.core.agent.model_factory import resolve_llm_config

        return await resolve_llm_config(
            self.explicit_llm, self.active_profile(), self.secrets.get_api_key, self._env
        )

    async def model_problem(self) -> str | None:
        """Why no model can be used (a sentence for the composer), or None when one can."""
        try:
            await self.llm_config()
        except ModelConfigError as exc:
            return exc.user_message
        return None

    async def chat_model(self) -> tuple[LlmConfig, BaseChatModel]:
        """The configured chat model, built once per configuration."""
        from gns3_copilot_desktop.core.agent.model_factory import create_base_model

        config = await self.llm_config()
        cached = self._model_cache
        if cached is not None and cached[0] == config:
            return cached
        model = await asyncio.to_thread(create_base_model, config)
        self._model_cache = (config, model)
        return config, model

    async def set_active_profile(self, profile_id: str) -> None:
        """Make a profile the one that answers."""
        if any(p.id == profile_id for p in self.settings.llm_profiles):
            self.settings.active_llm_profile = profile_id
            await self.save_settings()

    # --- turns ------------------------------------------------------------------------------

    async def run_context(self, project_id: str) -> RunContext:
        """What one turn needs: the client (fresh token), the model, limits and grants."""
        from gns3_copilot_desktop.core.agent.context import RunContext, limits_for

        await self.follow_external_server()
        client = self.check_login()
        config, model = await self.chat_model()
        return RunContext(
            client=client,
            project_id=project_id,
            model=model,
            server_url=self.server_url,
            limits=limits_for(config, heartbeat_interval_s=self.settings.heartbeat_interval_s),
            always_allow=self.always_allowed(project_id),
            language=self.settings.language,
        )

    def always_allowed(self, project_id: str) -> frozenset[str]:
        """The change tools the user allowed without asking in this project."""
        return frozenset(self.settings.always_allowed(self.server_url, project_id))

    async def grant_always_allow(self, project_id: str, tool_names: list[str]) -> None:
        """Remember "always allow" for these tools in this project (saved at once)."""
        for name in tool_names:
            self.settings.grant_always_allow(self.server_url, project_id, name)
        if tool_names:
            await self.save_settings()

    # --- settings ---------------------------------------------------------------------------

    async def save_settings(self) -> None:
        """Write the settings file (in a worker thread)."""
        await self.settings_store.asave(self.settings)

    async def apply_settings(
        self,
        settings: Settings,
        api_keys: Mapping[str, str | None],
        console_secrets: Mapping[str, DeviceCredential | None] | None = None,
    ) -> None:
        """Adopt edited settings and store/delete the API keys and console logins the user
        changed (secrets go to the keyring only)."""
        for profile_id, key in api_keys.items():
            if key:
                await self.secrets.set_api_key(profile_id, key)
            else:
                await self.secrets.delete_api_key(profile_id)
        for login_id, credential in (console_secrets or {}).items():
            if credential is None:
                await self.secrets.delete_named_credential(login_id)
            else:
                await self.secrets.set_named_credential(login_id, credential)
        self.settings = settings
        self._model_cache = None
        await self.save_settings()

    # --- shutdown ---------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Stop watching, close every agent service and the client."""
        self._closed = True
        await self._stop_watching()
        if self._manager is not None:
            try:
                await self._manager.close()
            except CopilotError as exc:
                log.warning("closing the agent services failed: %s", exc.user_message)
            self._manager = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self._model_cache is not None:
            from gns3_copilot_desktop.core.agent.model_factory import close_chat_model

            await close_chat_model(self._model_cache[1])
            self._model_cache = None


def migration_store_notice(notice: MigrationNotice) -> StoreNotice:
    """A notice of the database move in the store's form (the UI shows the store's notices)."""
    from gns3_copilot_desktop.core.sessions.store import StoreNotice

    texts = {
        "migration_failed": f"The conversations in {notice.path} could not be moved to the app's "
        f"data folder ({notice.reason}); they were left there unchanged.",
        "kept_both": f"The project folder still holds conversations ({notice.path}); the ones "
        "in the app's data folder are used and that file was left as it is.",
        "foreign_in_project": f"The project folder holds conversations from another computer "
        f"({notice.path}); they were not opened and were left as they are.",
    }
    return StoreNotice(notice.kind, texts[notice.kind], notice.path, notice.reason)


STOP_TIMEOUT_S = 5.0
"""How long a notification task may take to end once cancelled."""


async def _end_tasks(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait for them, at most `STOP_TIMEOUT_S`: a task wedged by a nested
    event loop (a modal dialog run inside a coroutine) never ends, and waiting for it without a
    limit kept the process alive after its window closed."""
    pending = [t for t in tasks if not t.done()]
    for task in pending:
        task.cancel()
    if not pending:
        return
    done, stuck = await asyncio.wait(pending, timeout=STOP_TIMEOUT_S)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.info("the task %s had ended: %s", task.get_name(), task.exception())
    for task in stuck:
        log.warning("the task %s did not end when cancelled", task.get_name())
