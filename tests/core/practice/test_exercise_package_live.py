"""A trainer's exercise exported and imported on the REAL GNS3 server with REAL VPCS nodes.

The trainer prepares an exercise on the linked PC1/PC2 lab and exports it with a passphrase; the
file holds the lab (a GNS3 portable project) and the sealed faults, encrypted. A student's
installation (its own exercise store) imports it: the lab becomes a new project without the
trainer's copilot files, the exercise waits for a Practice session, is bound to the imported lab
again, shown sealed, injected after the approval and checked.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.practice.engine import (
    LabStoppedError,
    PracticeEngine,
    import_package,
)
from gns3_copilot_desktop.core.practice.package import MAGIC, TrainerSigner, signer_of
from gns3_copilot_desktop.core.practice.store import ExerciseStore, PracticeError
from tests.core.practice.test_practice_live import ADDRESSES, PracticeLab, practice_lab

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]
__all__ = ["practice_lab"]  # the fixture, shared with the exercise tests

PASSPHRASE = "correct horse battery staple"
TRAINER = TrainerSigner.generate("Ms Trainer")


def _plant(folder: Path, secret: str) -> None:
    (folder / ".gns3-copilot").mkdir()
    (folder / ".gns3-copilot" / "copilot_practice.db").write_text(secret)
    (folder / ".gns3-copilot" / "leases.json").write_text(secret)
    (folder / "copilot_checkpoints.db-wal").write_text(secret)


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file()}


async def test_trainer_exports_and_a_student_imports_and_runs_the_exercise(
    practice_lab: PracticeLab, tmp_path: Path
) -> None:
    lab, trainer = practice_lab, practice_lab.engine
    # The trainer's copilot keeps its files in the project folder: they must not travel.
    project = await lab.client.get_project(lab.project_id)
    assert project.path
    secret = f"trainer-answer-{uuid.uuid4().hex}"
    _plant(Path(project.path), secret)

    plan = await trainer.prepare("trainer", difficulty="beginner", fault_ids=["vpcs-wrong-address"])
    with pytest.raises(PracticeError, match="at least 8 characters"):
        await trainer.export_package(plan.exercise_id, "short", TRAINER)
    data = await trainer.export_package(plan.exercise_id, PASSPHRASE, TRAINER)
    assert signer_of(data) == TRAINER.public
    assert data.startswith(MAGIC)
    for clear in (b"vpcs-wrong-address", b"PC1", secret.encode(), b"192.0.2.1"):
        assert clear not in data
    assert await lab.pings("PC1", ADDRESSES["PC2"])  # exporting changed nothing in the lab

    student_store = ExerciseStore(tmp_path / "student" / "practice.db", os.urandom(32))
    (tmp_path / "student").mkdir()
    with pytest.raises(PracticeError, match="passphrase is wrong"):
        await import_package(lab.client, data, "not the passphrase", TRAINER.public)
    changed = bytearray(data)
    changed[-20] ^= 1
    with pytest.raises(PracticeError, match="signature of this exercise does not match"):
        await import_package(lab.client, bytes(changed), PASSPHRASE, TRAINER.public)
    before = {p.project_id for p in await lab.client.list_projects()}
    assert len(before) == len({p.name for p in await lab.client.list_projects()})

    imported, exercise = await import_package(lab.client, data, PASSPHRASE, TRAINER.public)
    try:
        assert imported.project_id not in before
        assert imported.name == f"{project.name} (exercise)"
        assert exercise.difficulty == "beginner" and len(exercise.faults) == 1
        opened = await lab.client.open_project(imported.project_id)
        assert opened.path and Path(opened.path) != Path(project.path)
        files = _files(Path(opened.path))
        assert not [name for name in files if name.startswith("copilot_") or name == "leases.json"]
        assert all(secret not in text for text in files.values())

        student = PracticeEngine(lab.client, imported.project_id, student_store)
        assert await student.imported_exercise() is None
        await student.keep_imported(exercise)
        waiting = await student.imported_exercise()
        assert waiting is not None and waiting.sealed == []  # public: the answer stays sealed
        # The imported nodes arrive stopped: the student is told to start the lab (not to
        # import again), and "Start the lab" starts exactly those.
        with pytest.raises(LabStoppedError) as stopped:
            await student.prepare_imported("student-session")
        assert stopped.value.nodes == ["PC1", "PC2"]
        assert await student.start_lab() == ["PC1", "PC2"]
        nodes = await lab.client.list_nodes(imported.project_id)
        assert all(n.status == "started" for n in nodes)
        assert await student.stopped_nodes() == []
        student_lab = PracticeLab(lab.client, imported.project_id, student)
        async with asyncio.timeout(60):  # the saved startup configurations travelled
            for name, address in ADDRESSES.items():
                # a VPCS just started runs its startup file soon after: poll its console
                while address.split("/")[0] not in await student_lab.run(name, "show ip"):  # noqa: ASYNC110
                    await asyncio.sleep(0.5)

            while not await student_lab.pings("PC1", ADDRESSES["PC2"]):  # noqa: ASYNC110
                await asyncio.sleep(0.5)  # the first ping after a start may go before ARP

        plan2 = await student.prepare_imported("student-session")
        assert plan2.approval.summary == "inject 1 beginner fault on 1 device"
        assert "PC1" not in plan2.approval.model_dump_json()
        assert await student.imported_exercise() is None  # bound to the session now
        public = await student.approve(plan2.exercise_id)
        assert public.status == "active" and public.sealed == []
        assert not await student_lab.pings("PC1", ADDRESSES["PC2"])
        report = await student.check(plan2.exercise_id)
        assert not report.solved and report.reveal is None
        await student_lab.run("PC1", f"ip {ADDRESSES['PC1']}")
        report = await student.check(plan2.exercise_id)
        assert report.solved and report.reveal is not None
        # The trainer's own exercise is untouched by the student's.
        assert (await trainer._store.get(plan.exercise_id)).status == "planned"
    finally:
        await lab.client.delete_project(imported.project_id)


async def test_start_the_lab_waits_only_for_hosts_with_a_saved_address(
    practice_lab: PracticeLab,
) -> None:
    """A VPCS whose startup file sets no address never gets one: "Start the lab" does not wait
    for it (it waited the whole two minutes), while the host with a saved address is waited for
    until it has loaded it."""
    lab = practice_lab
    nodes = {n.name: n for n in await lab.client.list_nodes(lab.project_id)}
    for node in nodes.values():
        await lab.client.stop_node(lab.project_id, node.node_id)
    # PC2 forgets its address, as a host the trainer never configured
    await lab.client.write_node_file(
        lab.project_id, nodes["PC2"].node_id, "startup.vpc", "set pcname PC2\n"
    )
    assert await lab.engine.stopped_nodes() == ["PC1", "PC2"]
    async with asyncio.timeout(45):  # well under the 120 s a host without an address cost
        assert await lab.engine.start_lab() == ["PC1", "PC2"]
    assert ADDRESSES["PC1"].split("/")[0] in await lab.run("PC1", "show ip")
    assert ADDRESSES["PC2"].split("/")[0] not in await lab.run("PC2", "show ip")
