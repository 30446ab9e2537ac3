"""A trainer's signing key in the real OS keyring (gnome-keyring over Secret Service) and the
keys a student pins: trust on first use, then a file signed by another key for the same trainer
name is refused; the class service's key is used when nothing is pinned."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from keyring.backend import KeyringBackend

from gns3_copilot_desktop.core.practice.package import (
    ExercisePackage,
    TrainerKey,
    TrainerSigner,
    open_sealed,
    seal,
    signer_of,
)
from gns3_copilot_desktop.core.practice.store import InjectedFault, PracticeError
from gns3_copilot_desktop.core.practice.trust import TrainerKeys
from gns3_copilot_desktop.core.secrets import SecretStore
from gns3_copilot_desktop.core.settings import Settings, SettingsStore
from tests.core.gns3.test_archive_check import archive
from tests.core.test_secrets import secret_service
from tests.helpers.keyring_backends import MemoryKeyring

pytestmark = pytest.mark.asyncio
__all__ = ["secret_service"]
PASS = "the class passphrase"


def _exercise() -> ExercisePackage:
    fault = InjectedFault(fault_id="vpcs-wrong-address", title="t", platform="vpcs", node="PC1")
    return ExercisePackage(project_name="lab", difficulty="beginner", faults=[fault])


def _keys(store: SecretStore, settings_store: SettingsStore, settings: Settings) -> TrainerKeys:
    async def save() -> None:
        await settings_store.asave(settings)

    return TrainerKeys(store, settings, save)


@pytest.mark.secret_service
async def test_the_signing_key_is_made_once_kept_in_the_keyring_and_never_in_settings(
    secret_service: KeyringBackend, tmp_path: Path
) -> None:
    folder = tmp_path
    trainer = f"Trainer {uuid.uuid4().hex[:6]}"
    settings_store = SettingsStore(folder / "settings.json")
    settings = Settings()
    store = SecretStore(backend=secret_service)
    try:
        first = await _keys(store, settings_store, settings).signer(trainer)
        # after a restart: the same key from the keyring, not a new one
        again = await _keys(
            SecretStore(backend=type(secret_service)()), settings_store, Settings()
        ).signer(trainer)
        assert again.private_key == first.private_key
        saved = (folder / "settings.json").read_text()
        assert first.private_key.hex() not in saved
        assert (
            TrainerKeys(store, settings_store.load().settings, _noop).pinned(trainer)
            == first.public
        )
    finally:
        await store.delete_trainer_signing_key(trainer)
    assert await store.get_trainer_signing_key(trainer) is None


async def _noop() -> None:
    return None


async def test_first_use_pins_then_another_key_for_the_same_trainer_is_refused(
    tmp_path: Path,
) -> None:
    settings_store = SettingsStore(tmp_path / "settings.json")
    settings = Settings()
    student = _keys(SecretStore(backend=MemoryKeyring()), settings_store, settings)
    trainer = TrainerSigner.generate("Ms Trainer")
    file = seal(archive(), _exercise(), PASS, trainer)

    seen = signer_of(file)  # what the trust question shows
    assert seen == trainer.public and len(seen.fingerprint) == 39
    assert await student.trusted("Ms Trainer") is None  # first use: ask
    await student.pin(seen)
    reloaded = TrainerKeys(
        SecretStore(backend=MemoryKeyring()), settings_store.load().settings, _noop
    )
    pinned = await reloaded.trusted("Ms Trainer")
    assert pinned == trainer.public
    assert open_sealed(file, PASS, pinned)[0] == _exercise()

    other = TrainerSigner(trainer.trainer, TrainerSigner.generate("x").private_key)
    forged = seal(archive(), _exercise(), PASS, other)
    assert signer_of(forged).fingerprint != trainer.public.fingerprint
    with pytest.raises(PracticeError, match="signed by a different key than Ms Trainer's pinned"):
        open_sealed(forged, PASS, pinned)


class _ClassService:
    def __init__(self, key: TrainerKey) -> None:
        self.key = key
        self.asked: list[str] = []

    async def trainer_key(self, trainer: str) -> TrainerKey | None:
        self.asked.append(trainer)
        return self.key if trainer == self.key.trainer else None


async def test_the_class_services_key_counts_when_nothing_is_pinned() -> None:
    trainer = TrainerSigner.generate("Mr Class")
    service = _ClassService(trainer.public)
    keys = TrainerKeys(SecretStore(backend=MemoryKeyring()), Settings(), _noop, class_keys=service)
    assert await keys.trusted("Mr Class") == trainer.public
    assert await keys.trusted("Someone Else") is None
    assert service.asked == ["Mr Class", "Someone Else"]
