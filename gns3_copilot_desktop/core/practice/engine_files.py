"""A trainer's exercise files on the engine: export a prepared exercise (rehearsed first),
import one, keep it for the imported project, start its lab and prepare it in a session.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.archive_check import (
    ArchiveLimits,
)
from gns3_copilot_desktop.core.gns3.models import Project
from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.catalog import (
    DIFFICULTIES,
    load_catalog,
)
from gns3_copilot_desktop.core.practice.engine_inject import _Injecting
from gns3_copilot_desktop.core.practice.lab_facts import (
    ALWAYS_ON,
    PLATFORM_OF_NODE_TYPE,
    START_WAIT_S,
    STATIC_ADDRESS,
    _Candidate,
    _checked_lab,
    _inject_approval,
    _sealed,
)
from gns3_copilot_desktop.core.practice.package import ExercisePackage
from gns3_copilot_desktop.core.practice.results import (
    ExercisePlan,
    LabStoppedError,
)
from gns3_copilot_desktop.core.practice.store import (
    ExerciseRecord,
    PracticeError,
    now,
)

log = logging.getLogger(__name__)


async def import_package(
    client: Gns3Client,
    data: bytes,
    passphrase: str,
    trusted: package.TrainerKey,
    *,
    limits: ArchiveLimits | None = None,
) -> tuple[Project, ExercisePackage]:
    """Open a trainer's exercise file signed by ``trusted`` and import its lab as a new GNS3
    project. The signature, the faults and every entry of the lab archive are checked before
    the server is called. The new project's engine keeps the sealed faults
    (`PracticeEngine.keep_imported`): each project's exercises live beside its own
    conversations."""
    exercise, archive = await asyncio.to_thread(_checked_lab, data, passphrase, trusted, limits)
    if exercise.difficulty not in DIFFICULTIES:
        raise PracticeError("This exercise file names an unknown level.")
    catalog = load_catalog()
    known = {f.id: f for f in catalog.faults}
    for fault in exercise.faults:
        if fault.fault_id not in known or fault.platform not in known[fault.fault_id].inject:
            raise PracticeError(
                f"This exercise needs the fault {fault.fault_id!r}, which this version of GNS3 "
                "Copilot does not have."
            )
    names = {p.name for p in await client.list_projects()}
    # the name is the file's: one line of printable text, no path separators
    base = "".join(c if c.isprintable() and c not in "/\\" else " " for c in exercise.project_name)
    base = " ".join(base.split())[:100] or "lab"
    name, n = f"{base} (exercise)", 2
    while name in names:
        name, n = f"{base} (exercise {n})", n + 1
    project = await client.import_project(name, archive)
    return project, exercise


class _TrainerFiles(_Injecting):
    """A trainer's exercise files: export, import, an imported lab started and prepared."""

    async def export_package(
        self, exercise_id: str, passphrase: str, signer: package.TrainerSigner
    ) -> bytes:
        """A prepared (not yet injected) exercise and the lab as it is now, as one file sealed
        with ``passphrase`` and signed by the trainer's key, for students (see `package`)."""
        package.check_passphrase(passphrase)  # before the lab is stopped for the export
        record = await self._expect(exercise_id, "planned")
        project = await self._client.get_project(self._project_id)
        # a fault the trainer's own lab refuses would never start on a student's: prove each
        # one injects and breaks its checks, then undo it, before anything is exported
        await self._inject_verified(record.sealed)
        left = await self._undo_all(list(reversed(record.sealed)))
        if left:
            raise PracticeError(f"The rehearsal of the exercise left: {'; '.join(left)}.")
        # GNS3 exports only a stopped project: keep what runs, stop, export, start again.
        started = await self._save_and_stop()
        try:
            archive = await self._client.export_project(self._project_id)
        finally:
            await self._power(started, "started")
        await self._until_working(record)  # the trainer's lab answers again as before
        exercise = ExercisePackage(
            project_name=project.name,
            difficulty=record.difficulty,
            topic=record.topic,
            faults=[f.model_copy(update={"link_id": None}) for f in record.sealed],
        )
        data = await asyncio.to_thread(package.seal, archive, exercise, passphrase, signer)
        # what a student's import will refuse is refused here, where the trainer can mend it
        await asyncio.to_thread(_checked_lab, data, passphrase, signer.public)
        return data

    async def import_exercise(
        self, data: bytes, passphrase: str, trusted: package.TrainerKey
    ) -> tuple[Project, ExercisePackage]:
        """Import a trainer's exercise file signed by ``trusted`` as a new project (see
        `import_package`); the new project's engine then keeps the exercise (`keep_imported`)."""
        return await import_package(self._client, data, passphrase, trusted)

    async def keep_imported(self, exercise: ExercisePackage) -> ExerciseRecord:
        """Keep an imported exercise for this (the imported) project, sealed, without a session:
        a Practice session here starts it (`prepare_imported`). Returns the public record."""
        record = ExerciseRecord(
            exercise_id=uuid.uuid4().hex,
            project_id=self._project_id,
            session_id="",
            difficulty=exercise.difficulty,
            topic=exercise.topic,
            fault_count=len(exercise.faults),
            created_at=now(),
            sealed=exercise.faults,
            imported=True,
        )
        await self._store.save(record)
        return record.public()

    async def imported_exercise(self) -> ExerciseRecord | None:
        """The trainer's exercise imported with this project and not started yet (public)."""
        for record in await self._store.list_for_project(self._project_id):
            if record.imported and record.status == "planned" and not record.session_id:
                return record.public()
        return None

    async def stopped_nodes(self) -> list[str]:
        """The lab's nodes that can run and are not running (an imported lab arrives stopped)."""
        nodes = await self._client.list_nodes(self._project_id)
        return sorted(
            n.name for n in nodes if n.status != "started" and n.node_type not in ALWAYS_ON
        )

    async def start_lab(self) -> list[str]:
        """Start every stopped node of the lab, as the user asked with "Start the lab", and wait
        (bounded) until they run and each VPCS has loaded the address its startup file gives it;
        the names of the nodes started."""
        names = await self.stopped_nodes()
        addressed = await self._saved_addresses(names)
        await self._power(names, "started")
        try:
            async with asyncio.timeout(START_WAIT_S):
                while True:  # a VPCS reads its startup file a moment after it starts
                    nodes = await self._read_nodes()
                    if all(
                        n.address is not None for n in nodes.values() if n.node.name in addressed
                    ):
                        break
                    await asyncio.sleep(0.5)
        except TimeoutError:
            pass  # a host that never loads its address: the checks will say so
        return names

    async def _saved_addresses(self, names: list[str]) -> set[str]:
        """The VPCS among ``names`` whose startup file sets a static address: only those are
        waited for (a host without one would never get one, however long the wait)."""
        found = set()
        for node in await self._client.list_nodes(self._project_id):
            if node.name in names and PLATFORM_OF_NODE_TYPE.get(node.node_type) == "vpcs":
                script = await self._client.read_node_file(
                    self._project_id, node.node_id, "startup.vpc"
                )
                if script and STATIC_ADDRESS.search(script):
                    found.add(node.name)
        return found

    async def prepare_imported(self, session_id: str) -> ExercisePlan:
        """Bind the imported exercise's faults to this lab again, check the lab works, and
        return the sealed approval. The faults' steps come from the app's catalog: the file only
        named them and where they go. `LabStoppedError` when the lab's nodes are stopped (as an
        imported lab arrives): the user starts the lab first."""
        record = await self.imported_exercise()
        if record is None:
            raise PracticeError("No imported exercise waits in this project.")
        stopped = await self.stopped_nodes()
        if stopped:
            raise LabStoppedError(stopped)
        record = await self._store.get(record.exercise_id)
        candidates = await self._candidates()
        chosen: list[_Candidate] = []
        for fault in record.sealed:
            fitting = [
                c
                for c in candidates
                if c.fault.id == fault.fault_id
                and c.platform == fault.platform
                and (c.node, c.link_name) == (fault.node, fault.link_name)
            ]
            if not fitting:
                raise PracticeError(
                    "The imported lab is not the trainer's any more (a fault's device or link "
                    "is missing): import the exercise again."
                )
            chosen.append(fitting[0])
        for candidate in chosen:
            checks, passed = await self._run_checks(candidate)
            failing = [c.title for c, ok in zip(checks, passed, strict=True) if not ok]
            if failing:
                raise PracticeError(
                    "The lab does not work yet, so the exercise could not be checked: "
                    f"{'; '.join(failing)}. Start its nodes and try again."
                )
        record.session_id = session_id
        record.sealed = [_sealed(c) for c in chosen]
        await self._store.save(record)
        return ExercisePlan(record.exercise_id, _inject_approval(record))
