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

from gns3_copilot_desktop.core.devices import DeviceCredentials, DeviceJob, run_on_devices
from gns3_copilot_desktop.core.devices.console_data import ConsoleOptions
from gns3_copilot_desktop.core.devices.ping import ping_loss
from gns3_copilot_desktop.core.devices.policy import check_command
from gns3_copilot_desktop.core.devices.routing import (
    bgp_established,
    interface_up,
    ospf_neighbor_full,
    route_present,
)
from gns3_copilot_desktop.core.devices.targets import target_for_node
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.practice.catalog import LinkAction, Steps, load_catalog
from gns3_copilot_desktop.core.practice.lab_facts import NO_LOGIN, PLATFORM_OF_NODE_TYPE, Logins
from gns3_copilot_desktop.core.practice.link_steps import links_between, set_link, unplugged
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
    if condition.interface_up is not None:
        return interface_up(output, condition.interface_up)
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
        logins: Logins | None = None,
    ) -> None:
        self._client = client
        self._project_id = project_id
        self._server_url = server_url
        self._options = options
        self._logins = logins
        self._known_logins: dict[str, DeviceCredentials | None] = {}
        """Each router's login, looked up once per run (`check`, `inject`, `undo`)."""

    async def check(self, task: Task) -> list[CheckResult]:
        """Every check of the task, in order (each device's own retries)."""
        self._known_logins.clear()
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
        job = await self._job(node, (check.command,))
        [outcome] = await run_on_devices([job], self._options)
        if not outcome.ok or not outcome.results:
            return "cannot-check", f"{check.device} did not answer: {outcome.error or 'no output'}"
        output = "\n".join(r.output for r in outcome.results)
        if condition_holds(check.passes, output):
            return "pass", "passed"
        return "fail", f"{check.passes.describe()}: not so on {check.device}"

    async def _job(
        self, node: Node, commands: Sequence[str], config: Sequence[str] = ()
    ) -> DeviceJob:
        """A console job on ``node``, logged in with its saved console login (a router's
        console asks for one; a VPCS or a switch never does, so none is looked up)."""
        login = None
        if self._logins is not None and node.node_type not in NO_LOGIN:
            if node.node_id not in self._known_logins:
                self._known_logins[node.node_id] = await self._logins(node)
            login = self._known_logins[node.node_id]
        return DeviceJob(
            target_for_node(node, self._server_url),
            tuple(commands),
            tuple(config),
            credentials=login,
        )

    async def _steps(self, faults: Sequence[TaskFault], which: Literal["inject", "undo"]) -> None:
        self._known_logins.clear()
        nodes = await self._nodes()
        for fault in faults:
            node = nodes.get(fault.device)
            if node is None and not _is_link_fault(fault):  # before its steps: the reason
                raise TaskFileError(f"cannot {which} on {fault.device}: not in the lab")
            steps = catalog_entry_steps(fault, which, node.node_type if node else "")
            if steps is not None and steps.link is not None:
                await self._link_step(fault, steps.link, which, nodes)
                continue
            if node is None or node.status != "started":
                raise TaskFileError(
                    f"cannot {which} on {fault.device}: "
                    f"{'not in the lab' if node is None else 'it is ' + (node.status or 'stopped')}"
                )
            if steps is not None:
                commands, config = fill_steps(fault, steps)
            else:
                commands, config = list(fault.inject if which == "inject" else fault.undo), []
            for line in [*config, *commands]:  # gated when parsed; a changed rule applies now too
                refused = check_command(line)
                if refused is not None:
                    raise TaskFileError(f"the command gate refuses {line!r}: {refused.reason}")
            job = await self._job(node, commands, config)
            if steps is not None and steps.offline:  # configured while unplugged
                async with unplugged(self._client, self._project_id, node):
                    [outcome] = await run_on_devices([job], self._options)
            else:
                [outcome] = await run_on_devices([job], self._options)  # one device at a time
            if not outcome.ok or (outcome.config is not None and not outcome.config.ok):
                raise TaskFileError(f"{which} on {fault.device} failed: {outcome.error}")

    async def _link_step(
        self,
        fault: TaskFault,
        action: LinkAction,
        which: Literal["inject", "undo"],
        nodes: dict[str, Node],
    ) -> None:
        """A catalog link fault: the one link between the fault's device and its ``peer``,
        changed through the GNS3 API with the caller's login."""
        peer = fault.params.get("peer", "")
        ends = [nodes.get(fault.device), nodes.get(peer)]
        missing = [name for name, n in zip((fault.device, peer), ends, strict=True) if n is None]
        if missing:
            raise TaskFileError(f"cannot {which} on the link: {missing[0]} is not in the lab")
        first, second = ends
        assert first is not None and second is not None
        joining = links_between(await self._client.list_links(self._project_id), first, second)
        if len(joining) != 1:
            raise TaskFileError(
                f"cannot {which} on the link: {len(joining)} links join {fault.device} and "
                f"{peer}, the fault needs exactly one"
            )
        await set_link(self._client, self._project_id, joining[0].link_id, action)


def _is_link_fault(fault: TaskFault) -> bool:
    return fault.catalog is not None and load_catalog().get(fault.catalog).applies_to == ["link"]


def catalog_entry_steps(
    fault: TaskFault, which: Literal["inject", "undo"], node_type: str
) -> Steps | None:
    """A catalog fault's steps for a device of this GNS3 node type (a link fault's for its
    link, whatever the device); None for a fault of the trainer's own lines."""
    if fault.catalog is None:
        return None
    entry = load_catalog().get(fault.catalog)
    platform = PLATFORM_OF_NODE_TYPE.get(node_type, node_type)
    if entry.applies_to == ["link"]:
        platform = "link"
    steps = (entry.inject if which == "inject" else entry.undo).get(platform)
    if steps is None:
        raise TaskFileError(
            f"the catalog fault {fault.catalog!r} has no steps for {fault.device} "
            f"(a {node_type or 'missing'} node)"
        )
    return steps


def fill_steps(fault: TaskFault, steps: Steps) -> tuple[list[str], list[str]]:
    """A catalog fault's console commands and configuration lines, its placeholders filled
    from the task's ``params`` (each line kept one line: whitespace in a value is folded)."""
    try:
        fill = [" ".join(text.format_map(fault.params).split()) for text in steps.texts()]
    except KeyError as exc:
        raise TaskFileError(
            f"the catalog fault {fault.catalog!r} needs the parameter {exc.args[0]!r} "
            "in the task's params"
        ) from None
    return fill[: len(steps.console)], fill[len(steps.console) :]
