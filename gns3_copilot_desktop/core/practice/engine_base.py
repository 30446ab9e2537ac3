"""The practice engine's state and its plain reach into the lab: a node by name, a console
command, powering nodes, an exercise record of this project.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    DeviceCredentials,
    DeviceJob,
    DeviceOutcome,
    run_on_devices,
    target_for_node,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.practice.catalog import (
    Catalog,
    load_catalog,
)
from gns3_copilot_desktop.core.practice.lab_facts import (
    ALWAYS_ON,
    NO_LOGIN,
    RECHECK_DELAY_S,
    START_WAIT_S,
    Logins,
)
from gns3_copilot_desktop.core.practice.store import (
    ExerciseRecord,
    ExerciseStore,
    PracticeError,
)

log = logging.getLogger(__name__)


class _EngineBase:
    """The engine's state (the client, the project, the store, the catalog) and its plain reach
    into the lab."""

    def __init__(
        self,
        client: Gns3Client,
        project_id: str,
        store: ExerciseStore,
        *,
        server_url: str = "",
        catalog: Catalog | None = None,
        console_options: ConsoleOptions | None = None,
        rng: random.Random | None = None,
        logins: Logins | None = None,
    ) -> None:
        self._client = client
        self._project_id = project_id
        self._store = store
        self._server_url = server_url or client.base_url
        self._catalog = catalog or load_catalog()
        self._options = console_options or ConsoleOptions(command_timeout=20.0)
        self._rng = rng or random.Random()
        self._logins = logins
        self.recheck_delay_s = RECHECK_DELAY_S
        """How long a passing lab is left before its second check."""

    async def _run(self, jobs: list[DeviceJob]) -> list[DeviceOutcome]:
        return await run_on_devices(jobs, self._options) if jobs else []

    async def _login(self, node: Node) -> DeviceCredentials | None:
        """The node's saved console login. A VPCS or a switch never asks for one, so neither
        the keyring nor GNS3's templates are read for them (every check reads their consoles)."""
        if self._logins is None or node.node_type in NO_LOGIN:
            return None
        return await self._logins(node)

    async def _job(
        self, node: Node, commands: Sequence[str] = (), config_lines: Sequence[str] = ()
    ) -> DeviceJob:
        """A console job on ``node``, logged in with its saved console login when it has one
        (a router's serial console asks for one)."""
        return DeviceJob(
            target_for_node(node, self._server_url),
            tuple(commands),
            tuple(config_lines),
            await self._login(node),
        )

    async def _output(self, node: Node, command: str) -> str:
        [outcome] = await self._run([await self._job(node, (command,))])
        return "\n".join(r.output for r in outcome.results)

    async def _node_named(self, name: str) -> Node:
        node = await self._find_node(name)
        if node is None:
            raise PracticeError(f"The node {name} is no longer in the project.")
        return node

    async def _find_node(self, name: str) -> Node | None:
        for node in await self._client.list_nodes(self._project_id):
            if node.name == name:
                return node
        return None

    async def _power(self, names: list[str], status: str) -> None:
        """Start or stop these nodes and wait (bounded) until the server reports it; nodes
        that are always on are neither powered nor waited on."""
        nodes = await self._client.list_nodes(self._project_id)
        wanted = {n.name for n in nodes if n.name in set(names) and n.node_type not in ALWAYS_ON}
        for node in nodes:
            if node.name in wanted and node.status != status:
                if status == "started":
                    await self._client.start_node(self._project_id, node.node_id)
                else:
                    await self._client.stop_node(self._project_id, node.node_id)
        try:
            async with asyncio.timeout(START_WAIT_S):
                while True:  # the node status is read from the server until it is reached
                    nodes = await self._client.list_nodes(self._project_id)
                    if all(n.status == status for n in nodes if n.name in wanted):
                        return
                    await asyncio.sleep(0.5)
        except TimeoutError as exc:
            raise PracticeError(f"The nodes were not {status} after {START_WAIT_S:.0f} s.") from exc

    async def _expect(self, exercise_id: str, status: str) -> ExerciseRecord:
        record = await self._store.get(exercise_id)
        if record.project_id != self._project_id:
            raise PracticeError("This exercise belongs to another project.")
        if record.status != status:
            raise PracticeError(f"This exercise is {record.status.replace('_', ' ')}.")
        return record

    async def _used_faults(self) -> set[str]:
        return {
            f.fault_id
            for r in await self._store.list_for_project(self._project_id)
            if r.status != "cancelled"
            for f in r.sealed
        }
