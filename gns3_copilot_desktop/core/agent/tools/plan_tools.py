"""``plan_lab``: a whole lab declared at once, validated, shown as one plan, applied, verified.

The plan is validated and compared with the project before the approval (`consequence`): a plan
that does not validate is refused with every problem named and no card is shown; one that does
goes to the card as its summary (``add 3 nodes, 4 links; configure 2 devices``) and its data
(tables and picture). After approval the tool validates again (the lab may have changed while the
user read the card), applies, verifies, and puts the inverse of every step it did in its result
(an `UndoRecord`, as every change tool does), so "Undo this plan" works against the project as it
is now, after a reload or a GNS3 restart too. No snapshot is taken and no running node stopped.

A plan the project already matches asks for no approval: `consequence` answers the call itself
with "nothing to change" (`CallAnsweredError`), and no card is shown.
"""

from __future__ import annotations

from typing import Any

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools import progress
from gns3_copilot_desktop.core.agent.tools.base import (
    AgentTool,
    CallAnsweredError,
    CallRefusedError,
    Consequence,
    ToolResult,
)
from gns3_copilot_desktop.core.agent.tools.common import error_result, project_topology
from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.devices.console_data import DeviceCredentials
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.lab_plan.apply import apply_diff, verify_plan
from gns3_copilot_desktop.core.lab_plan.diff import LabDiff, diff_plan
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.core.lab_plan.validate import PlanInvalidError, validate_plan
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP
from gns3_copilot_desktop.core.undo.record import with_undo

NOTHING_TO_DO = "Nothing to change: the project already matches this plan."


async def plan_diff(spec: LabSpec, ctx: RunContext) -> LabDiff:
    """Validate `spec` against the live project and compare; `PlanInvalidError` when it fails."""
    templates = await ctx.client.list_templates()
    topology = await project_topology(ctx)
    return diff_plan(validate_plan(spec, templates, topology.nodes, topology.links))


class PlanLabTool(AgentTool[LabSpec]):
    """Build or extend a lab from a declarative plan, as one approved change."""

    name = "plan_lab"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Lab plan")
    description = (
        "Build or extend the lab from one declarative plan: nodes (name, template, optional "
        "x/y), links (ends by node and port name, or port 'any' for the lowest free port), "
        "subnets, addresses per interface with gateways, OSPF per node, host pairs that should "
        "reach each other, and explicit removals. Existing matching nodes and links are kept, "
        "nothing is deleted unless listed in 'remove'. The user approves the whole plan once; "
        "it is applied (undoable, running nodes keep running), then verified by pings."
    )
    args_schema = LabSpec

    def __init__(self, access: DeviceAccess | None = None) -> None:
        self.access = access or DeviceAccess()

    risk = "change"

    def summary(self, args: LabSpec) -> str:
        """``plan a lab of 5 nodes and 4 links``."""
        nodes = f"{len(args.nodes)} node" + ("" if len(args.nodes) == 1 else "s")
        links = f"{len(args.links)} link" + ("" if len(args.links) == 1 else "s")
        text = f"plan a lab of {nodes} and {links}"
        return text + (f", removing {len(args.remove)}" if args.remove else "")

    def is_destructive(self, args: LabSpec) -> bool:
        """A plan with removals deletes things."""
        return bool(args.remove)

    async def consequence(self, args: LabSpec, ctx: RunContext) -> Consequence:
        """The diff's summary and data; a plan that does not validate is refused here."""
        try:
            diff = await plan_diff(args, ctx)
        except PlanInvalidError as exc:
            raise CallRefusedError(exc.user_message) from exc
        if diff.is_empty:
            raise CallAnsweredError(NOTHING_TO_DO)
        return Consequence(text=diff.summary(), plan=diff.to_json())

    async def run(self, args: LabSpec, ctx: RunContext) -> ToolResult:
        """Validate again, apply (recording the undo), verify."""
        try:
            diff = await plan_diff(args, ctx)
        except CopilotError as exc:
            return error_result(exc)
        if diff.is_empty:
            return ToolResult(text=NOTHING_TO_DO, structured={"plan": diff.to_json()})

        def told(step: str, done: int, total: int, text: str) -> None:
            progress.report(f"[{done}/{total}] {text}")

        async def login(node: Node) -> DeviceCredentials | None:
            return await self.access.credentials_for(ctx, node)

        report = await apply_diff(
            ctx.client,
            ctx.project_id,
            diff,
            server_url=ctx.server_url,
            progress=told,
            logins=login,
        )
        structured: dict[str, Any] = with_undo(
            {
                "plan": diff.to_json(),
                "done": report.done,
                "not_done": report.not_done,
                "added_nodes": report.added_nodes,
                "added_links": report.added_links,
            },
            self.name,
            report.undo_steps,
        )
        ports = diff.auto_ports()
        port_text = f"\nPorts chosen: {', '.join(ports)}." if ports else ""
        if not report.ok:
            undo = " Undo this plan takes back what was done." if report.undo_steps else ""
            return ToolResult.error(
                f"Error: the plan stopped at {report.failed}. Done: "
                f"{', '.join(report.done) or 'nothing'}. Not done: {', '.join(report.not_done)}."
                f"{undo}{port_text}",
                **structured,
            )
        checks = await verify_plan(
            ctx.client, ctx.project_id, diff, server_url=ctx.server_url, logins=login
        )
        structured["checks"] = [{"check": c.check, "passed": c.passed} for c in checks]
        lines = [f"- {'PASS' if c.passed else 'FAIL'} {c.check}" for c in checks]
        return ToolResult(
            text=f"Applied: {diff.summary()} (undoable; running nodes kept running).{port_text}"
            "\nChecks:\n" + "\n".join(lines),
            structured=structured,
        )


def plan_tools(access: DeviceAccess | None = None) -> list[AgentTool[Any]]:
    """The lab plan tool (pushing configuration with the consoles' saved logins)."""
    return [PlanLabTool(access)]
