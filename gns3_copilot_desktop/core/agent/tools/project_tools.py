"""Project-level change tools: snapshots (create, restore) and text notes on the canvas."""

from __future__ import annotations

import difflib
from typing import Any
from xml.sax.saxutils import escape

from pydantic import Field

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.base import AgentTool, ToolResult
from gns3_copilot_desktop.core.agent.tools.common import StrictArgs, error_result, project_topology
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Snapshot
from gns3_copilot_desktop.core.gns3.resolve import NameResolutionError
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP
from gns3_copilot_desktop.core.undo.record import RemoveDrawing, with_undo

NOTE_FONT_SIZE = 10.0
NOTE_LINE_HEIGHT = 16
NOTE_CHAR_WIDTH = 8


class SnapshotArgs(StrictArgs):
    """A snapshot's name."""

    name: str = Field(min_length=1, max_length=100)


class CreateSnapshotTool(AgentTool[SnapshotArgs]):
    """Save a snapshot of the project."""

    name = "create_snapshot"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Take a snapshot")
    description = "Save a snapshot of the current project under a name (to restore it later)."
    args_schema = SnapshotArgs
    risk = "change"

    def summary(self, args: SnapshotArgs) -> str:
        """``create snapshot 'before OSPF'``."""
        return f"create snapshot '{args.name}'"

    async def run(self, args: SnapshotArgs, ctx: RunContext) -> ToolResult:
        """Refuse a duplicate name (restoring by name must stay unambiguous), then save."""
        try:
            existing = await ctx.client.list_snapshots(ctx.project_id)
            if any(s.name == args.name for s in existing):
                raise NameResolutionError(f"A snapshot named '{args.name}' already exists.")
            snapshot = await ctx.client.create_snapshot(ctx.project_id, args.name)
        except CopilotError as exc:
            return error_result(exc)
        return ToolResult(
            text=f"Snapshot '{snapshot.name}' saved.",
            structured={"snapshot_id": snapshot.snapshot_id, "name": snapshot.name},
        )


def resolve_snapshot(snapshots: list[Snapshot], name: str) -> Snapshot:
    """The snapshot called `name` (the newest when several are), with close matches on failure."""
    found = [s for s in snapshots if s.name == name] or [
        s for s in snapshots if s.name.lower() == name.lower() or s.snapshot_id == name
    ]
    if found:
        return max(found, key=lambda s: s.created_at or 0)
    names = [s.name for s in snapshots]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f" Did you mean: {', '.join(close)}?" if close else ""
    listed = ", ".join(names) if names else "none"
    raise NameResolutionError(f"There is no snapshot named '{name}'.{hint} Snapshots: {listed}.")


class RestoreSnapshotTool(AgentTool[SnapshotArgs]):
    """Restore a snapshot: the project goes back to that state."""

    name = "restore_snapshot"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Restore a snapshot")
    description = (
        "Restore a snapshot by name. The project's current nodes, links and configs are "
        "replaced by the snapshot's (running nodes are stopped)."
    )
    args_schema = SnapshotArgs
    risk = "change"
    destructive = True

    async def consequence(self, args: SnapshotArgs, ctx: RunContext) -> str | None:
        """``replaces the current 4 nodes and 3 links; changes since the snapshot are lost``."""
        resolve_snapshot(await ctx.client.list_snapshots(ctx.project_id), args.name)
        topology = await project_topology(ctx)
        return (
            f"replaces the current {len(topology.nodes)} node(s) and {len(topology.links)} "
            "link(s) with the snapshot; every change made since it was taken is lost"
        )

    def summary(self, args: SnapshotArgs) -> str:
        """``restore snapshot 'before OSPF' (replaces the current topology)``."""
        return f"restore snapshot '{args.name}' (replaces the current topology)"

    async def run(self, args: SnapshotArgs, ctx: RunContext) -> ToolResult:
        """Find the snapshot by name and restore it."""
        try:
            snapshot = resolve_snapshot(await ctx.client.list_snapshots(ctx.project_id), args.name)
            await ctx.client.restore_snapshot(ctx.project_id, snapshot.snapshot_id)
            topology = await project_topology(ctx)
        except CopilotError as exc:
            return error_result(exc)
        return ToolResult(
            text=(
                f"Snapshot '{snapshot.name}' restored: the project now has "
                f"{len(topology.nodes)} node(s) and {len(topology.links)} link(s)."
            ),
            structured={
                "snapshot_id": snapshot.snapshot_id,
                "name": snapshot.name,
                "nodes": sorted(n.name for n in topology.nodes),
                "links": len(topology.links),
            },
        )


# --- notes ----------------------------------------------------------------------------------


class AddNoteArgs(StrictArgs):
    """Arguments of `AddNoteTool`."""

    text: str = Field(
        min_length=1, max_length=2000, description="The note's text (may span lines)."
    )
    x: int | None = Field(default=None, description="Canvas x; above the nodes when omitted.")
    y: int | None = None
    color: str = Field(default="#000000", pattern=r"^#[0-9a-fA-F]{6}$")


def note_svg(text: str, color: str = "#000000") -> str:
    """The SVG of a text drawing, the way the GNS3 GUI writes one."""
    lines = text.splitlines() or [text]
    width = max(len(line) for line in lines) * NOTE_CHAR_WIDTH + 10
    height = len(lines) * NOTE_LINE_HEIGHT + 8
    body = escape("\n".join(lines), {'"': "&quot;"})
    return (
        f'<svg height="{height}" width="{width}"><text fill="{color}" fill-opacity="1.0" '
        f'font-family="TypeWriter" font-size="{NOTE_FONT_SIZE}" font-weight="bold">'
        f"{body}</text></svg>"
    )


class AddNoteTool(AgentTool[AddNoteArgs]):
    """Put a text note on the project canvas."""

    name = "add_note"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Add a note")
    description = "Add a text note to the project canvas (e.g. addressing plan, lab task)."
    args_schema = AddNoteArgs
    risk = "change"

    def summary(self, args: AddNoteArgs) -> str:
        """``add note "Lab 1: OSPF area 0"``."""
        return f'add note "{_first_line(args.text)}"'

    async def run(self, args: AddNoteArgs, ctx: RunContext) -> ToolResult:
        """Place it above the nodes unless told where."""
        try:
            x, y = args.x, args.y
            if x is None or y is None:
                nodes = (await project_topology(ctx)).nodes
                x = x if x is not None else min((n.x for n in nodes), default=0)
                y = y if y is not None else min((n.y for n in nodes), default=0) - 100
            drawing = await ctx.client.create_drawing(
                ctx.project_id, note_svg(args.text, args.color), x, y, z=2
            )
        except CopilotError as exc:
            return error_result(exc)
        return ToolResult(
            text=f"Note added at ({drawing.x}, {drawing.y}).",
            structured=with_undo(
                {"drawing_id": drawing.drawing_id, "x": drawing.x, "y": drawing.y},
                "add_note",
                [RemoveDrawing(drawing_id=drawing.drawing_id, label=_first_line(args.text))],
            ),
        )


def _first_line(text: str) -> str:
    first = text.splitlines()[0] if text.strip() else text
    return first if len(first) <= 50 else first[:47] + "..."


def project_change_tools() -> list[AgentTool[Any]]:
    """Snapshots and notes."""
    return [CreateSnapshotTool(), RestoreSnapshotTool(), AddNoteTool()]
