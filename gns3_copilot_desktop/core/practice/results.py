"""What the practice engine answers: a prepared exercise, a check's outcome, the report and the
reveal, a give-up, and the error of a lab that is stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gns3_copilot_desktop.core.practice.store import (
    PracticeError,
)
from gns3_copilot_desktop.core.protocol import ApprovalRequest

CheckState = Literal["passed", "failed", "cannot_check"]


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
