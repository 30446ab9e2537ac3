"""The secret store: GNS3 JWTs, LLM API keys and device logins in the OS keyring.

`SecretStore` is the only module that talks to ``keyring``. Every keyring call runs in a worker
thread (Secret Service calls take 60-90 ms each) and its failures (locked keyring, dismissed unlock
prompt, D-Bus errors) become `SecretStoreError`. Each secret read or stored is registered with the
log redaction filter.

When the OS offers no usable keyring (keyring's ``fail``/``null`` backends, a chainer with nothing
behind it, or a file-based backend such as keyrings.alt's plaintext/encrypted files), the store
keeps secrets in memory for this session only, sets ``persistent`` to False and explains why in
``warning``. It never writes a secret to a file.

Keys: a JWT per (normalised server URL, username), an API key per LLM profile id, a device login
per (server, project, node) or under a name the user chose, a trainer's exercise signing key per
trainer name.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import keyring
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null
from keyring.errors import InitError, KeyringLocked, PasswordDeleteError

from gns3_copilot_desktop.core.errors import SecretStoreError
from gns3_copilot_desktop.core.logs import redact, register_secret
from gns3_copilot_desktop.core.settings import normalize_server_url

log = logging.getLogger(__name__)

SERVICE_PREFIX = "gns3-copilot"
# keyring backends that keep secrets in a file next to the user's data: never used.
_FILE_BACKEND_MODULES = ("keyrings.alt", "keyrings.cryptfile")
_FILE_BACKEND_NAMES = ("PlaintextKeyring", "EncryptedKeyring")


@dataclass(frozen=True)
class DeviceCredential:
    """A console login (telnet/SSH) for a device. The password never shows in repr()."""

    username: str
    password: str = field(repr=False)
    enable_secret: str = field(default="", repr=False)


@dataclass(frozen=True)
class _Entry:
    """Where one secret lives in the keyring, and how to name it in messages."""

    service: str
    username: str
    what: str


@dataclass(frozen=True)
class BackendChoice:
    """The keyring backend the store uses, or None with the reason secrets are memory-only."""

    backend: KeyringBackend | None
    reason: str | None


def choose_backend(candidate: KeyringBackend) -> BackendChoice:
    """Accept `candidate` when it keeps secrets safely, else say why not (no I/O but a probe)."""
    if isinstance(candidate, chainer.ChainerBackend):
        return _choose_from_chain(list(candidate.backends))
    if isinstance(candidate, fail.Keyring | null.Keyring):
        return BackendChoice(None, _no_keyring_reason())
    if _is_file_backend(candidate):
        return BackendChoice(None, _file_backend_reason(candidate))
    try:
        priority = float(type(candidate).priority)
    except Exception as exc:  # keyring's contract: priority raises when the backend is unusable
        return BackendChoice(None, f"No OS keyring is available ({exc})")
    if priority < 1:
        return BackendChoice(
            None, f"The only keyring available ({_backend_name(candidate)}) is not a secure one"
        )
    return BackendChoice(candidate, None)


def _choose_from_chain(backends: list[KeyringBackend]) -> BackendChoice:
    reasons: list[str] = []
    for backend in sorted(backends, key=_priority, reverse=True):
        choice = choose_backend(backend)
        if choice.backend is not None:
            return choice
        if choice.reason:
            reasons.append(choice.reason)
    file_reasons = [r for r in reasons if r.startswith("Only a file-based")]
    return BackendChoice(None, file_reasons[0] if file_reasons else _no_keyring_reason())


def _priority(backend: KeyringBackend) -> float:
    try:
        return float(type(backend).priority)
    except Exception:  # keyring's contract: priority raises when the backend is unusable
        return float("-inf")


def _is_file_backend(backend: KeyringBackend) -> bool:
    cls = type(backend)
    return cls.__module__.startswith(_FILE_BACKEND_MODULES) or any(
        klass.__name__ in _FILE_BACKEND_NAMES for klass in cls.__mro__
    )


def _backend_name(backend: KeyringBackend) -> str:
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def _file_backend_reason(backend: KeyringBackend) -> str:
    return (
        f"Only a file-based keyring ({_backend_name(backend)}) is available, and secrets are "
        "never written to files"
    )


def _keyring_hint() -> str:
    from gns3_copilot_desktop.core.platform import detect_platform

    return detect_platform().keyring_hint


def _no_keyring_reason() -> str:
    # The running system's keyring by name (Secret Service, Keychain, Credential Manager).
    from gns3_copilot_desktop.core.platform import detect_platform

    return detect_platform().no_keyring_reason


class SecretStore:
    """Async access to secrets in the OS keyring (or in memory when there is none).

    Pass `backend` to choose the keyring explicitly (tests); by default keyring's own choice is
    used, which probes D-Bus on Linux: build it with `await SecretStore.open()` on the event loop.
    """

    def __init__(self, backend: KeyringBackend | None = None) -> None:
        candidate = backend if backend is not None else keyring.get_keyring()
        choice = choose_backend(candidate)
        self._backend = choice.backend
        self._memory: dict[tuple[str, str], str] = {}
        self.persistent: bool = choice.backend is not None
        self.warning: str | None = None
        if choice.backend is None:
            self.warning = (
                f"{choice.reason}, so passwords, tokens and API keys are kept in memory only "
                "and will not be remembered after the app closes."
            )
            log.warning("%s", self.warning)

    @classmethod
    async def open(cls) -> SecretStore:
        """The store over keyring's default backend, chosen in a worker thread."""
        return await asyncio.to_thread(cls)

    @property
    def backend_name(self) -> str:
        """The keyring backend in use, or "memory" when secrets are not persisted."""
        return _backend_name(self._backend) if self._backend is not None else "memory"

    # --- GNS3 JWTs -------------------------------------------------------------------------

    async def get_jwt(self, server_url: str, username: str) -> str | None:
        """The saved JWT of `username` on the server, or None."""
        return await self._get(_jwt_entry(server_url, username))

    async def set_jwt(self, server_url: str, username: str, token: str) -> None:
        """Remember the JWT of `username` on the server."""
        await self._set(_jwt_entry(server_url, username), token)

    async def delete_jwt(self, server_url: str, username: str) -> None:
        """Forget the JWT (no error when there is none)."""
        await self._delete(_jwt_entry(server_url, username))

    # --- LLM API keys ----------------------------------------------------------------------

    async def get_api_key(self, profile_id: str) -> str | None:
        """The API key of an LLM profile, or None."""
        return await self._get(_api_key_entry(profile_id))

    async def set_api_key(self, profile_id: str, api_key: str) -> None:
        """Remember the API key of an LLM profile."""
        await self._set(_api_key_entry(profile_id), api_key)

    async def delete_api_key(self, profile_id: str) -> None:
        """Forget the API key of an LLM profile (no error when there is none)."""
        await self._delete(_api_key_entry(profile_id))

    # --- device logins ---------------------------------------------------------------------

    async def get_node_credential(
        self, server_url: str, project_id: str, node_id: str
    ) -> DeviceCredential | None:
        """The console login saved for one node, or None."""
        return await self._get_credential(_node_entry(server_url, project_id, node_id))

    async def set_node_credential(
        self, server_url: str, project_id: str, node_id: str, credential: DeviceCredential
    ) -> None:
        """Remember the console login of one node."""
        await self._set_credential(_node_entry(server_url, project_id, node_id), credential)

    async def delete_node_credential(self, server_url: str, project_id: str, node_id: str) -> None:
        """Forget the console login of one node (no error when there is none)."""
        await self._delete(_node_entry(server_url, project_id, node_id))

    async def get_named_credential(self, name: str) -> DeviceCredential | None:
        """A login the user saved under `name` (e.g. "lab routers"), or None."""
        return await self._get_credential(_named_entry(name))

    async def set_named_credential(self, name: str, credential: DeviceCredential) -> None:
        """Remember a login under a name the user chose."""
        await self._set_credential(_named_entry(name), credential)

    async def delete_named_credential(self, name: str) -> None:
        """Forget a named login (no error when there is none)."""
        await self._delete(_named_entry(name))

    # --- a trainer's exercise signing key ---------------------------------------------------

    async def get_trainer_signing_key(self, trainer: str) -> bytes | None:
        """The private key (raw Ed25519, 32 bytes) ``trainer`` signs exercise files with, or
        None before the first export."""
        value = await self._get(_trainer_key_entry(trainer))
        if value is None:
            return None
        try:
            raw = bytes.fromhex(value)
        except ValueError:
            raw = b""
        if len(raw) != 32:
            raise SecretStoreError(
                f"The saved exercise signing key of {trainer} in the OS keyring is damaged."
            )
        return raw

    async def set_trainer_signing_key(self, trainer: str, private_key: bytes) -> None:
        """Remember ``trainer``'s exercise signing key (raw Ed25519 private key)."""
        if len(private_key) != 32:
            raise ValueError("an Ed25519 private key is 32 bytes")
        await self._set(_trainer_key_entry(trainer), private_key.hex())

    async def delete_trainer_signing_key(self, trainer: str) -> None:
        """Forget ``trainer``'s signing key (no error when there is none)."""
        await self._delete(_trainer_key_entry(trainer))

    # --- plumbing --------------------------------------------------------------------------

    async def database_key(self) -> bytes:
        """This installation's key that signs the conversation databases it creates, made on
        first use. With a memory-only store it lives as long as the process."""
        value = await self._get(_DATABASE_KEY)
        if not value:
            value = secrets.token_hex(32)
            await self._set(_DATABASE_KEY, value)
        return bytes.fromhex(value)

    async def _get_credential(self, entry: _Entry) -> DeviceCredential | None:
        raw = await self._get(entry, register=False)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            credential = DeviceCredential(
                str(data["username"]), str(data["password"]), str(data.get("enable_secret", ""))
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise SecretStoreError(
                f"The saved {entry.what} in the OS keyring is damaged; enter it again."
            ) from exc
        register_secret(credential.password)
        if credential.enable_secret:
            register_secret(credential.enable_secret)
        return credential

    async def _set_credential(self, entry: _Entry, credential: DeviceCredential) -> None:
        register_secret(credential.password)
        if credential.enable_secret:
            register_secret(credential.enable_secret)
        payload = json.dumps(
            {
                "username": credential.username,
                "password": credential.password,
                "enable_secret": credential.enable_secret,
            }
        )
        await self._set(entry, payload, register=False)

    async def _get(self, entry: _Entry, *, register: bool = True) -> str | None:
        backend = self._backend
        if backend is None:
            value = self._memory.get((entry.service, entry.username))
        else:
            value = await self._call("reading", entry, backend.get_password)
        if register and value is not None:
            register_secret(value)
        return value

    async def _set(self, entry: _Entry, value: str, *, register: bool = True) -> None:
        if register:
            register_secret(value)
        backend = self._backend
        if backend is None:
            self._memory[(entry.service, entry.username)] = value
            return
        await self._call("saving", entry, backend.set_password, value)

    async def _delete(self, entry: _Entry) -> None:
        backend = self._backend
        if backend is None:
            self._memory.pop((entry.service, entry.username), None)
            return
        try:
            await self._call("deleting", entry, backend.delete_password)
        except SecretStoreError as exc:
            if not isinstance(exc.__cause__, PasswordDeleteError):
                raise
            # keyring's way of saying "there was nothing to delete".

    async def _call(
        self, action: str, entry: _Entry, method: Callable[..., object], *args: str
    ) -> str | None:
        started = time.perf_counter()
        try:
            result = await asyncio.to_thread(method, entry.service, entry.username, *args)
        except Exception as exc:  # every backend failure crosses this boundary as ours
            raise _store_error(action, entry, exc) from exc
        log.debug(
            "keyring %s %s took %.0f ms", action, entry.what, (time.perf_counter() - started) * 1e3
        )
        return result if isinstance(result, str) else None


def _store_error(action: str, entry: _Entry, exc: Exception) -> SecretStoreError:
    if isinstance(exc, KeyringLocked):
        text = (
            f"The OS keyring is locked, so the {entry.what} could not be read or saved. "
            "Unlock the keyring (accept its unlock prompt) and try again."
        )
    elif isinstance(exc, InitError) and "dismissed" in str(exc).lower():
        text = (
            f"The keyring's unlock prompt was dismissed, so the {entry.what} could not be read "
            "or saved. Try again and unlock the keyring."
        )
    else:
        detail = redact(str(exc)) or type(exc).__name__
        text = f"The OS keyring failed while {action} the {entry.what}: {detail}. {_keyring_hint()}"
    return SecretStoreError(text)


def _require(value: str, name: str) -> str:
    if not value:
        raise ValueError(f"{name} must not be empty")
    return value


_DATABASE_KEY = _Entry(
    service=f"{SERVICE_PREFIX}:database-key",
    username="installation",
    what="key that marks this computer's conversation databases",
)


def _jwt_entry(server_url: str, username: str) -> _Entry:
    url = normalize_server_url(server_url)
    return _Entry(
        service=f"{SERVICE_PREFIX}:gns3-jwt:{url}",
        username=_require(username, "username"),
        what=f"GNS3 login token of {username} on {url}",
    )


def _api_key_entry(profile_id: str) -> _Entry:
    return _Entry(
        service=f"{SERVICE_PREFIX}:llm-api-key",
        username=_require(profile_id, "profile_id"),
        what=f"API key of model profile {profile_id}",
    )


def _node_entry(server_url: str, project_id: str, node_id: str) -> _Entry:
    url = normalize_server_url(server_url)
    return _Entry(
        service=f"{SERVICE_PREFIX}:device-login:{url}",
        username=f"{_require(project_id, 'project_id')}/{_require(node_id, 'node_id')}",
        what=f"console login of node {node_id}",
    )


def _trainer_key_entry(trainer: str) -> _Entry:
    return _Entry(
        service=f"{SERVICE_PREFIX}:exercise-signing-key",
        username=_require(trainer, "trainer"),
        what=f"exercise signing key of {trainer}",
    )


def _named_entry(name: str) -> _Entry:
    return _Entry(
        service=f"{SERVICE_PREFIX}:named-login",
        username=_require(name, "name"),
        what=f"saved login {name!r}",
    )
