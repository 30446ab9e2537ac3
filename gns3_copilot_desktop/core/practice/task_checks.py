"""Running a task's checks on a lab, injecting and undoing its own faults, and proving a task
before it is saved.

A check passes only on what its device printed: a device that is gone, stopped or that could
not be reached is "cannot check" (the lab changed), never a pass. Inject and undo lines go
through the command gate as any change does (`run_on_devices` refuses what the gate refuses).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices
from gns3_copilot_desktop.core.devices.console_data import ConsoleOptions
from gns3_copilot_desktop.core.devices.ping import ping_loss
from gns3_copilot_desktop.core.devices.policy import check_command
from gns3_copilot_desktop.core.devices.routing import (
    bgp_established,
    ospf_neighbor_full,
    route_present,
)
from gns3_copilot_desktop.core.devices.targets import target_for_node
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.practice.catalog import load_catalog
from gns3_copilot_desktop.core.practice.lab_facts import PLATFORM_OF_NODE_TYPE
from gns3_copilot_desktop.core.practice.task import (
    PassCondition,
    Task,
    TaskCheck,
    TaskFault,
    TaskFileError,
)

CheckState = Literal["pass", "fail", "cannot-check"]


@dataclass(frozen=True)
class CheckResult:
    """What one check found: its state, the trainer's message for it, the points earned."""

    title: str
    state: CheckState
    message: str
    points: int
    tries: int = 1


@dataclass(frozen=True)
class TaskProof:
    """A task tried on a working lab: the checks on the baseline, after the faults were
    injected, and after they were undone; ``problems`` say why it cannot be saved yet."""

    baseline: list[CheckResult]
    injected: list[CheckResult]
    restored: list[CheckResult]
    problems: list[str]

    @property
    def ok(self) -> bool:
        """Every check passes on the baseline and again once undone, and the faults make at
        least one fail."""
        return not self.problems


def score(results: Sequence[CheckResult]) -> int:
    """Points earned: the points of the checks that passed."""
    return sum(r.points for r in results if r.state == "pass")


def condition_holds(condition: PassCondition, output: str) -> bool:
    """Whether a check's output meets its pass condition."""
    if condition.contains is not None:
        return condition.contains in output
    if condition.not_contains is not None:
        return condition.not_contains not in output
    if condition.regex is not None:
        return re.search(condition.regex, output) is not None
    if condition.route is not None:
        return route_present(output, condition.route)
    if condition.ospf_full is not None:
        wanted = None if condition.ospf_full == "any" else condition.ospf_full
        return ospf_neighbor_full(output, wanted)
    if condition.bgp_established is not None:
        return bgp_established(output, condition.bgp_established)
    loss = ping_loss(output)
    return (
        loss is not None and condition.ping_max_loss is not None and loss <= condition.ping_max_loss
    )


class TaskRunner:
    """Runs a task's checks and its own faults on one project."""

    def __init__(
        self,
        client: Gns3Client,
        project_id: str,
        server_url: str,
        *,
        options: ConsoleOptions | None = None,
    ) -> None:
        self._client = client
        self._project_id = project_id
        self._server_url = server_url
        self._options = options

    async def check(self, task: Task) -> list[CheckResult]:
        """Every check of the task, in order (each device's own retries)."""
        nodes = await self._nodes()
        return [await self._check_one(check, nodes) for check in task.checks]

    async def inject(self, task: Task) -> None:
        """Run every fault's inject lines (faults of the trainer's own only)."""
        await self._steps(task.faults, "inject")

    async def undo(self, task: Task) -> None:
        """Run every fault's undo lines, last fault first."""
        await self._steps(list(reversed(task.faults)), "undo")

    async def prove(self, task: Task) -> TaskProof:
        """Try the task on this working lab: every check must pass first, at least one must
        fail once the faults are in, and every check must pass again once they are undone.
        The lab is left as it was found (the faults are undone even when a step fails)."""
        baseline = await self.check(task)
        problems = [
            f"“{r.title}” does not pass on the working lab ({r.message})"
            for r in baseline
            if r.state != "pass"
        ]
        if problems:
            return TaskProof(baseline, [], [], problems)
        try:
            await self.inject(task)
            injected = await self.check(task)
        finally:
            await self.undo(task)
        restored = await self.check(task)
        if not any(r.state == "fail" for r in injected):
            problems.append("the faults break nothing the checks look at: every check still passes")
        problems += [
            f"“{r.title}” cannot be checked with the faults in ({r.message})"
            for r in injected
            if r.state == "cannot-check"
        ]
        problems += [
            f"“{r.title}” does not pass again once the faults are undone ({r.message})"
            for r in restored
            if r.state != "pass"
        ]
        return TaskProof(baseline, injected, restored, problems)

    # --- inside ---------------------------------------------------------------------------

    async def _nodes(self) -> dict[str, Node]:
        return {n.name: n for n in await self._client.list_nodes(self._project_id)}

    async def _check_one(self, check: TaskCheck, nodes: dict[str, Node]) -> CheckResult:
        tries = 0
        while True:
            tries += 1
            state, detail = await self._try(check, nodes)
            if state != "fail" or tries > check.retries:
                break
            await asyncio.sleep(check.wait_s)
            nodes = await self._nodes()
        if state == "pass":
            return CheckResult(check.title, state, check.on_pass or "passed", check.points, tries)
        message = detail if state == "cannot-check" else (check.on_fail or detail)
        return CheckResult(check.title, state, message, 0, tries)

    async def _try(self, check: TaskCheck, nodes: dict[str, Node]) -> tuple[CheckState, str]:
        node = nodes.get(check.device)
        if node is None:
            return "cannot-check", f"{check.device} is not in the lab any more"
        if node.status != "started":
            return "cannot-check", f"{check.device} is {node.status or 'not running'}"
        job = DeviceJob(target_for_node(node, self._server_url), (check.command,))
        [outcome] = await run_on_devices([job], self._options)
        if not outcome.ok or not outcome.results:
            return "cannot-check", f"{check.device} did not answer: {outcome.error or 'no output'}"
        output = "\n".join(r.output for r in outcome.results)
        if condition_holds(check.passes, output):
            return "pass", "passed"
        return "fail", f"{check.passes.describe()}: not so on {check.device}"

    async def _steps(self, faults: Sequence[TaskFault], which: Literal["inject", "undo"]) -> None:
        nodes = await self._nodes()
        for fault in faults:
            node = nodes.get(fault.device)
            if node is None or node.status != "started":
                raise TaskFileError(
                    f"cannot {which} on {fault.device}: "
                    f"{'not in the lab' if node is None else 'it is ' + (node.status or 'stopped')}"
                )
            if fault.catalog is not None:
                commands, config = catalog_steps(fault, which, node.node_type)
            else:
                commands, config = list(fault.inject if which == "inject" else fault.undo), []
            for line in [*config, *commands]:  # gated when parsed; a changed rule applies now too
                refused = check_command(line)
                if refused is not None:
                    raise TaskFileError(f"the command gate refuses {line!r}: {refused.reason}")
            job = DeviceJob(target_for_node(node, self._server_url), tuple(commands), tuple(config))
            [outcome] = await run_on_devices([job], self._options)  # one device at a time
            if not outcome.ok:
                raise TaskFileError(f"{which} on {fault.device} failed: {outcome.error}")


def catalog_steps(
    fault: TaskFault, which: Literal["inject", "undo"], node_type: str
) -> tuple[list[str], list[str]]:
    """A catalog fault's console commands and configuration lines for a device of this GNS3
    node type, its placeholders filled from the task's ``params``. A fault that changes a link
    or needs the device unplugged is the dock's Practice's to inject, not a task's."""
    assert fault.catalog is not None
    entry = load_catalog().get(fault.catalog)
    platform = PLATFORM_OF_NODE_TYPE.get(node_type, node_type)
    steps = (entry.inject if which == "inject" else entry.undo).get(platform)
    if steps is None:
        raise TaskFileError(
            f"the catalog fault {fault.catalog!r} has no steps for {fault.device} "
            f"(a {node_type} node)"
        )
    if steps.link is not None or steps.offline:
        raise TaskFileError(
            f"the catalog fault {fault.catalog!r} changes a link or needs {fault.device} "
            "unplugged: the app's Practice injects it, a task cannot"
        )
    try:
        fill = [" ".join(text.format_map(fault.params).split()) for text in steps.texts()]
    except KeyError as exc:
        raise TaskFileError(
            f"the catalog fault {fault.catalog!r} needs the parameter {exc.args[0]!r} "
            "in the task's params"
        ) from None
    return fill[: len(steps.console)], fill[len(steps.console) :]
