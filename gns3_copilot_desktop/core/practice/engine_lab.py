"""Reading a lab for practice: the faults that fit it (each bound to a node or link with its
parameters filled from the lab), drawing among them, and stopping the lab for an export.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from gns3_copilot_desktop.core.devices import (
    DeviceJob,
    save_running_vpcs,
    target_for_node,
)
from gns3_copilot_desktop.core.gns3.models import Link
from gns3_copilot_desktop.core.practice.catalog import (
    Fault,
)
from gns3_copilot_desktop.core.practice.engine_base import _EngineBase
from gns3_copilot_desktop.core.practice.lab_facts import (
    ALWAYS_ON,
    BOUND_PLATFORMS,
    PLATFORM_OF_NODE_TYPE,
    _across,
    _bound,
    _Candidate,
    _LabNode,
    _linux_binding,
    _node_binding,
    vpcs_address,
)
from gns3_copilot_desktop.core.practice.linux_facts import LINUX_READS, linux_facts
from gns3_copilot_desktop.core.practice.store import (
    PracticeError,
)

log = logging.getLogger(__name__)


class _LabReading(_EngineBase):
    """Reading the lab for practice: the faults that fit it, bound to nodes and links."""

    async def _candidates(self) -> list[_Candidate]:
        nodes = await self._read_nodes()
        links = await self._client.list_links(self._project_id)
        found: list[_Candidate] = []
        for fault in self._catalog.faults:
            for platform in sorted(fault.platforms & BOUND_PLATFORMS):
                if platform == "link":
                    found += [c for c in await self._link_bindings(fault, nodes, links) if c]
                else:
                    bind = _linux_binding if platform == "linux" else _node_binding
                    found += [
                        c
                        for n in nodes.values()
                        if n.platform == platform and (c := bind(fault, n, nodes))
                    ]
        return found

    async def _read_nodes(self) -> dict[str, _LabNode]:
        nodes = {
            n.node_id: _LabNode(n, PLATFORM_OF_NODE_TYPE.get(n.node_type))
            for n in await self._client.list_nodes(self._project_id)
        }
        vpcs = [n for n in nodes.values() if n.platform == "vpcs" and n.node.status == "started"]
        jobs = [await self._job(n.node, ("show ip",)) for n in vpcs]
        shells: list[_LabNode] = []
        for lab_node in nodes.values():
            job = await self._shell_job(lab_node)
            if job is not None:
                shells.append(lab_node)
                jobs.append(job)
        outcomes = await self._run(jobs)
        for lab_node, outcome in zip(vpcs, outcomes, strict=False):
            if outcome.ok and outcome.results:
                lab_node.address, lab_node.gateway = vpcs_address(outcome.results[0].output)
        for lab_node, outcome in zip(shells, outcomes[len(vpcs) :], strict=True):
            if outcome.ok:
                lab_node.linux = linux_facts([r.output for r in outcome.results])
                lab_node.platform = "linux" if lab_node.linux is not None else None
        return nodes

    async def _shell_job(self, lab_node: _LabNode) -> DeviceJob | None:
        """The job that reads a node whose console may be a Linux shell (`LINUX_READS`): a
        running Docker node, or a QEMU node the user saved a console login for (a router's
        serial console; any other QEMU appliance is not typed at)."""
        node = lab_node.node
        if node.status != "started" or node.console_type != "telnet":
            return None
        if node.node_type not in ("docker", "qemu"):
            return None
        login = await self._login(node)
        if node.node_type == "qemu" and login is None:
            return None
        return DeviceJob(target_for_node(node, self._server_url), LINUX_READS, (), login)

    async def _link_bindings(
        self, fault: Fault, nodes: dict[str, _LabNode], links: list[Link]
    ) -> list[_Candidate | None]:
        action = fault.inject["link"].link
        wanted = set((action.filters or {}) if action else {})
        found: list[_Candidate | None] = []
        for link in links:
            ends = [nodes.get(e.node_id) for e in link.nodes]
            if len(ends) != 2 or any(e is None or e.node.status != "started" for e in ends):
                continue
            a, b = ends[0], ends[1]
            assert a is not None and b is not None
            if wanted and not wanted <= set(
                await self._client.link_filters(self._project_id, link.link_id)
            ):
                continue
            name, devices = f"{a.node.name} <-> {b.node.name}", [a.node.name, b.node.name]
            if a.address is None:
                a, b = b, a  # the host end first
            params = {"link": name, "node": a.node.name, "peer": b.node.name}
            peer = b if b.address is not None else _across(a, b, nodes)
            if peer is not None and peer.address is not None:
                params["peer"], params["peer_address"] = peer.node.name, str(peer.address.ip)
            candidate = _Candidate(
                fault, "link", f"link:{link.link_id}", devices, params, link=link, link_name=name,
            )  # fmt: skip
            found.append(candidate if _bound(fault, "link", params) else None)
        return found

    def _draw(self, pool: list[_Candidate], count: int, used: set[str]) -> list[_Candidate]:
        """Up to ``count`` different faults on different targets, faults not used before first."""
        fresh = [c for c in pool if c.fault.id not in used]
        ordered = self._rng.sample(fresh, len(fresh)) + self._rng.sample(
            [c for c in pool if c.fault.id in used], len(pool) - len(fresh)
        )
        chosen: list[_Candidate] = []
        for candidate in ordered:
            if len(chosen) == count:
                break
            if all(
                c.fault.id != candidate.fault.id and c.target != candidate.target for c in chosen
            ):
                chosen.append(candidate)
        return chosen

    def _named(self, pool: list[_Candidate], fault_ids: Sequence[str]) -> list[_Candidate]:
        chosen: list[_Candidate] = []
        for fault_id in fault_ids:
            fitting = [
                c
                for c in pool
                if c.fault.id == fault_id and all(c.target != o.target for o in chosen)
            ]
            if not fitting:
                raise PracticeError(f"The fault {fault_id} does not apply to this lab.")
            chosen.append(fitting[0])
        return chosen

    async def _save_and_stop(self) -> list[str]:
        """Save the running VPCS configurations and stop the running nodes that can stop
        (switches, hubs, clouds... are always on); their names."""
        nodes = await self._client.list_nodes(self._project_id)
        started = [n.name for n in nodes if n.status == "started" and n.node_type not in ALWAYS_ON]
        await save_running_vpcs(nodes, self._server_url, self._options)
        await self._power(started, "stopped")
        return started
