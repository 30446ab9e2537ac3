"""The exercise file on its own: sealing, refusing a wrong passphrase, a changed or hostile file,
and the copilot's own files left out of the lab archive."""

from __future__ import annotations

import base64
import io
import json
import os
import struct
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from gns3_copilot_desktop.core.gns3.archive_check import CheckedArchive
from gns3_copilot_desktop.core.gns3.models import Project
from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.engine import PracticeEngine, import_package
from gns3_copilot_desktop.core.practice.package import (
    ExercisePackage,
    TrainerSigner,
    open_sealed,
    seal,
)
from gns3_copilot_desktop.core.practice.store import ExerciseStore, InjectedFault, PracticeError

PASS = "a long enough passphrase"
TRAINER = TrainerSigner.generate("Ms Trainer")
KEY = TRAINER.public


def _archive(*names: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in names:
            z.writestr(name, f"content of {name}")
    return out.getvalue()


def _lab() -> bytes:
    """The smallest archive GNS3 (and the archive check) takes as a project."""
    topology = {"topology": {"nodes": [], "links": [], "drawings": []}}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("project.gns3", json.dumps(topology))
    return out.getvalue()


def _exercise(fault_id: str = "vpcs-wrong-address", platform: str = "vpcs") -> ExercisePackage:
    fault = InjectedFault(fault_id=fault_id, title="t", platform=platform, node="PC1")
    return ExercisePackage(project_name="lab", difficulty="beginner", faults=[fault])


def test_round_trip_and_the_copilot_files_stay_out() -> None:
    archive = _archive(
        "project.gns3", "project-files/vpcs/x/startup.vpc", "copilot_practice.db",
        "copilot_checkpoints.db", "copilot_checkpoints.db-wal", "sub/copilot_practice.db-shm",
        ".gns3-copilot/copilot_checkpoints.db", ".gns3-copilot/owner.json",
    )  # fmt: skip
    data = seal(archive, _exercise(), PASS, TRAINER)
    exercise, lab = open_sealed(data, PASS, KEY)
    assert exercise == _exercise()
    assert zipfile.ZipFile(io.BytesIO(lab)).namelist() == [
        "project.gns3",
        "project-files/vpcs/x/startup.vpc",
    ]
    assert b"vpcs-wrong-address" not in data and b"PC1" not in data


def test_each_seal_is_different_and_a_wrong_passphrase_or_change_is_refused() -> None:
    one, two = (
        seal(_archive("a"), _exercise(), PASS, TRAINER),
        seal(_archive("a"), _exercise(), PASS, TRAINER),
    )
    assert one != two  # fresh salt and nonce
    with pytest.raises(PracticeError, match="passphrase is wrong"):
        open_sealed(one, PASS + "x", KEY)
    for where in (len(package.MAGIC) + 10, len(one) // 2, len(one) - 1):
        changed = bytearray(one)
        changed[where] ^= 0x01
        with pytest.raises(PracticeError):
            open_sealed(bytes(changed), PASS, KEY)


def _with_header(data: bytes, **changes: Any) -> bytes:
    """``data`` with its header changed and signed again by the trusted trainer: what a
    trusted but careless or hostile signer could send."""
    start = len(package.MAGIC) + 4
    (size,) = struct.unpack(">I", data[len(package.MAGIC) : start])
    header = json.loads(data[start : start + size])
    header.update(changes)
    raw = json.dumps(header).encode()
    body = package.MAGIC + struct.pack(">I", len(raw)) + raw + data[start + size : -64]
    return body + TRAINER.sign(body)


def test_a_hostile_header_cannot_make_the_app_spend_memory_or_time() -> None:
    data = seal(_archive("a"), _exercise(), PASS, TRAINER)
    started = time.monotonic()
    for hostile in (
        _with_header(data, n=2**30, r=64),
        _with_header(data, p=1000),
        _with_header(data, salt=base64.b64encode(b"short").decode()),
        _with_header(data, kdf="none"),
    ):
        with pytest.raises(PracticeError, match="another version"):
            open_sealed(hostile, PASS, KEY)
    assert time.monotonic() - started < 2
    for junk in (b"", b"PK\x03\x04 a zip", package.MAGIC + b"\xff\xff\xff\xff", package.MAGIC):
        with pytest.raises(PracticeError, match="not an exercise exported by GNS3 Copilot"):
            open_sealed(junk, PASS, KEY)


@pytest.mark.asyncio
async def test_a_file_naming_a_fault_the_app_lacks_is_refused_before_any_import() -> None:
    """The file names faults; their commands come from the app's own catalog. A fault id that
    is not in it (or a platform the fault has no steps for) stops the import before the server
    is called (the client here is None: calling it would fail the test)."""
    for exercise in (_exercise("rm-rf-everything"), _exercise("vpcs-wrong-address", "ios")):
        data = seal(_lab(), exercise, PASS, TRAINER)
        with pytest.raises(PracticeError, match="does not have"):
            await import_package(None, data, PASS, KEY)  # type: ignore[arg-type]
    bad_level = _exercise().model_copy(update={"difficulty": "expert"})
    with pytest.raises(PracticeError, match="unknown level"):
        await import_package(None, seal(_lab(), bad_level, PASS, TRAINER), PASS, KEY)  # type: ignore[arg-type]


def test_a_short_passphrase_is_refused() -> None:
    with pytest.raises(PracticeError, match="at least 8"):
        seal(_archive("a"), _exercise(), "1234567", TRAINER)


class _RecordingServer:
    """Stand-in for the two GNS3 calls of an import (the live test uses the real server): it
    records the project name the app asks for."""

    base_url = "http://127.0.0.1:9"  # never called: keep_imported only writes the store

    def __init__(self, existing: list[str]) -> None:
        self.existing = existing
        self.asked: list[str] = []

    async def list_projects(self) -> list[Project]:
        return [Project(project_id=f"p{i}", name=n) for i, n in enumerate(self.existing)]

    async def import_project(self, name: str, archive: CheckedArchive) -> Project:
        self.asked.append(name)
        return Project(project_id="new", name=name)


@pytest.mark.asyncio
async def test_the_files_lab_name_becomes_one_printable_line_beside_existing_projects(
    tmp_path: Path,
) -> None:
    hostile = _exercise().model_copy(update={"project_name": "../../etc\n<b>lab</b>\x1b[2J\\x"})
    server = _RecordingServer([".. .. etc <b>lab< b> [2J x (exercise)"])
    data = seal(_lab(), hostile, PASS, TRAINER)
    project, exercise = await import_package(server, data, PASS, KEY)  # type: ignore[arg-type]
    assert server.asked == [".. .. etc <b>lab< b> [2J x (exercise 2)"]
    assert project.name == server.asked[0]
    # The new project's engine keeps it sealed, without a session, in that project's store.
    store = ExerciseStore(tmp_path / "practice.db", os.urandom(32))
    public = await PracticeEngine(server, "new", store).keep_imported(exercise)  # type: ignore[arg-type]
    assert public.sealed == [] and public.imported and public.session_id == ""
    [kept] = await store.list_for_project("new")
    assert kept.status == "planned" and [f.fault_id for f in kept.sealed] == ["vpcs-wrong-address"]
