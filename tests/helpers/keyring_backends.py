"""In-memory keyring backends and SecretStore fixtures for unit tests.

`MemoryKeyring` behaves like a secure OS keyring (priority 1) but keeps everything in a dict;
`BrokenKeyring` raises the errors a real Secret Service raises (locked, dismissed prompt, D-Bus).
Neither is picked up by keyring's own discovery (``viable = False``): tests pass them explicitly.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

from gns3_copilot_desktop.core.logs import clear_registered_secrets
from gns3_copilot_desktop.core.secrets import SecretStore


class MemoryKeyring(KeyringBackend):
    """A secure-looking keyring that lives in a dict; counts calls so tests can assert on them."""

    priority = 1  # type: ignore[assignment]
    viable = False  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}
        self.calls: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.calls.append("get")
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls.append("set")
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.calls.append("delete")
        if self.items.pop((service, username), None) is None:
            raise PasswordDeleteError("No such password!")


class BrokenKeyring(MemoryKeyring):
    """A keyring whose every call raises `error` (e.g. KeyringLocked, a D-Bus error)."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def get_password(self, service: str, username: str) -> str | None:
        raise self.error

    def set_password(self, service: str, username: str, password: str) -> None:
        raise self.error

    def delete_password(self, service: str, username: str) -> None:
        raise self.error


@pytest.fixture
def memory_keyring() -> MemoryKeyring:
    """A fresh in-memory keyring."""
    return MemoryKeyring()


@pytest.fixture
def secret_store(memory_keyring: MemoryKeyring) -> Iterator[SecretStore]:
    """A persistent SecretStore over `memory_keyring`; run-time redactions are reset afterwards."""
    yield SecretStore(backend=memory_keyring)
    clear_registered_secrets()
