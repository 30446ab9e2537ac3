"""A trainer's exercise for students: the lab as a GNS3 portable project plus the sealed fault
list, in one file encrypted with a passphrase.

The file is ``MAGIC``, a 4-byte length, a JSON header (format version and the key derivation's
public parameters: scrypt's cost, salt, AES-GCM nonce) and the AES-256-GCM ciphertext of the
content, with the magic and header as associated data: a changed byte anywhere, or a wrong
passphrase, is refused as one error. The content is the exercise (JSON) then the project archive.

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
import struct
import zipfile

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gns3_copilot_desktop.core.practice.store import InjectedFault, PracticeError
from gns3_copilot_desktop.core.sessions.location import PROJECT_SUBDIR

MAGIC = b"GNS3-COPILOT-EXERCISE\n"
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


def seal(project_archive: bytes, exercise: ExercisePackage, passphrase: str) -> bytes:
    """The encrypted file for ``exercise`` and its lab (a GNS3 portable project archive)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    check_passphrase(passphrase)
    salt, nonce = os.urandom(16), os.urandom(12)
    header = json.dumps(
        {
            "format": 1,
            "kdf": "scrypt",
            **_SCRYPT,
            "salt": base64.b64encode(salt).decode(),
            "nonce": base64.b64encode(nonce).decode(),
        },
        sort_keys=True,
    ).encode()
    prefix = MAGIC + struct.pack(">I", len(header)) + header
    body = exercise.model_dump_json().encode()
    plain = struct.pack(">I", len(body)) + body + without_copilot_files(project_archive)
    return prefix + AESGCM(_key(passphrase, salt, _SCRYPT)).encrypt(nonce, plain, prefix)


def open_sealed(data: bytes, passphrase: str) -> tuple[ExercisePackage, bytes]:
    """The exercise and the project archive of a file made by `seal`; `PracticeError` for a
    wrong passphrase, a changed or foreign file."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    not_ours = PracticeError("This file is not an exercise exported by GNS3 Copilot.")
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 4:
        raise not_ours
    (size,) = struct.unpack(">I", data[len(MAGIC) : len(MAGIC) + 4])
    start = len(MAGIC) + 4
    if size > _MAX_HEADER or start + size > len(data):
        raise not_ours
    prefix = data[: start + size]
    try:
        header = json.loads(data[start : start + size])
        cost = {k: int(header[k]) for k in ("n", "r", "p")}
        salt = base64.b64decode(header["salt"], validate=True)
        nonce = base64.b64decode(header["nonce"], validate=True)
        usable = header.get("format") == 1 and header.get("kdf") == "scrypt"
    except (ValueError, KeyError, TypeError) as exc:
        raise not_ours from exc
    if not usable or cost != _SCRYPT or len(salt) != 16 or len(nonce) != 12:
        # only our own cost: a hostile header must not make the app spend gigabytes on scrypt
        raise PracticeError("This exercise file was made by another version of GNS3 Copilot.")
    try:
        plain = AESGCM(_key(passphrase, salt, cost)).decrypt(nonce, data[len(prefix) :], prefix)
    except InvalidTag:
        raise PracticeError("The passphrase is wrong, or the file was changed.") from None
    (body_size,) = struct.unpack(">I", plain[:4])
    if body_size > _MAX_EXERCISE or 4 + body_size > len(plain):
        raise not_ours
    try:
        exercise = ExercisePackage.model_validate_json(plain[4 : 4 + body_size])
    except ValidationError as exc:
        raise not_ours from exc
    return exercise, plain[4 + body_size :]


def without_copilot_files(archive: bytes) -> bytes:
    """The project archive without the copilot's conversation and exercise databases."""
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
            target.writestr(info, source.read(info))
    return out.getvalue()


def _key(passphrase: str, salt: bytes, cost: dict[str, int]) -> bytes:
    return hashlib.scrypt(passphrase.encode(), salt=salt, **cost, maxmem=64 * 1024 * 1024, dklen=32)
