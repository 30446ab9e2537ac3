"""The practice engine: prepare an exercise on the lab, inject it once approved, check the fix.

The flow a learner sees: `prepare` reads the lab and picks faults that apply to it, and returns a
sealed approval ("inject 1 intermediate fault on 2 devices") without touching anything;
`approve` injects each fault by its own steps (device consoles, the GNS3 link API) on the
running lab, reads it back and starts the exercise only when every fault is there and breaks
its checks; `check` runs the faults' checks against the real lab and answers passed, failed or
cannot check for each, never which fault it was; `hint` climbs the hint ladder; `give_up`
reveals the answer and offers to run the faults' undo steps, which `restore` runs. No node is
stopped and no GNS3 snapshot is taken. Everything sealed stays in the `ExerciseStore`; what this
module returns before an exercise ends never holds it.
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
from typing import Literal

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceJob,
    DeviceOutcome,
    run_on_devices,
    save_running_vpcs,
    target_for_node,
)
from gns3_copilot_desktop.core.errors import CopilotError, Gns3NotFoundError
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
RESTORE_TOOL = "restore_practice_lab"
PLATFORM_OF_NODE_TYPE = {"vpcs": "vpcs", "dynamips": "ios", "iou": "ios", "docker": "linux"}
BOUND_PLATFORMS = frozenset({"vpcs", "link"})
"""The platforms whose parameters the engine can read from a lab today; faults of the others
stay in the catalog and are not picked."""
ALWAYS_ON = frozenset(
    {"ethernet_switch", "ethernet_hub", "cloud", "nat", "frame_relay_switch", "atm_switch"}
)
"""Node types GNS3 reports as started and never stops: they are not powered or waited on."""
HINT_COST = 15
START_WAIT_S = 120.0
RECHECK_DELAY_S = 3.0
CheckState = Literal["passed", "failed", "cannot_check"]
NO_PACKET = "len < 1"
"""A BPF filter that matches no frame (see `PracticeEngine._heal_link`)."""


class LabStoppedError(PracticeError):
    """The lab's nodes are stopped: the exercise can start once the lab runs."""

    def __init__(self, nodes: list[str]) -> None:
        self.nodes = nodes
        shown = ", ".join(nodes[:6]) + (f" and {len(nodes) - 6} more" if len(nodes) > 6 else "")
        super().__init__(f"The lab is stopped ({shown}): start the lab, then the exercise.")


@dataclass(frozen=True)
class ExercisePlan:
    """A prepared exercise: its id and the sealed approval to show the learner."""

    exercise_id: str
    approval: ApprovalRequest


@dataclass(frozen=True)
class CheckOutcome:
    """One check as the learner sees it: ``state`` is ``cannot_check`` when its device or link
    is gone, stopped or silent (``reason`` says which), never a pass."""

    number: int
    title: str
    passed: bool
    state: CheckState = "failed"
    reason: str = ""

    def __post_init__(self) -> None:
        if self.passed and self.state != "passed":
            object.__setattr__(self, "state", "passed")


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
        self.recheck_delay_s = RECHECK_DELAY_S
        """How long a passing lab is left before its second check."""

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
                if c.fault.difficulty == difficulty
                and (topic is None or c.fault.topic == topic)
                and not c.fault.known_issue
            ]
            # a fault whose checks the lab does not pass now (no host beyond the gateway, ...)
            # could never be scored: draw among those it passes
            pool = [c for c in pool if not await self._failing(c)]
            chosen = self._draw(pool, count, await self._used_faults())
        if not chosen:
            raise PracticeError(
                "No fault of this level and topic applies to this lab: start its nodes, give "
                "the hosts addresses, or choose another level or topic."
            )
        for candidate in chosen:
            failing = await self._failing(candidate)
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
            ticket=_ticket(chosen),
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
        await self._power(names, "started")
        try:
            async with asyncio.timeout(START_WAIT_S):
                while True:  # a VPCS reads its startup file a moment after it starts
                    nodes = await self._read_nodes()
                    if all(
                        n.address is not None
                        for n in nodes.values()
                        if n.node.name in names and n.platform == "vpcs"
                    ):
                        break
                    await asyncio.sleep(0.5)
        except TimeoutError:
            pass  # a host with no saved address stays without one: the checks will say so
        return names

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

    async def approve(self, exercise_id: str) -> ExerciseRecord:
        """The user approved the sealed plan: inject by each fault's own steps, then prove every
        fault is there. The lab keeps running throughout; a start that fails half way undoes
        what it injected. The clock starts only once every fault is verified."""
        record = await self._expect(exercise_id, "planned")
        try:
            await self._inject_verified(record.sealed)
        except BaseException:
            record.status = "cancelled"
            await self._store.save(record)
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
        """Run every check against the lab; the exercise ends when all pass, twice, a few
        seconds apart (a flapping fault does not pass by luck). A check whose device or link
        is gone, stopped or silent cannot be checked: the lab changed, which is never a pass."""
        record = await self._expect(exercise_id, "active")
        outcomes = await self._outcomes(record)
        solved = all(o.passed for o in outcomes)
        if solved:
            await asyncio.sleep(self.recheck_delay_s)
            outcomes = await self._outcomes(record)
            solved = all(o.passed for o in outcomes)
        record.checks_run += 1
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
        """End the exercise: the answer, and the approval to undo the faults it injected."""
        record = await self._expect(exercise_id, "active")
        record.status, record.ended_at, record.score = "given_up", now(), 0
        await self._store.save(record)
        devices = sorted({d for f in record.sealed for d in f.devices})
        restore = ApprovalRequest(
            tool_call_id=f"practice-restore-{record.exercise_id}",
            tool_name=RESTORE_TOOL,
            arguments={"exercise": record.exercise_id},
            summary=f"undo the exercise's faults on {', '.join(devices)}",
            risk="change",
            destructive=False,
            consequence="Each fault's own undo steps run (shown above); nothing else in the lab "
            "changes and no node is stopped. A device or link you removed meanwhile is left as "
            "it is.",
        )
        return GiveUp(self._reveal(record), restore)

    async def restore(self, exercise_id: str) -> list[str]:
        """Undo the faults of an ended exercise (the user approved it) by their own undo steps;
        what could not be undone because the lab changed, one sentence each."""
        record = await self._store.get(exercise_id)
        if record.project_id != self._project_id:
            raise PracticeError("This exercise belongs to another project.")
        if not record.ended:
            raise PracticeError("Only an ended exercise can be undone.")
        return await self._undo_all(record.sealed)

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
            name, devices = f"{a.node.name} <-> {b.node.name}", [a.node.name, b.node.name]
            if a.address is None:
                a, b = b, a  # the host end first
            params = {"link": name, "node": a.node.name, "peer": b.node.name}
            peer = b if b.address is not None else _across(a, b, nodes)
            if peer is not None and peer.address is not None:
                params["peer"], params["peer_address"] = peer.node.name, str(peer.address.ip)
            candidate = _Candidate(
                fault, "link", f"link:{link.link_id}", devices, params, link=link, link_name=name,
            )  # fmt: skip
            found.append(candidate if _bound(fault, "link", params) else None)
        return found

    async def _inject_verified(self, faults: list[InjectedFault]) -> None:
        """Inject every fault, then prove each is on its device and breaks its checks. On any
        failure the injected faults are undone (newest first) and `PracticeError` says why."""
        nodes = {n.name: n for n in await self._client.list_nodes(self._project_id)}
        done: list[InjectedFault] = []
        try:
            answers: list[str] = []
            for fault in faults:
                named = [*fault.devices, fault.node or "", fault.params.get("peer", "")]
                fault.node_ids = {n: nodes[n].node_id for n in named if n in nodes}
                answers.append(
                    await self._apply(
                        fault, self._catalog.get(fault.fault_id).inject[fault.platform]
                    )
                )
                done.append(fault)
            for fault, answer in zip(faults, answers, strict=True):
                problem, refused = await self._not_injected(fault)
                if problem:
                    where = fault.link_name or fault.node or ""
                    # the device's own words when it refused the step, else what was found
                    raise PracticeError(
                        f"Could not inject “{fault.title}” on {where}: "
                        f"{(answer if refused and answer else problem)}. "
                        "Nothing was started and the lab is as it was."
                    )
        except BaseException as exc:
            left = await self._undo_all(list(reversed(done)))
            if left:
                log.warning("An exercise that failed to start left: %s", "; ".join(left))
                if isinstance(exc, CopilotError):
                    raise PracticeError(
                        f"{exc.user_message.removesuffix(' and the lab is as it was.')}; it "
                        f"could not all be undone: {'; '.join(left)}."
                    ) from exc
            raise

    async def _not_injected(self, fault: InjectedFault) -> tuple[str, bool]:
        """("", False) when the fault is on its device and at least one of its checks fails
        (none unknown), else why not, and whether the device refused the step."""
        steps = self._catalog.get(fault.fault_id).inject[fault.platform]
        if steps.link is not None:
            assert fault.link_id is not None
            link = await self._client.get_link(self._project_id, fault.link_id)
            if steps.link.suspend is not None and link.suspend != steps.link.suspend:
                return "GNS3 did not suspend the link", True
            if steps.link.filters and not link.filters:
                return "GNS3 did not keep the link's filters", True
        else:
            node = await self._node_named(fault.node or "")
            shown = await self._output(node, "show ip") if fault.platform == "vpcs" else ""
            for command in (_fill(c, fault.params) for c in steps.console):
                expected = _vpcs_expected(command)
                if expected is not None and _vpcs_address(shown) != expected:
                    return f"it still shows {_vpcs_summary(shown)}", True
        changed = await self._lab_changed(fault)
        if changed:
            return changed, False
        # one failing check proves the fault; the checks are cheapest first in the catalog
        for check in self._catalog.get(fault.fault_id).checks:
            state, reason = await self._check_one(check, fault)
            if state == "cannot_check":
                return reason, False
            if state == "failed":
                return "", False
        return "the lab still passes every check of the fault", False

    async def _undo_all(self, faults: list[InjectedFault]) -> list[str]:
        """Run each fault's undo steps where its device or link still is; what was left."""
        left: list[str] = []
        for fault in faults:
            steps = self._catalog.get(fault.fault_id).undo[fault.platform]
            try:
                if steps.link is not None:
                    link = await self._current_link(fault)
                    if link is None:
                        left.append(f"the link {fault.link_name} is no longer in the lab")
                        continue
                    await self._set_link(link.link_id, steps)
                    continue
                node = await self._find_node(fault.node or "")
                if node is None or node.status != "started":
                    left.append(f"{fault.node} is not running, so it was left as it is")
                    continue
                await self._apply(fault, steps)
            except CopilotError as exc:
                left.append(f"{fault.link_name or fault.node}: {exc.user_message}")
        return left

    async def _apply(self, fault: InjectedFault, steps: Steps) -> str:
        """Run one side of a fault (inject or undo); the device's answer to the commands. A
        VPCS saves what it was told, so a reload of the node keeps it as a real fault would."""
        if steps.link is not None:
            assert fault.link_id is not None
            await self._set_link(fault.link_id, steps)
            return ""
        node = await self._node_named(fault.node or "")
        commands = tuple(_fill(c, fault.params) for c in steps.console)
        if node.node_type == "vpcs":
            commands += ("save",)
        job = DeviceJob(
            target_for_node(node, self._server_url),
            commands=commands,
            config_lines=tuple(_fill(c, fault.params) for c in steps.config),
        )
        unplugged = await self._unplug(node) if steps.offline else []
        try:
            [outcome] = await self._run([job])
        finally:
            for link_id in unplugged:
                await self._client.update_link(self._project_id, link_id, suspend=False)
                await self._heal_link(link_id)
        if not outcome.ok or (outcome.config is not None and not outcome.config.ok):
            raise PracticeError(
                f"The exercise could not be set up on {node.name}: {outcome.error or 'no answer'}"
            )
        return _device_answer(outcome, len(steps.console))

    async def _unplug(self, node: Node) -> list[str]:
        """Suspend the node's links that carry traffic now; their ids, to resume after."""
        links = [
            link
            for link in await self._client.node_links(self._project_id, node.node_id)
            if not link.suspend
        ]
        for link in links:
            await self._client.update_link(self._project_id, link.link_id, suspend=True)
        return [link.link_id for link in links]

    async def _set_link(self, link_id: str, steps: Steps) -> None:
        action = steps.link
        assert action is not None
        await self._client.update_link(
            self._project_id, link_id, suspend=action.suspend, filters=action.filters
        )
        if action.suspend is False or action.filters == {}:
            await self._heal_link(link_id)

    async def _outcomes(self, record: ExerciseRecord) -> list[CheckOutcome]:
        for fault in record.sealed:  # a link the learner cleaned must carry traffic again
            link = await self._current_link(fault) if fault.link_id else None
            if link is not None and not link.suspend and not link.filters:
                await self._heal_link(link.link_id)
        outcomes: list[CheckOutcome] = []
        for fault in record.sealed:
            outcomes += await self._fault_outcomes(fault, len(outcomes))
        return outcomes

    async def _fault_outcomes(self, fault: InjectedFault, before: int) -> list[CheckOutcome]:
        """The fault's checks, numbered from ``before + 1``. When a device or the link the
        fault lives on is gone, replaced or stopped, every check is "cannot check"."""
        checks = self._catalog.get(fault.fault_id).checks
        changed = await self._lab_changed(fault)
        outcomes = []
        for index, check in enumerate(checks):
            number = before + index + 1
            title = _public_title(check, number, fault.params)
            if changed:
                outcomes.append(CheckOutcome(number, title, False, "cannot_check", changed))
                continue
            state, reason = await self._check_one(check, fault)
            outcomes.append(CheckOutcome(number, title, state == "passed", state, reason))
        return outcomes

    async def _lab_changed(self, fault: InjectedFault) -> str:
        """Why the fault's place in the lab is not the one it was injected in ("" when it is)."""
        nodes = {n.name: n for n in await self._client.list_nodes(self._project_id)}
        for name, node_id in fault.node_ids.items():
            node = nodes.get(name)
            if node is None:
                return f"the lab changed: {name} is no longer in it"
            if node.node_id != node_id:
                return f"the lab changed: {name} was replaced by another node"
            if node.status != "started" and node.node_type not in ALWAYS_ON:
                return f"the lab changed: {name} is not running"
        if fault.link_id is not None and await self._current_link(fault) is None:
            return f"the lab changed: the link {fault.link_name} is no longer in it"
        return ""

    async def _current_link(self, fault: InjectedFault) -> Link | None:
        """The fault's link, or the link that replaced it between the same two nodes."""
        assert fault.link_id is not None
        try:
            return await self._client.get_link(self._project_id, fault.link_id)
        except Gns3NotFoundError:
            pass
        ends = {fault.node_ids.get(name) for name in fault.devices}
        for link in await self._client.list_links(self._project_id):
            if {e.node_id for e in link.nodes} == ends and len(link.nodes) == 2:
                return link
        return None

    async def _run_checks(self, candidate: _Candidate) -> tuple[list[Check], list[bool]]:
        """The candidate's checks on the lab as it is (before any injection)."""
        fault = _sealed(candidate)
        fault.node_ids = {
            n.name: n.node_id for n in await self._client.list_nodes(self._project_id)
        }
        checks = list(candidate.fault.checks)
        return checks, [(await self._check_one(c, fault))[0] == "passed" for c in checks]

    async def _check_one(self, check: Check, fault: InjectedFault) -> tuple[CheckState, str]:
        params = fault.params
        if check.kind == "link":
            link = await self._current_link(fault)
            if link is None:
                return "cannot_check", f"the lab changed: the link {fault.link_name} is gone"
            return ("passed" if not link.suspend and not link.filters else "failed"), ""
        name = _fill(check.from_ or "", params) if check.kind == "ping" else fault.node or ""
        node = await self._find_node(name)
        if node is None or node.status != "started":
            return "cannot_check", f"the lab changed: {name} is not running"
        if check.kind == "ping":
            to = _fill(check.to or "", params)
            command = _ping_command(node, to, check.count)
        else:
            command = _fill(check.command or "", params)
        [outcome] = await self._run(
            [DeviceJob(target_for_node(node, self._server_url), (command,))]
        )
        if not outcome.ok:
            return "cannot_check", f"{name} does not answer on its console"
        output = "\n".join(r.output for r in outcome.results)
        if check.kind == "ping":
            return ("passed" if _ping_passes(output, to, check) else "failed"), ""
        found = re.search(_fill(check.expect or "", params), output) is not None
        return ("passed" if found != check.absent else "failed"), ""

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
        node = await self._find_node(name)
        if node is None:
            raise PracticeError(f"The node {name} is no longer in the project.")
        return node

    async def _find_node(self, name: str) -> Node | None:
        for node in await self._client.list_nodes(self._project_id):
            if node.name == name:
                return node
        return None

    async def _failing(self, candidate: _Candidate) -> list[str]:
        """The titles of the candidate's checks the lab does not pass now."""
        checks, passed = await self._run_checks(candidate)
        return [
            _fill(c.title, candidate.params) for c, ok in zip(checks, passed, strict=True) if not ok
        ]

    async def _until_working(self, record: ExerciseRecord) -> bool:
        """Wait (bounded) until every check of the plan passes again after a restart: a node
        just started answers its first console command before it ran its startup script."""
        try:
            async with asyncio.timeout(START_WAIT_S / 2):
                while True:
                    outcomes = await self._outcomes(record)
                    if all(o.passed for o in outcomes):
                        return True
                    await asyncio.sleep(1.0)
        except TimeoutError:
            return False

    async def _save_and_stop(self) -> list[str]:
        """Save the running VPCS configurations and stop the running nodes that can stop
        (switches, hubs, clouds... are always on); their names."""
        nodes = await self._client.list_nodes(self._project_id)
        started = [n.name for n in nodes if n.status == "started" and n.node_type not in ALWAYS_ON]
        await save_running_vpcs(nodes, self._server_url, self._options)
        await self._power(started, "stopped")
        return started

    async def _power(self, names: list[str], status: str) -> None:
        """Start or stop these nodes and wait (bounded) until the server reports it; nodes
        that are always on are neither powered nor waited on."""
        nodes = await self._client.list_nodes(self._project_id)
        wanted = {n.name for n in nodes if n.name in set(names) and n.node_type not in ALWAYS_ON}
        for node in nodes:
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
        consequence="The faults are injected into the running lab by their own steps (device "
        "consoles, the GNS3 link settings) and saved where the device keeps a startup "
        "configuration; no node is stopped. The exercise starts once each fault is confirmed; "
        "if one cannot be, everything injected is undone. Giving up runs the faults' undo steps. "
        "What is injected stays sealed until the exercise ends.",
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
    beyond = sorted(
        (n for n in nodes.values() if n.address is not None and n.address.ip not in here.network),
        key=lambda n: n.node.name,
    )
    if lab.gateway and beyond:  # a host only the gateway leads to
        assert beyond[0].address is not None
        params["beyond"], params["beyond_node"] = str(beyond[0].address.ip), beyond[0].node.name
    if not _bound(fault, "vpcs", params):
        return None
    return _Candidate(
        fault, "vpcs", f"node:{lab.node.name}", [lab.node.name], params, node=lab.node.name
    )


def _across(host: _LabNode, middle: _LabNode, nodes: dict[str, _LabNode]) -> _LabNode | None:
    """The host a link from ``host`` to an always-on ``middle`` (a switch, a hub) leads to: the
    first other host of ``host``'s subnet, by name; None when there is none."""
    if host.address is None or middle.node.node_type not in ALWAYS_ON:
        return None
    others = [
        n for n in nodes.values()
        if n is not host and n.address is not None and n.address.ip in host.address.network
    ]  # fmt: skip
    return min(others, key=lambda n: n.node.name, default=None)


def _bound(fault: Fault, platform: str, params: dict[str, str]) -> bool:
    """Whether every placeholder the fault uses on ``platform`` has a value (checks need a
    non-empty one; a step may leave ``gateway`` empty)."""
    steps = [fault.inject[platform], fault.undo[platform]]
    in_steps = {p for s in steps for t in s.texts() for p in placeholders(t)}
    in_checks = {p for c in fault.checks for t in c.texts() for p in placeholders(t)}
    in_checks |= placeholders(fault.ticket)
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


def _ping_command(node: Node, to: str, count: int = 2) -> str:
    platform = PLATFORM_OF_NODE_TYPE.get(node.node_type)
    if platform == "vpcs":
        return f"ping {to} -c {count}"
    if platform == "ios":
        return f"ping {to} repeat {max(count, 3)}"
    return f"ping -c {count} -W 1 {to}"


def _ping_passes(output: str, to: str, check: Check) -> bool:
    """Whether a ping's answers meet the check: at most ``max_loss`` percent lost of
    ``count``, and every answer within ``max_rtt_ms`` when it is set."""
    if not _ping_answered(output, to):
        return False
    address = re.escape(to)
    answers = re.findall(rf"{address}:? icmp_seq=\d+ ttl=\d+ time=([\d.]+) ms", output)
    answers += re.findall(rf"bytes from {address}:.*?time=([\d.]+) ms", output)
    if not answers:  # IOS: a success rate only
        rate = re.search(r"Success rate is (\d+) percent", output)
        return rate is not None and 100 - int(rate.group(1)) <= check.max_loss
    lost = 100 * (check.count - len(answers)) // check.count
    slow = check.max_rtt_ms is not None and any(float(t) > check.max_rtt_ms for t in answers)
    return lost <= check.max_loss and not slow


def _vpcs_expected(command: str) -> tuple[ipaddress.IPv4Interface | None, str] | None:
    """What VPCS ``show ip`` reads once ``command`` took effect (None: nothing to compare)."""
    if command.strip() == "clear ip":
        return None, ""
    words = command.split()
    if len(words) in (2, 3) and words[0] == "ip" and "/" in words[1]:
        try:
            return ipaddress.IPv4Interface(words[1]), words[2] if len(words) == 3 else ""
        except ValueError:
            return None
    return None


def _vpcs_summary(output: str) -> str:
    address, gateway = _vpcs_address(output)
    text = f"the address {address}" if address else "no address"
    return f"{text} and the gateway {gateway}" if gateway else text


def _device_answer(outcome: DeviceOutcome, commands: int) -> str:
    """What a device printed back to the fault's commands (its refusals), prompt and echo
    left out, on one line."""
    lines: list[str] = []
    for result in outcome.results[:commands]:
        for line in result.output.splitlines():
            line = line.strip()
            if line and not line.endswith(">") and line != result.command.strip():
                lines.append(line)
    return " ".join(lines)[:200]


def _ticket(chosen: Sequence[_Candidate]) -> str:
    """The report the learner starts from: each fault's ticket, filled from the lab."""
    return " ".join(_fill(c.fault.ticket, c.params) for c in chosen)


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
