"""Per-change Undo after the user restored a GNS3 snapshot, on the REAL GNS3 server: GNS3 gives
every node and link a new id when it loads the snapshot, so each record finds its objects by name
and node type (links by their ends' names and ports), and the question says it matched by name. A
node brought back keeps its template."""

from __future__ import annotations

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from tests.core.undo.test_undo_live import _approved, _lab
from tests.helpers.agent import ServiceFactory
from tests.helpers.network_copilot import Copilot, link_ends, nodes_by_name, open_copilot
from tests.helpers.scripted_openai import ScriptedOpenAIServer

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


@pytest_asyncio.fixture
async def copilot(
    gns3_client: Gns3Client,
    gns3_project: Project,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> Copilot:
    return await open_copilot(make_service, scripted_openai, gns3_client, gns3_project.project_id)


async def test_undo_after_a_user_snapshot_restore_matches_by_name(
    copilot: Copilot, requires_dynamips: None
) -> None:
    cp = copilot
    await _lab(cp)
    created = await _approved(
        cp, "create_nodes", {"nodes": [{"template": "VPCS", "name": "PC3", "x": 0, "y": 200}]}
    )
    linked = await _approved(
        cp, "create_links", {"links": [{"node_a": "PC3", "port_a": "e0", "node_b": "SW1"}]}
    )
    before = await nodes_by_name(cp)
    deleted = await _approved(cp, "delete_nodes", {"nodes": ["PC1"]})

    snapshot = await cp.client.create_snapshot(cp.project_id, "by the user")
    await cp.client.restore_snapshot(cp.project_id, snapshot.snapshot_id)
    after = await nodes_by_name(cp)
    assert after.keys() == {"SW1", "PC2", "PC3"}
    assert all(after[n].node_id != before[n].node_id for n in after)  # the ids were renewed

    plan = await plan_undo(deleted, cp.client, cp.project_id)
    texts = [a.text for a in plan.actions]
    assert texts == [
        f"bring back node PC1 (vpcs) at ({before['PC1'].x}, {before['PC1'].y}) with startup.vpc",
        "bring back link PC1 Ethernet0 <-> SW1 Ethernet1 (matched by name: SW1)",
    ], plan.skipped
    assert (await run_undo(plan)).ok
    back = (await nodes_by_name(cp))["PC1"]
    assert back.template_id is not None and back.template_id == before["PC1"].template_id
    assert ("PC1", "Ethernet0", "SW1", "Ethernet1") in {tuple(x) for x in await _named_links(cp)}

    plan = await plan_undo(linked, cp.client, cp.project_id)
    assert [a.text for a in plan.actions] == [
        "remove link PC3 Ethernet0 <-> SW1 Ethernet0 (matched by name: PC3, SW1)"
    ]
    assert (await run_undo(plan)).ok
    plan = await plan_undo(created, cp.client, cp.project_id)
    assert [a.text for a in plan.actions] == ["remove node PC3 (matched by name: PC3)"]
    assert (await run_undo(plan)).ok
    assert set(await nodes_by_name(cp)) == {"SW1", "PC1", "PC2"}
    assert len(await link_ends(cp)) == 2


async def _named_links(cp: Copilot) -> list[list[str]]:
    nodes = {n.node_id: n for n in await cp.client.list_nodes(cp.project_id)}
    out = []
    for link in await cp.client.list_links(cp.project_id):
        ends = []
        for end in link.nodes:
            node = nodes[end.node_id]
            port = next(
                p.name
                for p in node.ports
                if (p.adapter_number, p.port_number) == (end.adapter_number, end.port_number)
            )
            ends.append((node.name, port))
        ends.sort()
        out.append([ends[0][0], ends[0][1], ends[1][0], ends[1][1]])
    return out
