"""The shipped fault catalog: it parses strictly, covers every platform and level, and a broken
entry is refused rather than half-read."""

from __future__ import annotations

import ipaddress
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gns3_copilot_desktop.core.paths import resource_path
from gns3_copilot_desktop.core.practice.catalog import (
    DIFFICULTIES,
    CatalogError,
    load_catalog,
    parse_catalog,
    placeholders,
)

ROOT = Path(__file__).resolve().parents[3]


def test_the_shipped_catalog_is_complete() -> None:
    catalog = load_catalog()
    assert len(catalog.faults) >= 30
    platforms = Counter(p for f in catalog.faults for p in f.applies_to)
    assert all(platforms[p] >= 5 for p in ("vpcs", "ios", "linux", "link")), platforms
    assert {f.difficulty for f in catalog.faults} == set(DIFFICULTIES)
    for fault in catalog.faults:
        assert len(fault.hints) == 3 and len(set(fault.hints)) == 3, fault.id
        assert fault.checks, fault.id
    # marked only for the faults the live round trips on the real labs go through
    from tests.core.devices.test_frr_ospf_link import ACROSS_THE_ROUTERS as ACROSS_A_ROUTER
    from tests.core.devices.test_frr_ospf_link import ROUND_TRIP as ON_OSPF
    from tests.core.devices.test_frr_ospf_link import SHELL_ROUND_TRIP as ON_A_SHELL
    from tests.core.practice.test_practice_round_trip_live import ROUND_TRIP

    tested = {f.id for f in catalog.faults if f.tested_end_to_end}
    assert tested == {*ROUND_TRIP, *ACROSS_A_ROUTER, *ON_A_SHELL, *ON_OSPF}


def test_the_catalog_is_a_bundled_resource() -> None:
    assert resource_path("practice", "faults.json") == ROOT / "resources/practice/faults.json"
    spec = (ROOT / "packaging/gns3-copilot.spec").read_text()
    assert '(str(ROOT / "resources"), "resources")' in spec


def _one(**changes: object) -> str:
    fault = json.loads((ROOT / "resources/practice/faults.json").read_text())["faults"][0]
    fault.update(changes)
    return json.dumps({"format": 1, "about": "x", "faults": [fault]})


@pytest.mark.parametrize(
    "changes",
    [
        {"hints": ["only", "two"]},
        {"difficulty": "expert"},
        {"topic": "astrology"},
        {"inject": {"vpcs": {"console": ["ip {secret_answer}"]}}},  # unknown placeholder
        {"undo": {}},  # no way back
        {"applies_to": ["vpcs", "link"]},
        {"checks": [{"kind": "ping", "title": "t", "from": "{node}"}]},  # ping without target
        {"run_this": "import os"},  # unknown field
    ],
)
def test_a_broken_entry_is_refused(changes: dict[str, object]) -> None:
    with pytest.raises(CatalogError):
        parse_catalog(_one(**changes))


def test_duplicate_ids_are_refused() -> None:
    fault = json.loads(_one())["faults"][0]
    with pytest.raises(CatalogError):
        parse_catalog(json.dumps({"format": 1, "about": "x", "faults": [fault, fault]}))


def _lab_node(name: str, address: str, gateway: str = "", node_type: str = "vpcs") -> Any:
    from gns3_copilot_desktop.core.gns3.models import Node
    from gns3_copilot_desktop.core.practice import lab_facts

    node = Node(node_id=name.lower(), name=name, node_type=node_type, status="started")
    interface = ipaddress.IPv4Interface(address) if address else None
    return lab_facts._LabNode(node, "vpcs", interface, gateway)


def test_no_raw_placeholder_reaches_the_user_from_any_catalog_text() -> None:
    """Every text the learner or the reveal can see, rendered the way the engine renders it
    from a lab where the fault binds, is free of ``{...}``: the ticket, the check titles, the
    undo steps; texts the engine never fills (title, symptoms, hints) have no braces at all."""
    from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd
    from gns3_copilot_desktop.core.practice import lab_facts

    nodes = {
        n.node.node_id: n
        for n in (
            _lab_node("PC1", "192.0.2.1/24", "192.0.2.254"),
            _lab_node("PC2", "192.0.2.10/24", "192.0.2.254"),
            _lab_node("PC9", "198.51.100.9/24", "198.51.100.1"),
            _lab_node("SW1", "", node_type="ethernet_switch"),
        )
    }
    ends = [LinkEnd(node_id=n, adapter_number=0, port_number=0) for n in ("pc1", "sw1")]
    link = Link(link_id="l1", nodes=ends)
    rendered: list[str] = []
    bound = set()
    for fault in load_catalog().faults:
        for text in (fault.title, fault.symptoms, *fault.hints, fault.level_note):
            assert "{" not in text and "}" not in text, (fault.id, text)
        candidates = []
        if "vpcs" in fault.applies_to:
            candidates = [lab_facts._node_binding(fault, nodes["pc1"], nodes)]
        if "link" in fault.applies_to:
            ends = [nodes[e.node_id] for e in link.nodes]
            params = {"link": "PC1 <-> SW1", "node": "PC1", "peer": "SW1"}
            peer = lab_facts._across(ends[0], ends[1], nodes)
            assert peer is not None and peer.address is not None
            params |= {"peer": peer.node.name, "peer_address": str(peer.address.ip)}
            ok = lab_facts._bound(fault, "link", params)
            candidates = [
                lab_facts._Candidate(fault, "link", "l1", ["PC1", "SW1"], params) if ok else None
            ]
        for candidate in candidates:
            assert candidate is not None, fault.id  # binds on this lab
            bound.add(fault.id)
            params = candidate.params
            rendered.append(lab_facts._ticket([candidate]))
            rendered += [lab_facts._public_title(c, 1, params) for c in fault.checks]
            steps = fault.undo[candidate.platform]
            rendered += [lab_facts._fill(s, params) for s in steps.texts()]
    assert len(bound) == 12
    for text in rendered:
        assert text and "{" not in text and "}" not in text, text
    assert "PC1 cannot reach PC2 since this morning; the other hosts are fine." in rendered


def test_every_fault_reads_in_chinese_with_the_same_placeholders() -> None:
    """A Chinese learner reads the ticket, check titles, hints and the answer in Chinese; the
    lab's values go into the same places as in English."""
    catalog = load_catalog()
    chinese = catalog.localized("zh_CN")
    for english, local in zip(catalog.faults, chinese.faults, strict=True):
        assert "zh_CN" in english.translations, english.id
        assert local.id == english.id and local.inject == english.inject
        for text in (local.title, local.symptoms, local.ticket, *local.hints):
            assert any("\u4e00" <= ch <= "\u9fff" for ch in text), (english.id, text)
        assert placeholders(local.ticket) == placeholders(english.ticket)
        assert [placeholders(c.title) for c in local.checks] == [
            placeholders(c.title) for c in english.checks
        ]
        assert [c.to for c in local.checks] == [c.to for c in english.checks]
    filled = chinese.get("vpcs-wrong-gateway").ticket.format(
        node="PC1", beyond_node="PC2", beyond="198.51.100.1"
    )
    assert filled == "PC1 仍能访问邻居，但访问不到另一个网络中的 PC2（198.51.100.1）。"
    # a language the catalog does not have reads in English
    assert catalog.localized("fr").get("link-delay").title == "A slow link"
    assert catalog.localized(None).get("link-delay").title == "A slow link"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"ticket": "{node} 访问不到 {nobody}"}, "keep their placeholders"),
        ({"checks": []}, "checks"),
        ({"hints": ["一 {node}", "二", "三"]}, "shown as written"),
    ],
)
def test_a_translation_that_loses_its_shape_is_refused(change: dict[str, Any], why: str) -> None:
    fault = json.loads((ROOT / "resources/practice/faults.json").read_text())["faults"][0]
    fault["translations"]["zh_CN"].update(change)
    text = json.dumps({"format": 1, "about": "x", "faults": [fault]})
    with pytest.raises(CatalogError, match=why):
        parse_catalog(text)
