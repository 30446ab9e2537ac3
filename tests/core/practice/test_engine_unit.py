"""Practice engine pieces without a lab: parsing device output, the sealed card, the record
that hides its answer, the store, and the draw that avoids repeats."""

from __future__ import annotations

import ipaddress
import os
import random
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.practice import engine as eng
from gns3_copilot_desktop.core.practice import lab_facts
from gns3_copilot_desktop.core.practice.catalog import load_catalog
from gns3_copilot_desktop.core.practice.store import (
    ExerciseRecord,
    ExerciseStore,
    InjectedFault,
    now,
)

VPCS_SHOW_IP = """NAME        : PC1[1]
IP/MASK     : 192.0.2.1/24
GATEWAY     : 192.0.2.254
DNS         :
MAC         : 00:50:79:66:68:00
"""


def _record(**kw: object) -> ExerciseRecord:
    base: dict[str, object] = {
        "exercise_id": "e1",
        "project_id": "p",
        "session_id": "s",
        "difficulty": "intermediate",
        "fault_count": 1,
        "created_at": now(),
        "sealed": [
            InjectedFault(
                fault_id="vpcs-wrong-mask", title="t", platform="vpcs", node="PC1",
                devices=["PC1", "PC2"],
            )
        ],
    }  # fmt: skip
    return ExerciseRecord.model_validate(base | kw)


def test_vpcs_show_ip_is_read() -> None:
    address, gateway = lab_facts.vpcs_address(VPCS_SHOW_IP)
    assert address == ipaddress.IPv4Interface("192.0.2.1/24") and gateway == "192.0.2.254"
    assert lab_facts.vpcs_address("IP/MASK     : 0.0.0.0/0\nGATEWAY : 0.0.0.0") == (None, "")


def test_the_card_and_the_public_record_hold_no_answer() -> None:
    record = _record()
    card = lab_facts._inject_approval(record)
    assert card.summary == "inject 1 intermediate fault on 2 devices"
    assert "wrong-mask" not in card.model_dump_json() and card.destructive
    assert record.public().sealed == []
    assert _record(status="solved").public().sealed == record.sealed


@pytest.mark.asyncio
async def test_the_store_keeps_records_per_project(tmp_path: Path) -> None:
    store = ExerciseStore(tmp_path / "practice.db", os.urandom(32))
    await store.save(_record())
    await store.save(_record(exercise_id="e2", project_id="other"))
    assert [r.exercise_id for r in await store.list_for_project("p")] == ["e1"]
    assert (await store.get("e1")).sealed[0].fault_id == "vpcs-wrong-mask"
    assert (tmp_path / "practice.db").stat().st_mode & 0o777 == 0o600


def test_a_used_fault_is_drawn_only_when_no_other_remains() -> None:
    catalog = load_catalog()
    engine = eng.PracticeEngine.__new__(eng.PracticeEngine)
    engine._rng = random.Random(7)
    pool = [
        lab_facts._Candidate(catalog.get(fid), "vpcs", f"node:{n}", [n], {})
        for fid in ("vpcs-wrong-address", "vpcs-no-address")
        for n in ("PC1", "PC2")
    ]
    for _ in range(20):
        [picked] = engine._draw(pool, 1, {"vpcs-wrong-address"})
        assert picked.fault.id == "vpcs-no-address"
    [picked] = engine._draw(pool, 1, {"vpcs-wrong-address", "vpcs-no-address"})
    assert picked.fault.id in {"vpcs-wrong-address", "vpcs-no-address"}
    two = engine._draw(pool, 2, set())
    assert len({c.fault.id for c in two}) == 2 and len({c.target for c in two}) == 2


@pytest.mark.asyncio
async def test_the_store_keeps_the_answer_sealed_by_the_keyring_key(tmp_path: Path) -> None:
    from gns3_copilot_desktop.core.practice.store import PracticeError, sealing_key
    from gns3_copilot_desktop.core.secrets import SecretStore
    from tests.helpers.keyring_backends import MemoryKeyring

    key = await sealing_key(SecretStore(MemoryKeyring()))
    path = tmp_path / "practice.db"
    record = _record(
        sealed=[
            InjectedFault(
                fault_id="vpcs-wrong-mask", title="A host with a too long subnet mask",
                platform="vpcs", node="PC7", devices=["PC7"],
                params={"address": "198.51.100.77", "wrong_prefix": "29"},
            )
        ]
    )  # fmt: skip
    await ExerciseStore(path, key).save(record)
    raw = path.read_bytes()
    for secret in (b"vpcs-wrong-mask", b"too long subnet", b"PC7", b"198.51.100.77", b"prefix"):
        assert secret not in raw
    assert (await ExerciseStore(path, key).get("e1")).sealed == record.sealed
    other = await sealing_key(SecretStore(MemoryKeyring()))  # another installation
    with pytest.raises(PracticeError, match="another installation"):
        await ExerciseStore(path, other).get("e1")


@pytest.mark.asyncio
async def test_a_fault_that_comes_back_between_the_two_checks_is_not_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flapping fault (a lossy link, a host that flips back) can pass one check by luck: a
    pass is asked again after `recheck_delay_s`, and the exercise stays active when the second
    look fails. The lab is replaced by the checks' answers (no device is reached here)."""
    store = ExerciseStore(tmp_path / "practice.db", os.urandom(32))
    params = {
        "node": "PC1", "peer": "PC2", "peer_address": "192.0.2.2", "address": "192.0.2.1",
        "prefix": "24", "wrong_prefix": "26", "gateway": "",
    }  # fmt: skip
    sealed = [_record().sealed[0].model_copy(update={"params": params})]
    await store.save(_record(status="active", started_at=now(), sealed=sealed))
    engine = eng.PracticeEngine(Gns3Client("http://127.0.0.1:9"), "p", store)  # never called
    engine.recheck_delay_s = 0.0
    looks = iter([True, False, True, True])

    async def outcomes(record: ExerciseRecord) -> list[eng.CheckOutcome]:
        passed = next(looks)
        return [eng.CheckOutcome(1, "PC1 reaches PC2", passed)]

    monkeypatch.setattr(engine, "_outcomes", outcomes)
    report = await engine.check("e1")
    assert not report.solved and report.reveal is None
    assert [c.state for c in report.checks] == ["failed"]  # what the second look saw
    assert (await store.get("e1")).status == "active"
    report = await engine.check("e1")  # steady now: two passes in a row
    assert report.solved and (await store.get("e1")).status == "solved"


def _host(name: str, address: str, gateway: str) -> lab_facts._LabNode:
    node = Node(node_id=name, name=name, node_type="vpcs", status="started")
    return lab_facts._LabNode(node, "vpcs", ipaddress.IPv4Interface(address), gateway)


def test_a_host_alone_behind_a_router_gets_a_wrong_gateway_not_its_own() -> None:
    """PC1 - R1 - PC2, one host per subnet, the router on each subnet's last address: the wrong
    gateway binds (no peer in the subnet is needed for it), and the "wrong" address drawn is
    never the router's, which is the right one."""
    nodes = {
        "PC1": _host("PC1", "192.0.2.1/24", "192.0.2.254"),
        "PC2": _host("PC2", "198.51.100.1/24", "198.51.100.254"),
    }
    catalog = load_catalog()
    wrong_gateway = lab_facts._node_binding(catalog.get("vpcs-wrong-gateway"), nodes["PC1"], nodes)
    assert wrong_gateway is not None
    assert wrong_gateway.params["beyond"] == "198.51.100.1"
    assert wrong_gateway.params["wrong_gateway"] not in ("192.0.2.254", "192.0.2.1")
    # a fault that needs a neighbour in the subnet does not bind on a host without one
    assert lab_facts._node_binding(catalog.get("vpcs-wrong-mask"), nodes["PC1"], nodes) is None
