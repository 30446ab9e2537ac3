"""Injecting and undoing faults by their own steps (consoles, the GNS3 link API), proving each
is on its device and breaks its checks, and undoing everything when one is refused.
"""

from __future__ import annotations

import asyncio
import logging

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.practice.catalog import (
    Steps,
)
from gns3_copilot_desktop.core.practice.engine_checks import _Checking
from gns3_copilot_desktop.core.practice.lab_facts import (
    _device_answer,
    _fill,
    _vpcs_expected,
    _vpcs_summary,
    vpcs_address,
)
from gns3_copilot_desktop.core.practice.link_steps import set_link, unplugged
from gns3_copilot_desktop.core.practice.store import (
    InjectedFault,
    PracticeError,
)

log = logging.getLogger(__name__)

SETTLE_POLL_S = 2.0
"""How often a fault that takes time to show (`Fault.settle_s`) is read again at its start."""


class _Injecting(_Checking):
    """Injecting and undoing faults, proven on their devices."""

    async def _inject_verified(self, faults: list[InjectedFault]) -> None:
        """Inject every fault, then prove each is on its device and breaks its checks. On any
        failure the injected faults are undone (newest first) and `PracticeError` says why."""
        nodes = {n.name: n for n in await self._client.list_nodes(self._project_id)}
        done: list[InjectedFault] = []
        try:
            answers: list[str] = []
            for fault in faults:
                named = [*fault.devices, fault.node or "", fault.params.get("peer", "")]
                fault.node_ids = {n: nodes[n].node_id for n in named if n in nodes}
                answers.append(
                    await self._apply(
                        fault, self._catalog.get(fault.fault_id).inject[fault.platform]
                    )
                )
                done.append(fault)
            for fault, answer in zip(faults, answers, strict=True):
                problem, refused = await self._not_injected(fault)
                if problem:
                    where = fault.link_name or fault.node or ""
                    # the device's own words when it refused the step, else what was found
                    raise PracticeError(
                        f"Could not inject “{fault.title}” on {where}: "
                        f"{(answer if refused and answer else problem)}. "
                        "Nothing was started and the lab is as it was."
                    )
        except BaseException as exc:
            left = await self._undo_all(list(reversed(done)))
            if left:
                log.warning("An exercise that failed to start left: %s", "; ".join(left))
                if isinstance(exc, CopilotError):
                    raise PracticeError(
                        f"{exc.user_message.removesuffix(' and the lab is as it was.')}; it "
                        f"could not all be undone: {'; '.join(left)}."
                    ) from exc
            raise

    async def _not_injected(self, fault: InjectedFault) -> tuple[str, bool]:
        """("", False) when the fault is on its device and at least one of its checks fails
        (none unknown), else why not, and whether the device refused the step."""
        steps = self._catalog.get(fault.fault_id).inject[fault.platform]
        if steps.link is not None:
            assert fault.link_id is not None
            link = await self._client.get_link(self._project_id, fault.link_id)
            if steps.link.suspend is not None and link.suspend != steps.link.suspend:
                return "GNS3 did not suspend the link", True
            if steps.link.filters and not link.filters:
                return "GNS3 did not keep the link's filters", True
        else:
            node = await self._node_named(fault.node or "")
            shown = await self._output(node, "show ip") if fault.platform == "vpcs" else ""
            for command in (_fill(c, fault.params) for c in steps.console):
                expected = _vpcs_expected(command)
                if expected is not None and vpcs_address(shown) != expected:
                    return f"it still shows {_vpcs_summary(shown)}", True
        changed = await self._lab_changed(fault)
        if changed:
            return changed, False
        # one failing check proves the fault; the checks are cheapest first in the catalog
        entry = self._catalog.get(fault.fault_id)
        loop = asyncio.get_running_loop()
        settled = loop.time() + entry.settle_s
        while True:
            for check in entry.checks:
                state, reason = await self._check_one(check, fault)
                if state == "cannot_check":
                    return reason, False
                if state == "failed":
                    return "", False
            if loop.time() >= settled:
                return "the lab still passes every check of the fault", False
            await asyncio.sleep(SETTLE_POLL_S)  # a protocol timer still running: read again

    async def _undo_all(self, faults: list[InjectedFault]) -> list[str]:
        """Run each fault's undo steps where its device or link still is; what was left."""
        left: list[str] = []
        for fault in faults:
            steps = self._catalog.get(fault.fault_id).undo[fault.platform]
            try:
                if steps.link is not None:
                    link = await self._current_link(fault)
                    if link is None:
                        left.append(f"the link {fault.link_name} is no longer in the lab")
                        continue
                    await self._set_link(link.link_id, steps)
                    continue
                node = await self._find_node(fault.node or "")
                if node is None or node.status != "started":
                    left.append(f"{fault.node} is not running, so it was left as it is")
                    continue
                await self._apply(fault, steps)
            except CopilotError as exc:
                left.append(f"{fault.link_name or fault.node}: {exc.user_message}")
        return left

    async def _apply(self, fault: InjectedFault, steps: Steps) -> str:
        """Run one side of a fault (inject or undo); the device's answer to the commands. A
        VPCS saves what it was told, so a reload of the node keeps it as a real fault would."""
        if steps.link is not None:
            assert fault.link_id is not None
            await self._set_link(fault.link_id, steps)
            return ""
        node = await self._node_named(fault.node or "")
        commands = tuple(_fill(c, fault.params) for c in steps.console)
        if node.node_type == "vpcs":
            commands += ("save",)
        job = await self._job(node, commands, [_fill(c, fault.params) for c in steps.config])
        if steps.offline:
            async with unplugged(self._client, self._project_id, node):
                [outcome] = await self._run([job])
        else:
            [outcome] = await self._run([job])
        if not outcome.ok or (outcome.config is not None and not outcome.config.ok):
            raise PracticeError(
                f"The exercise could not be set up on {node.name}: {outcome.error or 'no answer'}"
            )
        return _device_answer(outcome, len(steps.console))

    async def _set_link(self, link_id: str, steps: Steps) -> None:
        assert steps.link is not None
        await set_link(self._client, self._project_id, link_id, steps.link)
