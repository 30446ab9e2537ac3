"""A trainer's exercise for students: the lab as a GNS3 portable project plus the sealed fault
list, in one file encrypted with a passphrase.

The file is ``MAGIC``, a 4-byte length, a JSON header (format version, the key derivation's
public parameters: scrypt's cost, salt, AES-GCM nonce, and the trainer's name and Ed25519 public
key), the AES-256-GCM ciphertext of the content with the magic and header as associated data,
and last the trainer's Ed25519 signature of everything before it. The content is the exercise
(JSON) then the project archive.

The passphrase keeps the answers from students' eyes, but every student of the class knows it:
it cannot tell who made a file. The signature does. A student trusts a trainer's key once (its
fingerprint is shown, then pinned by the trainer's name) or receives it from the class service;
a file signed by any other key, unsigned, or of the older unsigned format is refused before it
is decrypted, and a changed byte anywhere breaks the signature.

What the file can carry is data, never instructions: fault ids of the app's own catalog and the
node or link names they were bound to. How a fault is injected, checked and undone comes from the
catalog shipped with the app, the faults are bound again to the imported lab, the lab must pass
their checks, and the injection waits for the student's approval like any exercise. The copilot's
own files (conversations, exercises with their answers) are taken out of the project archive
before it is sealed: GNS3 exports everything under the project folder.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import stat
import struct
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gns3_copilot_desktop.core.practice.store import InjectedFault, PracticeError
from gns3_copilot_desktop.core.sessions.location import PROJECT_SUBDIR

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

MAGIC = b"GNS3-COPILOT-EXERCISE\n"
FORMAT = 2
"""1: passphrase only (refused: anyone in the class could seal one); 2: signed by the trainer."""
SIGNATURE_SIZE = 64
_MAX_TRAINER_NAME = 80
SUFFIX = ".gns3exercise"
MIN_PASSPHRASE = 8
# scrypt at 2**15 x 8: ~32 MiB and ~0.1 s per guess here; a passphrase is all that protects it
_SCRYPT = {"n": 2**15, "r": 8, "p": 1}
_MAX_HEADER = 4096
_MAX_EXERCISE = 1_000_000
# The copilot's files in a project folder (its whole PROJECT_SUBDIR folder, and these names with
# SQLite's companions wherever they are): never in a package.
_OWN_FILES = ("copilot_checkpoints.db", "copilot_practice.db")


class ExercisePackage(BaseModel):
    """The exercise a trainer prepared: its level, topic and the faults, bound by name."""

    model_config = ConfigDict(extra="forbid")
    version: int = 1
    project_name: str = Field(max_length=200)
    difficulty: str = Field(max_length=40)
    topic: str | None = Field(default=None, max_length=80)
    faults: list[InjectedFault] = Field(min_length=1, max_length=3)


def check_passphrase(passphrase: str) -> None:
    """`PracticeError` for a passphrase too short to protect the answers."""
    if len(passphrase) < MIN_PASSPHRASE:
        raise PracticeError(f"Choose a passphrase of at least {MIN_PASSPHRASE} characters.")


@dataclass(frozen=True)
class TrainerKey:
    """A trainer's public signing key under the name the trainer signs with."""

    trainer: str
    public_key: bytes = field(repr=False)

    @property
    def fingerprint(self) -> str:
        """What a person compares: the first 16 bytes of the key's SHA-256, in groups of 4 hex."""
        digest = hashlib.sha256(self.public_key).hexdigest()[:32]
        return " ".join(digest[i : i + 4] for i in range(0, 32, 4))


@dataclass(frozen=True)
class TrainerSigner:
    """A trainer's Ed25519 private key (raw 32 bytes, kept in the OS keyring) and name."""

    trainer: str
    private_key: bytes = field(repr=False)

    @classmethod
    def generate(cls, trainer: str) -> TrainerSigner:
        """A new key for ``trainer``."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import (
            Encoding,
            NoEncryption,
            PrivateFormat,
        )

        key = Ed25519PrivateKey.generate()
        raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return cls(check_trainer_name(trainer), raw)

    @property
    def public(self) -> TrainerKey:
        """The key students pin."""
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        public = self._key().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return TrainerKey(self.trainer, public)

    def sign(self, data: bytes) -> bytes:
        """The Ed25519 signature of ``data``."""
        return self._key().sign(data)

    def _key(self) -> Ed25519PrivateKey:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return Ed25519PrivateKey.from_private_bytes(self.private_key)


def check_trainer_name(name: str) -> str:
    """The name a trainer signs with: one line of printable text (`PracticeError` else)."""
    name = " ".join(name.split())
    if not name or len(name) > _MAX_TRAINER_NAME or not name.isprintable():
        raise PracticeError(
            f"A trainer's name is one line of 1 to {_MAX_TRAINER_NAME} printable characters."
        )
    return name


def seal(
    project_archive: bytes, exercise: ExercisePackage, passphrase: str, signer: TrainerSigner
) -> bytes:
    """The encrypted file for ``exercise`` and its lab (a GNS3 portable project archive), signed
    by the trainer's key."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    check_passphrase(passphrase)
    salt, nonce = os.urandom(16), os.urandom(12)
    public = signer.public
    header = json.dumps(
        {
            "format": FORMAT,
            "kdf": "scrypt",
            **_SCRYPT,
            "salt": base64.b64encode(salt).decode(),
            "nonce": base64.b64encode(nonce).decode(),
            "trainer": public.trainer,
            "signing_key": base64.b64encode(public.public_key).decode(),
        },
        sort_keys=True,
    ).encode()
    prefix = MAGIC + struct.pack(">I", len(header)) + header
    body = exercise.model_dump_json().encode()
    plain = struct.pack(">I", len(body)) + body + without_copilot_files(project_archive)
    sealed = prefix + AESGCM(_key(passphrase, salt, _SCRYPT)).encrypt(nonce, plain, prefix)
    return sealed + signer.sign(sealed)


@dataclass(frozen=True)
class _Parsed:
    prefix: bytes
    header: dict[str, Any]
    signer: TrainerKey


def _parse(data: bytes) -> _Parsed:
    """The header of a signed file whose signature verifies with the key it names."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    not_ours = PracticeError("This file is not an exercise exported by GNS3 Copilot.")
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        raise not_ours
    (size,) = struct.unpack(">I", data[len(MAGIC) : len(MAGIC) + 4])
    start = len(MAGIC) + 4
    if size > _MAX_HEADER or start + size > len(data):
        raise not_ours
    try:
        header = json.loads(data[start : start + size])
        version = header["format"] if isinstance(header, dict) else None
    except (ValueError, KeyError, TypeError) as exc:
        raise not_ours from exc
    if version == 1:
        raise PracticeError(
            "This exercise file is of the older, unsigned format, which anyone with the class "
            "passphrase could have made. Ask your trainer to export it again."
        )
    if version != FORMAT:
        raise PracticeError("This exercise file was made by another version of GNS3 Copilot.")
    try:
        trainer = check_trainer_name(str(header["trainer"]))
        public = base64.b64decode(header["signing_key"], validate=True)
        key = Ed25519PublicKey.from_public_bytes(public)
    except (ValueError, KeyError, TypeError, PracticeError) as exc:
        raise PracticeError("This exercise file is not signed by a trainer.") from exc
    if len(data) < start + size + SIGNATURE_SIZE:
        raise PracticeError("This exercise file is not signed by a trainer.")
    try:
        key.verify(data[-SIGNATURE_SIZE:], data[:-SIGNATURE_SIZE])
    except InvalidSignature:
        raise PracticeError(
            f"The signature of this exercise does not match: the file was changed after "
            f"{trainer} signed it, or it was forged."
        ) from None
    return _Parsed(data[: start + size], header, TrainerKey(trainer, public))


def signer_of(data: bytes) -> TrainerKey:
    """Who signed an exercise file, once the signature is checked against the key it names;
    `PracticeError` for an unsigned, old-format, changed or forged file. Nothing is decrypted:
    a student sees this before trusting the key and typing the passphrase."""
    return _parse(data).signer


def open_sealed(data: bytes, passphrase: str, trusted: TrainerKey) -> tuple[ExercisePackage, bytes]:
    """The exercise and the project archive of a file made by `seal` and signed by ``trusted``
    (the key the student pinned, or that the class service gave, for that trainer);
    `PracticeError` for another signer, a wrong passphrase, a changed or foreign file."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    parsed = _parse(data)
    if parsed.signer.trainer != trusted.trainer:
        raise PracticeError(
            f"This exercise is signed by {parsed.signer.trainer}, not by {trusted.trainer}."
        )
    if parsed.signer.public_key != trusted.public_key:
        raise PracticeError(
            f"This exercise is signed by a different key than {trusted.trainer}'s pinned key "
            f"(fingerprint {parsed.signer.fingerprint}, pinned {trusted.fingerprint}). It was "
            "not imported."
        )
    not_ours = PracticeError("This file is not an exercise exported by GNS3 Copilot.")
    header, prefix = parsed.header, parsed.prefix
    try:
        cost = {k: int(header[k]) for k in ("n", "r", "p")}
        salt = base64.b64decode(header["salt"], validate=True)
        nonce = base64.b64decode(header["nonce"], validate=True)
        usable = header.get("kdf") == "scrypt"
    except (ValueError, KeyError, TypeError) as exc:
        raise not_ours from exc
    if not usable or cost != _SCRYPT or len(salt) != 16 or len(nonce) != 12:
        # only our own cost: a hostile header must not make the app spend gigabytes on scrypt
        raise PracticeError("This exercise file was made by another version of GNS3 Copilot.")
    ciphertext = data[len(prefix) : -SIGNATURE_SIZE]
    try:
        plain = AESGCM(_key(passphrase, salt, cost)).decrypt(nonce, ciphertext, prefix)
    except InvalidTag:
        raise PracticeError("The passphrase is wrong, or the file was changed.") from None
    if len(plain) < 4:
        raise not_ours
    (body_size,) = struct.unpack(">I", plain[:4])
    if body_size > _MAX_EXERCISE or 4 + body_size > len(plain):
        raise not_ours
    try:
        exercise = ExercisePackage.model_validate_json(plain[4 : 4 + body_size])
    except ValidationError as exc:
        raise not_ours from exc
    return exercise, plain[4 + body_size :]


def without_copilot_files(archive: bytes) -> bytes:
    """The project archive without the copilot's conversation and exercise databases, and
    without links or other non-regular entries (GNS3 exports an IOU node's link to its image;
    the node makes it again when it starts, and a student's import refuses links)."""
    try:
        source = zipfile.ZipFile(io.BytesIO(archive))
    except zipfile.BadZipFile as exc:
        raise PracticeError("GNS3 did not export the project as a zip archive.") from exc
    out = io.BytesIO()
    with source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            parts = info.filename.split("/")
            if PROJECT_SUBDIR in parts[:-1] or parts[-1].startswith(_OWN_FILES):
                continue
            if stat.S_IFMT(info.external_attr >> 16) not in (0, stat.S_IFREG, stat.S_IFDIR):
                continue
            target.writestr(info, source.read(info))
    return out.getvalue()


def _key(passphrase: str, salt: bytes, cost: dict[str, int]) -> bytes:
    return hashlib.scrypt(passphrase.encode(), salt=salt, **cost, maxmem=64 * 1024 * 1024, dklen=32)
