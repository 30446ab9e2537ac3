"""A pending call's arguments on its approval card: as a person reads them, and as a form.

`readable_value` shows a value as rich text (names as chips, lists as lists, a link end to end),
`is_internal` says what goes under Details, `device_blocks` finds the per-device lines shown as
editable monospace blocks, and `ArgumentField` is one field of "Edit arguments" (a widget typed
by the tool's schema, its value read back, and put back to the proposal).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import Any

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

from gns3_copilot_desktop.ui.core_text import argument_name
from gns3_copilot_desktop.ui.theme import colors

INTERNAL_ARGUMENTS = frozenset({"timeout_s", "credential", "wait", "x", "y", "all"})
"""Arguments a person rarely needs to read: folded under Details (with every default value)."""

DEVICE_TEXT_KEYS = ("lines", "commands")
"""Per-device lists shown as editable monospace blocks (configuration lines, CLI commands)."""


# --- editable form fields (Edit arguments) ----------------------------------------------------


class ArgumentField:
    """One editable argument: a widget plus how to read its value back."""

    def __init__(self, name: str, schema: dict[str, Any], value: Any, parent: QWidget) -> None:
        self.name = name
        self.kind = _kind(schema, value)
        self.widget = self._make(schema, value, parent)
        self.widget.setAccessibleName(
            QCoreApplication.translate("ApprovalCard", "Argument %1").replace("%1", name)
        )
        if schema.get("description"):
            self.widget.setToolTip(str(schema["description"]))
        self._proposed = self._state()

    def _state(self) -> object:
        w = self.widget
        if isinstance(w, QComboBox):
            return w.currentIndex()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QSpinBox | QDoubleSpinBox):
            return w.value()
        assert isinstance(w, QLineEdit)
        return w.text()

    def reset(self) -> None:
        """Put back the value the assistant proposed (without telling anyone it changed)."""
        w = self.widget
        blocked = w.blockSignals(True)
        if isinstance(w, QComboBox):
            w.setCurrentIndex(int(self._proposed))  # type: ignore[call-overload]
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(self._proposed))
        elif isinstance(w, QSpinBox):
            w.setValue(int(self._proposed))  # type: ignore[call-overload]
        elif isinstance(w, QDoubleSpinBox):
            w.setValue(float(self._proposed))  # type: ignore[arg-type]
        elif isinstance(w, QLineEdit):
            w.setText(str(self._proposed))
        w.blockSignals(blocked)

    def _make(self, schema: dict[str, Any], value: Any, parent: QWidget) -> QWidget:
        if "enum" in schema:
            combo = QComboBox(parent)
            for option in schema["enum"]:
                combo.addItem(str(option), option)
            if value in schema["enum"]:
                combo.setCurrentIndex(list(schema["enum"]).index(value))
            return combo
        if self.kind == "boolean":
            box = QCheckBox(parent)
            box.setChecked(bool(value))
            return box
        if self.kind == "integer" and value is not None:
            spin = QSpinBox(parent)
            spin.setRange(
                int(schema.get("minimum", -(2**31))), int(schema.get("maximum", 2**31 - 1))
            )
            spin.setValue(int(value))
            return spin
        if self.kind == "number" and value is not None:
            dspin = QDoubleSpinBox(parent)
            dspin.setDecimals(3)
            dspin.setRange(float(schema.get("minimum", -1e12)), float(schema.get("maximum", 1e12)))
            dspin.setValue(float(value))
            return dspin
        edit = QLineEdit(parent)
        if self.kind == "string":
            edit.setText(value or "")
        elif value is not None:
            edit.setText(json.dumps(value, ensure_ascii=False))
        edit.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        edit.setMinimumWidth(60)
        return edit

    def connect_changed(self, slot: Callable[[], None]) -> None:
        """Call `slot` whenever the user changes the value."""
        w = self.widget
        if isinstance(w, QComboBox):
            w.currentIndexChanged.connect(lambda *_: slot())
        elif isinstance(w, QCheckBox):
            w.toggled.connect(lambda *_: slot())
        elif isinstance(w, QSpinBox | QDoubleSpinBox):
            w.valueChanged.connect(lambda *_: slot())
        elif isinstance(w, QLineEdit):
            w.textChanged.connect(lambda *_: slot())

    def value(self) -> Any:
        """The current value, typed as the schema says (JSON text for objects and arrays)."""
        w = self.widget
        if isinstance(w, QComboBox):
            return w.currentData()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QSpinBox | QDoubleSpinBox):
            return w.value()
        assert isinstance(w, QLineEdit)
        if self.kind == "string":
            return w.text()
        if not w.text().strip():
            return None
        try:
            return json.loads(w.text())
        except json.JSONDecodeError:
            return w.text()


def _kind(schema: dict[str, Any], value: Any) -> str:
    kind = schema.get("type")
    if kind is None and "anyOf" in schema:
        kinds = [s.get("type") for s in schema["anyOf"] if isinstance(s, dict)]
        kind = next((k for k in kinds if k not in (None, "null")), None)
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if isinstance(kind, str):
        return kind
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str) or value is None:
        return "string"
    return "object"


# --- the readable view --------------------------------------------------------------------------


def is_internal(name: str, value: Any, schema: dict[str, Any]) -> bool:
    """Whether an argument is folded under Details: internals, nulls and unchanged defaults."""
    if name in INTERNAL_ARGUMENTS or value is None or value == [] or value == {}:
        return True
    return "default" in schema and schema["default"] == value


def device_blocks(value: Any) -> list[tuple[str, str, list[str]]] | None:
    """``[(device, key, lines)]`` when `value` is a list of per-device line lists, else None."""
    if not isinstance(value, list) or not value:
        return None
    blocks = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("node"), str):
            return None
        key = next((k for k in DEVICE_TEXT_KEYS if isinstance(item.get(k), list)), None)
        if key is None or not all(isinstance(line, str) for line in item[key]):
            return None
        blocks.append((item["node"], key, list(item[key])))
    return blocks


def chip(text: str, background: str) -> str:
    """A name as a chip: escaped text on a tinted background."""
    return f'<span style="background-color:{background};">&nbsp;{escape(str(text))}&nbsp;</span>'


def readable_value(value: Any, chip_background: str) -> str:
    """An argument's value as rich text: names as chips, lists as lists, objects as ``k v``."""
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return " ".join(chip(str(v), chip_background) for v in value)
    if isinstance(value, list):
        rows = "".join(f"<li>{readable_value(v, chip_background)}</li>" for v in value)
        return f"<ul style='margin:0; margin-left:-20px'>{rows}</ul>"
    if isinstance(value, dict):
        if {"node_a", "node_b"} <= set(value):  # a link end to end
            a = escape(" ".join(str(value[k]) for k in ("node_a", "port_a") if value.get(k)))
            b = escape(" ".join(str(value[k]) for k in ("node_b", "port_b") if value.get(k)))
            return f"{a} &harr; {b}"
        parts = [
            f"<span style='color:{_label_color()}'>{escape(argument_name(str(k)))}</span> "
            f"{readable_value(v, chip_background)}"
            for k, v in value.items()
            if v is not None
        ]
        return " · ".join(parts)
    if value is None:
        return "—"
    if isinstance(value, bool):
        return escape(
            QCoreApplication.translate("ApprovalCard", "yes")
            if value
            else QCoreApplication.translate("ApprovalCard", "no")
        )
    return escape(str(value))


def _label_color() -> str:
    """The muted colour for labels inside a readable value."""
    return colors(QApplication.palette()).muted
