"""Lab plans without a server: spec parsing, rendering, validation, ports, diff and picture."""

from __future__ import annotations

import ipaddress

import pytest
from pydantic import ValidationError

from gns3_copilot_desktop.core.devices import DeviceKind
from gns3_copilot_desktop.core.devices.policy import check_command
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node, Port, Template
from gns3_copilot_desktop.core.lab_plan.apply import ping_targets
from gns3_copilot_desktop.core.lab_plan.diff import diff_plan, plan_picture
from gns3_copilot_desktop.core.lab_plan.render import InterfaceAddress, frr_lines, render_config
from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
from gns3_copilot_desktop.core.lab_plan.validate import PlanInvalidError, validate_plan

TEMPLATES = [
    Template(template_id="t-vpcs", name="VPCS", template_type="vpcs"),
    Template(template_id="t-sw", name="Ethernet switch", template_type="ethernet_switch"),
]


def _switch(name: str, nid: str) -> Node:
    ports = [Port(name=f"Ethernet{i}", adapter_number=0, port_number=i) for i in range(8)]
    return Node(
        node_id=nid, name=name, node_type="ethernet_switch", template_id="t-sw", ports=ports
    )


def _pc(name: str, nid: str) -> Node:
    port = Port(name="Ethernet0", short_name="e0", adapter_number=0, port_number=0)
    return Node(node_id=nid, name=name, node_type="vpcs", template_id="t-vpcs", ports=[port])


def _link(lid: str, a: str, pa: int, b: str, pb: int) -> Link:
    return Link(
        link_id=lid,
        nodes=[
            LinkEnd(node_id=a, adapter_number=0, port_number=pa),
            LinkEnd(node_id=b, adapter_number=0, port_number=pb),
        ],
    )


LAN = {
    "nodes": [
        {"name": "SW1", "template": "Ethernet switch"},
        {"name": "PC1", "template": "VPCS", "x": 10, "y": 20},
        {"name": "PC2", "template": "VPCS"},
    ],
    "links": [
        {"a": {"node": "PC1"}, "b": {"node": "SW1"}, "subnet": "lan"},
        {"a": {"node": "PC2"}, "b": {"node": "SW1", "port": "any"}},
    ],
    "subnets": [{"name": "lan", "prefix": "192.0.2.0/24", "gateway": "192.0.2.254"}],
    "addresses": [
        {"node": "PC1", "interface": "e0", "address": "192.0.2.1/24"},
        {"node": "PC2", "interface": "Ethernet0", "address": "192.0.2.2/24"},
    ],
}


def test_rendering_per_platform() -> None:
    item = InterfaceAddress(
        "Ethernet0/0", ipaddress.IPv4Interface("10.0.0.1/30"), ipaddress.IPv4Address("10.0.0.2")
    )
    assert render_config("vpcs", [item]) == ("ip 10.0.0.1/30 10.0.0.2", "save")
    ios = render_config("ios", [item], ospf=True)
    assert ios[:4] == (
        "interface Ethernet0/0",
        "ip address 10.0.0.1 255.255.255.252",
        "no shutdown",
        "exit",
    )
    assert "network 10.0.0.0 0.0.0.3 area 0" in ios
    assert frr_lines([item], True)[:2] == ("interface Ethernet0/0", "ip address 10.0.0.1/30")
    # the project's router (QEMU) lands in vtysh: its lines are pushed as they are, and each is
    # a configuration line the gate lets through, never a shell command
    in_vtysh = render_config("frr", [item], ospf=True, node_type="qemu")
    assert in_vtysh == frr_lines([item], True) and not any("vtysh" in x for x in in_vtysh)
    assert all(check_command(line, kind=DeviceKind.IOS) is None for line in in_vtysh)
    # a Docker FRR image's console is a shell: the same lines through one vtysh command
    [shell, _] = render_config("frr", [item], ospf=True, node_type="docker")
    assert shell.startswith("vtysh -c 'configure terminal' -c 'interface Ethernet0/0'")
    assert render_config("none", [item]) == ()


@pytest.mark.parametrize(
    "name", ['R1"; reload', "R1\nreload", "x" * 10_000, "any", " R1", "R1'", ""]
)
def test_hostile_names_are_refused(name: str) -> None:
    with pytest.raises(ValidationError) as caught:
        LabSpec.model_validate({"nodes": [{"name": name, "template": "VPCS"}]})
    assert "name" in str(caught.value)


def test_unknown_fields_and_empty_plans_are_refused() -> None:
    with pytest.raises(ValidationError):
        LabSpec.model_validate({"nodes": [{"name": "R1", "template": "VPCS", "shell": "rm"}]})
    with pytest.raises(ValidationError):
        LabSpec.model_validate({})


def test_new_lan_diff_ports_configs_and_picture() -> None:
    plan = validate_plan(LabSpec.model_validate(LAN), TEMPLATES, [], [])
    diff = diff_plan(plan)
    assert diff.summary() == "add 3 nodes, 2 links; configure 2 devices"
    assert [(lp.b.node, lp.b.port) for lp in diff.new_links] == [
        ("SW1", "Ethernet0"),
        ("SW1", "Ethernet1"),
    ]
    assert diff.configs["PC1"] == ("ip 192.0.2.1/24 192.0.2.254", "save")
    assert diff.auto_ports()[0] == "PC1 Ethernet0 (to SW1)"
    picture = plan_picture(diff)
    assert {n.name: n.state for n in picture.nodes} == {"SW1": "new", "PC1": "new", "PC2": "new"}
    assert next(n for n in picture.nodes if n.name == "PC1").x == 10
    assert picture.links[0].subnet == "lan 192.0.2.0/24"
    assert diff_plan(validate_plan(LabSpec.model_validate(LAN), TEMPLATES, [], [])).positions == (
        diff.positions
    )


def test_an_applied_plan_diffs_to_nothing_and_an_extension_only_adds() -> None:
    nodes = [_switch("SW1", "s1"), _pc("PC1", "p1"), _pc("PC2", "p2")]
    links = [_link("l1", "p1", 0, "s1", 0), _link("l2", "p2", 0, "s1", 1)]
    again = diff_plan(validate_plan(LabSpec.model_validate(LAN), TEMPLATES, nodes, links))
    assert again.is_empty and again.summary() == "nothing to change"
    extended = dict(LAN)
    extended["nodes"] = [*LAN["nodes"], {"name": "PC3", "template": "VPCS"}]
    extended["links"] = [*LAN["links"], {"a": {"node": "SW1"}, "b": {"node": "PC3"}}]
    more = diff_plan(validate_plan(LabSpec.model_validate(extended), TEMPLATES, nodes, links))
    assert [p.node.name for p in more.new_nodes] == ["PC3"]
    assert [(lp.a.node, lp.a.port) for lp in more.new_links] == [("SW1", "Ethernet2")]
    assert more.configs == {}  # PC3 has no address in the plan


def test_every_problem_is_named_at_once() -> None:
    nodes = [_switch("SW1", "s1"), _pc("PC1", "p1")]
    links = [_link("l1", "p1", 0, "s1", 0)]
    spec = LabSpec.model_validate(
        {
            "nodes": [{"name": "R9", "template": "NoSuchRouter"}],
            "links": [
                {"a": {"node": "SW1"}, "b": {"node": "Ghost"}},
                {"a": {"node": "SW1", "port": "Ethernet0"}, "b": {"node": "SW1", "port": "e5"}},
            ],
            "subnets": [
                {"name": "a", "prefix": "10.0.0.0/24", "gateway": "10.0.1.1"},
                {"name": "b", "prefix": "10.0.0.128/25"},
            ],
            "addresses": [{"node": "PC1", "interface": "e0", "address": "172.16.0.1/24"}],
        }
    )
    with pytest.raises(PlanInvalidError) as caught:
        validate_plan(spec, TEMPLATES, nodes, links)
    text = " ".join(caught.value.problems)
    assert "no template named 'NoSuchRouter'" in text
    assert "Ghost" in text
    assert "SW1 Ethernet0 is already used" in text
    assert "a (10.0.0.0/24) and b (10.0.0.128/25) overlap" in text
    assert "10.0.1.1 of subnet a" in text
    assert "172.16.0.1/24 on PC1 e0 is not inside any subnet" in text


def test_a_name_taken_by_another_template_is_a_problem() -> None:
    spec = LabSpec.model_validate({"nodes": [{"name": "SW1", "template": "VPCS"}]})
    with pytest.raises(PlanInvalidError, match="already exists as a ethernet_switch"):
        validate_plan(spec, TEMPLATES, [_switch("SW1", "s1")], [])


def test_removals_need_something_to_remove() -> None:
    nodes = [_switch("SW1", "s1"), _pc("PC1", "p1")]
    links = [_link("l1", "p1", 0, "s1", 0)]
    spec = LabSpec.model_validate({"remove": [{"node": "PC1", "peer": "SW1"}]})
    diff = diff_plan(validate_plan(spec, TEMPLATES, nodes, links))
    assert diff.summary() == "remove 1 link"
    assert plan_picture(diff).links[0].state == "removed"
    with pytest.raises(PlanInvalidError, match="no such node"):
        validate_plan(LabSpec.model_validate({"remove": [{"node": "X"}]}), TEMPLATES, nodes, links)


def test_the_picture_shows_the_projects_other_links_and_hosts_ping_their_subnet() -> None:
    nodes = [_switch("SW1", "s1"), _pc("PC1", "p1"), _pc("PC2", "p2"), _pc("PC9", "p9")]
    links = [_link("l1", "p1", 0, "s1", 0), _link("l9", "p9", 0, "s1", 5)]  # PC9: not planned
    extended = dict(LAN)
    extended["nodes"] = [*LAN["nodes"], {"name": "PC3", "template": "VPCS"}]
    extended["links"] = [*LAN["links"], {"a": {"node": "SW1"}, "b": {"node": "PC3"}}]
    extended["addresses"] = [
        *LAN["addresses"],
        {"node": "PC3", "interface": "e0", "address": "192.0.2.3/24"},
    ]
    diff = diff_plan(validate_plan(LabSpec.model_validate(extended), TEMPLATES, nodes, links))
    drawn = {(x.a, x.a_port, x.b, x.b_port): x.state for x in plan_picture(diff).links}
    assert drawn[("PC9", "Ethernet0", "SW1", "Ethernet5")] == "unchanged"
    assert drawn[("PC1", "Ethernet0", "SW1", "Ethernet0")] == "unchanged"
    assert {k: v for k, v in drawn.items() if v == "new"}.keys() == {
        ("PC2", "Ethernet0", "SW1", "Ethernet1"),
        ("SW1", "Ethernet2", "PC3", "Ethernet0"),
    }
    # the hosts the plan made or configured ping the gateway and every other host of the subnet
    assert ping_targets(diff) == {
        "PC2": ["192.0.2.254", "192.0.2.1", "192.0.2.3"],
        "PC3": ["192.0.2.254", "192.0.2.1", "192.0.2.2"],
    }


def test_only_address_lines_go_into_a_new_hosts_startup_script() -> None:
    """A new VPCS gets its address from its startup script; any other line (a VPCS `!` line runs
    a shell command on the GNS3 machine) must go through the console and its policy instead."""
    from gns3_copilot_desktop.core.lab_plan.apply import _STARTUP_LINE

    assert _STARTUP_LINE.fullmatch("ip 10.9.0.9/24")
    assert _STARTUP_LINE.fullmatch("ip 10.9.0.9/24 10.9.0.254")
    for hostile in (
        "!rm -rf /",
        "ip 10.9.0.9/24; !id",
        "ip 10.9.0.9/24\n!id",
        "ip 10.9.0.9/24 10.9.0.254 !id",
        "set pcname x",
        "save",
    ):
        assert not _STARTUP_LINE.fullmatch(hostile), hostile
