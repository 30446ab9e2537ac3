"""The registry the graph calls tools through: lookup, argument parsing, OpenAI schemas.

A call to an unknown tool, or with arguments that do not parse or validate, is not an exception:
`ToolRegistry.resolve` answers it with a `ToolResult` error that goes back to the model as the
call's result, so the session goes on and no tool call is ever left without its result.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from gns3_copilot_desktop.core.agent.tools.base import AgentTool, ToolResult


@dataclass(frozen=True)
class ResolvedCall:
    """A tool call whose name is known and whose arguments validated."""

    tool: AgentTool[Any]
    args: BaseModel


class ToolRegistry:
    """An ordered set of tools, by name."""

    def __init__(self, tools: Iterable[AgentTool[Any]]) -> None:
        self._tools: dict[str, AgentTool[Any]] = {}
        for tool in tools:
            if tool.name in self._tools:
                raise ValueError(f"two tools are named {tool.name!r}")
            self._tools[tool.name] = tool

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Any:
        return iter(self._tools.values())

    def names(self) -> list[str]:
        """The tool names, in registration order."""
        return list(self._tools)

    def display_names(self) -> dict[str, str]:
        """Each tool's name as the user reads it (English; the UI translates), by tool id."""
        return {name: tool.display_name or name for name, tool in self._tools.items()}

    def call_summary(self, name: str, raw_args: object) -> str | None:
        """The tool's own one-line summary of a call, from its arguments alone (no lab read), or
        None when the tool is unknown or the arguments do not validate (yet: a call still
        streaming in)."""
        resolved = self.resolve(name, raw_args)
        if isinstance(resolved, ToolResult):
            return None
        return resolved.tool.summary(resolved.args)

    def get(self, name: str) -> AgentTool[Any] | None:
        """The tool of that name, or None."""
        return self._tools.get(name)

    def openai_schemas(self) -> list[dict[str, Any]]:
        """Definitions for ``bind_tools``."""
        return [tool.openai_schema() for tool in self._tools.values()]

    def resolve(self, name: str, raw_args: object) -> ResolvedCall | ToolResult:
        """Find the tool and validate the arguments, or say to the model what is wrong."""
        tool = self._tools.get(name)
        if tool is None:
            close = difflib.get_close_matches(name, self._tools, n=3)
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            return ToolResult.error(
                f"Error: there is no tool named {name!r}.{hint} "
                f"Available tools: {', '.join(self._tools)}.",
                reason="unknown_tool",
            )
        args = _as_mapping(raw_args)
        if args is None:
            return ToolResult.error(
                f"Error: the arguments of {name} are not a JSON object: {str(raw_args)[:200]}",
                reason="invalid_arguments",
            )
        try:
            return ResolvedCall(tool=tool, args=tool.args_schema.model_validate(args))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                for err in exc.errors()
            )
            return ToolResult.error(
                f"Error: invalid arguments for {name}: {problems}", reason="invalid_arguments"
            )


def _as_mapping(raw_args: object) -> Mapping[str, Any] | None:
    if isinstance(raw_args, Mapping):
        return raw_args
    if isinstance(raw_args, str):
        try:
            parsed = json.loads(raw_args or "{}")
        except json.JSONDecodeError:
            return None
        return parsed if isinstance(parsed, dict) else None
    return None
