"""Apply a plan's diff in dependency order, record how to undo it, and verify it.

Order: removals, nodes, links, start, configuration. No GNS3 snapshot is taken and no running
node is stopped: GNS3 3.0.6 refuses a snapshot while nodes run, so a snapshot would stop the whole
lab (and lose the routers' unsaved configurations). Instead, like every other change, the plan
writes the inverse of each step it did into an `UndoRecord` (`ApplyReport.undo_steps`): nodes it
created are removed, links it created are removed, nodes and links it removed come back, and the
configuration of kept devices is put back from the reads taken around the push.

Every link is made before any node is started, and the nodes are started together (bounded):
Debian's dynamips 0.2.14 can deadlock when a packet reaches an Ethernet switch while a port is
being added, and hosts that have just started send packets at exactly that moment.

Progress goes to a callback ``(step, done, total, text)``; the first failure stops the run and
the `ApplyReport` says what was done and what was not (and the record undoes what was done).

`snapshot_project` is the explicit "Take a GNS3 snapshot" action: it saves every running device's
configuration first, stops what blocks a snapshot, takes it, and starts again what it stopped.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceJob,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.devices.batch import DeviceOutcome
from gns3_copilot_desktop.core.devices.console import DeviceConsole
from gns3_copilot_desktop.core.devices.console_data import DeviceCredentials
from gns3_copilot_desktop.core.devices.ping import ping_answered
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import LinkEnd, Node, Snapshot
from gns3_copilot_desktop.core.lab_plan.diff import LabDiff
from gns3_copilot_desktop.core.lab_plan.validate import EndPlan, LinkPlan
from gns3_copilot_desktop.core.lab_plan.verify_routing import ROUTING_WAIT_S, verify_routing
from gns3_copilot_desktop.core.undo.config import RestoreLines, restore_lines
from gns3_copilot_desktop.core.undo.record import (
    RemoveLink,
    RemoveNode,
    RestoreConfig,
    RestoreLink,
    RestoreNode,
    SavedEnd,
    SavedLink,
    SavedNode,
    UndoStep,
)

Progress = Callable[[str, int, int, str], None]
"""``(step, done, total, text)``: step is remove/nodes/links/start/config."""

ALWAYS_RUNNING = frozenset(
    {"ethernet_switch", "ethernet_hub", "frame_relay_switch", "atm_switch", "cloud", "nat"}
)
START_WAIT_S = 30.0
PING_TIMEOUT_S = 15.0
MAX_PARALLEL_STARTS = 8
"""Nodes started at once (GNS3 starts each on its compute; more at once only queue there)."""
NODE_FILES = {"vpcs": ("startup.vpc",)}
"""The small text files that hold a node type's saved configuration, kept to bring it back."""
_STARTUP_LINE = re.compile(r"ip [0-9./]+( [0-9.]+)?")
"""The only VPCS lines a plan writes into a new host's startup script (its address, rendered from
validated addresses); anything else goes through the console and its policy."""


class LabPlanError(CopilotError):
    """A step of applying a plan failed."""


@dataclass
class ApplyReport:
    """What applying did: the steps done, the failure if any, and how to undo what was done."""

    done: list[str] = field(default_factory=list)
    not_done: list[str] = field(default_factory=list)
    failed: str | None = None
    added_nodes: list[str] = field(default_factory=list)
    added_links: list[str] = field(default_factory=list)
    undo_steps: list[UndoStep] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every step was done."""
        return self.failed is None


def _noop(step: str, done: int, total: int, text: str) -> None:
    return None


async def _power(client: Gns3Client, pid: str, names: Sequence[str], status: str) -> set[str]:
    """Start or stop these nodes together (bounded) and wait until the server reports it; the
    names of those it started or stopped."""
    wanted = set(names)
    gate = asyncio.Semaphore(MAX_PARALLEL_STARTS)

    async def one(node: Node) -> None:
        async with gate:
            if status == "started":
                await client.start_node(pid, node.node_id)
            else:
                await client.stop_node(pid, node.node_id)

    todo = [n for n in await client.list_nodes(pid) if n.name in wanted and n.status != status]
    await asyncio.gather(*(one(n) for n in todo))
    if not todo:
        return set()
    try:
        async with asyncio.timeout(START_WAIT_S):
            while True:  # the status is read from the server until it is reached
                nodes = await client.list_nodes(pid)
                if all(n.status == status for n in nodes if n.name in wanted):
                    return {n.name for n in todo}
                await asyncio.sleep(0.2)
    except TimeoutError as exc:
        raise LabPlanError(
            f"The nodes {', '.join(sorted(wanted))} were not {status} after {START_WAIT_S:.0f} s."
        ) from exc


def _steps(diff: LabDiff) -> list[tuple[str, str]]:
    steps = [("remove", f"remove link {label}") for label in _link_labels(diff)]
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
    logins: Callable[[Node], Awaitable[DeviceCredentials | None]] | None = None,
) -> ApplyReport:
    """Apply `diff` step by step; stop at the first failure. The report's `undo_steps` undo
    exactly what was done, whether the run ended or stopped. ``logins`` gives a device's
    console login (a router's serial console asks for one before its configuration)."""
    steps = _steps(diff)
    report = ApplyReport(not_done=[text for _, text in steps])
    index = 0

    def advance(step: str, text: str) -> None:
        nonlocal index
        index += 1
        report.done.append(text)
        report.not_done.remove(text)
        progress(step, index, len(steps), text)

    url = server_url or client.base_url
    try:
        await _remove(client, pid, diff, url, report, advance)
        ids = {n.name: n for n in await client.list_nodes(pid)}
        for plan in diff.new_nodes:
            x, y = diff.positions[plan.node.name]
            node = await client.create_node_from_template(
                pid, plan.template.template_id, x=x, y=y, name=plan.node.name
            )
            report.undo_steps.append(
                RemoveNode(node_id=node.node_id, name=node.name, node_type=node.node_type)
            )
            if node.name != plan.node.name:
                node = await client.update_node(pid, node.node_id, name=plan.node.name)
                report.undo_steps[-1] = RemoveNode(
                    node_id=node.node_id, name=node.name, node_type=node.node_type
                )
            ids[node.name] = node
            report.added_nodes.append(node.name)
            advance("nodes", f"create {plan.node.name} ({plan.template.name})")
        fresh = {n.node_id for n in ids.values() if n.name in report.added_nodes}
        for lp in diff.new_links:
            a, b = _link_end(ids, lp.a), _link_end(ids, lp.b)
            link = await client.create_link(pid, a, b)
            label = f"{_end(lp.a)} <-> {_end(lp.b)}"
            if not {a.node_id, b.node_id} <= fresh:  # removing a new node removes its links
                report.undo_steps.append(
                    RemoveLink(link_id=link.link_id, label=label, ends=_ends(ids, lp))
                )
            report.added_links.append(label)
            advance("links", f"link {label}")
        preset = await _preset_new_hosts(client, pid, diff, ids)
        # every link exists before any host starts (see the module's note on dynamips)
        names = [p.node.name for p in [*diff.new_nodes, *diff.kept_nodes]]
        started = await _power(client, pid, names, "started")
        advance("start", "start the nodes")
        for name in preset:
            advance("config", f"configure {name}")
        await _configure(
            client,
            pid,
            diff,
            url,
            console_options,
            report,
            advance,
            skip=preset,
            logins=logins,
            booting=started,
        )
    except CopilotError as exc:
        report.failed = f"{report.not_done[0]}: {exc.user_message}"
    return report


async def _preset_new_hosts(
    client: Gns3Client, pid: str, diff: LabDiff, ids: dict[str, Node]
) -> list[str]:
    """Put the address of each VPCS this plan created into its startup script before it starts,
    so that VPCS sets it (and runs its seconds-long duplicate address check) while it boots instead
    of over the console afterwards. A node this plan created goes away whole with Undo, so there is
    nothing to restore. Returns the hosts configured this way."""
    preset = []
    for plan in diff.new_nodes:
        name = plan.node.name
        lines = [line for line in diff.configs.get(name, ()) if line != "save"]
        node = ids.get(name)
        if node is None or node.node_type != "vpcs" or not lines:
            continue
        if not all(_STARTUP_LINE.fullmatch(line) for line in lines):
            continue
        script = await client.read_node_file(pid, node.node_id, "startup.vpc") or ""
        text = script.rstrip("\n") + ("\n" if script.strip() else "") + "\n".join(lines) + "\n"
        await client.write_node_file(pid, node.node_id, "startup.vpc", text)
        preset.append(name)
    return preset


def _ends(ids: dict[str, Node], lp: LinkPlan) -> list[SavedEnd]:
    ends = []
    for end in (lp.a, lp.b):
        node = ids[end.node]
        ends.append(
            SavedEnd(
                node_id=node.node_id,
                node_name=node.name,
                adapter_number=end.adapter_number,
                port_number=end.port_number,
                port_name=end.port,
            )
        )
    return ends


async def _save_node(client: Gns3Client, pid: str, node: Node) -> SavedNode:
    files: dict[str, str] = {}
    for path in NODE_FILES.get(node.node_type, ()):
        text = await client.read_node_file(pid, node.node_id, path)
        if text is not None:
            files[path] = text
    return SavedNode.from_node(node, files)


async def _remove(
    client: Gns3Client,
    pid: str,
    diff: LabDiff,
    url: str,
    report: ApplyReport,
    advance: Callable[[str, str], None],
) -> None:
    """Remove links, then nodes, each saved first so that Undo can bring it back."""
    if not (diff.removed_links or diff.removed_nodes):
        return
    nodes = {n.node_id: n for n in await client.list_nodes(pid)}
    for link, label in zip(diff.removed_links, _link_labels(diff), strict=True):
        saved = SavedLink.from_link(link, nodes)
        await client.delete_link(pid, link.link_id)
        if saved is not None:
            report.undo_steps.append(RestoreLink(link=saved))
        advance("remove", f"remove link {label}")
    removed = [nodes.get(n.node_id, n) for n in diff.removed_nodes]
    await save_running_configs(removed, url)
    links = await client.list_links(pid) if removed else []
    for node in removed:
        saved_node = await _save_node(client, pid, node)
        attached = [lk for lk in links if any(e.node_id == node.node_id for e in lk.nodes)]
        await client.delete_node(pid, node.node_id)
        report.undo_steps.append(RestoreNode(node=saved_node))
        for link in attached:
            kept = SavedLink.from_link(link, nodes)
            if kept is not None and not any(
                isinstance(s, RestoreLink) and s.link.link_id == link.link_id
                for s in report.undo_steps
            ):
                report.undo_steps.append(RestoreLink(link=kept))
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
    report: ApplyReport,
    advance: Callable[[str, str], None],
    *,
    skip: Sequence[str] = (),
    logins: Callable[[Node], Awaitable[DeviceCredentials | None]] | None = None,
    booting: set[str] | frozenset[str] = frozenset(),
) -> None:
    """Push each device's lines (but those of `skip`, configured by their startup script); a kept
    device's configuration is read before and after, so that Undo can put it back (a new device
    is removed by Undo, nothing to put back). A device of `booting` was just started: its
    console is waited for through a silent boot."""
    configs = {name: lines for name, lines in diff.configs.items() if name not in skip}
    if not configs:
        return
    nodes = {n.name: n for n in await client.list_nodes(pid)}
    kept = {p.node.name for p in diff.kept_nodes}
    jobs = [
        DeviceJob(
            target_for_node(nodes[name], server_url),
            config_lines=lines,
            credentials=await logins(nodes[name]) if logins is not None else None,
            snapshot_config=name in kept,
            just_started=name in booting,
        )
        for name, lines in configs.items()
    ]
    outcomes = await run_on_devices(jobs, options or ConsoleOptions(command_timeout=15.0))
    for name, outcome in zip(configs, outcomes, strict=True):
        step = _restore_step(nodes[name], outcome)
        if step is not None:
            report.undo_steps.append(step)
    for name, outcome in zip(configs, outcomes, strict=True):
        if not outcome.ok:
            raise LabPlanError(f"{name}: {outcome.error}")
        if outcome.config is not None and outcome.config.rejected:
            bad = "; ".join(f"{r.line!r}: {r.message}" for r in outcome.config.rejected[:3])
            raise LabPlanError(f"{name} rejected configuration lines: {bad}")
        advance("config", f"configure {name}")


def _restore_step(node: Node, outcome: DeviceOutcome) -> RestoreConfig | None:
    """The lines that put a device back, from the reads around the push (as a configuration
    push's Undo computes them)."""
    before, after = outcome.config_before, outcome.config_after
    if before is None or after is None or before.output == after.output:
        return None
    if before.truncated or after.truncated:
        back = RestoreLines(left_out=["the configuration was too long to read whole"])
    else:
        back = restore_lines(before.command, before.output, after.output)
    if not (back.lines or back.left_out):
        return None
    return RestoreConfig(
        node_id=node.node_id,
        name=node.name,
        node_type=node.node_type,
        read_command=before.command,
        lines=back.lines,
        left_out=back.left_out,
    )


# --- the explicit snapshot --------------------------------------------------------------------


SAVE_COMMANDS = {
    DeviceKind.VPCS: ("save",),
    DeviceKind.IOS: ("copy running-config startup-config",),
}
"""What makes a running configuration survive a stop (IOS-like, FRR's vtysh included)."""


async def _save_one(node: Node, server_url: str, options: ConsoleOptions) -> str | None:
    try:
        async with DeviceConsole(target_for_node(node, server_url), None, options) as console:
            if console.kind is DeviceKind.JUNOS:
                await console.push_config(())  # `configure`, `commit and-quit`
                return None
            commands = SAVE_COMMANDS.get(console.kind, ())
            if console.kind is DeviceKind.IOS:
                # IOS asks for the file name; FRR's vtysh only knows `write memory`
                commands = ("write memory",)
            if commands:
                await console.run_commands(commands)
    except CopilotError as exc:
        return f"{node.name}: {exc.user_message}"
    return None


async def save_running_configs(
    nodes: Sequence[Node], server_url: str, options: ConsoleOptions | None = None
) -> list[str]:
    """Tell every started device among ``nodes`` with a console to save its running
    configuration (VPCS ``save``, IOS and FRR ``write memory``, Junos ``commit``), at once
    (bounded). Returns one ``"R1: why"`` per device that could not be saved."""
    opts = options or ConsoleOptions(command_timeout=30.0)
    gate = asyncio.Semaphore(8)
    running = [
        n
        for n in nodes
        if n.status == "started" and n.node_type not in ALWAYS_RUNNING and n.console
    ]

    async def one(node: Node) -> str | None:
        async with gate:
            return await _save_one(node, server_url, opts)

    found = await asyncio.gather(*(one(n) for n in running))
    return [problem for problem in found if problem]


@dataclass(frozen=True)
class SnapshotReport:
    """The snapshot taken, the nodes stopped and started again, what could not be saved."""

    snapshot: Snapshot
    stopped: list[str]
    not_saved: list[str]


async def snapshot_project(
    client: Gns3Client, pid: str, name: str, *, server_url: str = ""
) -> SnapshotReport:
    """A GNS3 snapshot of the project: every running device's configuration is saved, the nodes
    that block a snapshot are stopped, the snapshot is taken, and those nodes start again."""
    nodes = await client.list_nodes(pid)
    running = [n for n in nodes if n.status == "started" and n.node_type not in ALWAYS_RUNNING]
    not_saved = await save_running_configs(running, server_url or client.base_url)
    names = [n.name for n in running]
    await _power(client, pid, names, "stopped")
    try:
        snapshot = await client.create_snapshot(pid, name)
    finally:
        await _power(client, pid, names, "started")
    return SnapshotReport(snapshot, names, not_saved)


# --- verification -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """One verification: what was checked, and whether it passed."""

    check: str
    passed: bool


def _ping(node: Node, to: str) -> str:
    if node.node_type == "vpcs":
        # one probe, 100 ms before the prompt returns (VPCS waits its interval, 1 s by default,
        # after the last probe too): a host pings its whole subnet fast. An address that did not
        # answer is asked again once (see verify_plan), for an echo lost while ARP resolved.
        return f"ping {to} -c 1 -i 100 -w 1000"
    if node.node_type in ("dynamips", "iou"):
        return f"ping {to} repeat 3"
    return f"ping -c 3 -W 1 {to}"


def ping_targets(diff: LabDiff) -> dict[str, list[str]]:
    """For each host (VPCS) the plan made or configured: its gateway, every other address in
    its subnet, and the hosts the plan says it should reach, each once, in that order."""
    if diff.plan is None:
        return {}
    addresses = diff.plan.addresses
    # the hosts the plan made or configured ping; those it left alone answer
    touched = {p.node.name for p in diff.new_nodes} | set(diff.configs)
    hosts = {
        p.node.name
        for p in diff.plan.nodes
        if p.node.node_type == "vpcs" and p.node.name in touched
    }
    targets: dict[str, list[str]] = {}
    for name, items in addresses.items():
        if name not in hosts or not items:
            continue
        own = items[0]
        wanted = [str(own.gateway)] if own.gateway else []
        for other, theirs in addresses.items():
            wanted += [
                str(a.address.ip)
                for a in theirs
                if other != name and a.address.network == own.address.network
            ]
        targets[name] = wanted
    for x, y in diff.plan.spec.reach:
        reached = addresses.get(y)
        if reached:
            targets.setdefault(x, []).append(str(reached[0].address.ip))
    return {name: list(dict.fromkeys(found)) for name, found in targets.items() if found}


async def verify_plan(
    client: Gns3Client,
    pid: str,
    diff: LabDiff,
    *,
    server_url: str = "",
    console_options: ConsoleOptions | None = None,
    logins: Callable[[Node], Awaitable[DeviceCredentials | None]] | None = None,
    routing_wait_s: float = ROUTING_WAIT_S,
) -> list[CheckResult]:
    """Every node of the plan started; every OSPF router of the plan has its neighbours Full and
    the plan's subnets as routes (`verify_routing`, read until OSPF has converged); then every
    host pings its gateway, every other address in its subnet and the hosts the plan says it
    should reach (over the consoles, at once, bounded)."""
    nodes = {n.name: n for n in await client.list_nodes(pid)}
    names = [p.node.name for p in [*diff.new_nodes, *diff.kept_nodes]]
    checks = [
        CheckResult(
            f"{name} started", nodes.get(name) is not None and nodes[name].status == "started"
        )
        for name in names
    ]
    url = server_url or client.base_url
    started = {n: node for n, node in nodes.items() if node.status == "started"}
    routing = await verify_routing(
        started,
        diff,
        server_url=url,
        options=console_options or ConsoleOptions(command_timeout=PING_TIMEOUT_S),
        logins=logins,
        wait_s=routing_wait_s,
    )
    checks += [CheckResult(check, passed) for check, passed in routing]
    pings = ping_targets(diff)
    pingable = {n: t for n, t in pings.items() if n in nodes and nodes[n].status == "started"}
    jobs = [
        DeviceJob(target_for_node(nodes[name], url), tuple(_ping(nodes[name], t) for t in targets))
        for name, targets in pingable.items()
    ]
    options = console_options or ConsoleOptions(command_timeout=PING_TIMEOUT_S)
    outcomes = await run_on_devices(jobs, options) if jobs else []
    answered: dict[tuple[str, str], bool] = {}
    for (name, targets), outcome in zip(pingable.items(), outcomes, strict=True):
        for i, target in enumerate(targets):
            output = outcome.results[i].output if i < len(outcome.results) else ""
            answered[name, target] = ping_answered(output, target)
    # a second and last try for the addresses that did not answer the first probe
    again = {
        name: [t for t in targets if not answered[name, t]]
        for name, targets in pingable.items()
        if not all(answered[name, t] for t in targets)
    }
    retry = [
        DeviceJob(target_for_node(nodes[name], url), tuple(_ping(nodes[name], t) for t in targets))
        for name, targets in again.items()
    ]
    retried = await run_on_devices(retry, options) if retry else []
    for (name, targets), outcome in zip(again.items(), retried, strict=True):
        for i, target in enumerate(targets):
            output = outcome.results[i].output if i < len(outcome.results) else ""
            answered[name, target] = ping_answered(output, target)
    for name, targets in pingable.items():
        checks += [CheckResult(f"{name} pings {t}", answered[name, t]) for t in targets]
    for name, targets in pings.items():
        if name not in pingable:
            checks += [CheckResult(f"{name} pings {t}", False) for t in targets]
    return checks
