"""The practice engine: prepare an exercise on the lab, inject it once approved, check the fix.

The flow a learner sees: `prepare` reads the lab and picks faults that apply to it, and returns a
sealed approval ("inject 1 intermediate fault on 2 devices") without touching anything;
`approve` takes a GNS3 snapshot, then injects through the device consoles and the GNS3 link API;
`check` runs the faults' checks against the real lab and answers passed or failed for each,
never which fault it was; `hint` climbs the hint ladder; `give_up` reveals the answer and
offers a restore of the snapshot, which `restore` runs. Everything sealed stays in the
`ExerciseStore`; what this module returns before an exercise ends never holds it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import random
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceJob,
    DeviceOutcome,
    run_on_devices,
    save_running_vpcs,
    target_for_node,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.archive_check import (
    ArchiveLimits,
    CheckedArchive,
    check_project_archive,
)
from gns3_copilot_desktop.core.gns3.models import Link, Node, Project
from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.catalog import (
    DIFFICULTIES,
    Catalog,
    Check,
    Fault,
    Steps,
    load_catalog,
    placeholders,
)
from gns3_copilot_desktop.core.practice.package import ExercisePackage
from gns3_copilot_desktop.core.practice.store import (
    ExerciseRecord,
    ExerciseStore,
    InjectedFault,
    PracticeError,
    now,
)
from gns3_copilot_desktop.core.protocol import ApprovalRequest

log = logging.getLogger(__name__)

INJECT_TOOL = "inject_practice_faults"
RESTORE_TOOL = "restore_practice_snapshot"
PLATFORM_OF_NODE_TYPE = {"vpcs": "vpcs", "dynamips": "ios", "iou": "ios", "docker": "linux"}
BOUND_PLATFORMS = frozenset({"vpcs", "link"})
"""The platforms whose parameters the engine can read from a lab today; faults of the others
stay in the catalog and are not picked."""
HINT_COST = 15
START_WAIT_S = 120.0
BOOT_WAIT_S = 60.0
NO_PACKET = "len < 1"
"""A BPF filter that matches no frame (see `PracticeEngine._heal_link`)."""


@dataclass(frozen=True)
class ExercisePlan:
    """A prepared exercise: its id and the sealed approval to show the learner."""

    exercise_id: str
    approval: ApprovalRequest


@dataclass(frozen=True)
class CheckOutcome:
    """One check as the learner sees it."""

    number: int
    title: str
    passed: bool


@dataclass(frozen=True)
class RevealedFault:
    """One fault, told once the exercise ended."""

    title: str
    where: str
    symptoms: str
    undo: list[str]


@dataclass(frozen=True)
class Reveal:
    """The answer, with the time, hints and score."""

    faults: list[RevealedFault]
    status: str
    seconds: int
    hints_used: int
    score: int


@dataclass(frozen=True)
class CheckReport:
    """The result of "Check my fix"; ``reveal`` only once every check passed."""

    checks: list[CheckOutcome]
    solved: bool
    reveal: Reveal | None = None


@dataclass(frozen=True)
class GiveUp:
    """The answer, and the approval that would restore the lab as it was before."""

    reveal: Reveal
    restore: ApprovalRequest | None


@dataclass
class _LabNode:
    node: Node
    platform: str | None
    address: ipaddress.IPv4Interface | None = None
    gateway: str = ""


@dataclass
class _Candidate:
    fault: Fault
    platform: str
    target: str
    devices: list[str]
    params: dict[str, str]
    node: str | None = None
    link: Link | None = None
    link_name: str | None = None
    excluded: set[str] = field(default_factory=set)


class PracticeEngine:
    """Exercises of one project on one GNS3 server."""

    def __init__(
        self,
        client: Gns3Client,
        project_id: str,
        store: ExerciseStore,
        *,
        server_url: str = "",
        catalog: Catalog | None = None,
        console_options: ConsoleOptions | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._client = client
        self._project_id = project_id
        self._store = store
        self._server_url = server_url or client.base_url
        self._catalog = catalog or load_catalog()
        self._options = console_options or ConsoleOptions(command_timeout=20.0)
        self._rng = rng or random.Random()

    # --- prepare and inject ---------------------------------------------------------------

    async def topics(self) -> list[str]:
        """The topics of the faults that apply to this lab now."""
        candidates = await self._candidates()
        return sorted({c.fault.topic for c in candidates})

    async def prepare(
        self,
        session_id: str,
        *,
        difficulty: str,
        topic: str | None = None,
        count: int = 1,
        fault_ids: Sequence[str] | None = None,
    ) -> ExercisePlan:
        """Pick faults for the lab and store the plan sealed; nothing in the lab changes.

        ``fault_ids`` (a trainer's choice) picks those faults instead of drawing them. The lab
        must pass the chosen faults' checks now, or it could not be fixed afterwards.
        """
        if difficulty not in DIFFICULTIES:
            raise PracticeError(f"Unknown difficulty {difficulty!r}.")
        if not 1 <= count <= 3:
            raise PracticeError("An exercise has 1 to 3 faults.")
        candidates = await self._candidates()
        if fault_ids:
            chosen = self._named(candidates, fault_ids)
        else:
            pool = [
                c
                for c in candidates
                if c.fault.difficulty == difficulty and (topic is None or c.fault.topic == topic)
            ]
            chosen = self._draw(pool, count, await self._used_faults())
        if not chosen:
            raise PracticeError(
                "No fault of this level and topic applies to this lab: start its nodes, give "
                "the hosts addresses, or choose another level or topic."
            )
        for candidate in chosen:
            failing = [
                c.title for c, ok in zip(*await self._run_checks(candidate), strict=True) if not ok
            ]
            if failing:
                raise PracticeError(
                    "The lab does not work yet, so an exercise could not be checked: "
                    f"{'; '.join(failing)}. Make it work first."
                )
        record = ExerciseRecord(
            exercise_id=uuid.uuid4().hex,
            project_id=self._project_id,
            session_id=session_id,
            difficulty=difficulty,
            topic=topic,
            fault_count=len(chosen),
            created_at=now(),
            sealed=[_sealed(c) for c in chosen],
        )
        await self._store.save(record)
        return ExercisePlan(record.exercise_id, _inject_approval(record))

    # --- a trainer's exercise, exported and imported -----------------------------------------

    async def export_package(
        self, exercise_id: str, passphrase: str, signer: package.TrainerSigner
    ) -> bytes:
        """A prepared (not yet injected) exercise and the lab as it is now, as one file sealed
        with ``passphrase`` and signed by the trainer's key, for students (see `package`)."""
        package.check_passphrase(passphrase)  # before the lab is stopped for the export
        record = await self._expect(exercise_id, "planned")
        project = await self._client.get_project(self._project_id)
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

    async def prepare_imported(self, session_id: str) -> ExercisePlan:
        """Bind the imported exercise's faults to this lab again, check the lab works, and
        return the sealed approval. The faults' steps come from the app's catalog: the file only
        named them and where they go."""
        record = await self.imported_exercise()
        if record is None:
            raise PracticeError("No imported exercise waits in this project.")
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

    async def approve(self, exercise_id: str) -> ExerciseRecord:
        """The user approved the sealed plan: snapshot, then inject. Returns the public record."""
        record = await self._expect(exercise_id, "planned")
        stamp = now().strftime("%Y-%m-%d %H:%M:%S")
        # GNS3 snapshots only a stopped project: keep what runs, stop, snapshot, start again.
        record.started_nodes = await self._save_and_stop()
        snapshot = await self._client.create_snapshot(self._project_id, f"before exercise {stamp}")
        record.snapshot_id, record.snapshot_name = snapshot.snapshot_id, snapshot.name
        await self._store.save(record)
        try:
            await self._power(record.started_nodes, "started")
            if not await self._until_working(record):
                raise PracticeError(
                    "The lab did not come back working after its snapshot: nothing was "
                    "injected and the snapshot was restored."
                )
            for fault in record.sealed:
                await self._apply(fault, self._catalog.get(fault.fault_id).inject[fault.platform])
        except Exception:
            record.status = "cancelled"
            await self._store.save(record)
            await self._restore(record)
            raise
        record.status, record.started_at = "active", now()
        await self._store.save(record)
        return record.public()

    async def reject(self, exercise_id: str) -> None:
        """The user rejected the plan: nothing was changed and nothing will be."""
        record = await self._expect(exercise_id, "planned")
        record.status = "cancelled"
        await self._store.save(record)

    # --- during the exercise --------------------------------------------------------------

    async def check(self, exercise_id: str) -> CheckReport:
        """Run every check against the lab; the exercise ends when all pass."""
        record = await self._expect(exercise_id, "active")
        for link_id in {f.link_id for f in record.sealed if f.link_id}:
            link = await self._client.get_link(self._project_id, link_id)
            if not link.suspend and not link.filters:
                await self._heal_link(link_id)
        outcomes: list[CheckOutcome] = []
        for fault in record.sealed:
            checks, results = await self._run_checks(_candidate_of(fault, self._catalog))
            for check, ok in zip(checks, results, strict=True):
                number = len(outcomes) + 1
                outcomes.append(
                    CheckOutcome(number, _public_title(check, number, fault.params), ok)
                )
        record.checks_run += 1
        solved = all(o.passed for o in outcomes)
        if solved:
            record.status, record.ended_at = "solved", now()
            record.score = _score(record)
        await self._store.save(record)
        return CheckReport(outcomes, solved, self._reveal(record) if solved else None)

    async def hint(self, exercise_id: str) -> str:
        """The next hint of the ladder: every fault's first hint, then the second..."""
        record = await self._expect(exercise_id, "active")
        ladder = [
            self._catalog.get(f.fault_id).hints[level] for level in range(3) for f in record.sealed
        ]
        if record.hints_used >= len(ladder):
            raise PracticeError("There are no more hints: check your fix, or give up.")
        text = ladder[record.hints_used]
        record.hints_used += 1
        await self._store.save(record)
        return f"Hint {record.hints_used} of {len(ladder)}: {text}"

    async def give_up(self, exercise_id: str) -> GiveUp:
        """End the exercise: the answer, and the approval to restore the snapshot."""
        record = await self._expect(exercise_id, "active")
        record.status, record.ended_at, record.score = "given_up", now(), 0
        await self._store.save(record)
        restore = None
        if record.snapshot_id:
            restore = ApprovalRequest(
                tool_call_id=f"practice-restore-{record.exercise_id}",
                tool_name=RESTORE_TOOL,
                arguments={"exercise": record.exercise_id, "snapshot": record.snapshot_name},
                summary=f"restore the snapshot {record.snapshot_name!r}",
                risk="change",
                destructive=True,
                consequence="Everything changed in the project since the exercise started is "
                "replaced by the snapshot; the nodes that were running are started again.",
            )
        return GiveUp(self._reveal(record), restore)

    async def restore(self, exercise_id: str) -> None:
        """Restore the snapshot taken before an ended exercise (the user approved it)."""
        record = await self._store.get(exercise_id)
        if not record.ended:
            raise PracticeError("Only an ended exercise's snapshot can be restored.")
        await self._restore(record)

    async def history(self) -> list[ExerciseRecord]:
        """The project's past and current exercises, newest first; answers only once ended."""
        return [r.public() for r in await self._store.list_for_project(self._project_id)]

    # --- internals: the lab ---------------------------------------------------------------

    async def _candidates(self) -> list[_Candidate]:
        nodes = await self._read_nodes()
        links = await self._client.list_links(self._project_id)
        found: list[_Candidate] = []
        for fault in self._catalog.faults:
            for platform in sorted(fault.platforms & BOUND_PLATFORMS):
                if platform == "link":
                    found += [c for c in await self._link_bindings(fault, nodes, links) if c]
                else:
                    found += [
                        c
                        for n in nodes.values()
                        if n.platform == platform and (c := _node_binding(fault, n, nodes))
                    ]
        return found

    async def _read_nodes(self) -> dict[str, _LabNode]:
        nodes = {
            n.node_id: _LabNode(n, PLATFORM_OF_NODE_TYPE.get(n.node_type))
            for n in await self._client.list_nodes(self._project_id)
        }
        vpcs = [n for n in nodes.values() if n.platform == "vpcs" and n.node.status == "started"]
        jobs = [DeviceJob(target_for_node(n.node, self._server_url), ("show ip",)) for n in vpcs]
        for lab_node, outcome in zip(vpcs, await self._run(jobs), strict=True):
            if outcome.ok and outcome.results:
                lab_node.address, lab_node.gateway = _vpcs_address(outcome.results[0].output)
        return nodes

    async def _link_bindings(
        self, fault: Fault, nodes: dict[str, _LabNode], links: list[Link]
    ) -> list[_Candidate | None]:
        action = fault.inject["link"].link
        wanted = set((action.filters or {}) if action else {})
        found: list[_Candidate | None] = []
        for link in links:
            ends = [nodes.get(e.node_id) for e in link.nodes]
            if len(ends) != 2 or any(e is None or e.node.status != "started" for e in ends):
                continue
            a, b = ends[0], ends[1]
            assert a is not None and b is not None
            if wanted and not wanted <= set(
                await self._client.link_filters(self._project_id, link.link_id)
            ):
                continue
            name = f"{a.node.name} <-> {b.node.name}"
            params = {"link": name, "node": a.node.name, "peer": b.node.name}
            if b.address is not None:
                params["peer_address"] = str(b.address.ip)
            candidate = _Candidate(
                fault, "link", f"link:{link.link_id}", [a.node.name, b.node.name], params,
                link=link, link_name=name,
            )  # fmt: skip
            found.append(candidate if _bound(fault, "link", params) else None)
        return found

    async def _apply(self, fault: InjectedFault, steps: Steps) -> None:
        if steps.link is not None:
            assert fault.link_id is not None
            await self._client.update_link(
                self._project_id,
                fault.link_id,
                suspend=steps.link.suspend,
                filters=steps.link.filters,
            )
        if steps.console or steps.config:
            node = await self._node_named(fault.node or "")
            job = DeviceJob(
                target_for_node(node, self._server_url),
                commands=tuple(_fill(c, fault.params) for c in steps.console),
                config_lines=tuple(_fill(c, fault.params) for c in steps.config),
            )
            [outcome] = await self._run([job])
            if not outcome.ok or (outcome.config is not None and not outcome.config.ok):
                raise PracticeError(f"The exercise could not be set up on {node.name}.")

    async def _run_checks(self, candidate: _Candidate) -> tuple[list[Check], list[bool]]:
        checks = list(candidate.fault.checks)
        return checks, [await self._check_one(check, candidate) for check in checks]

    async def _check_one(self, check: Check, candidate: _Candidate) -> bool:
        params = candidate.params
        if check.kind == "link":
            assert candidate.link is not None
            link = await self._client.get_link(self._project_id, candidate.link.link_id)
            return not link.suspend and not link.filters
        if check.kind == "ping":
            node = await self._node_named(_fill(check.from_ or "", params))
            to = _fill(check.to or "", params)
            output = await self._output(node, _ping_command(node, to))
            return _ping_answered(output, to)
        node = await self._node_named(candidate.node or "")
        output = await self._output(node, _fill(check.command or "", params))
        found = re.search(_fill(check.expect or "", params), output) is not None
        return found != check.absent

    async def _heal_link(self, link_id: str) -> None:
        """Make the compute forget a link's last filter once the API shows the link clean.

        GNS3 3.0.6 applies a link's filters to a running node's ubridge only when there are
        some: resuming a suspended link (or clearing its filters) leaves the old drop filter in
        place, and traffic stays blocked although the API says the link is fine. Setting a
        filter that matches no packet replaces the stale one; clearing it again leaves that
        harmless filter behind and the API as the user left it."""
        await self._client.update_link(self._project_id, link_id, filters={"bpf": [NO_PACKET]})
        await self._client.update_link(self._project_id, link_id, filters={})

    async def _output(self, node: Node, command: str) -> str:
        [outcome] = await self._run(
            [DeviceJob(target_for_node(node, self._server_url), (command,))]
        )
        return "\n".join(r.output for r in outcome.results)

    async def _run(self, jobs: list[DeviceJob]) -> list[DeviceOutcome]:
        return await run_on_devices(jobs, self._options) if jobs else []

    async def _node_named(self, name: str) -> Node:
        for node in await self._client.list_nodes(self._project_id):
            if node.name == name:
                return node
        raise PracticeError(f"The node {name} is no longer in the project.")

    async def _restore(self, record: ExerciseRecord) -> None:
        if not record.snapshot_id:
            return
        await self._client.restore_snapshot(self._project_id, record.snapshot_id)
        await self._power(record.started_nodes, "started")
        if not await self._until_working(record):
            raise PracticeError(
                f"The snapshot {record.snapshot_name!r} was restored, but the lab does not pass "
                "the exercise's checks yet: look at the nodes' consoles."
            )

    async def _until_working(self, record: ExerciseRecord) -> bool:
        """Wait (bounded) until every check of the plan passes again after the restart: a node
        just started answers its first console command before it ran its startup script."""
        try:
            async with asyncio.timeout(BOOT_WAIT_S):
                while True:
                    results = [
                        ok
                        for fault in record.sealed
                        for ok in (await self._run_checks(_candidate_of(fault, self._catalog)))[1]
                    ]
                    if all(results):
                        return True
                    await asyncio.sleep(1.0)
        except TimeoutError:
            return False

    async def _save_and_stop(self) -> list[str]:
        """Save the running VPCS configurations and stop the running nodes; their names."""
        nodes = await self._client.list_nodes(self._project_id)
        started = [n.name for n in nodes if n.status == "started"]
        await save_running_vpcs(nodes, self._server_url, self._options)
        await self._power(started, "stopped")
        return started

    async def _power(self, names: list[str], status: str) -> None:
        """Start or stop these nodes and wait (bounded) until the server reports it."""
        wanted = set(names)
        for node in await self._client.list_nodes(self._project_id):
            if node.name in wanted and node.status != status:
                if status == "started":
                    await self._client.start_node(self._project_id, node.node_id)
                else:
                    await self._client.stop_node(self._project_id, node.node_id)
        try:
            async with asyncio.timeout(START_WAIT_S):
                while True:  # the node status is read from the server until it is reached
                    nodes = await self._client.list_nodes(self._project_id)
                    if all(n.status == status for n in nodes if n.name in wanted):
                        return
                    await asyncio.sleep(0.5)
        except TimeoutError as exc:
            raise PracticeError(f"The nodes were not {status} after {START_WAIT_S:.0f} s.") from exc

    # --- internals: records ---------------------------------------------------------------

    async def _expect(self, exercise_id: str, status: str) -> ExerciseRecord:
        record = await self._store.get(exercise_id)
        if record.project_id != self._project_id:
            raise PracticeError("This exercise belongs to another project.")
        if record.status != status:
            raise PracticeError(f"This exercise is {record.status.replace('_', ' ')}.")
        return record

    async def _used_faults(self) -> set[str]:
        return {
            f.fault_id
            for r in await self._store.list_for_project(self._project_id)
            if r.status != "cancelled"
            for f in r.sealed
        }

    def _draw(self, pool: list[_Candidate], count: int, used: set[str]) -> list[_Candidate]:
        """Up to ``count`` different faults on different targets, faults not used before first."""
        fresh = [c for c in pool if c.fault.id not in used]
        ordered = self._rng.sample(fresh, len(fresh)) + self._rng.sample(
            [c for c in pool if c.fault.id in used], len(pool) - len(fresh)
        )
        chosen: list[_Candidate] = []
        for candidate in ordered:
            if len(chosen) == count:
                break
            if all(
                c.fault.id != candidate.fault.id and c.target != candidate.target for c in chosen
            ):
                chosen.append(candidate)
        return chosen

    def _named(self, pool: list[_Candidate], fault_ids: Sequence[str]) -> list[_Candidate]:
        chosen: list[_Candidate] = []
        for fault_id in fault_ids:
            fitting = [
                c
                for c in pool
                if c.fault.id == fault_id and all(c.target != o.target for o in chosen)
            ]
            if not fitting:
                raise PracticeError(f"The fault {fault_id} does not apply to this lab.")
            chosen.append(fitting[0])
        return chosen

    def _reveal(self, record: ExerciseRecord) -> Reveal:
        faults = []
        for sealed in record.sealed:
            fault = self._catalog.get(sealed.fault_id)
            steps = fault.undo[sealed.platform]
            undo = [_fill(s, sealed.params) for s in [*steps.console, *steps.config]]
            if steps.link is not None:
                undo.append(_link_text(steps, sealed.link_name or ""))
            where = sealed.link_name or sealed.node or ""
            faults.append(RevealedFault(fault.title, where, fault.symptoms, undo))
        end = record.ended_at or now()
        seconds = int((end - (record.started_at or end)).total_seconds())
        return Reveal(faults, record.status, seconds, record.hints_used, record.score or 0)


# --- helpers ------------------------------------------------------------------------------------


def _inject_approval(record: ExerciseRecord) -> ApprovalRequest:
    """The sealed card: how many faults of which level on how many devices, never which."""
    devices = {d for f in record.sealed for d in f.devices}
    faults = "fault" if record.fault_count == 1 else "faults"
    on = "device" if len(devices) == 1 else "devices"
    summary = f"inject {record.fault_count} {record.difficulty} {faults} on {len(devices)} {on}"
    return ApprovalRequest(
        tool_call_id=f"practice-inject-{record.exercise_id}",
        tool_name=INJECT_TOOL,
        arguments={"exercise": record.exercise_id},
        summary=summary,
        risk="change",
        destructive=True,
        consequence="First the running VPCS configurations are saved and the running nodes are "
        "stopped for a snapshot of the project (GNS3 needs a stopped project), then started "
        "again; giving up restores that snapshot. What is injected stays sealed until the "
        "exercise ends.",
    )


def _sealed(candidate: _Candidate) -> InjectedFault:
    return InjectedFault(
        fault_id=candidate.fault.id,
        title=candidate.fault.title,
        platform=candidate.platform,
        node=candidate.node,
        link_id=candidate.link.link_id if candidate.link else None,
        link_name=candidate.link_name,
        devices=candidate.devices,
        params=candidate.params,
    )


def _candidate_of(fault: InjectedFault, catalog: Catalog) -> _Candidate:
    link = Link(link_id=fault.link_id, nodes=[]) if fault.link_id is not None else None
    return _Candidate(
        catalog.get(fault.fault_id), fault.platform, "", fault.devices, fault.params,
        node=fault.node, link=link, link_name=fault.link_name,
    )  # fmt: skip


def _node_binding(fault: Fault, lab: _LabNode, nodes: dict[str, _LabNode]) -> _Candidate | None:
    """The fault's parameters on ``lab`` (a started VPCS with an address and a peer), or None."""
    if lab.node.status != "started" or lab.address is None:
        return None
    here = lab.address
    peers = [
        n for n in nodes.values()
        if n is not lab and n.address is not None and n.address.ip in here.network
    ]  # fmt: skip
    if not peers:
        return None
    peer = sorted(peers, key=lambda n: n.node.name)[0]
    assert peer.address is not None
    size = here.network.num_addresses
    wrong = ipaddress.IPv4Address((int(here.ip) + size) % 2**32)
    params = {
        "node": lab.node.name,
        "peer": peer.node.name,
        "address": str(here.ip),
        "prefix": str(here.network.prefixlen),
        "mask": str(here.network.netmask),
        "gateway": lab.gateway,
        "peer_address": str(peer.address.ip),
        "wrong_address": str(wrong),
    }
    for longer in range(here.network.prefixlen + 1, 31):
        if peer.address.ip not in ipaddress.ip_interface(f"{here.ip}/{longer}").network:
            params["wrong_prefix"] = str(longer)
            break
    taken = {str(n.address.ip) for n in nodes.values() if n.address is not None}
    spare = [str(h) for h in reversed(list(here.network.hosts())[-8:]) if str(h) not in taken]
    if lab.gateway and spare:
        params["wrong_gateway"] = spare[0]
    if not _bound(fault, "vpcs", params):
        return None
    return _Candidate(
        fault, "vpcs", f"node:{lab.node.name}", [lab.node.name], params, node=lab.node.name
    )


def _bound(fault: Fault, platform: str, params: dict[str, str]) -> bool:
    """Whether every placeholder the fault uses on ``platform`` has a value (checks need a
    non-empty one; a step may leave ``gateway`` empty)."""
    steps = [fault.inject[platform], fault.undo[platform]]
    in_steps = {p for s in steps for t in s.texts() for p in placeholders(t)}
    in_checks = {p for c in fault.checks for t in c.texts() for p in placeholders(t)}
    return all(p in params for p in in_steps) and all(params.get(p) for p in in_checks)


def _fill(text: str, params: dict[str, str]) -> str:
    return " ".join(text.format_map(params).split())


def _vpcs_address(output: str) -> tuple[ipaddress.IPv4Interface | None, str]:
    """The address and gateway in VPCS ``show ip`` output (``IP/MASK : 10.0.0.1/24``)."""
    found = re.search(r"IP/MASK\s*:\s*(\d+\.\d+\.\d+\.\d+/\d+)", output)
    gateway = re.search(r"GATEWAY\s*:\s*(\d+\.\d+\.\d+\.\d+)", output)
    address = ipaddress.IPv4Interface(found.group(1)) if found else None
    if address is not None and int(address.ip) == 0:
        address = None
    gw = gateway.group(1) if gateway and gateway.group(1) != "0.0.0.0" else ""
    return address, gw


def _ping_command(node: Node, to: str) -> str:
    platform = PLATFORM_OF_NODE_TYPE.get(node.node_type)
    if platform == "vpcs":
        return f"ping {to} -c 2"
    if platform == "ios":
        return f"ping {to} repeat 3"
    return f"ping -c 3 -W 1 {to}"


def _ping_answered(output: str, to: str) -> bool:
    """Whether a ping got an answer: VPCS ``10.0.0.2 icmp_seq=1 ttl=64``, Linux ``64 bytes from
    10.0.0.2: icmp_seq=1``, IOS ``Success rate is 100 percent``."""
    address = re.escape(to)
    pattern = rf"{address}:? icmp_seq=\d+ ttl=|bytes from {address}\b|Success rate is [1-9]"
    return re.search(pattern, output) is not None


def _public_title(check: Check, number: int, params: dict[str, str]) -> str:
    """Reachability says nothing of the fault; other checks would, so they stay numbered."""
    return _fill(check.title, params) if check.kind == "ping" else f"Lab check {number}"


def _link_text(steps: Steps, link_name: str) -> str:
    action = steps.link
    assert action is not None
    if action.suspend is False:
        return f"resume the link {link_name}"
    return f"remove the packet filters of the link {link_name}"


def _score(record: ExerciseRecord) -> int:
    """100, less 15 a hint and a point a minute beyond 10 minutes a fault; at least 10."""
    minutes = ((record.ended_at or now()) - (record.started_at or now())).total_seconds() / 60
    late = max(0, int(minutes) - 10 * record.fault_count)
    return max(10, 100 - HINT_COST * record.hints_used - late)


def _checked_lab(
    data: bytes, passphrase: str, trusted: package.TrainerKey, limits: ArchiveLimits | None = None
) -> tuple[ExercisePackage, CheckedArchive]:
    """Open a signed exercise file and check its lab archive the way an import does."""
    exercise, archive = package.open_sealed(data, passphrase, trusted)
    return exercise, check_project_archive(archive, limits)


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
