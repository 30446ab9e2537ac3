"""The user's decision on a tool call that waited for approval (issue 4 builds the UI for it)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

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
