"""Undo one approved change from its `UndoRecord`: first what it would do, then doing it.

`plan_undo` reads the project as it is now and turns each step into an action the user can read
("remove node PC3", "bring back link R1 e0/0 <-> SW1 Ethernet1", "push back 3 line(s) to R1"), or
into a reason it no longer applies (the node is gone already, the port is used by another link
since, the name is taken). The user approves that list; `run_undo` then carries out exactly those
actions in order and stops at the first failure, saying what was done and what was not.

Order: links are removed before nodes, nodes come back before their links, names and places are
set back, then configuration is pushed, then notes are removed.

Objects are found by the id the record holds first. GNS3 gives nodes and links new ids when it
loads a project again from a snapshot, so a node is then found by its name and node type (a link
by its ends' node names and ports), and the action says so ("matched by name: PC1"). A node
brought back keeps its template: it is created from the template, then its saved settings are set.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gns3_copilot_desktop.core.devices.batch import DeviceOutcome
from gns3_copilot_desktop.core.errors import CopilotError, Gns3NotFoundError
from gns3_copilot_desktop.core.gns3.client import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node
from gns3_copilot_desktop.core.undo.record import (
    RemoveDrawing,
    RemoveLink,
    RemoveNode,
    RestoreConfig,
    RestoreFields,
    RestoreLink,
    RestoreNode,
    SavedEnd,
    SavedLink,
    SavedNode,
    UndoRecord,
    UndoStep,
)

ConfigPusher = Callable[[Node, Sequence[str]], Awaitable[DeviceOutcome]]
"""Pushes configuration lines to a node's console under the same rules as an approved push
(the command gate, the user's refused patterns, the console logins)."""

_ORDER = {
    "remove_link": 0,
    "remove_node": 1,
    "restore_node": 2,
    "restore_link": 3,
    "restore_fields": 4,
    "restore_config": 5,
    "remove_drawing": 6,
}


class UndoError(CopilotError):
    """An undo could not be carried out."""


@dataclass(frozen=True)
class UndoAction:
    """One thing the undo will do, as the user reads it before approving."""

    text: str
    run: Callable[[], Awaitable[None]] = field(repr=False, compare=False)
    lines: tuple[str, ...] = ()
    """Configuration lines it pushes (shown in full before approving)."""


@dataclass(frozen=True)
class UndoPlan:
    """What undoing a change would do now, and what no longer applies (with why)."""

    actions: list[UndoAction]
    skipped: list[str]


@dataclass
class UndoOutcome:
    """What the undo did."""

    done: list[str] = field(default_factory=list)
    not_done: list[str] = field(default_factory=list)
    failed: str | None = None

    @property
    def ok(self) -> bool:
        """Whether every action was carried out."""
        return self.failed is None


async def plan_undo(
    record: UndoRecord,
    client: Gns3Client,
    project_id: str,
    *,
    push_config: ConfigPusher | None = None,
) -> UndoPlan:
    """The actions that undo ``record`` in the project as it is now."""
    nodes = {n.node_id: n for n in await client.list_nodes(project_id)}
    links = {lk.link_id: lk for lk in await client.list_links(project_id)}
    drawings = (
        {d.drawing_id for d in await client.list_drawings(project_id)}
        if any(isinstance(s, RemoveDrawing) for s in record.steps)
        else set()
    )
    planner = _Planner(client, project_id, _ProjectView(nodes, links, drawings), push_config)
    for step in sorted(record.steps, key=lambda s: _ORDER[s.kind]):
        planner.add(step)
    return UndoPlan(planner.actions, planner.skipped)


async def run_undo(plan: UndoPlan) -> UndoOutcome:
    """Carry out the approved actions in order; stop at the first failure."""
    outcome = UndoOutcome()
    for index, action in enumerate(plan.actions):
        try:
            await action.run()
        except CopilotError as exc:
            outcome.failed = f"{action.text}: {exc.user_message}"
            outcome.not_done = [a.text for a in plan.actions[index + 1 :]]
            return outcome
        outcome.done.append(action.text)
    return outcome


class _ProjectView:
    """The project as the undo will have left it so far: read once, then changed by each planned
    action (nodes removed or back, ports freed or used), with the ids nodes have now."""

    def __init__(self, nodes: dict[str, Node], links: dict[str, Link], drawings: set[str]) -> None:
        self.nodes = nodes
        self.links = links
        self.drawings = drawings
        self.ids: dict[str, str] = {}
        """A recorded node id -> the id the node has now (found by name, or brought back)."""

    def drop_node(self, node_id: str) -> int:
        """Forget a node the undo removes, with its links; returns how many links went."""
        del self.nodes[node_id]
        count = sum(1 for lk in self.links.values() if any(e.node_id == node_id for e in lk.nodes))
        self.links = {
            k: lk for k, lk in self.links.items() if not any(e.node_id == node_id for e in lk.nodes)
        }
        return count

    def names_in_use(self) -> set[str]:
        return {n.name.lower() for n in self.nodes.values()}

    def find(self, node_id: str, name: str, node_type: str = "") -> tuple[Node | None, str]:
        """The node by id, else the one node of that name (and type, when recorded); with
        ``" (matched by name: X)"`` when it was found by name."""
        node = self.nodes.get(self.ids.get(node_id, node_id))
        if node is not None:
            return node, ""
        same = [
            n
            for n in self.nodes.values()
            if n.name.lower() == name.lower() and (not node_type or n.node_type == node_type)
        ]
        if len(same) != 1:
            return None, ""
        self.ids[node_id] = same[0].node_id
        return same[0], f" (matched by name: {same[0].name})"

    def ends_now(self, ends: list[SavedEnd]) -> tuple[list[tuple[str, int, int]], str] | None:
        """The ends as (node id now, adapter, port), and the "matched by name" note; None when
        an end's node is not in the project."""
        found: list[tuple[str, int, int]] = []
        notes = []
        for end in ends:
            node, matched = self.find(end.node_id, end.node_name)
            if node is None:
                return None
            if matched:
                notes.append(node.name)
            found.append((node.node_id, end.adapter_number, end.port_number))
        note = f" (matched by name: {', '.join(notes)})" if notes else ""
        return found, note

    def link_between(self, ends: list[tuple[str, int, int]]) -> Link | None:
        wanted = set(ends)
        return next(
            (
                lk
                for lk in self.links.values()
                if {(e.node_id, e.adapter_number, e.port_number) for e in lk.nodes} == wanted
            ),
            None,
        )

    def port_used(self, node_id: str, adapter: int, port: int) -> bool:
        return any(
            (e.node_id, e.adapter_number, e.port_number) == (node_id, adapter, port)
            for lk in self.links.values()
            for e in lk.nodes
        )


class _Planner:
    """Turns steps into actions against the project's view, keeping it up to date with what the
    earlier actions of the same undo will have changed (ports freed, nodes back, names)."""

    def __init__(
        self,
        client: Gns3Client,
        project_id: str,
        view: _ProjectView,
        push_config: ConfigPusher | None,
    ) -> None:
        self.client = client
        self.pid = project_id
        self.view = view
        self.push_config = push_config
        self.actions: list[UndoAction] = []
        self.skipped: list[str] = []
        self.seen_links: set[str] = set()

    def add(self, step: UndoStep) -> None:
        if isinstance(step, RemoveNode):
            self._remove_node(step)
        elif isinstance(step, RestoreNode):
            self._restore_node(step)
        elif isinstance(step, RestoreFields):
            self._restore_fields(step)
        elif isinstance(step, RemoveLink):
            self._remove_link(step)
        elif isinstance(step, RestoreLink):
            self._restore_link(step)
        elif isinstance(step, RemoveDrawing):
            self._remove_drawing(step)
        else:
            self._restore_config(step)

    def _act(
        self, text: str, run: Callable[[], Awaitable[None]], lines: Sequence[str] = ()
    ) -> None:
        self.actions.append(UndoAction(text, run, tuple(lines)))

    # --- nodes --------------------------------------------------------------------------------

    def _remove_node(self, step: RemoveNode) -> None:
        node, matched = self.view.find(step.node_id, step.name, step.node_type)
        if node is None:
            self.skipped.append(f"{step.name} is already gone")
            return
        count = self.view.drop_node(node.node_id)
        links = f" and its {count} link(s)" if count else ""

        async def run() -> None:
            await self.client.delete_node(self.pid, node.node_id)

        self._act(f"remove node {node.name}{links}{matched}", run)

    def _restore_node(self, step: RestoreNode) -> None:
        saved = step.node
        there, matched = self.view.find(saved.node_id, saved.name, saved.node_type)
        if there is not None and matched and there.template_id != saved.template_id:
            there = None  # another node of that name (made by hand since), not this one
            self.view.ids.pop(saved.node_id, None)
        if there is not None:
            self.skipped.append(f"{saved.name} is back already{matched}")
            return
        if saved.name.lower() in self.view.names_in_use():
            self.skipped.append(f"a node named {saved.name} exists now")
            return
        self.view.nodes[saved.node_id] = Node(
            node_id=saved.node_id, name=saved.name, node_type=saved.node_type
        )
        files = f" with {', '.join(sorted(saved.files))}" if saved.files else ""

        async def run() -> None:
            node_id = await self._create(saved)
            self.view.ids[saved.node_id] = node_id
            for path, text in saved.files.items():
                await self.client.write_node_file(self.pid, node_id, path, text)

        text = f"bring back node {saved.name} ({saved.node_type}) at ({saved.x}, {saved.y})"
        self._act(text + files, run)

    async def _create(self, saved: SavedNode) -> str:
        """Create the node from its template (GNS3 ignores ``template_id`` on a plain create),
        then set its saved settings; a node without a template, or whose template is gone, is
        created by type with the same id. Returns the node's id."""
        if saved.template_id:
            try:
                node = await self.client.create_node_from_template(
                    self.pid, saved.template_id, x=saved.x, y=saved.y, name=saved.name
                )
            except Gns3NotFoundError:
                pass  # the template was deleted since: created by type below
            else:
                fields = {k: v for k, v in saved.fields.items() if k != "compute_id"}
                await self.client.update_node(
                    self.pid, node.node_id, name=saved.name, properties=saved.properties, **fields
                )
                return node.node_id
        body: dict[str, Any] = {
            **saved.fields,
            "node_id": saved.node_id,
            "properties": saved.properties,
        }
        await self.client.create_node(
            self.pid, saved.name, saved.node_type, x=saved.x, y=saved.y, **body
        )
        return saved.node_id

    def _restore_fields(self, step: RestoreFields) -> None:
        node, matched = self.view.find(step.node_id, step.name, step.node_type)
        if node is None:
            self.skipped.append(f"{step.name} is already gone")
            return
        fields: dict[str, Any] = {}
        words: list[str] = []
        taken = False
        if step.old_name and step.old_name != node.name:
            others = {n.name.lower() for k, n in self.view.nodes.items() if k != node.node_id}
            taken = step.old_name.lower() in others
            if taken:
                self.skipped.append(f"{node.name}: the name {step.old_name} is taken now")
            else:
                fields["name"] = step.old_name
                words.append(f"rename {node.name} back to {step.old_name}")
        if step.x is not None and step.y is not None and (step.x, step.y) != (node.x, node.y):
            fields.update(x=step.x, y=step.y)
            words.append(f"move {fields.get('name', node.name)} back to ({step.x}, {step.y})")
        if not fields:
            if not taken:
                self.skipped.append(f"{node.name} is as it was already")
            return

        async def run() -> None:
            await self.client.update_node(self.pid, node.node_id, **fields)

        self._act(", ".join(words) + matched, run)

    # --- links --------------------------------------------------------------------------------

    def _remove_link(self, step: RemoveLink) -> None:
        link = self.view.links.get(step.link_id)
        matched = ""
        if link is None and len(step.ends) == 2:
            now = self.view.ends_now(step.ends)
            if now is not None:
                link = self.view.link_between(now[0])
                matched = now[1] or " (matched by name and ports)"
        if link is None:
            self.skipped.append(f"{step.label} is already gone")
            return
        del self.view.links[link.link_id]
        link_id = link.link_id

        async def run() -> None:
            await self.client.delete_link(self.pid, link_id)

        self._act(f"remove link {step.label}{matched}", run)

    def _restore_link(self, step: RestoreLink) -> None:
        saved = step.link
        if saved.link_id in self.seen_links:
            return  # a link between two deleted nodes is saved with both
        self.seen_links.add(saved.link_id)
        if saved.link_id in self.view.links:
            self.skipped.append(f"{saved.label} is back already")
            return
        now = self.view.ends_now(saved.ends)
        if now is None:
            missing = next(
                e.node_name for e in saved.ends if self.view.find(e.node_id, e.node_name)[0] is None
            )
            self.skipped.append(f"{saved.label}: {missing} is not in the project")
            return
        ends, matched = now
        if self.view.link_between(ends) is not None:
            self.skipped.append(f"{saved.label} is back already{matched}")
            return
        for end, (node_id, adapter, port) in zip(saved.ends, ends, strict=True):
            if self.view.port_used(node_id, adapter, port):
                name = f"{end.node_name} {end.port_name}".strip()
                self.skipped.append(f"{saved.label}: {name} is in use")
                return
        self.view.links[saved.link_id] = Link(
            link_id=saved.link_id,
            nodes=[LinkEnd(node_id=n, adapter_number=a, port_number=p) for n, a, p in ends],
        )
        self._act(f"bring back link {saved.label}{matched}", lambda: self._make_link(saved))

    async def _make_link(self, saved: SavedLink) -> None:
        # a node brought back by this undo, or found by name, has its id now in `ids`
        a, b = (
            LinkEnd(
                node_id=self.view.ids.get(e.node_id, e.node_id),
                adapter_number=e.adapter_number,
                port_number=e.port_number,
            )
            for e in saved.ends
        )
        link = await self.client.create_link(self.pid, a, b)
        if saved.suspend or saved.filters:
            await self.client.update_link(
                self.pid,
                link.link_id,
                suspend=saved.suspend or None,
                filters=dict(saved.filters) if saved.filters else None,
            )

    # --- notes and configuration ----------------------------------------------------------------

    def _remove_drawing(self, step: RemoveDrawing) -> None:
        if step.drawing_id not in self.view.drawings:
            self.skipped.append(f"the note '{step.label}' is already gone")
            return

        async def run() -> None:
            await self.client.delete_drawing(self.pid, step.drawing_id)

        self._act(f"remove the note '{step.label}'", run)

    def _restore_config(self, step: RestoreConfig) -> None:
        node, matched = self.view.find(step.node_id, step.name, step.node_type)
        if step.left_out:
            self.skipped.append(f"{step.name}: not put back: {'; '.join(step.left_out)}")
        if node is None:
            self.skipped.append(f"{step.name} is already gone")
            return
        if not step.lines:
            return
        if self.push_config is None:
            self.skipped.append(f"{node.name}: its console cannot be reached from here")
            return
        push = self.push_config

        async def run() -> None:
            outcome = await push(node, step.lines)
            if outcome.error:
                raise UndoError(outcome.error)
            if outcome.config is not None and outcome.config.rejected:
                first = outcome.config.rejected[0]
                raise UndoError(
                    f"{len(outcome.config.rejected)} line(s) rejected, first "
                    f"'{first.line}': {first.message}"
                )

        text = f"push back {len(step.lines)} line(s) to {node.name}{matched}"
        self._act(text, run, step.lines)
