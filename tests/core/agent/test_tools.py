"""The tool registry's answers to bad calls, truncation, titles and the topology summary."""

from __future__ import annotations

from gns3_copilot_desktop.core.agent.prompts import system_prompt
from gns3_copilot_desktop.core.agent.title import clean_title, fallback_title
from gns3_copilot_desktop.core.agent.tools import ToolResult, default_registry, truncate_text
from gns3_copilot_desktop.core.agent.tools.read_tools import ListTemplatesArgs
from gns3_copilot_desktop.core.agent.tools.registry import ResolvedCall
from gns3_copilot_desktop.core.agent.topology import summarize_topology
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node, Port


def test_registry_resolves_valid_calls_and_explains_bad_ones() -> None:
    registry = default_registry()
    ok = registry.resolve("list_templates", '{"name_contains": "vpcs"}')
    assert isinstance(ok, ResolvedCall) and ok.args == ListTemplatesArgs(name_contains="vpcs")
    unknown = registry.resolve("get_topolgy", {})
    assert isinstance(unknown, ToolResult) and unknown.is_error
    assert "Did you mean: get_topology" in unknown.text
    bad = registry.resolve("list_templates", {"name_contains": 3})
    assert isinstance(bad, ToolResult) and "name_contains" in bad.text
    assert isinstance(registry.resolve("list_projects", "[1, 2]"), ToolResult)
    schemas = registry.openai_schemas()
    assert [s["function"]["name"] for s in schemas] == [
        "list_projects",
        "get_topology",
        "list_templates",
    ]
    assert all(s["function"]["parameters"]["type"] == "object" for s in schemas)


def test_truncate_keeps_head_and_tail_and_marks_the_cut() -> None:
    text = "A" * 600 + "B" * 600
    cut, truncated = truncate_text(text, 300)
    assert truncated and cut.startswith("A" * 200) and cut.endswith("B" * 100)
    assert "900 characters cut" in cut
    assert truncate_text("short", 300) == ("short", False)


def test_titles_are_cleaned_and_fall_back_to_the_message() -> None:
    assert clean_title('Title: "Configurer OSPF sur R1".') == "Configurer OSPF sur R1"
    assert (
        fallback_title("\n  为什么 R1 无法 ping 通 R2 呢 还有 更多 的 字\n")
        == "为什么 R1 无法 ping 通 R2"
    )
    assert len(clean_title("word " * 40)) <= 61


def test_topology_summary_names_ports_and_consoles() -> None:
    ports = [Port(name="Ethernet0", adapter_number=0, port_number=0)]
    r1 = Node(
        node_id="n1",
        name="R1",
        node_type="vpcs",
        status="started",
        console=5000,
        console_type="telnet",
        console_host="127.0.0.1",
        ports=ports,
    )
    r2 = Node(node_id="n2", name="R2", node_type="vpcs", ports=ports)
    link = Link(
        link_id="l1",
        nodes=[
            LinkEnd(node_id="n1", adapter_number=0, port_number=0),
            LinkEnd(node_id="n2", adapter_number=0, port_number=0),
        ],
    )
    summary = summarize_topology([r2, r1], [link])
    assert '- "R1" (vpcs, started, telnet 127.0.0.1:5000)' in summary
    assert '- "R2" (vpcs, stopped, no console)' in summary
    assert '- "R1" "Ethernet0" <-> "R2" "Ethernet0"' in summary
    assert summarize_topology([], []).startswith("The project is empty")


def test_system_prompt_has_mode_language_and_topology() -> None:
    tutor = system_prompt("tutor", "- R1 (vpcs, started, no console)", language="Français")
    assert "Mode: tutor" in tutor and "Français" in tutor
    assert "- R1 (vpcs, started, no console)\n<<<END LAB DATA " in tutor
    # A stored mode this version does not know is read-only rather than trusted.
    assert "Mode: tutor" in system_prompt("unknown-mode", "x")
    assert "Mode: tutor" in system_prompt("teaching", "x")  # stored by earlier versions
    assert "Mode: assistant" in system_prompt("lab_automation", "x")
    assert "Mode: practice" in system_prompt("practice", "x")
