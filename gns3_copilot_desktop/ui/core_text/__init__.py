"""The core's fixed phrases in the user's language (tool summaries, what goes with a change,
notices, argument names).

The core writes English (the model reads it too) and knows nothing of Qt. What the user reads of
it goes through `core_text` here: each known phrase shape is a pattern with a translatable
template (``%1``, ``%2`` for the parts that are data: node names, commands, numbers). A phrase that
matches no pattern is shown as the core wrote it. The patterns follow the tools' ``summary`` and
``consequence`` methods; tests/ui/test_chinese_walk.py fails when a shape is missing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.core.text import TOOL_NAME_CONTEXT
from gns3_copilot_desktop.ui.core_text.arguments import ARGUMENT_NAMES, INNER_PHRASES
from gns3_copilot_desktop.ui.core_text.notices import NOTICE_PHRASES
from gns3_copilot_desktop.ui.core_text.practice import PRACTICE_PHRASES
from gns3_copilot_desktop.ui.core_text.tools import TOOL_PHRASES

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.tools.registry import ToolRegistry


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


_C = "CoreText"

# (pattern, template): the template's %1.. take the pattern's groups, each group itself passed
# through the inner phrases (so "all nodes" or "(+2 lines)" inside a group are translated).
# The order is the order of matching: the first pattern that matches the whole text wins.
_PHRASES: list[tuple[str, str]] = TOOL_PHRASES + NOTICE_PHRASES + PRACTICE_PHRASES


_PROBE = QT_TRANSLATE_NOOP("CoreText", "List projects")


def _tr(text: str) -> str:
    return QCoreApplication.translate(_C, text)


def _fill(template: str, groups: tuple[str, ...], inner: Callable[[str], str]) -> str:
    out = _tr(template)
    for index in range(len(groups), 0, -1):  # %10 before %1
        out = out.replace(f"%{index}", inner(groups[index - 1] or ""))
    return out


def _inner(text: str) -> str:
    for pattern, template in INNER_PHRASES:

        def fill(match: re.Match[str], template: str = template) -> str:
            return _fill(template, match.groups(), str)

        text = re.sub(pattern, fill, text)
    return text


_COMPILED = [(re.compile(rf"^{p}$", re.S), t) for p, t in _PHRASES]


def core_text(text: str) -> str:
    """``text`` in the user's language when it is a known phrase shape; else as it is.

    Phrases joined by ``; `` (an update of several nodes, several devices) are translated one by
    one."""
    if not text:
        return text
    if _tr(_PROBE) == _PROBE:
        return text  # no translation loaded: the core's own English, word for word
    if "\n" in text:  # a text of several lines (what goes with a deletion): line by line
        lines = text.split("\n")
        translated = [core_text(line) for line in lines]
        if translated != lines:
            return "\n".join(translated)
    for pattern, template in _COMPILED:
        match = pattern.match(text)
        if match:
            return _fill(template, match.groups(), _inner)
    for separator in _SEPARATORS:
        parts = separator.split(text)
        if len(parts) > 1:
            translated = [core_text(part) for part in parts]
            if translated != parts:
                return QCoreApplication.translate("CoreText", "; ").join(translated)
    return text


# Several phrases in one text: "; " between nodes or devices, ", " between the changes of one
# node (only before a phrase of its own, so "(10, 20)" stays whole).
_SEPARATORS = [re.compile(r"; "), re.compile(r", (?=rename |move )")]


def argument_name(name: str) -> str:
    """A tool argument's name as the user reads it."""
    known = ARGUMENT_NAMES.get(name)
    return _tr(known) if known else name


# Tool ids that are not in the tool registry: the practice engine's own sealed calls.
_OTHER_TOOL_NAMES = {
    "inject_practice_faults": QT_TRANSLATE_NOOP("ToolName", "Set up the exercise"),
    "restore_practice_snapshot": QT_TRANSLATE_NOOP("ToolName", "Restore the lab"),
}


@functools.cache
def _registry() -> ToolRegistry:
    """Every tool the app offers, for their display names and argument-only summaries (built
    on first use: nothing is compiled at import)."""
    from gns3_copilot_desktop.core.agent.tools.network import network_registry

    return network_registry(None)


def tool_display_name(tool_name: str) -> str:
    """A tool's name as the user reads it ("Delete nodes", "删除节点"), never its id; an id the
    app does not know is shown as words ("foo_bar" -> "Foo bar")."""
    known = _registry().display_names().get(tool_name) or _OTHER_TOOL_NAMES.get(tool_name)
    if known:
        return QCoreApplication.translate(TOOL_NAME_CONTEXT, known)
    words = tool_name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def call_summary(tool_name: str, arguments: dict[str, Any]) -> str | None:
    """The tool's own summary of a call from its arguments (translated), or None when the tool
    is unknown or the arguments do not validate (a call still streaming in)."""
    summary = _registry().call_summary(tool_name, arguments)
    return core_text(summary) if summary else None
