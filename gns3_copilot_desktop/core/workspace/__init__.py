"""The app's services and state, without Qt: the one object the UI talks to for everything but chat.

`Workspace` owns the settings (file + model), the secret store, the `Gns3Client` of the current
server and who is logged in, the `ProjectFollower` of that server, and the `ProjectAgentManager`
(one `AgentService` per project). Its duties live in layers beside this module, each building
on the one below: `model` (settings and the chat model), `login` (server, client, login),
`following` (notifications and the project kept open), `agents` (per-project services and turns).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from typing import Any

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.paths import AppPaths
from gns3_copilot_desktop.core.project_follower import ProjectFollower
from gns3_copilot_desktop.core.secrets import SecretStore
from gns3_copilot_desktop.core.settings import Settings, SettingsStore, normalize_server_url
from gns3_copilot_desktop.core.workspace.agents import WorkspaceAgents
from gns3_copilot_desktop.core.workspace.login import TokenSource

log = logging.getLogger(__name__)


class Workspace(WorkspaceAgents):
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
        self._client = None
        self._login = None
        self._manager = None
        self._model_cache = None
        self._watcher = None
        self._project_listener = None
        self._listened_project = None
        self._closed = False
        self._tools = None
        self._topology = None
        self.follower = ProjectFollower(pinned=None)
        if external_auth is not None:
            self._client = self._gui_client(external_auth)

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

    # --- shutdown ---------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Stop watching, close every agent service and the client."""
        self._closed = True
        await self._stop_watching()
        await self._close_topology()
        if self._manager is not None:
            try:
                await self._manager.close()
            except CopilotError as exc:
                log.warning("closing the agent services failed: %s", exc.user_message)
            self._manager = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        await self._close_model()
