"""Typing at a lab node's console by its name, as a learner at the GNS3 console would."""

from __future__ import annotations

from gns3_copilot_desktop.core.devices import ConsoleOptions, DeviceJob, run_on_devices
from gns3_copilot_desktop.core.devices.targets import target_for_node
from gns3_copilot_desktop.core.gns3 import Gns3Client


async def run_on_node(
    client: Gns3Client,
    project_id: str,
    name: str,
    commands: tuple[str, ...],
    options: ConsoleOptions | None = None,
) -> str:
    """The output of ``commands`` on the node called ``name`` (the job must succeed)."""
    node = next(n for n in await client.list_nodes(project_id) if n.name == name)
    [outcome] = await run_on_devices(
        [DeviceJob(target_for_node(node, client.base_url), commands)], options
    )
    assert outcome.ok, outcome.error
    return "\n".join(r.output for r in outcome.results)
