"""What the Practice panel writes: levels, statuses, durations, past rows, checks and the answer.

Pure text from the engine's records (no widget). The texts keep the "PracticePanel" translation
context they were written in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.ui.core_text import core_text

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.practice.engine import CheckReport, Reveal
    from gns3_copilot_desktop.core.practice.store import ExerciseRecord


def catalog_language() -> str:
    """The language of the fault catalog's texts the learner reads: the UI's own (each
    translation names its language code here; English has none)."""
    # Translators: your language's code in resources/practice/faults.json ("zh_CN")
    code = QCoreApplication.translate("PracticeCatalog", "en")
    return "" if code == "en" else code


def difficulty_name(level: str) -> str:
    """A level as the learner reads it."""
    names = {
        "beginner": QCoreApplication.translate("PracticePanel", "Beginner"),
        "intermediate": QCoreApplication.translate("PracticePanel", "Intermediate"),
        "advanced": QCoreApplication.translate("PracticePanel", "Advanced"),
    }
    return names.get(level, level)


def status_name(status: str) -> str:
    """An exercise's status as the learner reads it."""
    names = {
        "planned": QCoreApplication.translate("PracticePanel", "waiting for approval"),
        "cancelled": QCoreApplication.translate("PracticePanel", "cancelled"),
        "active": QCoreApplication.translate("PracticePanel", "in progress"),
        "solved": QCoreApplication.translate("PracticePanel", "solved"),
        "given_up": QCoreApplication.translate("PracticePanel", "given up"),
    }
    return names.get(status, status)


def duration_text(seconds: int) -> str:
    """``4 min 05 s`` (or ``42 s``)."""
    minutes, rest = divmod(max(0, seconds), 60)
    if minutes:
        return (
            QCoreApplication.translate("PracticePanel", "%1 min %2 s")
            .replace("%1", str(minutes))
            .replace("%2", f"{rest:02d}")
        )
    return QCoreApplication.translate("PracticePanel", "%1 s").replace("%1", str(rest))


def past_row(record: ExerciseRecord) -> str:
    """One line of the past exercises: date, level, topic, status, score."""
    when = record.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
    topic = record.topic or QCoreApplication.translate("PracticePanel", "any topic")
    parts = [when, difficulty_name(record.difficulty), topic, status_name(record.status)]
    if record.score is not None and record.ended:
        parts.append(
            QCoreApplication.translate("PracticePanel", "score %1").replace("%1", str(record.score))
        )
    return " · ".join(parts)


def reveal_text(reveal: Reveal) -> str:
    """The answer: each fault, where, its symptoms and how to undo it."""
    lines: list[str] = []
    for number, fault in enumerate(reveal.faults, 1):
        lines.append(
            QCoreApplication.translate("PracticePanel", "Fault %1: %2 (on %3)")
            .replace("%1", str(number))
            .replace("%2", fault.title)
            .replace("%3", fault.where)
        )
        lines.append(
            QCoreApplication.translate("PracticePanel", "Symptoms: %1").replace(
                "%1", fault.symptoms
            )
        )
        if fault.undo:
            lines.append(QCoreApplication.translate("PracticePanel", "How to undo it:"))
            lines += [f"    {step}" for step in fault.undo]
    return "\n".join(lines)


def score_text(reveal: Reveal) -> str:
    """Time, hints used and score of a solved exercise."""
    return (
        QCoreApplication.translate("PracticePanel", "Solved in %1 with %2 hint(s). Score: %3/100.")
        .replace("%1", duration_text(reveal.seconds))
        .replace("%2", str(reveal.hints_used))
        .replace("%3", str(reveal.score))
    )


def checks_text(report: CheckReport) -> str:
    """Each check, passed, failed or cannot check (the checks never name the fault)."""
    lines = []
    for check in report.checks:
        if check.state == "cannot_check":
            reason = core_text(check.reason) if check.reason else ""
            state = QCoreApplication.translate("PracticePanel", "cannot check (%1)").replace(
                "%1", reason
            )
            lines.append(f"? {check.title}: {state}")
            continue
        mark = "✔" if check.passed else "✘"
        state = (
            QCoreApplication.translate("PracticePanel", "passed")
            if check.passed
            else QCoreApplication.translate("PracticePanel", "failed")
        )
        lines.append(f"{mark} {check.title}: {state}")
    return "\n".join(lines)
