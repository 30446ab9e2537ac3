"""The layer rule of STYLE.md, checked mechanically: core/ never imports Qt or qasync."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gns3_copilot_desktop"
BANNED = ("PyQt6", "PyQt5", "PySide6", "qasync", "gns3_copilot_desktop.ui")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_core_sources_import_no_qt() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in sorted((PACKAGE / "core").rglob("*.py"))
        for name in _imports(path)
        if name.split(".")[0] in BANNED or name.startswith(BANNED)
    ]
    assert offenders == []


def test_importing_all_of_core_loads_no_qt() -> None:
    """Also catches Qt pulled in indirectly through a third-party module."""
    modules = sorted(
        "gns3_copilot_desktop." + ".".join(p.relative_to(PACKAGE).with_suffix("").parts)
        for p in (PACKAGE / "core").rglob("*.py")
    )
    modules = [m.removesuffix(".__init__") for m in modules]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PyQt6', 'qasync'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
