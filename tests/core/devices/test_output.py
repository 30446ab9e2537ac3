"""Head-and-tail truncation of device output."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.devices.output import cut_marker, truncate_output


def test_short_output_is_untouched() -> None:
    result = truncate_output("a\nb\nc", max_chars=100)
    assert (result.text, result.truncated) == ("a\nb\nc", False)


def test_long_output_keeps_head_and_tail_and_marks_the_cut() -> None:
    lines = [f"line {n:04d}" for n in range(1000)]  # 9 chars + newline each
    text = "\n".join(lines)
    result = truncate_output(text, max_chars=200)
    kept = result.text.split("\n")
    assert result.truncated
    assert kept[0] == "line 0000" and kept[-1] == "line 0999"
    assert result.cut_lines == 1000 - (len(kept) - 1)
    assert cut_marker(result.cut_lines, result.cut_chars) in kept
    assert len(result.text) <= 200 + len(cut_marker(result.cut_lines, result.cut_chars)) + 1
    # Nothing is invented or reordered: the kept lines are the original head and tail.
    marker_at = kept.index(cut_marker(result.cut_lines, result.cut_chars))
    assert kept[:marker_at] == lines[:marker_at]
    assert kept[marker_at + 1 :] == lines[len(lines) - (len(kept) - marker_at - 1) :]
    assert result.cut_chars == len("\n".join(lines[marker_at : marker_at + result.cut_lines]))


def test_a_single_huge_line_is_cut_inside() -> None:
    result = truncate_output("x" * 1000 + "END", max_chars=100)
    assert result.truncated and result.text.startswith("x" * 50) and result.text.endswith("END")
    assert result.cut_chars == 1003 - 100


def test_max_chars_must_be_positive() -> None:
    with pytest.raises(ValueError):
        truncate_output("abc", max_chars=0)
