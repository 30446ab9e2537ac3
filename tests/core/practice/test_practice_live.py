"""Practice exercises on REAL VPCS nodes of the real GNS3 server (the ``gns3_vpcs_lab``).

PC1 (192.0.2.1/24) and PC2 (192.0.2.2/24) are linked, started and their addresses saved. The
engine injects a wrong address and a suspended link after the sealed approval, the checks fail,
the learner fixes it over the console and the GNS3 API, the checks pass and the score is kept;
giving up runs the faults' undo steps and the lab pings again; no snapshot is ever taken. The
learner's Practice session, talking with the scripted model meanwhile, never carries the sealed
answer.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.practice.catalog import load_catalog
from gns3_copilot_desktop.core.practice.engine import PracticeEngine
from gns3_copilot_desktop.core.practice.store import ExerciseStore, PracticeError
from gns3_copilot_desktop.core.sessions.export import export_json, export_markdown
from tests.helpers.agent import ServiceFactory, collect
from tests.helpers.node_console import run_on_node
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedToolCall, ScriptedTurn
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab, two_linked_pcs

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]

ADDRESSES = {"PC1": "192.0.2.1/24", "PC2": "192.0.2.2/24"}


@dataclass
class PracticeLab:
    client: Gns3Client
    project_id: str
    engine: PracticeEngine

    async def run(self, node_name: str, *commands: str) -> str:
        return await run_on_node(self.client, self.project_id, node_name, commands)

    async def pings(self, src: str, dst: str) -> bool:
        address = dst.split("/")[0]
        output = await self.run(src, f"ping {address} -c 2")
        return f"{address} icmp_seq=" in output


@pytest_asyncio.fixture
async def practice_lab(gns3_vpcs_lab: Gns3VpcsLab, tmp_path: Path) -> AsyncIterator[PracticeLab]:
    async with two_linked_pcs(gns3_vpcs_lab, "practice") as (client, pid, pc1, pc2):
        engine = PracticeEngine(
            client, pid, ExerciseStore(tmp_path / "practice.db", os.urandom(32))
        )
        await engine._power([pc1.name, pc2.name], "started")  # bounded wait on the server
        lab = PracticeLab(client, pid, engine)
        for name, address in ADDRESSES.items():
            await lab.run(name, f"ip {address}", "save")
        assert await lab.pings("PC1", ADDRESSES["PC2"])
        yield lab


def _sealed_texts() -> list[str]:
    catalog = load_catalog()
    texts = ["ip 192.0.2.1/24"]  # the undo step
    for fault_id in ("vpcs-wrong-address", "link-suspended"):
        fault = catalog.get(fault_id)
        texts += [fault.id, fault.title, fault.symptoms, *fault.hints]
    return texts


async def test_inject_check_fix_and_score_with_the_answer_sealed(
    practice_lab: PracticeLab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> None:
    lab, engine = practice_lab, practice_lab.engine
    service = await make_service(tools=network_registry())
    session = await service.create_session(None, "practice")

    plan = await engine.prepare(
        session.id,
        difficulty="beginner",
        count=2,
        fault_ids=["vpcs-wrong-address", "link-suspended"],
    )
    # The card is sealed: how many, what level, how many devices; never which.
    assert plan.approval.summary == "inject 2 beginner faults on 2 devices"
    card = plan.approval.model_dump_json()
    assert all(text not in card for text in _sealed_texts())
    assert await lab.pings("PC1", ADDRESSES["PC2"])  # nothing changed before the approval

    public = await engine.approve(plan.exercise_id)
    assert public.status == "active" and public.sealed == []
    assert await lab.client.list_snapshots(lab.project_id) == []
    [link] = await lab.client.list_links(lab.project_id)
    assert link.suspend is True
    assert "192.0.2.1/24" not in await lab.run("PC1", "show ip")

    # The learner talks with the copilot meanwhile; the model reads the lab.
    scripted_openai.set_title_responder()
    scripted_openai.push(
        ScriptedTurn.tools(
            ScriptedToolCall("get_topology", {}, "c_topo"),
            ScriptedToolCall(
                "run_device_commands",
                {"devices": [{"node": "PC1", "commands": ["show ip"]}]},
                "c_show",
            ),
        ),
        ScriptedTurn.text("Compare PC1's address with PC2's. What do you see?"),
    )
    ctx = RunContext(
        client=lab.client,
        project_id=lab.project_id,
        model=scripted_openai.chat_model(),
        server_url=lab.client.base_url,
        limits=AgentLimits(heartbeat_interval_s=0),
    )
    chunks = await collect(service.stream_chat("PC1 cannot reach PC2", session.id, context=ctx))
    assert chunks[-1].type == "done" and "approval_request" not in [c.type for c in chunks]

    report = await engine.check(plan.exercise_id)
    assert not report.solved and report.reveal is None
    assert [c.passed for c in report.checks] == [False, False, False]
    shown = json.dumps([c.title for c in report.checks])
    assert all(text not in shown for text in _sealed_texts())
    hint = await engine.hint(plan.exercise_id)
    assert hint.startswith("Hint 1 of 6: ")

    # The learner fixes the address over the console: the link is still down.
    await lab.run("PC1", "ip 192.0.2.1/24")
    report = await engine.check(plan.exercise_id)
    assert not report.solved and [c.passed for c in report.checks] == [False, False, False]
    # ... then resumes the link.
    await lab.client.update_link(lab.project_id, link.link_id, suspend=False)
    report = await engine.check(plan.exercise_id)
    assert report.solved and all(c.passed for c in report.checks)
    assert report.reveal is not None
    assert {f.title for f in report.reveal.faults} == {
        "A host in the wrong subnet",
        "A link that carries nothing",
    }
    assert report.reveal.hints_used == 1 and report.reveal.score == 85

    [past] = await engine.history()
    assert past.status == "solved" and past.score == 85 and past.checks_run == 3
    assert {f.fault_id for f in past.sealed} == {"vpcs-wrong-address", "link-suspended"}
    with pytest.raises(PracticeError):
        await engine.hint(plan.exercise_id)  # ended

    # The sealed answer never reached the learner's model, transcript or export.
    requests = json.dumps([r.body for r in scripted_openai.chat_requests()])
    transcript = await service.store.read_transcript(session.id)
    info = await service.store.get_session(session.id)
    exported = export_json(info, transcript) + export_markdown(info, transcript)
    assert "IP/MASK" in requests  # the model did read the lab
    for text in _sealed_texts():
        assert text not in requests, text
        assert text not in exported, text


async def test_give_up_reveals_and_undoing_the_faults_heals_the_lab(
    practice_lab: PracticeLab,
) -> None:
    lab, engine = practice_lab, practice_lab.engine
    plan = await engine.prepare("s1", difficulty="beginner", fault_ids=["vpcs-wrong-address"])
    assert plan.approval.summary == "inject 1 beginner fault on 1 device"
    await engine.approve(plan.exercise_id)
    assert not await lab.pings("PC1", ADDRESSES["PC2"])

    given = await engine.give_up(plan.exercise_id)
    assert given.reveal.status == "given_up" and given.reveal.score == 0
    [fault] = given.reveal.faults
    assert fault.where == "PC1" and fault.undo == ["ip 192.0.2.1/24"]
    assert given.restore is not None and not given.restore.destructive
    assert await lab.run("PC1", "show ip")  # still broken until the restore is approved
    assert not await lab.pings("PC1", ADDRESSES["PC2"])

    assert await engine.restore(plan.exercise_id) == []
    assert {n.status for n in await lab.client.list_nodes(lab.project_id)} == {"started"}
    assert await lab.pings("PC1", ADDRESSES["PC2"])
