"""The house rule of docs/architecture.md, checked mechanically: no module of the package over 600
lines and no class over 300 (a room that outgrows itself is divided by responsibility)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gns3_copilot_desktop"
MAX_FILE_LINES = 600
MAX_CLASS_LINES = 300


def test_no_module_over_600_lines_and_no_class_over_300() -> None:
    oversized: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > MAX_FILE_LINES:
            oversized.append(f"{path.relative_to(PACKAGE)}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > MAX_CLASS_LINES:
                    oversized.append(f"{path.relative_to(PACKAGE)}::{node.name}: {size} lines")
    assert not oversized, "rooms to divide:\n" + "\n".join(oversized)
