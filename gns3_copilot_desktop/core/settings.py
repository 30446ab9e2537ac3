"""Non-secret settings: the `Settings` model and `SettingsStore` (one JSON file).

The file is versioned (``version``; `MIGRATIONS` upgrades older files step by step), written
atomically (temp file in the same folder, fsync, ``os.replace``), and a file that cannot be used
(bad JSON, wrong types, a version newer than this app) is moved aside to
``settings.json.corrupt-<timestamp>`` with a message, and defaults are used: loading never fails.

Secrets never live here. The model has no key/password/token fields (checked at import), input
carrying such fields is refused, a file that has them is cleaned on load, and `save()` refuses
anything that looks like a JWT or an API key. Keys and tokens go to `core.secrets.SecretStore`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from gns3_copilot_desktop.core.errors import SettingsError
from gns3_copilot_desktop.core.logs import looks_like_secret

log = logging.getLogger(__name__)

CURRENT_VERSION = 2
_SECRET_NAME = re.compile(r"(?i)(api_?key|password|passwd|secret|token|credential)")
# Field names that contain a secret-looking word but hold no secret.
_ALLOWED_NAMES = frozenset({"max_tokens"})

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def normalize_server_url(url: str) -> str:
    """One spelling per GNS3 server: scheme and host lower case, default port, no path or slash.

    ``HTTP://Host:80/v3/`` -> ``http://host``; a missing scheme means ``http``.
    """
    text = url.strip()
    if "://" not in text:
        text = f"http://{text}"
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    port = parts.port
    default_port = {"http": 80, "https": 443}.get(scheme)
    netloc = host if port in (None, default_port) else f"{host}:{port}"
    path = parts.path.rstrip("/")
    if path.endswith("/v3"):
        path = path[: -len("/v3")]
    return urlunsplit((scheme, netloc, path, "", ""))


def normalize_service_url(url: str) -> str:
    """A copilot service's URL: ``http(s)://host[:port][/path]`` without a trailing slash.

    ValueError when it is not one (another scheme, no host, a query or user info in it).
    """
    text = url.strip()
    if "://" not in text:
        text = f"http://{text}"
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    try:
        host = parts.hostname
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise ValueError(f"not a URL: {url!r}") from exc
    if scheme not in ("http", "https") or not host or parts.query or parts.username:
        raise ValueError(f"not an http(s) URL of a copilot service: {url!r}")
    return urlunsplit((scheme, parts.netloc.lower(), parts.path.rstrip("/"), "", ""))


# Where nested settings objects sit in the raw file (their own keys are field names too).
_NESTED_LISTS = ("servers", "llm_profiles")
_NESTED_OBJECTS = ("window_state",)


def _secret_names(data: dict[str, Any]) -> list[str]:
    """The keys of one settings object that name a secret."""
    return [key for key in data if isinstance(key, str) and _is_secret_name(key)]


def _scrub_raw(raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """`raw` without secret-named fields (at the model's field levels), and their dotted paths.

    Only field names are looked at: keys of user data such as `always_allow` are URLs, not fields.
    """
    removed = [*_secret_names(raw)]
    cleaned = {k: v for k, v in raw.items() if k not in removed}
    for name in _NESTED_OBJECTS:
        value = cleaned.get(name)
        if isinstance(value, dict):
            bad = _secret_names(value)
            removed.extend(f"{name}.{key}" for key in bad)
            cleaned[name] = {k: v for k, v in value.items() if k not in bad}
    for name in _NESTED_LISTS:
        items = cleaned.get(name)
        if not isinstance(items, list):
            continue
        new_items: list[Any] = []
        for index, item in enumerate(items):
            if isinstance(item, dict):
                bad = _secret_names(item)
                removed.extend(f"{name}.{index}.{key}" for key in bad)
                item = {k: v for k, v in item.items() if k not in bad}
            new_items.append(item)
        cleaned[name] = new_items
    return cleaned, removed


def _is_secret_name(name: str) -> bool:
    return name not in _ALLOWED_NAMES and _SECRET_NAME.search(name) is not None


class _NoSecrets(BaseModel):
    """Base of every settings model: unknown fields and secret-named fields are refused."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, hide_input_in_errors=True)

    @model_validator(mode="before")
    @classmethod
    def _refuse_secret_fields(cls, data: Any) -> Any:
        names = _secret_names(data) if isinstance(data, dict) else []
        if names:
            raise ValueError(
                f"settings must not hold secrets ({', '.join(names)}); use the OS keyring"
            )
        return data


class ConsoleLogin(_NoSecrets):
    """A saved device console login. Its password and enable secret are in the OS keyring
    under ``id``; here only what it applies to."""

    id: str = Field(min_length=1, max_length=64)
    applies_to: str = Field(min_length=1, max_length=200)
    """A node name, or ``template:<template name>`` for every node made from that template."""
    username: str = ""

    def matches(self, node_name: str, template_name: str | None) -> bool:
        """Whether this login is the one for a node of that name (made from that template)."""
        target = self.applies_to.strip().lower()
        if target.startswith("template:"):
            wanted = target.removeprefix("template:").strip()
            return template_name is not None and template_name.strip().lower() == wanted
        return node_name.strip().lower() == target


class ServerProfile(_NoSecrets):
    """A GNS3 server the user signs in to. The JWT lives in the keyring, keyed by url+username."""

    url: str
    username: str | None = None
    ca_cert: Path | None = Field(
        default=None, description="Trusted CA/self-signed certificate (PEM) for an HTTPS server."
    )


class LlmProfile(_NoSecrets):
    """A model configuration. Its API key lives in the keyring, keyed by `id`."""

    id: str
    name: str
    provider: str
    model: str
    base_url: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    context_window: int | None = None
    timeout_s: float | None = None
    server: str | None = None
    """The server software of a local model (``llama_cpp``, ``llama_cpp_python``, ``ollama``,
    ``lm_studio``: its row of the model factory's quirks), found by "Detect local models"."""


class WindowState(_NoSecrets):
    """Qt's saveGeometry()/saveState() as base64 text, restored at start."""

    geometry: str | None = None
    state: str | None = None


class Settings(_NoSecrets):
    """Everything the app remembers between runs, except secrets."""

    version: int = CURRENT_VERSION
    servers: list[ServerProfile] = Field(default_factory=list)
    current_server: str | None = None
    last_project_id: str | None = None
    window_state: WindowState = Field(default_factory=WindowState)
    llm_profiles: list[LlmProfile] = Field(default_factory=list)
    active_llm_profile: str | None = None
    heartbeat_interval_s: float = Field(default=15.0, ge=0, description="0 disables heartbeats.")
    always_allow: dict[str, list[str]] = Field(
        default_factory=dict, description="'server_url|project_id' -> tool names run unasked."
    )
    compact_tool_cards: bool = False
    language: str | None = None
    last_folders: dict[str, str] = Field(
        default_factory=dict,
        description="File kind ('sessions', 'exercises') -> the folder its dialogs used last.",
    )
    console_logins: list[ConsoleLogin] = Field(default_factory=list)
    copilot_service_url: str | None = None
    """Where the agent runs: None on this computer, else the http(s) URL of a copilot service
    (``gns3-copilot serve``) that the dock uses with the user's GNS3 login."""
    copilot_service_ca_file: str | None = None
    """A PEM file of the CA that signed an HTTPS copilot service's certificate (a school's own
    CA); None: the system's trusted certificates."""
    device_refused_patterns: list[str] = Field(
        default_factory=list,
        description="Regular expressions of device commands never sent (added to the built-in "
        "list of destructive commands).",
    )

    trusted_trainer_keys: dict[str, str] = Field(
        default_factory=dict,
        description="Trainer name -> the Ed25519 public key (base64) their exercise files must "
        "be signed with, pinned on the first import.",
    )

    @field_validator("copilot_service_url")
    @classmethod
    def _service_url(cls, value: str | None) -> str | None:
        return None if value is None else normalize_service_url(value)

    def grant_always_allow(self, server_url: str, project_id: str, tool_name: str) -> None:
        """Let `tool_name` run without asking in this project of this server."""
        key = always_allow_key(server_url, project_id)
        tools = self.always_allow.get(key, [])
        if tool_name not in tools:
            self.always_allow = {**self.always_allow, key: [*tools, tool_name]}

    def revoke_always_allow(self, server_url: str, project_id: str, tool_name: str) -> None:
        """Ask again before `tool_name` runs in this project (no-op when it was not granted)."""
        key = always_allow_key(server_url, project_id)
        tools = [name for name in self.always_allow.get(key, []) if name != tool_name]
        rest = {k: v for k, v in self.always_allow.items() if k != key}
        self.always_allow = {**rest, key: tools} if tools else rest

    def always_allowed(self, server_url: str, project_id: str) -> list[str]:
        """The tools granted "always allow" in this project, in the order they were granted."""
        return list(self.always_allow.get(always_allow_key(server_url, project_id), []))

    def is_always_allowed(self, server_url: str, project_id: str, tool_name: str) -> bool:
        """True when `tool_name` may run unasked in this project."""
        return tool_name in self.always_allow.get(always_allow_key(server_url, project_id), [])


def always_allow_key(server_url: str, project_id: str) -> str:
    """The `Settings.always_allow` key of a project: ``<normalised url>|<project id>``."""
    return f"{normalize_server_url(server_url)}|{project_id}"


def _migrate_0_to_1(data: dict[str, Any]) -> dict[str, Any]:
    # Files written before versioning had the same shape without the field.
    return {**data, "version": 1}


def _migrate_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    # Conversations always live in the app's data folder now (a GNS3 snapshot of the project
    # folder must not rewind them): the choice to keep them in the project folder is gone.
    return {k: v for k, v in data.items() if k != "conversations_in_project"}


# MIGRATIONS[n] turns a version-n dict into a version-(n+1) dict.
MIGRATIONS: dict[int, Migration] = {0: _migrate_0_to_1, 1: _migrate_1_to_2}


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """Upgrade a raw settings dict to `CURRENT_VERSION`; ValueError if it cannot be."""
    version = data.get("version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValueError(f"the version field is not a valid number: {version!r}")
    if version > CURRENT_VERSION:
        raise ValueError(
            f"it was written by a newer version of GNS3 Copilot (settings version {version}, "
            f"this app reads up to {CURRENT_VERSION})"
        )
    while version < CURRENT_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["version"] = version
    return data


@dataclass(frozen=True)
class LoadResult:
    """The loaded settings; `recovered_from`/`message` say when a bad file was moved aside."""

    settings: Settings
    recovered_from: Path | None = None
    message: str | None = None


class SettingsStore:
    """Reads and writes `Settings` at `path`. Sync (a small file); `aload`/`asave` use a thread."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> LoadResult:
        """The settings in the file, or defaults (never raises for a bad or missing file)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return LoadResult(Settings())
        except (OSError, UnicodeDecodeError) as exc:
            return self._recover(f"it could not be read ({exc})")
        try:
            raw = json.loads(text)
            if not isinstance(raw, dict):
                raise ValueError("it does not hold a JSON object")
            cleaned, secret_keys = _scrub_raw(raw)
            settings = Settings.model_validate(migrate(cleaned))
        except json.JSONDecodeError as exc:
            return self._recover(f"it is not valid JSON ({exc})")
        except ValidationError as exc:
            return self._recover(f"some values have the wrong type ({_short(exc)})")
        except ValueError as exc:
            return self._recover(str(exc))
        if secret_keys:
            return self._scrub(settings, secret_keys)
        return LoadResult(settings)

    def save(self, settings: Settings) -> None:
        """Write `settings` atomically; SettingsError when it cannot (the old file stays intact)."""
        text = settings.model_dump_json(indent=2)
        if looks_like_secret(text):
            raise SettingsError(
                "Settings were not saved: a value looks like a token or API key, and secrets "
                "belong in the OS keyring, not in the settings file."
            )
        try:
            _atomic_write(self.path, text + "\n")
        except OSError as exc:
            raise SettingsError(f"Could not save the settings to {self.path}: {exc}") from exc

    async def aload(self) -> LoadResult:
        """`load()` in a worker thread, for the UI's event loop."""
        return await asyncio.to_thread(self.load)

    async def asave(self, settings: Settings) -> None:
        """`save()` in a worker thread, for the UI's event loop."""
        await asyncio.to_thread(self.save, settings)

    def _recover(self, reason: str) -> LoadResult:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        counter = 1
        while target.exists():
            counter += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{counter}")
        try:
            os.replace(self.path, target)
        except OSError as exc:
            message = (
                f"The settings file {self.path} could not be used because {reason}, and it "
                f"could not be moved aside ({exc}). Default settings are used for this session."
            )
            log.warning("%s", message)
            return LoadResult(Settings(), None, message)
        message = (
            f"The settings file could not be used because {reason}. It was moved to {target} "
            "and default settings are used."
        )
        log.warning("%s", message)
        return LoadResult(Settings(), target, message)

    def _scrub(self, settings: Settings, keys: list[str]) -> LoadResult:
        message = (
            f"The settings file held secret fields ({', '.join(keys)}); they were removed. "
            "Enter keys and passwords again: they are kept in the OS keyring."
        )
        log.warning("%s", message)
        try:
            self.save(settings)
        except SettingsError as exc:
            message = f"{message} Rewriting the file failed: {exc}"
        return LoadResult(settings, None, message)


def _short(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "settings"
    more = f" and {exc.error_count() - 1} more" if exc.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def _atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` so that a crash leaves either the old or the new file, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable on POSIX; directories cannot be opened on Windows.
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_no_secret_fields(model: type[BaseModel]) -> None:
    """Fail at import if someone adds a key/password/token field to a settings model."""
    for name, field in model.model_fields.items():
        if _is_secret_name(name):
            raise TypeError(f"{model.__name__}.{name}: secrets belong in the OS keyring")
        annotation = field.annotation
        for candidate in getattr(annotation, "__args__", (annotation,)):
            if isinstance(candidate, type) and issubclass(candidate, BaseModel):
                _check_no_secret_fields(candidate)


_check_no_secret_fields(Settings)
