"""The user's decision on a tool call that waited for approval, and what an edited call would do.

`preview_call` recomputes a pending call's card from arguments the user edited, the way the
graph's gate computed it for the model's arguments: the tool's own summary, risk and destructive
mark, and its consequence read from the lab now (``deletes R1, R2, R3 and their 5 links``, a
push's lines against each device's running configuration). The card approves only arguments it
has shown this way, so what the user approves is what runs.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.protocol import ApprovalRequest

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.context import RunContext
    from gns3_copilot_desktop.core.agent.tools.registry import ToolRegistry

log = logging.getLogger(__name__)

ApprovalAction = Literal["approve", "reject", "edit"]


class ApprovalDecision(BaseModel):
    """Approve, reject (with a reason the model sees) or approve with edited arguments."""

    tool_call_id: str
    action: ApprovalAction
    arguments: dict[str, Any] | None = None
    """The edited arguments when ``action == "edit"`` (validated against the tool's schema)."""
    reason: str | None = None


def decisions_by_id(raw: object) -> dict[str, ApprovalDecision]:
    """Read the value a run was resumed with (a list of decisions, as dicts or models)."""
    items = raw if isinstance(raw, list) else []
    decisions: dict[str, ApprovalDecision] = {}
    for item in items:
        decision = ApprovalDecision.model_validate(item)
        decisions[decision.tool_call_id] = decision
    return decisions


class CallPreview(BaseModel):
    """A pending call's card recomputed from edited arguments, or why it cannot run so."""

    request: ApprovalRequest | None = None
    """The card for the edited arguments (same call id); None when there is a `problem`."""
    problem: str | None = None
    """Plain text: the edit does not parse, the tool would refuse it, or the lab cannot be
    read to say what it would do. Approve stays off while there is one."""
    can_edit: bool = True
    """False where edits cannot be checked at all (a copilot service on another computer):
    the card then offers the call only as proposed."""


NOT_PENDING_TEXT = "This call no longer waits for your approval."
LAB_UNREADABLE_TEXT = "The lab could not be read to check this edit."


async def preview_call(
    tools: ToolRegistry,
    pending: ApprovalRequest,
    arguments: dict[str, Any],
    ctx: RunContext,
    *,
    mode: str | None = None,
) -> CallPreview:
    """The card of `pending` as it would be with `arguments`, the lab read now.

    The arguments go through the same validation as the resumed call (`ToolRegistry.resolve`),
    the session's mode rules and the tool's consequence; a consequence that fails (an unknown
    node name, a plan that does not validate, the server not answering) is a problem, never a
    card without its consequence.
    """
    from gns3_copilot_desktop.core.agent.modes import allows_call
    from gns3_copilot_desktop.core.agent.tools.base import Consequence, ToolResult

    resolved = tools.resolve(pending.tool_name, arguments)
    if isinstance(resolved, ToolResult):
        return CallPreview(problem=resolved.text.removeprefix("Error: "))
    tool, args = resolved.tool, resolved.args
    if not allows_call(mode, tool, args):
        return CallPreview(problem=f"{tool.name} cannot change the lab in this session's mode.")
    try:
        found = await tool.consequence(args, ctx)
    except CopilotError as exc:
        return CallPreview(problem=exc.user_message)
    except Exception:  # a bug must not leave the card checking forever; it is logged
        log.exception("consequence of edited %s failed", tool.name)
        return CallPreview(problem=LAB_UNREADABLE_TEXT)
    note = Consequence(found) if isinstance(found, str) else found
    request = ApprovalRequest(
        tool_call_id=pending.tool_call_id,
        tool_name=tool.name,
        arguments=args.model_dump(mode="json"),
        summary=tool.summary(args),
        risk=tool.risk_for(args),
        arguments_schema=tool.args_schema.model_json_schema(),
        destructive=tool.is_destructive(args),
        consequence=note.text if note else None,
        diff=note.diff if note else None,
        # the plan as the gate stores it: JSON-able, read back by the card
        plan=json.loads(json.dumps(note.plan)) if note and note.plan is not None else None,
    )
    return CallPreview(request=request)
