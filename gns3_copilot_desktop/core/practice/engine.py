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
import uuid
from collections.abc import Sequence

from gns3_copilot_desktop.core.practice.catalog import (
    DIFFICULTIES,
)
from gns3_copilot_desktop.core.practice.engine_files import _TrainerFiles, import_package
from gns3_copilot_desktop.core.practice.lab_facts import (
    ALWAYS_ON,
    INJECT_TOOL,
    RESTORE_TOOL,
    _inject_approval,
    _score,
    _sealed,
    _ticket,
)
from gns3_copilot_desktop.core.practice.results import (
    CheckOutcome,
    CheckReport,
    ExercisePlan,
    GiveUp,
    LabStoppedError,
    Reveal,
    RevealedFault,
)
from gns3_copilot_desktop.core.practice.store import (
    ExerciseRecord,
    PracticeError,
    now,
)
from gns3_copilot_desktop.core.protocol import ApprovalRequest

__all__ = [
    "ALWAYS_ON",
    "INJECT_TOOL",
    "RESTORE_TOOL",
    "CheckOutcome",
    "CheckReport",
    "ExercisePlan",
    "GiveUp",
    "LabStoppedError",
    "PracticeEngine",
    "Reveal",
    "RevealedFault",
    "import_package",
]


class PracticeEngine(_TrainerFiles):
    """Exercises of one project on one GNS3 server."""

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
