"""The modes of a session and what each lets the model do.

A session's mode is chosen when it is created and stored with it; every turn reads it from the
session, never from the caller. In the learner modes (Tutor, Practice) the model may read the lab
and run read-only commands but never change anything: the tools that change the project or a
device's configuration are not offered to it, and a call to one anyway is refused as a tool error
(it never reaches an approval card).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel

from gns3_copilot_desktop.core.agent.tools.base import AgentTool

Mode = Literal["assistant", "tutor", "practice"]
MODES: tuple[Mode, ...] = get_args(Mode)
LEARNER_MODES: frozenset[str] = frozenset({"tutor", "practice"})

_FORMER: dict[str, Mode] = {"teaching": "tutor", "lab_automation": "assistant"}
"""Modes stored by earlier versions, read as their closest mode today."""


class UnknownModeError(ValueError):
    """A mode that is not one of `MODES`."""


def parse_mode(value: str | None) -> Mode:
    """The mode named ``value`` (None: assistant); an unknown name is refused."""
    if value is None or value == "":
        return "assistant"
    if value in MODES:
        return value
    if value in _FORMER:
        return _FORMER[value]
    raise UnknownModeError(f"Unknown mode {value!r}: use one of {', '.join(MODES)}.")


def stored_mode(value: str | None) -> Mode:
    """The mode of a stored session; a value this version does not know is read as Tutor
    (read-only) rather than trusted."""
    try:
        return parse_mode(value)
    except UnknownModeError:
        return "tutor"


def is_restricted(mode: str | None) -> bool:
    """Whether the model may only read in this mode."""
    return stored_mode(mode) in LEARNER_MODES


def offered_in_learner_modes(tool: AgentTool[Any]) -> bool:
    """Whether a learner mode offers this tool: the read tools, and the tools some of whose
    calls are reads (device commands: ``show``, ``ping``)."""
    return tool.risk == "read" or tool.read_calls


def allows_call(mode: str | None, tool: AgentTool[Any], args: BaseModel) -> bool:
    """Whether this call may go on (to run, or to ask for approval) in this mode."""
    return not is_restricted(mode) or tool.risk_for(args) == "read"


def refused_text(mode: str | None, tool_name: str) -> str:
    """The tool error a refused call gets, for the model to act on."""
    name = stored_mode(mode).capitalize()
    return (
        f"Error: {tool_name} cannot run in {name} mode: this session only reads the lab and runs "
        "read-only commands (show, ping, traceroute). Nothing was run. Tell the learner which "
        "commands to try and what to look for, and let them make the change themselves."
    )
