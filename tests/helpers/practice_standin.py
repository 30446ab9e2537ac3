"""`PracticeStandIn`: a scripted stand-in for `core.practice.engine.PracticeEngine`.

It is NOT the engine: it touches no lab. It answers with the engine's own result types so the
Practice panel can be driven without a GNS3 server (unit tests of its states and errors, and the
screenshots). The live panel test uses the real engine on the real VPCS lab.
"""

from __future__ import annotations

import asyncio
import io
import zipfile
from datetime import UTC, datetime, timedelta

from PyQt6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QWidget

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Project
from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.engine import (
    INJECT_TOOL,
    RESTORE_TOOL,
    CheckOutcome,
    CheckReport,
    ExercisePlan,
    GiveUp,
    LabStoppedError,
    Reveal,
    RevealedFault,
)
from gns3_copilot_desktop.core.practice.package import ExercisePackage
from gns3_copilot_desktop.core.practice.store import ExerciseRecord, InjectedFault
from gns3_copilot_desktop.core.practice.trust import TrainerKeys
from gns3_copilot_desktop.core.protocol import ApprovalRequest
from gns3_copilot_desktop.core.secrets import SecretStore
from gns3_copilot_desktop.core.settings import Settings
from gns3_copilot_desktop.ui.practice.panel import PracticePanel
from tests.helpers.keyring_backends import MemoryKeyring

SECRET_TITLE = "A host in the wrong subnet"
SECRET_SYMPTOMS = "PC1 cannot ping PC2; PC1's address is outside the LAN."
SECRET_UNDO = "ip 192.0.2.1/24"
HINTS = [
    "Compare the addresses of the two hosts.",
    "Look at PC1's network: is PC2 in it?",
    "Give PC1 its address back.",
]


class PracticeStandIn:
    """Scripted exercises: the check passes from the `solve_on`-th call on."""

    def __init__(self, *, solve_on: int = 2, started_ago: timedelta = timedelta(0)) -> None:
        self.solve_on = solve_on
        self.started_ago = started_ago
        self.failures: dict[str, CopilotError] = {}
        """Method name -> the error it raises (once)."""
        self.calls: list[str] = []
        self.records: list[ExerciseRecord] = []
        self.waiting: ExercisePackage | None = None
        """An imported exercise not started yet."""
        self.stopped: list[str] = []
        """The lab's stopped nodes (an imported lab arrives stopped)."""
        self.gate: asyncio.Event | None = None
        """When set, `approve` waits on it (a test sees the progress text)."""

    def _called(self, name: str) -> None:
        self.calls.append(name)
        error = self.failures.pop(name, None)
        if error is not None:
            raise error

    def _record(self, exercise_id: str) -> ExerciseRecord:
        return next(r for r in self.records if r.exercise_id == exercise_id)

    async def topics(self) -> list[str]:
        self._called("topics")
        return ["addressing", "link"]

    async def prepare(
        self,
        session_id: str,
        *,
        difficulty: str,
        topic: str | None = None,
        count: int = 1,
        fault_ids: list[str] | None = None,
    ) -> ExercisePlan:
        self._called("prepare")
        exercise_id = f"ex{len(self.records) + 1}"
        self.records.insert(
            0,
            ExerciseRecord(
                exercise_id=exercise_id,
                project_id="p1",
                session_id=session_id,
                difficulty=difficulty,
                topic=topic,
                fault_count=count,
                created_at=datetime.now(UTC) - self.started_ago,
                sealed=[
                    InjectedFault(
                        fault_id="vpcs-wrong-address",
                        title=SECRET_TITLE,
                        platform="vpcs",
                        node="PC1",
                        devices=["PC1"],
                    )
                ],
            ),
        )
        faults = "fault" if count == 1 else "faults"
        approval = ApprovalRequest(
            tool_call_id=f"practice-inject-{exercise_id}",
            tool_name=INJECT_TOOL,
            arguments={"exercise": exercise_id},
            summary=f"inject {count} {difficulty} {faults} on 1 device",
            risk="change",
            destructive=True,
            consequence="First the running VPCS configurations are saved and the running nodes "
            "are stopped for a snapshot of the project (GNS3 needs a stopped project), then "
            "started again; giving up restores that snapshot. What is injected stays sealed "
            "until the exercise ends.",  # the engine's text, so the screenshots show its look
        )
        return ExercisePlan(exercise_id, approval)

    # --- a trainer's exercise: the real sealing of `core.practice.package`, no lab ---

    async def export_package(
        self, exercise_id: str, passphrase: str, signer: package.TrainerSigner
    ) -> bytes:
        self._called("export_package")
        record = self._record(exercise_id)
        exercise = ExercisePackage(
            project_name="campus lab",
            difficulty=record.difficulty,
            topic=record.topic,
            faults=record.sealed,
        )
        archive = io.BytesIO()
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("campus lab.gns3", "{}")
        return package.seal(archive.getvalue(), exercise, passphrase, signer)

    async def import_exercise(
        self, data: bytes, passphrase: str, trusted: package.TrainerKey
    ) -> tuple[Project, object]:
        self._called("import_exercise")
        exercise, _ = package.open_sealed(data, passphrase, trusted)
        return Project(project_id="p2", name=f"{exercise.project_name} (exercise)"), exercise

    async def keep_imported(self, exercise: ExercisePackage) -> None:
        self._called("keep_imported")
        self.waiting = exercise

    async def imported_exercise(self) -> ExerciseRecord | None:
        self._called("imported_exercise")
        if self.waiting is None:
            return None
        return ExerciseRecord(
            exercise_id="imported",
            project_id="p1",
            session_id="",
            difficulty=self.waiting.difficulty,
            fault_count=len(self.waiting.faults),
            created_at=datetime.now(UTC),
            imported=True,
        )

    async def start_lab(self) -> list[str]:
        self._called("start_lab")
        started, self.stopped = self.stopped, []
        return started

    async def prepare_imported(self, session_id: str) -> ExercisePlan:
        self._called("prepare_imported")
        assert self.waiting is not None
        if self.stopped:
            raise LabStoppedError(self.stopped)
        self.waiting = None
        return await self.prepare(session_id, difficulty="beginner")

    async def approve(self, exercise_id: str) -> ExerciseRecord:
        self._called("approve")
        if self.gate is not None:
            await self.gate.wait()
        record = self._record(exercise_id)
        record.status = "active"
        record.started_at = datetime.now(UTC) - self.started_ago
        return record.public()

    async def reject(self, exercise_id: str) -> None:
        self._called("reject")
        self._record(exercise_id).status = "cancelled"

    async def check(self, exercise_id: str) -> CheckReport:
        self._called("check")
        record = self._record(exercise_id)
        record.checks_run += 1
        solved = record.checks_run >= self.solve_on
        checks = [
            CheckOutcome(1, "PC1 reaches 192.0.2.2", solved),
            CheckOutcome(2, "Lab check 2", True),
            CheckOutcome(3, "Lab check 3", solved),
        ]
        if not solved:
            return CheckReport(checks, False)
        record.status, record.ended_at = "solved", datetime.now(UTC)
        record.score = 100 - 15 * record.hints_used
        return CheckReport(checks, True, self._reveal(record))

    async def hint(self, exercise_id: str) -> str:
        self._called("hint")
        record = self._record(exercise_id)
        record.hints_used += 1
        return f"Hint {record.hints_used} of 3: {HINTS[record.hints_used - 1]}"

    async def give_up(self, exercise_id: str) -> GiveUp:
        self._called("give_up")
        record = self._record(exercise_id)
        record.status, record.ended_at, record.score = "given_up", datetime.now(UTC), 0
        restore = ApprovalRequest(
            tool_call_id=f"practice-restore-{exercise_id}",
            tool_name=RESTORE_TOOL,
            arguments={"exercise": exercise_id},
            summary="undo the exercise's faults on PC1",
            risk="change",
            destructive=False,
        )
        return GiveUp(self._reveal(record), restore)

    async def restore(self, exercise_id: str) -> list[str]:
        self._called("restore")
        return []

    async def history(self) -> list[ExerciseRecord]:
        self._called("history")
        return [r.public() for r in self.records]

    def _reveal(self, record: ExerciseRecord) -> Reveal:
        seconds = int(
            (
                (record.ended_at or datetime.now(UTC)) - (record.started_at or datetime.now(UTC))
            ).total_seconds()
        )
        return Reveal(
            [RevealedFault(SECRET_TITLE, "PC1", SECRET_SYMPTOMS, [SECRET_UNDO])],
            record.status,
            seconds,
            record.hints_used,
            record.score or 0,
        )


def memory_trainer_keys() -> TrainerKeys:
    """Trainer keys of one computer: a keyring in memory, settings not written anywhere."""

    async def save() -> None:
        return None

    return TrainerKeys(SecretStore(backend=MemoryKeyring()), Settings(), save)


def shown_texts(root: QWidget) -> str:
    """Every text a widget tree shows: labels, text views, buttons, tooltips, list rows."""
    found: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if isinstance(widget, QTextEdit | QPlainTextEdit):
            found.append(widget.toPlainText())
        elif isinstance(widget, QLabel):
            found.append(widget.text())
        found += [widget.toolTip(), widget.accessibleName()]
        if isinstance(widget, PracticePanel):
            found += widget.texts()
    return "\n".join(found)


def assert_sealed(root: QWidget, texts: list[str]) -> None:
    """None of `texts` shows anywhere under `root` (tool cards opened first: their output is
    built only when opened)."""
    for card in root.findChildren(QWidget):
        if hasattr(card, "set_expanded") and hasattr(card, "tool_call_id"):
            card.set_expanded(True)
    shown = shown_texts(root)
    for text in texts:
        assert text not in shown, text
