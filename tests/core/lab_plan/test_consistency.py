"""A spec's own problems, found without the server (what the plan editor refuses as it is typed):
the server-side validation finds the same ones with the same words."""

from __future__ import annotations

from typing import Any

import pytest

from gns3_copilot_desktop.core.lab_plan.consistency import spec_problems
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.core.lab_plan.validate import PlanInvalidError, validate_plan
from tests.core.lab_plan.test_plan_unit import LAN, TEMPLATES


def _lan(key: str) -> list[Any]:
    value = LAN[key]
    assert isinstance(value, list)
    return value


def _spec(**changes: Any) -> LabSpec:
    return LabSpec.model_validate({**LAN, **changes})


def test_a_sound_spec_has_no_problem() -> None:
    assert spec_problems(_spec(), project_nodes=set()) == []


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        (
            {"subnets": [*_lan("subnets"), {"name": "lan2", "prefix": "192.0.2.128/25"}]},
            "The subnets lan (192.0.2.0/24) and lan2 (192.0.2.128/25) overlap.",
        ),
        (
            {"subnets": [*_lan("subnets"), {"name": "LAN", "prefix": "198.51.100.0/24"}]},
            "The plan defines the subnet LAN twice.",
        ),
        (
            {"nodes": [*_lan("nodes"), {"name": "pc1", "template": "VPCS"}]},
            "The plan names two nodes pc1; node names must be unique.",
        ),
        (
            {"links": [{"a": {"node": "PC1"}, "b": {"node": "SW1"}, "subnet": "wan"}]},
            "A link names the subnet wan, which the plan does not define.",
        ),
        (
            {"addresses": [{"node": "PC1", "interface": "e0", "address": "203.0.113.1/24"}]},
            "The address 203.0.113.1/24 on PC1 e0 is not inside any subnet of the plan.",
        ),
    ],
    ids=["overlap", "subnet-twice", "node-twice", "unknown-subnet", "address-outside"],
)
def test_each_problem_is_named_as_the_server_side_validation_names_it(
    changes: dict[str, Any], said: str
) -> None:
    spec = _spec(**changes)
    assert said in spec_problems(spec)
    with pytest.raises(PlanInvalidError) as caught:
        validate_plan(spec, TEMPLATES, [], [])
    assert said in caught.value.problems


def test_a_node_neither_in_the_plan_nor_in_the_project() -> None:
    spec = _spec(links=[{"a": {"node": "PC1"}, "b": {"node": "R9"}}], reach=[["PC1", "R9"]])
    assert spec_problems(spec) == []  # without the project's names, nothing is said
    problems = spec_problems(spec, project_nodes={"SW9"})
    assert problems == [
        "A link names the node R9, which is neither in the plan nor in the project.",
        "A pair to reach names the node R9, which is neither in the plan nor in the project.",
    ]
    assert spec_problems(spec, project_nodes={"r9"}) == []
