"""No coroutine of the Qt layer runs a modal dialog's nested event loop.

A dialog's ``exec()`` (or ``QFileDialog.get*``, ``QInputDialog.get*``, a static ``QMessageBox``
question) started inside a coroutine runs its nested loop inside that task's step: every other
task that wakes meanwhile fails with "Cannot enter into task ... while another task is being
executed" and never runs again. After "Export for students…" that stopped the GNS3 notification
stream for good. Coroutines open dialogs with ``await modal(...)`` (`ui.qt_async.modal`) or
``dialog.open()`` and a future.

The scan reads every module of ``ui/`` and ``gns3_gui/``: a sync function is "blocking" when it
makes such a call or calls (by name) a blocking function; an ``async def`` may not call one
directly (a call inside a lambda handed to ``modal`` runs later, from a Qt callback).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import gns3_copilot_desktop

PACKAGE = Path(gns3_copilot_desktop.__file__).parent
SCANNED = ("ui", "gns3_gui")
DIALOG_CLASSES = {"QFileDialog", "QInputDialog", "QColorDialog", "QFontDialog"}
MESSAGE_BOX_STATICS = {"question", "warning", "information", "critical", "about", "aboutQt"}
NESTED_LOOP_METHODS = {"exec", "exec_"}


def _blocking_call(call: ast.Call) -> str | None:
    """What kind of nested loop ``call`` starts, or None."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in NESTED_LOOP_METHODS:
        return f".{func.attr}()"
    owner = func.value
    if isinstance(owner, ast.Name):
        if owner.id in DIALOG_CLASSES and func.attr.startswith("get"):
            return f"{owner.id}.{func.attr}"
        if owner.id == "QMessageBox" and func.attr in MESSAGE_BOX_STATICS:
            return f"QMessageBox.{func.attr}"
    return None


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of lambdas or functions defined in it."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def violations(sources: dict[str, str]) -> list[str]:
    """``module:line: coroutine -> call`` for every blocking call made inside a coroutine."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    calls: dict[str, set[str]] = {}
    blocking: set[str] = set()
    for tree in trees.values():
        for function in _functions(tree):
            if isinstance(function, ast.AsyncFunctionDef):
                continue
            own = [n for n in _own_nodes(function) if isinstance(n, ast.Call)]
            if any(_blocking_call(c) for c in own):
                blocking.add(function.name)
            calls.setdefault(function.name, set()).update(
                name for c in own if (name := _called_name(c)) is not None
            )
    grown = True
    while grown:  # sync functions calling blocking ones are blocking too
        grown = False
        for name, callees in calls.items():
            if name not in blocking and callees & blocking:
                blocking.add(name)
                grown = True
    found = []
    for module, tree in trees.items():
        for function in _functions(tree):
            if not isinstance(function, ast.AsyncFunctionDef):
                continue
            for node in _own_nodes(function):
                if not isinstance(node, ast.Call):
                    continue
                kind = _blocking_call(node) or (
                    _called_name(node) if _called_name(node) in blocking else None
                )
                if kind is not None:
                    found.append(f"{module}:{node.lineno}: {function.name} -> {kind}")
    return found


def _package_sources() -> dict[str, str]:
    return {
        str(path.relative_to(PACKAGE)): path.read_text(encoding="utf-8")
        for folder in SCANNED
        for path in sorted((PACKAGE / folder).rglob("*.py"))
    }


def test_no_coroutine_of_the_qt_layer_runs_a_modal_loop() -> None:
    sources = _package_sources()
    # the scan reads the real files (the exercise dialogs once stopped the notification stream)
    assert str(Path("ui", "practice", "dialogs.py")) in sources
    assert violations(sources) == []


def test_the_scan_finds_each_kind_of_blocking_call() -> None:
    code = """
class Panel:
    def ask_path(self):
        path, _ = QFileDialog.getSaveFileName(self, "t")
        return path

    def ask_twice(self):
        return self.ask_path()

    async def export(self):
        path = self.ask_twice()
        text, ok = QInputDialog.getText(self, "t", "l")
        QMessageBox.question(self, "t", "q")
        dialog.exec()
        fine = await modal(lambda: self.ask_path())
        later = await modal(self.ask_path)
"""
    assert sorted(violations({"sample.py": code})) == [
        "sample.py:11: export -> ask_twice",
        "sample.py:12: export -> QInputDialog.getText",
        "sample.py:13: export -> QMessageBox.question",
        "sample.py:14: export -> .exec()",
    ]
