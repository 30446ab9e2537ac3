"""`ModelSettings`: the header's settings dialog, the composer's model picker and its state.

It opens the settings dialog (with the actions it may ask for: a connection test, the local
model servers, the stored API keys) and applies what was saved at once; it fills the composer's
model picker from the LLM profiles (or the command line's model) and disables the composer with
the reason when the user is not logged in, has no project or no model — with a link to what
fixes it, and the typed text kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from PyQt6.QtCore import QCoreApplication, QObject

from gns3_copilot_desktop.core.agent.local_servers import LocalServer as LocalModelServer
from gns3_copilot_desktop.core.agent.local_servers import (
    detect_local_servers,
    served_context_window,
)
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.settings import LlmProfile
from gns3_copilot_desktop.ui.core_text import core_text
from gns3_copilot_desktop.ui.qt_async import spawn
from gns3_copilot_desktop.ui.settings.dialog import SettingsActions, SettingsDialog

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.header.header import CopilotHeader

EXPLICIT_MODEL_ID = "command-line"
"""The model picker's entry for the model given on the command line (not a profile id)."""


class ModelSettings(QObject):
    """The settings dialog, the model picker and whether the composer may send."""

    def __init__(self, header: CopilotHeader) -> None:
        super().__init__(header)
        self.header = header
        self.settings_dialog: SettingsDialog | None = None

    # --- the model picker -------------------------------------------------------------------

    def fill_models(self) -> None:
        """The composer's model picker from the profiles, the active one in the status line."""
        workspace, panel = self.header.workspace, self.header.panel
        settings = workspace.settings
        explicit = workspace.explicit_llm
        if explicit and not settings.llm_profiles:
            # Only a command-line model (--model-base-url): it answers, so the picker shows it.
            panel.composer.set_models([(EXPLICIT_MODEL_ID, _explicit_label(explicit))])
            panel.status.set_model(
                str(explicit.get("model") or ""),
                str(explicit.get("provider") or ""),
                str(explicit["base_url"]) if explicit.get("base_url") else None,
            )
            return
        models = [(p.id, p.name or p.model) for p in settings.llm_profiles]
        active = workspace.active_profile()
        panel.composer.set_models(models, active.id if active else None)
        self._show_model_in_status()

    def _show_model_in_status(self) -> None:
        active = self.header.workspace.active_profile()
        if active is None:
            self.header.panel.status.set_model("")
        else:
            self.header.panel.status.set_model(active.model, active.provider, active.base_url)

    async def model_picked(self, profile_id: str) -> None:
        """The user chose another model in the composer."""
        await self.header.workspace.set_active_profile(profile_id)
        self._show_model_in_status()
        await self.update_composer()

    # --- the composer's state ---------------------------------------------------------------

    async def update_composer(self) -> None:
        """Enable the composer, or disable it with the reason (typed text is kept) and a link
        to what fixes it (the login, the model settings)."""
        header = self.header
        problem = await self.composer_problem()
        await self._update_checklist()
        fix = None
        if problem is not None and not header.workspace.logged_in and not header.external:
            fix = "login"
        elif problem is not None and header.workspace.logged_in and header.backend.project_id:
            fix = "settings"
        header.panel.composer.set_disabled_reason(problem, fix)

    async def _update_checklist(self) -> None:
        """The empty chat's first-run steps, ticked as they are done."""
        header = self.header
        logged_in = header.workspace.logged_in or header.external
        model_ready = header.backend.is_remote or await header.workspace.model_problem() is None
        header.panel.view.set_checklist(
            logged_in, model_ready, header.backend.project_id is not None
        )

    async def composer_problem(self) -> str | None:
        """Why the user cannot send now, or None."""
        header = self.header
        if not header.workspace.logged_in:
            if header.external:
                return QCoreApplication.translate(
                    "CopilotHeader", "Connect GNS3 to its server to use the copilot."
                )
            return QCoreApplication.translate(
                "CopilotHeader", "Log in to the GNS3 server to chat with the copilot."
            )
        if header.backend.project_id is None:
            return QCoreApplication.translate(
                "CopilotHeader", "Open a project in GNS3 (or choose one above) to chat about it."
            )
        if header.backend.is_remote:
            return None  # the copilot service answers with its own model
        problem = await header.workspace.model_problem()
        return core_text(problem) if problem is not None else None

    # --- the settings dialog ----------------------------------------------------------------

    def open_settings(self) -> SettingsDialog:
        """Show the settings dialog; saved changes apply at once."""
        actions = SettingsActions(
            test_connection=self._test_connection,
            list_ollama_models=_list_ollama_models,
            load_api_key=self.header.workspace.secrets.get_api_key,
            detect_local_servers=_detect_local_servers,
        )
        dialog = SettingsDialog(self.header.workspace.settings, actions, self.header.window())
        dialog.accepted.connect(lambda: spawn(self._settings_saved(dialog), name="save-settings"))
        self.settings_dialog = dialog
        dialog.open()
        return dialog

    async def _settings_saved(self, dialog: SettingsDialog) -> None:
        header = self.header
        outcome = dialog.outcome
        if outcome is None:
            return
        try:
            await header.workspace.apply_settings(
                outcome.settings, outcome.api_keys, outcome.console_secrets
            )
        except CopilotError as exc:
            header.show_message(exc.user_message, error=True)
        self.fill_models()
        if await header.backend.apply_settings():
            await self._switch_backend()
        header.panel.classroom_toggle.follow_backend()
        await self.update_composer()

    async def _switch_backend(self) -> None:
        """The agent now runs elsewhere (this computer or a copilot service): its sessions."""
        header = self.header
        header.panel.stop()
        header.projects.clear_panel()
        if header.backend.project_id is not None and header.workspace.logged_in:
            await header.projects.reload_panel()

    async def _test_connection(self, profile: LlmProfile, api_key: str | None) -> str:
        from gns3_copilot_desktop.core.agent.model_factory import (
            check_tool_support,
            create_base_model,
            resolve_llm_config,
        )

        secrets = self.header.workspace.secrets

        async def lookup(profile_id: str) -> str | None:
            return api_key or await secrets.get_api_key(profile_id)

        config = await resolve_llm_config(None, profile, lookup, {})
        model = await asyncio.to_thread(create_base_model, config)
        report = await check_tool_support(model)
        translate = QCoreApplication.translate
        lines = [
            translate("CopilotHeader", "{model} answers.").format(model=config.label),
            translate("CopilotHeader", "Calls tools: yes.")
            if report.calls_tools
            else translate("CopilotHeader", "Calls tools: it accepted them but answered in text."),
            translate("CopilotHeader", "Streams tool calls: yes.")
            if report.streams_tool_calls
            else translate("CopilotHeader", "Streams tool calls: no (asked without streaming)."),
        ]
        lines.append(window_text(config.context_window, await served_context_window(config)))
        return " ".join(lines)


def _explicit_label(explicit: Mapping[str, Any]) -> str:
    """``model @ host:port (command line)`` for the picker."""
    name = str(explicit.get("model") or "?")
    base_url = explicit.get("base_url")
    where = urlsplit(str(base_url)).netloc if base_url else ""
    if where:
        name = f"{name} @ {where}"
    return QCoreApplication.translate("CopilotHeader", "{model} (command line)").format(model=name)


def window_text(configured: int | None, served: int | None) -> str:
    """Test connection's line on the context window, saying where the figure comes from."""
    translate = QCoreApplication.translate
    if served is not None:
        text = translate(
            "CopilotHeader", "Context window: {tokens} tokens (read from the server)."
        ).format(tokens=f"{served:,}")
        if configured is not None and configured != served:
            text += " " + translate(
                "CopilotHeader", "The profile says {tokens}: set it to what the server runs."
            ).format(tokens=f"{configured:,}")
        return text
    if configured is not None:
        return translate(
            "CopilotHeader",
            "Context window: {tokens} tokens (the profile's setting; not read from the server).",
        ).format(tokens=f"{configured:,}")
    return translate(
        "CopilotHeader",
        "Context window: unknown (the server does not say it; 128,000 tokens assumed).",
    )


async def _detect_local_servers(typed_url: str | None) -> list[LocalModelServer]:
    return await detect_local_servers(typed_url=typed_url)


async def _list_ollama_models(host: str | None) -> list[str]:
    from gns3_copilot_desktop.core.agent.model_factory import (
        OLLAMA_DEFAULT_HOST,
        list_ollama_models,
    )

    return await list_ollama_models(host or OLLAMA_DEFAULT_HOST)
