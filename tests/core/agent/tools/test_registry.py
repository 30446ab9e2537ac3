"""Every network tool is registered with its risk class, a typed schema and a summary."""

from __future__ import annotations

from gns3_copilot_desktop.core.agent.tools.inspect_tools import template_needs
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from gns3_copilot_desktop.core.agent.tools.project_tools import note_svg
from gns3_copilot_desktop.core.agent.tools.registry import ResolvedCall
from gns3_copilot_desktop.core.gns3.models import Template

RISKS = {
    "list_projects": "read",
    "get_topology": "read",
    "list_templates": "read",
    "get_node_details": "read",
    "get_links": "read",
    "get_project_stats": "read",
    "list_snapshots": "read",
    "get_template_details": "read",
    "summarize_capture": "read",
    "create_nodes": "change",
    "update_nodes": "change",
    "delete_nodes": "change",
    "create_links": "change",
    "delete_links": "change",
    "plan_lab": "change",
    "start_nodes": "change",
    "stop_nodes": "change",
    "suspend_nodes": "change",
    "reload_nodes": "change",
    "create_snapshot": "change",
    "restore_snapshot": "change",
    "add_note": "change",
    "start_capture": "change",
    "stop_capture": "change",
    "run_device_commands": "device-config",  # "read" for calls whose commands only read
    "configure_devices": "device-config",
}


def test_every_tool_has_its_risk_class_and_an_object_schema() -> None:
    registry = network_registry()
    assert {tool.name: tool.risk for tool in registry} == RISKS
    for schema in registry.openai_schemas():
        function = schema["function"]
        assert function["description"] and function["parameters"]["type"] == "object"
        assert function["parameters"].get("additionalProperties") is False, function["name"]


def test_arguments_are_typed_not_json_strings() -> None:
    registry = network_registry()
    ok = registry.resolve(
        "create_links",
        {"links": [{"node_a": "R1", "port_a": "e0/0", "node_b": "SW1", "port_b": "3"}]},
    )
    assert isinstance(ok, ResolvedCall)
    assert ok.tool.summary(ok.args) == "create link R1 e0/0 <-> SW1 3"
    bad = registry.resolve("start_nodes", {"nodes": []})
    assert not isinstance(bad, ResolvedCall) and "name the nodes, or set all=true" in bad.text
    typo = registry.resolve("create_nodes", {"nodes": [{"template": "VPCS", "nmae": "PC1"}]})
    assert not isinstance(typo, ResolvedCall) and "nmae" in typo.text
    twice = registry.resolve("create_nodes", {"nodes": [{"template": "VPCS", "name": "A"}] * 2})
    assert not isinstance(twice, ResolvedCall) and "same name" in twice.text


def test_notes_escape_markup() -> None:
    svg = note_svg('R1 <-> R2 & "core"\nline 2')
    assert "R1 &lt;-&gt; R2 &amp; &quot;core&quot;\nline 2</text>" in svg
    assert svg.startswith('<svg height="40" width=')


def test_template_needs_are_filled_from_the_template() -> None:
    qemu = Template.model_validate(
        {
            "template_id": "q",
            "name": "Debian",
            "template_type": "qemu",
            "hda_disk_image": "debian.qcow2",
            "ram": 1024,
        }
    )
    ios = Template.model_validate(
        {"template_id": "c", "name": "c7200", "template_type": "dynamips"}
    )
    assert template_needs(qemu) == "QEMU, the disk image debian.qcow2 and 1024 MB RAM (KVM advised)"
    assert template_needs(ios) == "dynamips and the IOS image (no image set) (? MB RAM)"
    odd = Template(template_id="x", name="X", template_type="brand_new")
    assert template_needs(odd) == "whatever its emulator needs"


def test_how_models_write_all_nodes_and_pasted_blocks() -> None:
    registry = network_registry()
    everything = registry.resolve("stop_nodes", {"nodes": ["All"]})
    assert isinstance(everything, ResolvedCall)
    assert everything.args.model_dump(include={"nodes", "all"}) == {"nodes": [], "all": True}
    pasted = registry.resolve(
        "configure_devices",
        {
            "devices": [
                {"node": "R1", "lines": ["interface e0/0\n ip address 10.0.0.1 255.0.0.0\n"]}
            ]
        },
    )
    assert isinstance(pasted, ResolvedCall)
    assert pasted.args.model_dump()["devices"][0]["lines"] == [
        "interface e0/0",
        " ip address 10.0.0.1 255.0.0.0",
    ]
    blank = registry.resolve(
        "run_device_commands", {"devices": [{"node": "R1", "commands": [" "]}]}
    )
    assert not isinstance(blank, ResolvedCall) and "non-empty command" in blank.text
