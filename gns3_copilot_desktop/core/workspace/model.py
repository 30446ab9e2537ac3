"""The workspace's settings and chat model: which LLM answers, built once per configuration.

The model is resolved as explicit options > the active profile (its key from the keyring) >
the environment. LangChain is imported only when the first model is needed, so the window shows
before that heavy import happens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gns3_copilot_desktop.core.errors import ModelConfigError
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from gns3_copilot_desktop.core.settings import LlmProfile, Settings, SettingsStore

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from gns3_copilot_desktop.core.agent.model_factory import LlmConfig


class WorkspaceModel:
    """The settings file, the secrets it points to, and the chat model they configure."""

    settings_store: SettingsStore
    settings: Settings
    secrets: SecretStore
    explicit_llm: dict[str, Any] | None
    _env: dict[str, str]
    _model_cache: tuple[LlmConfig, BaseChatModel] | None

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

    async def _close_model(self) -> None:
        if self._model_cache is not None:
            from gns3_copilot_desktop.core.agent.model_factory import close_chat_model

            await close_chat_model(self._model_cache[1])
            self._model_cache = None
