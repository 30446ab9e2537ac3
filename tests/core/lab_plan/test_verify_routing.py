"""What a plan's OSPF routers must show once it is applied: each neighbour on a shared subnet Full
(by its address: a plan picks no router ids) and every subnet of the plan's OSPF routers a route;
read again until all holds or the wait ends. The live run is on two real FRR routers
(`tests/core/lab_plan/test_plan_frr_live.py`)."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.gns3.models import Template
from gns3_copilot_desktop.core.lab_plan.diff import diff_plan
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.core.lab_plan.validate import PlanInvalidError, validate_plan
from gns3_copilot_desktop.core.lab_plan.verify_routing import (
    RoutingCheck,
    _results,
    routing_expectations,
)

ROUTER = Template.model_validate(
    {
        "template_id": "t-frr",
        "name": "FRR router",
        "template_type": "qemu",
        "adapters": 4,
        "port_name_format": "eth{0}",
    }
)
TEMPLATES = [ROUTER, Template(template_id="t-vpcs", name="VPCS", template_type="vpcs")]


def _r(name: str, ospf: bool = True) -> dict[str, object]:
    return {"name": name, "template": "FRR router", "platform": "frr", "ospf": ospf}


THREE_ROUTERS = {
    "nodes": [_r("R1"), _r("R2"), _r("R3", ospf=False), {"name": "PC1", "template": "VPCS"}],
    "links": [
        {"a": {"node": "R1", "port": "eth0"}, "b": {"node": "R2", "port": "eth0"}},
        {"a": {"node": "R2", "port": "eth1"}, "b": {"node": "R3", "port": "eth0"}},
        {"a": {"node": "PC1", "port": "Ethernet0"}, "b": {"node": "R1", "port": "eth1"}},
    ],
    "subnets": [
        {"name": "r1-r2", "prefix": "10.0.12.0/24"},
        {"name": "r2-r3", "prefix": "10.0.23.0/24"},
        {"name": "lan", "prefix": "192.0.2.0/24", "gateway": "192.0.2.254"},
    ],
    "addresses": [
        {"node": "R1", "interface": "eth0", "address": "10.0.12.1/24"},
        {"node": "R2", "interface": "eth0", "address": "10.0.12.2/24"},
        {"node": "R2", "interface": "eth1", "address": "10.0.23.2/24"},
        {"node": "R3", "interface": "eth0", "address": "10.0.23.3/24"},
        {"node": "R1", "interface": "eth1", "address": "192.0.2.254/24"},
        {"node": "PC1", "interface": "Ethernet0", "address": "192.0.2.1/24"},
    ],
}


def test_each_ospf_router_expects_its_neighbours_full_and_every_ospf_subnet_routed() -> None:
    diff = diff_plan(validate_plan(LabSpec.model_validate(THREE_ROUTERS), TEMPLATES, [], []))
    assert routing_expectations(diff) == [
        # R3 runs no OSPF: it is nobody's neighbour, and nobody expects it to answer
        RoutingCheck("R1", ("10.0.12.2",), ("10.0.23.0/24",)),
        RoutingCheck("R2", ("10.0.12.1",), ("192.0.2.0/24",)),
    ]


def test_a_plan_without_ospf_expects_nothing_of_routers() -> None:
    spec = {**THREE_ROUTERS, "nodes": [_r("R1", False), _r("R2", False), _r("R3", False)]}
    spec["links"] = spec["links"][:2]  # type: ignore[index]
    spec["addresses"] = spec["addresses"][:4]  # type: ignore[index]
    spec["subnets"] = spec["subnets"][:2]  # type: ignore[index]
    diff = diff_plan(validate_plan(LabSpec.model_validate(spec), TEMPLATES, [], []))
    assert routing_expectations(diff) == []


def test_a_check_passes_only_on_what_the_router_shows() -> None:
    check = RoutingCheck("R1", ("10.0.12.2",), ("10.0.23.0/24",))
    full = "2.2.2.2  1 Full/DR  1m02s  38.1s 10.0.12.2  eth0:10.0.12.1  0 0 0\n"
    table = "O>* 10.0.23.0/24 [110/20] via 10.0.12.2, eth0, weight 1, 00:00:40\n"
    assert _results(check, full, table) == [
        ("R1 has OSPF neighbour 10.0.12.2 Full", True),
        ("R1 has a route to 10.0.23.0/24", True),
    ]
    exstart = full.replace("Full/DR", "ExStart/DR")
    shorter = "O>* 10.0.0.0/16 [110/20] via 10.0.12.2, eth0\n"
    assert [passed for _, passed in _results(check, exstart, shorter)] == [False, False]
    # a router that printed an error, or nothing (its console failed), passes nothing
    assert [passed for _, passed in _results(check, "% Unknown command", "")] == [False, False]


def test_ospf_on_a_node_of_unknown_platform_is_a_problem_not_silence() -> None:
    spec = {**THREE_ROUTERS, "nodes": [{**_r("R1"), "platform": "auto"}, _r("R2"), _r("R3")]}
    spec["links"] = spec["links"][:2]  # type: ignore[index]
    spec["addresses"] = spec["addresses"][:4]  # type: ignore[index]
    spec["subnets"] = spec["subnets"][:2]  # type: ignore[index]
    with pytest.raises(PlanInvalidError) as raised:
        validate_plan(LabSpec.model_validate(spec), TEMPLATES, [], [])
    assert raised.value.problems == [
        "R1 is to run OSPF, but how to configure it is not known from its template (qemu): set "
        "its platform to ios or frr."
    ]
