"""Undo of approved changes against the REAL GNS3 server: each change tool, asked for by the
(scripted) model and approved, leaves a record; undoing it puts the project back, and what no
longer applies is said, not forced.
"""

from __future__ import annotations

from typing import Any

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.gns3.models import LinkEnd
from gns3_copilot_desktop.core.undo.apply import plan_undo, run_undo
from gns3_copilot_desktop.core.undo.record import UndoRecord
from tests.helpers.agent import ServiceFactory
from tests.helpers.network_copilot import (
    Copilot,
    call,
    link_ends,
    nodes_by_name,
    open_copilot,
)
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


async def _approved(cp: Copilot, name: str, args: dict[str, Any]) -> UndoRecord:
    _, end = await cp.change(call(name, args), "approve")
    assert end.status == "ok", end.tool_output
    record = UndoRecord.from_structured(end.structured)
    assert record is not None and record.tool == name, end.structured
    return record


async def _undo(cp: Copilot, record: UndoRecord) -> tuple[list[str], list[str]]:
    plan = await plan_undo(record, cp.client, cp.project_id)
    outcome = await run_undo(plan)
    assert outcome.ok, outcome.failed
    return [a.text for a in plan.actions], plan.skipped


async def _lab(cp: Copilot) -> None:
    await _approved(
        cp,
        "create_nodes",
        {
            "nodes": [
                {"template": "Ethernet switch", "name": "SW1", "x": 0, "y": 0},
                {"template": "VPCS", "name": "PC1", "x": -150, "y": 100},
                {"template": "VPCS", "name": "PC2", "x": 150, "y": 100},
            ]
        },
    )
    await _approved(
        cp,
        "create_links",
        {
            "links": [
                {"node_a": "PC1", "port_a": "e0", "node_b": "SW1", "port_b": "port 1"},
                {"node_a": "PC2", "port_a": "e0", "node_b": "SW1", "port_b": "port 2"},
            ]
        },
    )


async def test_created_nodes_links_and_notes_are_removed_and_a_second_undo_does_nothing(
    copilot: Copilot, requires_dynamips: None
) -> None:
    cp = copilot
    await _lab(cp)
    record = await _approved(cp, "create_nodes", {"nodes": [{"template": "VPCS", "name": "PC3"}]})
    link = await _approved(
        cp, "create_links", {"links": [{"node_a": "PC3", "node_b": "SW1", "port_b": "port 3"}]}
    )
    note = await _approved(cp, "add_note", {"text": "Lab 1: two PCs\nsecond line"})
    assert len(await cp.client.list_drawings(cp.project_id)) == 1

    done, skipped = await _undo(cp, note)
    assert done == ["remove the note 'Lab 1: two PCs'"] and skipped == []
    assert await cp.client.list_drawings(cp.project_id) == []

    done, _ = await _undo(cp, link)
    assert done == ["remove link PC3 Ethernet0 <-> SW1 Ethernet3"]
    assert frozenset({("PC3", 0, 0), ("SW1", 0, 3)}) not in await link_ends(cp)

    done, _ = await _undo(cp, record)
    assert done == ["remove node PC3"] and "PC3" not in await nodes_by_name(cp)
    # the same Undo again (a reopened session, a double click): nothing left to do, said so
    plan = await plan_undo(record, cp.client, cp.project_id)
    assert plan.actions == [] and plan.skipped == ["PC3 is already gone"]
    assert set(await nodes_by_name(cp)) == {"SW1", "PC1", "PC2"}


async def test_a_deleted_switch_comes_back_from_its_template_with_its_settings_and_links(
    copilot: Copilot, requires_dynamips: None
) -> None:
    cp = copilot
    await _lab(cp)
    before = await nodes_by_name(cp)
    sw1 = before["SW1"]
    # settings the server keeps: a VLAN on port 2, a suspended link with a packet filter
    mapping = [dict(p) for p in sw1.properties["ports_mapping"]]
    mapping[2]["vlan"] = 20
    await cp.client.update_node(cp.project_id, sw1.node_id, properties={"ports_mapping": mapping})
    [pc2_link] = [
        lk
        for lk in await cp.client.list_links(cp.project_id)
        if before["PC2"].node_id in {e.node_id for e in lk.nodes}
    ]
    await cp.client.update_link(
        cp.project_id, pc2_link.link_id, suspend=True, filters={"packet_loss": [30]}
    )
    links_before = await link_ends(cp)

    record = await _approved(cp, "delete_nodes", {"nodes": ["SW1"]})
    assert "SW1" not in await nodes_by_name(cp) and await link_ends(cp) == set()

    done, skipped = await _undo(cp, record)
    assert done == [
        f"bring back node SW1 (ethernet_switch) at ({sw1.x}, {sw1.y})",
        "bring back link PC1 Ethernet0 <-> SW1 Ethernet1",
        "bring back link PC2 Ethernet0 <-> SW1 Ethernet2",
    ]
    assert skipped == []
    back = (await nodes_by_name(cp))["SW1"]
    # created from its template again (GNS3 gives it a new id): the link to it is kept
    assert sw1.template_id and back.template_id == sw1.template_id
    assert (back.x, back.y) == (sw1.x, sw1.y)
    assert back.properties["ports_mapping"][2]["vlan"] == 20
    assert await link_ends(cp) == links_before
    [again] = [
        lk
        for lk in await cp.client.list_links(cp.project_id)
        if before["PC2"].node_id in {e.node_id for e in lk.nodes}
    ]
    assert again.suspend is True and again.filters == {"packet_loss": [30]}


async def test_a_deleted_vpcs_comes_back_with_its_startup_file(
    copilot: Copilot, requires_dynamips: None
) -> None:
    cp = copilot
    await _lab(cp)
    pc1 = (await nodes_by_name(cp))["PC1"]
    script = "set pcname PC1\nip 192.0.2.1 255.255.255.0 192.0.2.254\n"
    await cp.client.write_node_file(cp.project_id, pc1.node_id, "startup.vpc", script)

    record = await _approved(cp, "delete_nodes", {"nodes": ["PC1", "PC2"]})
    done, _ = await _undo(cp, record)
    assert done[0] == f"bring back node PC1 (vpcs) at ({pc1.x}, {pc1.y}) with startup.vpc"
    assert len(done) == 4  # two nodes, then their two links
    back = (await nodes_by_name(cp))["PC1"]
    assert back.template_id == pc1.template_id
    assert await cp.client.read_node_file(cp.project_id, back.node_id, "startup.vpc") == script


async def test_rename_move_and_deleted_links_are_put_back(
    copilot: Copilot, requires_dynamips: None
) -> None:
    cp = copilot
    await _lab(cp)
    pc2 = (await nodes_by_name(cp))["PC2"]
    moved = await _approved(
        cp, "update_nodes", {"changes": [{"node": "PC2", "new_name": "Client2", "x": 400}]}
    )
    done, _ = await _undo(cp, moved)
    assert done == [f"rename Client2 back to PC2, move PC2 back to ({pc2.x}, {pc2.y})"]
    now = (await nodes_by_name(cp))["PC2"]
    assert (now.node_id, now.x, now.y) == (pc2.node_id, pc2.x, pc2.y)

    links_before = await link_ends(cp)
    removed = await _approved(cp, "delete_links", {"links": [{"node_a": "PC1", "node_b": "SW1"}]})
    done, _ = await _undo(cp, removed)
    assert done == ["bring back link PC1 Ethernet0 <-> SW1 Ethernet1"]
    assert await link_ends(cp) == links_before


async def test_what_changed_since_is_not_forced(copilot: Copilot, requires_dynamips: None) -> None:
    """A port used by another link since, a name taken since: said, and left alone."""
    cp = copilot
    await _lab(cp)
    nodes = await nodes_by_name(cp)
    removed = await _approved(cp, "delete_links", {"links": [{"node_a": "PC1", "node_b": "SW1"}]})
    # by hand, the user links SW1's freed port to a new PC
    pc9 = await cp.client.create_node(cp.project_id, "PC9", "vpcs", x=0, y=200)
    await cp.client.create_link(
        cp.project_id,
        LinkEnd(node_id=pc9.node_id, adapter_number=0, port_number=0),
        LinkEnd(node_id=nodes["SW1"].node_id, adapter_number=0, port_number=1),
    )
    plan = await plan_undo(removed, cp.client, cp.project_id)
    assert plan.actions == []
    assert plan.skipped == ["PC1 Ethernet0 <-> SW1 Ethernet1: SW1 Ethernet1 is in use"]

    renamed = await _approved(cp, "update_nodes", {"changes": [{"node": "PC2", "new_name": "X"}]})
    await cp.client.update_node(cp.project_id, pc9.node_id, name="PC2")
    plan = await plan_undo(renamed, cp.client, cp.project_id)
    assert plan.actions == [] and plan.skipped == ["X: the name PC2 is taken now"]

    deleted = await _approved(cp, "delete_nodes", {"nodes": ["PC1"]})
    await cp.client.create_node(cp.project_id, "PC1", "vpcs", x=0, y=300)
    plan = await plan_undo(deleted, cp.client, cp.project_id)
    assert plan.actions == [] and plan.skipped == ["a node named PC1 exists now"]
