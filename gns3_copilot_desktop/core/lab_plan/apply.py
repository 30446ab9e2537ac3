"""Apply a plan's diff in dependency order, verify it, and undo it from its snapshot.

Order: snapshot, removals, nodes, links, start, configuration. Progress goes to a callback
``(step, done, total, text)``; the first failure stops the run and the `ApplyReport` says what
was done and what was not. GNS3 3.0.6 refuses a snapshot while a node that can be stopped runs
(409 "Project must be stopped in order to export it"; always-running built-ins such as switches
do not count), so `snapshot_project` saves the running VPCS, stops those nodes, snapshots and
starts them again, as the practice engine does.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceJob,
    run_on_devices,
    save_running_vpcs,
    target_for_node,
)
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import LinkEnd, Node, Snapshot
from gns3_copilot_desktop.core.lab_plan.diff import LabDiff
from gns3_copilot_desktop.core.lab_plan.validate import EndPlan

Progress = Callable[[str, int, int, str], None]
"""``(step, done, total, text)``: step is snapshot/remove/nodes/links/start/config."""

ALWAYS_RUNNING = frozenset(
    {"ethernet_switch", "ethernet_hub", "frame_relay_switch", "atm_switch", "cloud", "nat"}
)
START_WAIT_S = 30.0
PING_TIMEOUT_S = 15.0


class LabPlanError(CopilotError):
    """A step of applying a plan failed."""


@dataclass
class ApplyReport:
    """What applying did: the snapshot to undo to, the steps done, and the failure if any."""

    snapshot_id: str = ""
    snapshot_name: str = ""
    done: list[str] = field(default_factory=list)
    not_done: list[str] = field(default_factory=list)
    failed: str | None = None
    added_nodes: list[str] = field(default_factory=list)
    added_links: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every step was done."""
        return self.failed is None


def _noop(step: str, done: int, total: int, text: str) -> None:
    return None


async def _power(client: Gns3Client, pid: str, names: Sequence[str], status: str) -> None:
    """Start or stop these nodes and wait (bounded) until the server reports it."""
    wanted = set(names)
    for node in await client.list_nodes(pid):
        if node.name in wanted and node.status != status:
            if status == "started":
                await client.start_node(pid, node.node_id)
            else:
                await client.stop_node(pid, node.node_id)
    try:
        async with asyncio.timeout(START_WAIT_S):
            while True:  # the status is read from the server until it is reached
                nodes = await client.list_nodes(pid)
                if all(n.status == status for n in nodes if n.name in wanted):
                    return
                await asyncio.sleep(0.3)
    except TimeoutError as exc:
        raise LabPlanError(
            f"The nodes {', '.join(sorted(wanted))} were not {status} after {START_WAIT_S:.0f} s."
        ) from exc


async def snapshot_project(
    client: Gns3Client, pid: str, name: str, *, server_url: str = ""
) -> Snapshot:
    """A GNS3 snapshot of the project; nodes that block one are saved, stopped and restarted."""
    nodes = await client.list_nodes(pid)
    running = [n for n in nodes if n.status == "started" and n.node_type not in ALWAYS_RUNNING]
    await save_running_vpcs(running, server_url or client.base_url)
    await _power(client, pid, [n.name for n in running], "stopped")
    snapshot = await client.create_snapshot(pid, name)
    await _power(client, pid, [n.name for n in running], "started")
    return snapshot


def _steps(diff: LabDiff) -> list[tuple[str, str]]:
    steps = [("snapshot", "take a snapshot")]
    steps += [("remove", f"remove link {label}") for label in _link_labels(diff)]
    steps += [("remove", f"remove node {n.name}") for n in diff.removed_nodes]
    steps += [("nodes", f"create {p.node.name} ({p.template.name})") for p in diff.new_nodes]
    steps += [("links", f"link {_end(lp.a)} <-> {_end(lp.b)}") for lp in diff.new_links]
    steps += [("start", "start the nodes")]
    steps += [("config", f"configure {name}") for name in diff.configs]
    return steps


def _link_labels(diff: LabDiff) -> list[str]:
    names = {n.node_id: n.name for n in (diff.plan.project_nodes if diff.plan else [])}
    return [
        " <-> ".join(names.get(e.node_id, e.node_id[:8]) for e in lk.nodes)
        for lk in diff.removed_links
    ]


def _end(end: EndPlan) -> str:
    return f"{end.node} {end.port}"


async def apply_diff(
    client: Gns3Client,
    pid: str,
    diff: LabDiff,
    *,
    server_url: str = "",
    progress: Progress = _noop,
    console_options: ConsoleOptions | None = None,
) -> ApplyReport:
    """Apply `diff` step by step; stop at the first failure."""
    steps = _steps(diff)
    report = ApplyReport(not_done=[text for _, text in steps])
    index = 0

    def advance(step: str, text: str) -> None:
        nonlocal index
        index += 1
        report.done.append(text)
        report.not_done.remove(text)
        progress(step, index, len(steps), text)

    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    try:
        snapshot = await snapshot_project(
            client, pid, f"before lab plan {stamp}", server_url=server_url
        )
        report.snapshot_id, report.snapshot_name = snapshot.snapshot_id, snapshot.name
        advance("snapshot", steps[0][1])
        await _remove(client, pid, diff, advance)
        ids = {n.name: n for n in await client.list_nodes(pid)}
        for plan in diff.new_nodes:
            x, y = diff.positions[plan.node.name]
            node = await client.create_node_from_template(
                pid, plan.template.template_id, x=x, y=y, name=plan.node.name
            )
            if node.name != plan.node.name:
                node = await client.update_node(pid, node.node_id, name=plan.node.name)
            ids[node.name] = node
            report.added_nodes.append(node.name)
            advance("nodes", f"create {plan.node.name} ({plan.template.name})")
        for lp in diff.new_links:
            await client.create_link(pid, _link_end(ids, lp.a), _link_end(ids, lp.b))
            text = f"link {_end(lp.a)} <-> {_end(lp.b)}"
            report.added_links.append(f"{_end(lp.a)} <-> {_end(lp.b)}")
            advance("links", text)
        names = [p.node.name for p in [*diff.new_nodes, *diff.kept_nodes]]
        await _power(client, pid, names, "started")
        advance("start", "start the nodes")
        await _configure(client, pid, diff, server_url or client.base_url, console_options, advance)
    except CopilotError as exc:
        report.failed = f"{report.not_done[0]}: {exc.user_message}"
    return report


async def _remove(
    client: Gns3Client, pid: str, diff: LabDiff, advance: Callable[[str, str], None]
) -> None:
    for link, label in zip(diff.removed_links, _link_labels(diff), strict=True):
        await client.delete_link(pid, link.link_id)
        advance("remove", f"remove link {label}")
    for node in diff.removed_nodes:
        await client.delete_node(pid, node.node_id)
        advance("remove", f"remove node {node.name}")


def _link_end(ids: dict[str, Node], end: EndPlan) -> LinkEnd:
    node = ids.get(end.node)
    if node is None:
        raise LabPlanError(f"{end.node} is no longer in the project.")
    return LinkEnd(
        node_id=node.node_id, adapter_number=end.adapter_number, port_number=end.port_number
    )


async def _configure(
    client: Gns3Client,
    pid: str,
    diff: LabDiff,
    server_url: str,
    options: ConsoleOptions | None,
    advance: Callable[[str, str], None],
) -> None:
    if not diff.configs:
        return
    nodes = {n.name: n for n in await client.list_nodes(pid)}
    jobs = [
        DeviceJob(target_for_node(nodes[name], server_url), config_lines=lines)
        for name, lines in diff.configs.items()
    ]
    outcomes = await run_on_devices(jobs, options or ConsoleOptions(command_timeout=15.0))
    for name, outcome in zip(diff.configs, outcomes, strict=True):
        if not outcome.ok:
            raise LabPlanError(f"{name}: {outcome.error}")
        if outcome.config is not None and outcome.config.rejected:
            bad = "; ".join(f"{r.line!r}: {r.message}" for r in outcome.config.rejected[:3])
            raise LabPlanError(f"{name} rejected configuration lines: {bad}")
        advance("config", f"configure {name}")


# --- verification -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """One verification: what was checked, and whether it passed."""

    check: str
    passed: bool


def _answered(output: str, to: str) -> bool:
    address = re.escape(to)
    pattern = rf"{address}:? icmp_seq=\d+ ttl=|bytes from {address}\b|Success rate is [1-9]"
    return re.search(pattern, output) is not None


def _ping(node: Node, to: str) -> str:
    if node.node_type == "vpcs":
        return f"ping {to} -c 2"
    if node.node_type in ("dynamips", "iou"):
        return f"ping {to} repeat 3"
    return f"ping -c 3 -W 1 {to}"


async def verify_plan(
    client: Gns3Client,
    pid: str,
    diff: LabDiff,
    *,
    server_url: str = "",
    console_options: ConsoleOptions | None = None,
) -> list[CheckResult]:
    """Every node of the plan started; every host pings its gateway and the hosts the plan
    says it should reach (pings over the consoles, bounded)."""
    nodes = {n.name: n for n in await client.list_nodes(pid)}
    names = [p.node.name for p in [*diff.new_nodes, *diff.kept_nodes]]
    checks = [
        CheckResult(
            f"{name} started", nodes.get(name) is not None and nodes[name].status == "started"
        )
        for name in names
    ]
    addresses = diff.plan.addresses if diff.plan else {}
    pings: dict[str, list[str]] = {}
    for name, items in addresses.items():
        node = nodes.get(name)
        if node is not None and node.node_type == "vpcs" and items and items[0].gateway:
            pings.setdefault(name, []).append(str(items[0].gateway))
    for x, y in diff.plan.spec.reach if diff.plan else []:
        reached = addresses.get(y)
        if reached:
            pings.setdefault(x, []).append(str(reached[0].address.ip))
    pingable = {n: t for n, t in pings.items() if n in nodes and nodes[n].status == "started"}
    url = server_url or client.base_url
    jobs = [
        DeviceJob(target_for_node(nodes[name], url), tuple(_ping(nodes[name], t) for t in targets))
        for name, targets in pingable.items()
    ]
    options = console_options or ConsoleOptions(command_timeout=PING_TIMEOUT_S)
    outcomes = await run_on_devices(jobs, options) if jobs else []
    for (name, targets), outcome in zip(pingable.items(), outcomes, strict=True):
        for i, target in enumerate(targets):
            output = outcome.results[i].output if i < len(outcome.results) else ""
            checks.append(CheckResult(f"{name} pings {target}", _answered(output, target)))
    for name, targets in pings.items():
        if name not in pingable:
            checks += [CheckResult(f"{name} pings {t}", False) for t in targets]
    return checks


# --- undo -------------------------------------------------------------------------------------


async def undo_preview(client: Gns3Client, pid: str, report: ApplyReport) -> list[str]:
    """What restoring the plan's snapshot makes disappear: the nodes and links it added that
    are still in the project."""
    present = {n.name for n in await client.list_nodes(pid)}
    gone = [f"node {name}" for name in report.added_nodes if name in present]
    ends = [
        ln
        for ln in report.added_links
        if all(part.rsplit(" ", 1)[0] in present for part in ln.split(" <-> "))
    ]
    return gone + [f"link {ln}" for ln in ends]


async def undo_plan(client: Gns3Client, pid: str, snapshot_id: str) -> None:
    """Restore the snapshot taken before the plan was applied."""
    await client.restore_snapshot(pid, snapshot_id)
