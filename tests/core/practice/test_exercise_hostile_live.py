"""Hostile exercise files against the REAL GNS3 server 3.0.6.

Each file is sealed with the class passphrase. A lab archive with a ``../../x`` link, a plain
link, an absolute name, a zip bomb, too many files or a device file is refused naming the entry,
and nothing reaches GNS3: its project list and projects folder are the same after, and the file
outside the projects folder the archive aims at is untouched. The control test sends the same
``../../x`` archive to GNS3 directly and shows what the check prevents. A file sealed with the
passphrase but signed by another key, a changed byte, and a new key for a pinned trainer are
refused; the pinned trainer's good file imports.
"""

from __future__ import annotations

import io
import secrets as random_secrets
import stat
import uuid
import zipfile
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.archive_check import ArchiveRefusedError
from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.engine import import_package
from gns3_copilot_desktop.core.practice.package import (
    ExercisePackage,
    TrainerSigner,
    seal,
    signer_of,
)
from gns3_copilot_desktop.core.practice.store import InjectedFault, PracticeError
from tests.helpers.gns3_server import Gns3Server

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

PASS = "the class passphrase"
TRAINER = TrainerSigner.generate("Ms Trainer")


def _exercise() -> ExercisePackage:
    fault = InjectedFault(fault_id="vpcs-wrong-address", title="t", platform="vpcs", node="PC1")
    return ExercisePackage(project_name="week 1", difficulty="beginner", faults=[fault])


def hostile_seal(lab: bytes, signer: TrainerSigner = TRAINER) -> bytes:
    """A file sealed by someone else's tool: the app's own `seal` leaves links out, a hostile
    sealer keeps the archive as it is (same format, passphrase and signature)."""
    original = package.without_copilot_files
    package.without_copilot_files = lambda archive: archive
    try:
        return seal(lab, _exercise(), PASS, signer)
    finally:
        package.without_copilot_files = original


def _entry(name: str, mode: int = stat.S_IFREG | 0o644) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = mode << 16
    info.create_system = 3
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _with(base: bytes, *extra: tuple[zipfile.ZipInfo, bytes]) -> bytes:
    """The real exported project ``base`` plus hostile entries."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(base)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            target.writestr(info, source.read(info))
        for info, data in extra:
            target.writestr(info, data)
    return out.getvalue()


def _bomb(base: bytes, size: int) -> bytes:
    out = io.BytesIO(_with(base))
    entry = _entry("project-files/bomb.bin")
    with (
        zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED) as z,
        z.open(entry, "w", force_zip64=True) as member,
    ):
        chunk = bytes(1024 * 1024)
        for _ in range(size // len(chunk)):
            member.write(chunk)
    return out.getvalue()


class Server:
    """What the test watches on the real server: its projects and its projects folder."""

    def __init__(self, client: Gns3Client, gns3_server: Gns3Server, base: bytes) -> None:
        self.client = client
        self.run_dir = gns3_server.run_dir
        self.projects_dir = gns3_server.run_dir / "projects"
        self.base = base
        # the file a `../../x` entry reaches from <projects>/<id>/
        self.outside = self.run_dir / f"outside-{uuid.uuid4().hex[:8]}.txt"
        self.outside.write_text("the user's own file\n")

    async def state(self) -> tuple[set[str], set[str]]:
        projects = {p.project_id for p in await self.client.list_projects()}
        return projects, {p.name for p in self.projects_dir.iterdir()}

    def outside_untouched(self) -> bool:
        return not self.outside.is_symlink() and self.outside.read_text() == "the user's own file\n"


@pytest_asyncio.fixture
async def server(gns3_client: Gns3Client, gns3_server: Gns3Server) -> AsyncIterator[Server]:
    """The real server, and the archive GNS3 exports for a real (empty) project."""
    project = await gns3_client.create_project(f"base-{random_secrets.token_hex(4)}")
    try:
        base = await gns3_client.export_project(project.project_id)
    finally:
        await gns3_client.delete_project(project.project_id)
    watched = Server(gns3_client, gns3_server, base)
    yield watched
    watched.outside.unlink(missing_ok=True)


def _hostile(server: Server) -> dict[str, tuple[bytes, str, str]]:
    """name -> (lab archive, the entry the refusal names, why)."""
    target = f"../../{server.outside.name}"
    many = [(_entry(f"project-files/f{i:05d}"), b"") for i in range(5_001)]
    return {
        "dotdot link": (
            _with(server.base, (_entry(target, stat.S_IFLNK | 0o777), b"/nonexistent/pwned")),
            target,
            "is a symbolic link",
        ),
        "plain link": (
            _with(
                server.base,
                (_entry("notes.txt", stat.S_IFLNK | 0o777), str(server.outside).encode()),
            ),
            "notes.txt",
            "is a symbolic link",
        ),
        "absolute": (
            _with(server.base, (_entry(str(server.outside)), b"overwritten")),
            str(server.outside),
            "absolute path",
        ),
        "device": (
            _with(server.base, (_entry("project-files/sda", stat.S_IFBLK | 0o660), b"")),
            "project-files/sda",
            "block device",
        ),
        "too many": (_with(server.base, *many), "", "5002 entries; at most 5000"),
        "bomb": (_bomb(server.base, 512 * 1024 * 1024), "project-files/bomb.bin", "beyond 256 MiB"),
    }


async def test_hostile_lab_archives_are_refused_and_nothing_reaches_gns3(server: Server) -> None:
    hostile = _hostile(server)
    assert len(hostile["bomb"][0]) < 1024 * 1024  # a small file, 512 MiB unpacked
    before = await server.state()
    for name, (lab, entry, why) in hostile.items():
        data = hostile_seal(lab)
        with pytest.raises(ArchiveRefusedError, match=why) as caught:
            await import_package(server.client, data, PASS, TRAINER.public)
        assert f"“{entry}”" in caught.value.user_message or not entry, name
        assert "Nothing was imported" in caught.value.user_message, name
        assert await server.state() == before, name
        assert server.outside_untouched(), name


async def test_control_gns3_itself_follows_the_dotdot_link(server: Server) -> None:
    """Without the check, GNS3 3.0.6 deletes the file outside its projects folder and puts a
    link in its place: the archive the test above sends is a real attack."""
    lab, _, _ = _hostile(server)["dotdot link"]
    project_id = str(uuid.uuid4())
    async with httpx.AsyncClient(base_url=server.client.base_url + "/v3") as http:
        response = await http.post(
            f"/projects/{project_id}/import",
            params={"name": f"control-{project_id[:8]}"},
            content=lab,
            headers={"Authorization": f"Bearer {server.client.token}"},
        )
    try:
        assert response.status_code == 201, response.text
        assert server.outside.is_symlink()
        assert str(server.outside.readlink()) == "/nonexistent/pwned"
    finally:
        if response.status_code == 201:
            await server.client.delete_project(project_id)


async def test_a_file_sealed_with_the_passphrase_but_another_key_is_refused(
    server: Server,
) -> None:
    """A student knows the passphrase and seals a file under the trainer's name with their own
    key: refused as not the pinned key; one that keeps the trainer's public key in the header
    but is signed by another key fails the signature; a changed byte fails it too."""
    impostor = TrainerSigner(TRAINER.trainer, TrainerSigner.generate("x").private_key)
    before = await server.state()
    forged = seal(server.base, _exercise(), PASS, impostor)
    assert signer_of(forged).trainer == "Ms Trainer"
    with pytest.raises(
        PracticeError, match="signed by a different key than Ms Trainer's pinned key"
    ):
        await import_package(server.client, forged, PASS, TRAINER.public)

    good = seal(server.base, _exercise(), PASS, TRAINER)
    wrong_signature = good[:-64] + impostor.sign(good[:-64])
    with pytest.raises(
        PracticeError, match="does not match: the file was changed after Ms Trainer"
    ):
        await import_package(server.client, wrong_signature, PASS, TRAINER.public)
    for where in (len(good) // 3, len(good) - 100, len(good) - 1):
        changed = bytearray(good)
        changed[where] ^= 0x40
        with pytest.raises(PracticeError, match="signature of this exercise does not match"):
            await import_package(server.client, bytes(changed), PASS, TRAINER.public)
    unsigned = good[:-64]
    with pytest.raises(PracticeError):
        await import_package(server.client, unsigned, PASS, TRAINER.public)
    assert await server.state() == before

    project, exercise = await import_package(server.client, good, PASS, TRAINER.public)
    try:
        assert exercise == _exercise() and project.name == "week 1 (exercise)"
    finally:
        await server.client.delete_project(project.project_id)
