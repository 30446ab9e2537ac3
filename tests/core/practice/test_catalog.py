"""The shipped fault catalog: it parses strictly, covers every platform and level, and a broken
entry is refused rather than half-read."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.paths import resource_path
from gns3_copilot_desktop.core.practice.catalog import (
    DIFFICULTIES,
    CatalogError,
    load_catalog,
    parse_catalog,
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
    tested = {f.id for f in catalog.faults if f.tested_end_to_end}
    assert tested == {"vpcs-wrong-address", "link-suspended"}


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
