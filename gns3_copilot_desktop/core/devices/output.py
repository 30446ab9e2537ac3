"""Cut long device output to a configured size, keeping its head and tail and marking the cut."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_CHARS = 12_000


@dataclass(frozen=True)
class CutText:
    """Text ready for the model: `truncated` says whether a middle part was removed."""

    text: str
    truncated: bool
    cut_lines: int = 0
    cut_chars: int = 0


def cut_marker(lines: int, chars: int) -> str:
    """The line put where output was removed."""
    return f"... [{lines} lines / {chars} chars cut] ..."


def truncate_output(
    text: str, max_chars: int = DEFAULT_MAX_CHARS, head_share: float = 0.5
) -> CutText:
    """Keep at most about `max_chars` characters of `text`: whole lines from the head and the tail.

    `head_share` of the budget goes to the head (a ``show`` command's column headers), the rest to
    the tail (the latest log lines, the prompt context). The cut is made at line boundaries and is
    replaced by `cut_marker`. A single line longer than the budget is cut inside the line.
    """
    if max_chars <= 0:
        raise ValueError("max_chars must be positive")
    if len(text) <= max_chars:
        return CutText(text, False)
    lines = text.split("\n")
    head_budget = int(max_chars * head_share)
    tail_budget = max_chars - head_budget
    head_end = _take(lines, head_budget)
    tail_start = len(lines) - _take(list(reversed(lines[head_end:])), tail_budget)
    if head_end == 0 and tail_start == len(lines):
        return _cut_inside(text, head_budget, tail_budget)
    removed = lines[head_end:tail_start]
    cut_chars = len("\n".join(removed))
    marker = cut_marker(len(removed), cut_chars)
    kept = [*lines[:head_end], marker, *lines[tail_start:]]
    return CutText("\n".join(kept), True, len(removed), cut_chars)


def _take(lines: list[str], budget: int) -> int:
    """How many leading `lines` fit in `budget` characters (newlines counted)."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line) + 1
        if used > budget:
            return count
    return len(lines)


def _cut_inside(text: str, head: int, tail: int) -> CutText:
    removed = text[head : len(text) - tail]
    lines = removed.count("\n") + 1
    marker = f"\n{cut_marker(lines, len(removed))}\n"
    return CutText(text[:head] + marker + text[len(text) - tail :], True, lines, len(removed))
