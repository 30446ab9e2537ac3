"""Checking an exercise on the lab: each fault's checks run on its devices, passed, failed or
cannot check (a node or link gone, stopped or replaced), a cleaned link healed, the reveal.
"""

from __future__ import annotations

import asyncio
import logging
import re

from gns3_copilot_desktop.core.errors import Gns3NotFoundError
from gns3_copilot_desktop.core.gns3.models import Link
from gns3_copilot_desktop.core.practice.catalog import (
    Check,
)
from gns3_copilot_desktop.core.practice.engine_lab import _LabReading
from gns3_copilot_desktop.core.practice.lab_facts import (
    ALWAYS_ON,
    START_WAIT_S,
    _Candidate,
    _fill,
    _link_text,
    _ping_command,
    _ping_passes,
    _public_title,
    _sealed,
)
from gns3_copilot_desktop.core.practice.link_steps import heal_link
from gns3_copilot_desktop.core.practice.results import (
    CheckOutcome,
    CheckState,
    Reveal,
    RevealedFault,
)
from gns3_copilot_desktop.core.practice.store import (
    ExerciseRecord,
    InjectedFault,
    now,
)

log = logging.getLogger(__name__)


class _Checking(_LabReading):
    """Running the faults' checks on the lab and the reveal."""

    async def _outcomes(self, record: ExerciseRecord) -> list[CheckOutcome]:
        for fault in record.sealed:  # a link the learner cleaned must carry traffic again
            link = await self._current_link(fault) if fault.link_id else None
            if link is not None and not link.suspend and not link.filters:
                await self._heal_link(link.link_id)
        outcomes: list[CheckOutcome] = []
        for fault in record.sealed:
            outcomes += await self._fault_outcomes(fault, len(outcomes))
        return outcomes

    async def _fault_outcomes(self, fault: InjectedFault, before: int) -> list[CheckOutcome]:
        """The fault's checks, numbered from ``before + 1``. When a device or the link the
        fault lives on is gone, replaced or stopped, every check is "cannot check"."""
        checks = self._catalog.get(fault.fault_id).checks
        changed = await self._lab_changed(fault)
        outcomes = []
        for index, check in enumerate(checks):
            number = before + index + 1
            title = _public_title(check, number, fault.params)
            if changed:
                outcomes.append(CheckOutcome(number, title, False, "cannot_check", changed))
                continue
            state, reason = await self._check_one(check, fault)
            outcomes.append(CheckOutcome(number, title, state == "passed", state, reason))
        return outcomes

    async def _lab_changed(self, fault: InjectedFault) -> str:
        """Why the fault's place in the lab is not the one it was injected in ("" when it is)."""
        nodes = {n.name: n for n in await self._client.list_nodes(self._project_id)}
        for name, node_id in fault.node_ids.items():
            node = nodes.get(name)
            if node is None:
                return f"the lab changed: {name} is no longer in it"
            if node.node_id != node_id:
                return f"the lab changed: {name} was replaced by another node"
            if node.status != "started" and node.node_type not in ALWAYS_ON:
                return f"the lab changed: {name} is not running"
        if fault.link_id is not None and await self._current_link(fault) is None:
            return f"the lab changed: the link {fault.link_name} is no longer in it"
        return ""

    async def _current_link(self, fault: InjectedFault) -> Link | None:
        """The fault's link, or the link that replaced it between the same two nodes."""
        assert fault.link_id is not None
        try:
            return await self._client.get_link(self._project_id, fault.link_id)
        except Gns3NotFoundError:
            pass
        ends = {fault.node_ids.get(name) for name in fault.devices}
        for link in await self._client.list_links(self._project_id):
            if {e.node_id for e in link.nodes} == ends and len(link.nodes) == 2:
                return link
        return None

    async def _run_checks(self, candidate: _Candidate) -> tuple[list[Check], list[bool]]:
        """The candidate's checks on the lab as it is (before any injection)."""
        fault = _sealed(candidate)
        fault.node_ids = {
            n.name: n.node_id for n in await self._client.list_nodes(self._project_id)
        }
        checks = list(candidate.fault.checks)
        return checks, [(await self._check_one(c, fault))[0] == "passed" for c in checks]

    async def _check_one(self, check: Check, fault: InjectedFault) -> tuple[CheckState, str]:
        params = fault.params
        if check.kind == "link":
            link = await self._current_link(fault)
            if link is None:
                return "cannot_check", f"the lab changed: the link {fault.link_name} is gone"
            return ("passed" if not link.suspend and not link.filters else "failed"), ""
        name = _fill(check.from_ or "", params) if check.kind == "ping" else fault.node or ""
        node = await self._find_node(name)
        if node is None or node.status != "started":
            return "cannot_check", f"the lab changed: {name} is not running"
        if check.kind == "ping":
            to = _fill(check.to or "", params)
            command = _ping_command(node, to, check.count)
        else:
            command = _fill(check.command or "", params)
        [outcome] = await self._run([await self._job(node, (command,))])
        if not outcome.ok:
            return "cannot_check", f"{name} does not answer on its console"
        output = "\n".join(r.output for r in outcome.results)
        if check.kind == "ping":
            return ("passed" if _ping_passes(output, to, check) else "failed"), ""
        found = re.search(_fill(check.expect or "", params), output) is not None
        return ("passed" if found != check.absent else "failed"), ""

    async def _heal_link(self, link_id: str) -> None:
        """Make the compute forget a cleared filter (`link_steps.heal_link`)."""
        await heal_link(self._client, self._project_id, link_id)

    async def _failing(self, candidate: _Candidate) -> list[str]:
        """The titles of the candidate's checks the lab does not pass now."""
        checks, passed = await self._run_checks(candidate)
        return [
            _fill(c.title, candidate.params) for c, ok in zip(checks, passed, strict=True) if not ok
        ]

    async def _until_working(self, record: ExerciseRecord) -> bool:
        """Wait (bounded) until every check of the plan passes again after a restart: a node
        just started answers its first console command before it ran its startup script."""
        try:
            async with asyncio.timeout(START_WAIT_S / 2):
                while True:
                    outcomes = await self._outcomes(record)
                    if all(o.passed for o in outcomes):
                        return True
                    await asyncio.sleep(1.0)
        except TimeoutError:
            return False

    def _reveal(self, record: ExerciseRecord) -> Reveal:
        faults = []
        for sealed in record.sealed:
            fault = self._catalog.get(sealed.fault_id)
            steps = fault.undo[sealed.platform]
            undo = [_fill(s, sealed.params) for s in [*steps.console, *steps.config]]
            if steps.link is not None:
                undo.append(_link_text(steps, sealed.link_name or ""))
            where = sealed.link_name or sealed.node or ""
            faults.append(RevealedFault(fault.title, where, fault.symptoms, undo))
        end = record.ended_at or now()
        seconds = int((end - (record.started_at or end)).total_seconds())
        return Reveal(faults, record.status, seconds, record.hints_used, record.score or 0)
