"""The workspace's agent services: one `AgentService` per project of the current server, the
tools they use, and what one turn needs (`RunContext`).

LangGraph is imported only when the first agent service is needed, so the window shows before
that heavy import happens.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from gns3_copilot_desktop.core.errors import (
    Gns3ConnectionError,
    Gns3NotFoundError,
    ServicesClosedError,
)
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.paths import AppPaths
from gns3_copilot_desktop.core.workspace.following import WorkspaceFollowing
from gns3_copilot_desktop.core.workspace.login import LoginInfo

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.context import RunContext
    from gns3_copilot_desktop.core.agent.manager import ProjectAgentManager
    from gns3_copilot_desktop.core.agent.service import AgentService
    from gns3_copilot_desktop.core.agent.tools import ToolRegistry
    from gns3_copilot_desktop.core.agent.tools.device_tools import (
        ConfigureDevicesTool,
        DirectConsoleContext,
    )
    from gns3_copilot_desktop.core.agent.topology_cache import TopologyCache
    from gns3_copilot_desktop.core.devices.batch import DeviceOutcome
    from gns3_copilot_desktop.core.devices.console_data import DeviceCredentials
    from gns3_copilot_desktop.core.sessions.migration import MigrationNotice
    from gns3_copilot_desktop.core.sessions.store import StoreNotice
    from gns3_copilot_desktop.core.undo.apply import ConfigPusher

log = logging.getLogger(__name__)


class WorkspaceAgents(WorkspaceFollowing):
    """The agent services of the current server's projects, and the context of their turns."""

    paths: AppPaths
    _tools: ToolRegistry | None
    _topology: TopologyCache | None

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
        found = self._console_tool(project_id)
        if found is None:
            return None
        tool, where = found

        async def push(node: Node, lines: Sequence[str]) -> DeviceOutcome:
            return await tool.push_lines(where, node, lines)

        return push

    def console_logins_for(
        self, project_id: str
    ) -> Callable[[Node], Awaitable[DeviceCredentials | None]] | None:
        """Each node's console login in the project, as the agent's device tools find it (the
        node's own saved login, else the settings' login for its name or template); None when
        not logged in. Practice reads and changes a router's shell with it."""
        found = self._console_tool(project_id)
        if found is None:
            return None
        tool, where = found

        async def login(node: Node) -> DeviceCredentials | None:
            return await tool.access.credentials_for(where, node)

        return login

    def _console_tool(
        self, project_id: str
    ) -> tuple[ConfigureDevicesTool, DirectConsoleContext] | None:
        """The configuration tool and the project's consoles outside a run (None when not
        logged in)."""
        from gns3_copilot_desktop.core.agent.tools.device_tools import (
            ConfigureDevicesTool,
            DirectConsoleContext,
        )

        client = self.client
        tool = self.tools().get("configure_devices")
        if client is None or not isinstance(tool, ConfigureDevicesTool):
            return None
        return tool, DirectConsoleContext(client, project_id, self.server_url)

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
            topology_cache=self._topology_cache(),
        )

    def _topology_cache(self) -> TopologyCache:
        """The login's topology summaries (see `TopologyCache`), made on first use."""
        if self._topology is None:
            from gns3_copilot_desktop.core.agent.topology_cache import TopologyCache

            self._topology = TopologyCache()
        return self._topology

    async def _close_topology(self) -> None:
        """End the cache's notification watches (they hold the login's token)."""
        if self._topology is not None:
            topology, self._topology = self._topology, None
            await topology.close()

    def always_allowed(self, project_id: str) -> frozenset[str]:
        """The change tools the user allowed without asking in this project."""
        return frozenset(self.settings.always_allowed(self.server_url, project_id))

    async def grant_always_allow(self, project_id: str, tool_names: list[str]) -> None:
        """Remember "always allow" for these tools in this project (saved at once)."""
        for name in tool_names:
            self.settings.grant_always_allow(self.server_url, project_id, name)
        if tool_names:
            await self.save_settings()

    async def _switch_login(self, client: Gns3Client | None, login: LoginInfo | None) -> None:
        """The old login's notification tasks and agent services end before its client does."""
        await self._stop_watching()
        await self._close_topology()
        if self._manager is not None:
            await self._manager.close()
            self._manager = None
        await super()._switch_login(client, login)


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
