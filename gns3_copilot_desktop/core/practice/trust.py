"""Whose exercise files this installation accepts, and the key it signs its own with.

A trainer's Ed25519 private key lives in the OS keyring (`SecretStore`), made on the first export.
A student pins a trainer's public key by the trainer's name on the first import, after seeing its
fingerprint (trust on first use), or receives it from a class service (`ClassKeySource`). Pinned
keys are public: they are kept in the settings file.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable
from typing import Protocol

from gns3_copilot_desktop.core.practice.package import (
    TrainerKey,
    TrainerSigner,
    check_trainer_name,
)
from gns3_copilot_desktop.core.secrets import SecretStore
from gns3_copilot_desktop.core.settings import Settings


class ClassKeySource(Protocol):
    """Where a class's trainers' keys come from when a class service gives them (a later
    feature): the key ``trainer`` signs with, or None when the service does not know them."""

    async def trainer_key(self, trainer: str) -> TrainerKey | None: ...


class TrainerKeys:
    """The trainer's own signing key and the trainer keys this student trusts."""

    def __init__(
        self,
        secrets: SecretStore,
        settings: Settings,
        save_settings: Callable[[], Awaitable[None]],
        class_keys: ClassKeySource | None = None,
    ) -> None:
        self._secrets = secrets
        self._settings = settings
        self._save = save_settings
        self._class_keys = class_keys

    async def signer(self, trainer: str) -> TrainerSigner:
        """``trainer``'s signing key, made and kept in the OS keyring on the first export. The
        trainer's own key is pinned too: a trainer can import their own files."""
        trainer = check_trainer_name(trainer)
        raw = await self._secrets.get_trainer_signing_key(trainer)
        if raw is not None:
            return TrainerSigner(trainer, raw)
        signer = TrainerSigner.generate(trainer)
        await self._secrets.set_trainer_signing_key(trainer, signer.private_key)
        if self.pinned(trainer) is None:
            await self.pin(signer.public)
        return signer

    def pinned(self, trainer: str) -> TrainerKey | None:
        """The key pinned for ``trainer`` (None when none is, or the saved one is damaged)."""
        value = self._settings.trusted_trainer_keys.get(trainer)
        if value is None:
            return None
        try:
            raw = base64.b64decode(value, validate=True)
        except (ValueError, binascii.Error):
            return None
        return TrainerKey(trainer, raw) if len(raw) == 32 else None

    async def trusted(self, trainer: str) -> TrainerKey | None:
        """The key ``trainer``'s files must be signed with: pinned, else the class service's."""
        pinned = self.pinned(trainer)
        if pinned is not None or self._class_keys is None:
            return pinned
        given = await self._class_keys.trainer_key(trainer)
        return given if given is not None and given.trainer == trainer else None

    async def pin(self, key: TrainerKey) -> None:
        """Trust ``key`` for its trainer from now on (the settings file is saved)."""
        encoded = base64.b64encode(key.public_key).decode()
        self._settings.trusted_trainer_keys = {
            **self._settings.trusted_trainer_keys,
            key.trainer: encoded,
        }
        await self._save()
