"""SecretStore: keyring round trips, memory-only fallback, refused file backends, error texts.

Unit tests use the in-memory backend of tests/helpers/keyring_backends.py. The tests marked
``secret_service`` use a real Secret Service (gnome-keyring on a private D-Bus session, as `make
test` runs them); without one they skip, unless GNS3_COPILOT_REQUIRE_SECRET_SERVICE=1.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null
from keyring.errors import InitError, KeyringLocked, PasswordSetError

from gns3_copilot_desktop.core import logs
from gns3_copilot_desktop.core import platform as platform_mod
from gns3_copilot_desktop.core import secrets as secrets_mod
from gns3_copilot_desktop.core.errors import SecretStoreError
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from tests.helpers.keyring_backends import BrokenKeyring, MemoryKeyring

pytestmark = pytest.mark.asyncio

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlMTIzNDU2"
API_KEY = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
SERVER = "http://127.0.0.1:3080"


class PlaintextKeyring(MemoryKeyring):
    """Stands in for keyrings.alt's plaintext file backend (not installed here)."""

    priority = 0.5  # type: ignore[assignment]


PlaintextKeyring.__module__ = "keyrings.alt.file"


class LowPriorityKeyring(MemoryKeyring):
    priority = 0.2  # type: ignore[assignment]


class ThreadRecordingKeyring(MemoryKeyring):
    def __init__(self) -> None:
        super().__init__()
        self.threads: set[int] = set()

    def get_password(self, service: str, username: str) -> str | None:
        self.threads.add(threading.get_ident())
        return super().get_password(service, username)


def _chain(*backends: KeyringBackend) -> chainer.ChainerBackend:
    class Chain(chainer.ChainerBackend):
        viable = False  # keep it out of keyring's own discovery

    Chain.backends = list(backends)  # type: ignore[misc, assignment]
    return Chain()


@pytest.fixture
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME, XDG config/data/cache, the app home and the cwd all inside one temp folder."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(home / name.lower()))
    monkeypatch.setenv("GNS3_COPILOT_HOME", str(home / "app"))
    monkeypatch.chdir(home)
    return home


def _files_containing(root: Path, *needles: str) -> list[Path]:
    hits = []
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if any(needle.encode() in data for needle in needles):
                hits.append(path)
    return hits


@pytest.fixture(autouse=True)
def _forget_registered_secrets() -> Iterator[None]:
    yield
    logs.clear_registered_secrets()


# --- with a working keyring --------------------------------------------------------------


async def test_jwt_round_trip_keyed_by_normalised_url_and_user(
    secret_store: SecretStore, memory_keyring: MemoryKeyring
):
    assert secret_store.persistent and secret_store.warning is None
    await secret_store.set_jwt("HTTP://127.0.0.1:3080/v3/", "admin", JWT)
    assert await secret_store.get_jwt(SERVER, "admin") == JWT
    assert await secret_store.get_jwt(SERVER, "alice") is None
    assert await secret_store.get_jwt("http://127.0.0.1:3081", "admin") is None
    assert list(memory_keyring.items.values()) == [JWT]
    await secret_store.delete_jwt(SERVER + "/", "admin")
    assert await secret_store.get_jwt(SERVER, "admin") is None
    assert memory_keyring.items == {}


async def test_api_key_round_trip_and_idempotent_delete(
    secret_store: SecretStore, memory_keyring: MemoryKeyring
):
    await secret_store.set_api_key("openai-main", API_KEY)
    await secret_store.set_api_key("other", "sk-other-0123456789abcdef")
    assert await secret_store.get_api_key("openai-main") == API_KEY
    await secret_store.delete_api_key("openai-main")
    await secret_store.delete_api_key("openai-main")  # nothing left: no error
    assert await secret_store.get_api_key("openai-main") is None
    assert await secret_store.get_api_key("other") == "sk-other-0123456789abcdef"
    assert memory_keyring.calls.count("delete") == 2


async def test_device_credentials(secret_store: SecretStore):
    login = DeviceCredential("cisco", "Lab-Pass-77")
    assert "Lab-Pass-77" not in repr(login)
    await secret_store.set_node_credential(SERVER, "p1", "n1", login)
    await secret_store.set_named_credential("lab routers", DeviceCredential("admin", "R0uters!"))
    assert await secret_store.get_node_credential(SERVER + "/", "p1", "n1") == login
    assert await secret_store.get_node_credential(SERVER, "p1", "n2") is None
    assert await secret_store.get_named_credential("lab routers") == DeviceCredential(
        "admin", "R0uters!"
    )
    await secret_store.delete_node_credential(SERVER, "p1", "n1")
    await secret_store.delete_named_credential("lab routers")
    assert await secret_store.get_node_credential(SERVER, "p1", "n1") is None
    assert await secret_store.get_named_credential("lab routers") is None


async def test_damaged_credential_is_reported(
    secret_store: SecretStore, memory_keyring: MemoryKeyring
):
    await secret_store.set_named_credential("x", DeviceCredential("u", "password-1"))
    key = next(iter(memory_keyring.items))
    memory_keyring.items[key] = "not json"
    with pytest.raises(SecretStoreError, match="damaged"):
        await secret_store.get_named_credential("x")


async def test_every_secret_read_or_stored_is_redacted_from_logs(
    memory_keyring: MemoryKeyring,
):
    memory_keyring.set_password("gns3-copilot:llm-api-key", "legacy", "opaque-legacy-key")
    store = SecretStore(backend=memory_keyring)
    await store.get_api_key("legacy")
    await store.set_named_credential("lab", DeviceCredential("admin", "plain-pass-1"))
    await store.set_jwt(SERVER, "admin", "opaque-session-token")
    line = "values: opaque-legacy-key plain-pass-1 opaque-session-token admin"
    assert logs.redact(line) == "values: [REDACTED] [REDACTED] [REDACTED] admin"


async def test_keyring_runs_off_the_event_loop_thread():
    backend = ThreadRecordingKeyring()
    store = SecretStore(backend=backend)
    await store.get_api_key("p")
    assert backend.threads and threading.get_ident() not in backend.threads


async def test_default_backend_comes_from_keyring(monkeypatch: pytest.MonkeyPatch):
    backend = MemoryKeyring()
    monkeypatch.setattr(secrets_mod.keyring, "get_keyring", lambda: backend)
    store = await SecretStore.open()
    assert store.persistent
    await store.set_api_key("p", API_KEY)
    assert backend.items


async def test_empty_keys_are_refused(secret_store: SecretStore):
    with pytest.raises(ValueError, match="username"):
        await secret_store.set_jwt(SERVER, "", JWT)
    with pytest.raises(ValueError, match="profile_id"):
        await secret_store.get_api_key("")


# --- keyring failures -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (KeyringLocked("Failed to unlock the collection!"), "locked"),
        (InitError("Prompt dismissed."), "prompt was dismissed"),
        (
            RuntimeError("org.freedesktop.DBus.Error.NoReply: Did not receive a reply"),
            "failed while reading the GNS3 login token of admin on http://127.0.0.1:3080: "
            "org.freedesktop.DBus.Error.NoReply",
        ),
    ],
)
async def test_keyring_errors_become_secret_store_errors(error: Exception, expected: str):
    store = SecretStore(backend=BrokenKeyring(error))
    with pytest.raises(SecretStoreError, match=expected) as info:
        await store.get_jwt(SERVER, "admin")
    assert info.value.__cause__ is error
    assert store.persistent  # a failing keyring is reported, not silently replaced by memory


async def test_error_text_never_carries_the_secret():
    store = SecretStore(backend=BrokenKeyring(RuntimeError(f"cannot store {API_KEY}")))
    with pytest.raises(SecretStoreError) as info:
        await store.set_api_key("p", API_KEY)
    assert API_KEY not in info.value.user_message
    assert "failed while saving the API key of model profile p" in info.value.user_message


# Each system's keyring refusing, its branch chosen by injecting that system's Platform: what
# keyring's Windows backend (pywin32's CredWrite) and macOS backend (the Security framework) raise.
REFUSALS = [
    (
        "win32",
        PasswordSetError(
            "Can't write credential: (1783, 'CredWrite', 'The stub received bad data.')"
        ),
        "Windows Credential Manager keeps at most 2560 bytes per secret",
    ),
    (
        "darwin",
        PasswordSetError(
            "Can't store password on keychain: (-25308, 'User interaction is not allowed.')"
        ),
        "choose Allow (or Always Allow)",
    ),
]


@pytest.mark.parametrize(("system", "error", "advice"), REFUSALS)
async def test_a_refusal_by_each_systems_keyring_says_what_to_do_there(
    monkeypatch: pytest.MonkeyPatch, system: str, error: Exception, advice: str
):
    chosen = platform_mod.PLATFORMS[platform_mod.system_of(system)]()
    monkeypatch.setattr(platform_mod, "detect_platform", lambda: chosen)
    store = SecretStore(backend=BrokenKeyring(error))
    with pytest.raises(SecretStoreError) as info:
        await store.set_jwt(SERVER, "admin", JWT)
    text = info.value.user_message
    assert "failed while saving the GNS3 login token" in text and advice in text
    assert JWT not in text and info.value.__cause__ is error
    assert store.persistent  # refused, reported: not silently kept in memory instead


@pytest.mark.parametrize(
    ("system", "name"), [("win32", "Windows Credential Manager"), ("darwin", "macOS Keychain")]
)
async def test_no_keyring_on_each_system_is_named(
    monkeypatch: pytest.MonkeyPatch, system: str, name: str
):
    chosen = platform_mod.PLATFORMS[platform_mod.system_of(system)]()
    monkeypatch.setattr(platform_mod, "detect_platform", lambda: chosen)
    store = SecretStore(backend=fail.Keyring())
    assert store.persistent is False
    assert store.warning is not None and f"the {name} could not be used" in store.warning


# --- no usable keyring: memory only, never a file ---------------------------------------


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring(), _chain()])
async def test_no_keyring_keeps_secrets_in_memory_only(
    backend: KeyringBackend, isolated_home: Path, caplog: pytest.LogCaptureFixture
):
    store = SecretStore(backend=backend)
    assert store.persistent is False
    assert store.backend_name == "memory"
    assert store.warning is not None
    assert store.warning.startswith("No OS keyring is available")
    assert "will not be remembered after the app closes" in store.warning
    assert store.warning in caplog.text
    await store.set_jwt(SERVER, "admin", JWT)
    await store.set_api_key("p", API_KEY)
    assert await store.get_jwt(SERVER, "admin") == JWT
    assert await store.get_api_key("p") == API_KEY
    assert await SecretStore(backend=backend).get_jwt(SERVER, "admin") is None
    await store.delete_jwt(SERVER, "admin")
    assert await store.get_jwt(SERVER, "admin") is None
    assert _files_containing(isolated_home, JWT, API_KEY) == []


async def test_plaintext_file_backend_is_refused(isolated_home: Path):
    backend = PlaintextKeyring()
    store = SecretStore(backend=backend)
    assert store.persistent is False
    assert store.warning is not None
    assert "file-based keyring (keyrings.alt.file.PlaintextKeyring)" in store.warning
    assert "will not be remembered after the app closes" in store.warning
    await store.set_api_key("p", API_KEY)
    assert await store.get_api_key("p") == API_KEY
    assert backend.calls == []  # the file backend was never touched
    assert _files_containing(isolated_home, API_KEY) == []


async def test_chain_with_only_a_file_backend_is_refused():
    store = SecretStore(backend=_chain(PlaintextKeyring()))
    assert not store.persistent
    assert store.warning and "file-based" in store.warning


async def test_chain_uses_its_secure_backend_and_never_the_file_one():
    secure, plaintext = MemoryKeyring(), PlaintextKeyring()
    store = SecretStore(backend=_chain(plaintext, secure))
    assert store.persistent and store.warning is None
    await store.set_api_key("p", API_KEY)
    assert list(secure.items.values()) == [API_KEY]
    assert plaintext.calls == []


async def test_low_priority_backend_is_refused():
    store = SecretStore(backend=LowPriorityKeyring())
    assert not store.persistent
    assert store.warning and "not a secure one" in store.warning


# --- a real Secret Service (gnome-keyring on a private D-Bus session) --------------------


@pytest.fixture
def secret_service() -> KeyringBackend:
    """keyring's SecretService backend on the session bus; skip (or fail in `make test`)."""
    from keyring.backends import SecretService

    try:
        SecretService.Keyring.priority  # noqa: B018 - probes D-Bus, raises when unusable
    except Exception as exc:
        reason = f"no Secret Service on the session bus: {exc}"
        if os.environ.get("GNS3_COPILOT_REQUIRE_SECRET_SERVICE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return SecretService.Keyring()


@pytest.mark.secret_service
async def test_secret_service_round_trips(secret_service: KeyringBackend, isolated_home: Path):
    keyring_data = os.environ.get("XDG_DATA_HOME")  # where gnome-keyring keeps its (encrypted) file
    token = f"{JWT}.{uuid.uuid4().hex}"
    api_key = f"sk-ant-api03-{uuid.uuid4().hex}"
    user = f"admin-{uuid.uuid4().hex[:8]}"
    profile = f"profile-{uuid.uuid4().hex[:8]}"
    store = SecretStore(backend=secret_service)
    assert store.persistent is True and store.warning is None
    assert "SecretService" in store.backend_name
    try:
        await store.set_jwt(SERVER, user, token)
        await store.set_api_key(profile, api_key)
        # A second store (as after a restart) reads them back from the Secret Service.
        again = SecretStore(backend=type(secret_service)())
        assert await again.get_jwt(SERVER + "/v3", user) == token
        assert await again.get_api_key(profile) == api_key
        roots = [isolated_home] + ([Path(keyring_data)] if keyring_data else [])
        for root in roots:
            assert _files_containing(root, token, api_key) == []
    finally:
        await store.delete_jwt(SERVER, user)
        await store.delete_api_key(profile)
    assert await store.get_jwt(SERVER, user) is None
    assert await store.get_api_key(profile) is None


@pytest.mark.secret_service
async def test_secret_service_device_credential(secret_service: KeyringBackend):
    store = SecretStore(backend=secret_service)
    name = f"lab-{uuid.uuid4().hex[:8]}"
    login = DeviceCredential("cisco", f"pw-{uuid.uuid4().hex}")
    try:
        await store.set_named_credential(name, login)
        assert await store.get_named_credential(name) == login
    finally:
        await store.delete_named_credential(name)
    assert await store.get_named_credential(name) is None
