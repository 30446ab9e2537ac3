"""Screenshots of the Copilot dock's main states into docs/screenshots/ (offscreen, no server).

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python -m tests.tools.screenshots [out_dir]`
(`--only NAME` takes only the states whose name starts with NAME).
The states are reached by driving the real widgets with the ScriptedBackend test double. The
zh-CN-* states load the shipped Simplified Chinese translation (resources/translations).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PyQt6.QtCore import QCoreApplication, Qt, QTranslator
from PyQt6.QtGui import QPalette
from PyQt6.QtWidgets import QApplication, QLabel, QMainWindow

from gns3_copilot_desktop.core.paths import resource_path
from gns3_copilot_desktop.core.protocol import ApprovalRequest, ChatChunk, TokenUsage
from gns3_copilot_desktop.ui.backends.base import AssistantTurn, ToolRecord, UserTurn
from gns3_copilot_desktop.ui.dock import CopilotDock
from gns3_copilot_desktop.ui.theme import dark_palette, light_palette
from tests.helpers.fake_backend import (
    ScriptedBackend,
    approval,
    content,
    done,
    error,
    tool_end,
    tool_start,
)
from tests.helpers.practice_standin import PracticeStandIn

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

ANSWER = """## Your lab

The project **ospf-lab** has 3 routers and 1 switch:

| Node | Type | Status |
|------|------|--------|
| R1 | Dynamips c7200 | started |
| R2 | Dynamips c7200 | started |
| SW1 | Ethernet switch | started |

- R1 and R2 are linked through SW1
- R3 is stopped

```
R1# show ip ospf neighbor
Neighbor ID  Pri  State    Dead Time  Address   Interface
2.2.2.2        1  FULL/DR  00:00:35   10.0.0.2  Fa0/0
```

Next, I can start R3 and configure OSPF area 0 on it.
"""

QUESTION = "What is in my lab?"

ANSWER_ZH = """## 你的实验拓扑

项目 **ospf-lab** 有 3 台路由器和 1 台交换机：

| 节点 | 类型 | 状态 |
|------|------|------|
| R1 | Dynamips c7200 | 已启动 |
| R2 | Dynamips c7200 | 已启动 |
| SW1 | 以太网交换机 | 已启动 |

- R1 和 R2 通过 SW1 的链路互联
- R3 已停止

```
R1# show ip ospf neighbor
Neighbor ID  Pri  State    Dead Time  Address   Interface
2.2.2.2        1  FULL/DR  00:00:35   10.0.0.2  Fa0/0
```

接下来，我可以启动 R3，并在它上面把端口加入 OSPF 区域 0。
"""

QUESTION_ZH = "我的实验拓扑里有什么？"


async def wait_until(condition: Callable[[], bool], limit_s: float = 5.0) -> None:
    """Poll `condition` on the running (Qt) loop."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit_s
    while not condition():
        if loop.time() > end:
            raise TimeoutError("screenshot state not reached")
        await asyncio.sleep(0.02)


def make_window(
    backend: ScriptedBackend, width: int = 1000, height: int = 720, dock_width: int = 460
) -> tuple[QMainWindow, CopilotDock]:
    """A main window with a placeholder canvas and the dock on the right."""
    window = QMainWindow()
    canvas = QLabel(QApplication.translate("Screenshots", "GNS3 topology"))
    canvas.setAlignment(Qt.AlignmentFlag.AlignCenter)
    window.setCentralWidget(canvas)
    dock = CopilotDock(backend, window)
    dock.add_to(window)
    window.resize(width, height)
    window.show()
    window.resizeDocks([dock], [dock_width], Qt.Orientation.Horizontal)
    dock.panel.composer.set_models(
        [("gpt", "gpt-4.1-mini (OpenAI)"), ("llama", "llama3.1 (Ollama)")]
    )
    return window, dock


def seed_sessions(backend: ScriptedBackend) -> None:
    """A few sessions for the sidebar."""
    backend.add_session("Pinned: lab checklist", pinned=True, age=timedelta(days=9))
    backend.add_session("Why is R3 not reachable?", age=timedelta(hours=3))
    backend.add_session("Build a 3-router OSPF lab", age=timedelta(days=2))


async def grab(window: QMainWindow, name: str, out: Path) -> None:
    """Let pending paints and layouts happen, then save the window."""
    await asyncio.sleep(0.15)
    path = out / f"{name}.png"
    window.grab().save(str(path))
    print(path)


async def shoot_empty(out: Path) -> None:
    backend = ScriptedBackend()
    window, dock = make_window(backend, 1000)
    dock.panel.composer.set_models(
        [("gpt", "gpt-4.1-mini (OpenAI)"), ("llama", "llama3.1 (Ollama)")]
    )
    await grab(window, "empty", out)
    window.close()


async def shoot_first_run(out: Path, name: str = "first-run") -> None:
    """The empty chat of a first start: logged in, no model yet, no project."""
    backend = ScriptedBackend()
    window, dock = make_window(backend, 800, 600, 360)
    dock.panel.view.set_checklist(True, False, False)
    dock.panel.composer.set_disabled_reason(
        QApplication.translate("Screenshots", "No model is set up yet."), "settings"
    )
    await grab(window, name, out)
    window.close()


async def shoot_streaming(
    out: Path,
    name: str = "streaming",
    dock_width: int = 460,
    answer: str = ANSWER,
    question: str = QUESTION,
) -> None:
    backend = ScriptedBackend()
    seed_sessions(backend)
    stall = asyncio.Event()
    half = answer[: answer.index("Neighbor ID") + 30]
    backend.add_turn(
        ChatChunk(
            type="usage",
            usage=TokenUsage(input_tokens=5400, output_tokens=820),
            context_tokens=6200,
            context_window=128000,
        ),
        tool_start("t1", "list_nodes", '{"project_id": "ospf-lab"}', "List the nodes of ospf-lab"),
        tool_end(
            "t1", "list_nodes", "R1 started\nR2 started\nR3 stopped\nSW1 started", duration_ms=240
        ),
        content(half),
        ChatChunk(type="heartbeat", elapsed_s=12.0),
        stall,
        done(),
    )
    window, dock = make_window(backend, dock_width=dock_width)
    await dock.panel.sessions.refresh()
    dock.panel.send(question)
    await wait_until(
        lambda: (
            "Neighbor"
            in (dock.panel.view.current_turn.text if dock.panel.view.current_turn else "")
        )
    )
    await grab(window, name, out)
    dock.panel.stop()
    await wait_until(lambda: not dock.panel.composer.running)
    window.close()


async def shoot_tools(out: Path) -> None:
    backend = ScriptedBackend()
    running = asyncio.Event()
    backend.add_turn(
        tool_start("a", "list_nodes", '{"project_id": "ospf-lab"}', "List the nodes of ospf-lab"),
        tool_end(
            "a",
            "list_nodes",
            "\n".join(f"R{i} started" for i in range(1, 120)),
            duration_ms=310,
            truncated=True,
        ),
        tool_start(
            "b",
            "get_device_config",
            '{"node": "R1", "command": "show running-config"}',
            "Read the configuration of R1",
        ),
        tool_end("b", "get_device_config", "% Connection refused by R1 console", "error", 5020),
        tool_start("c", "start_node", '{"node": "R3"}', "Start R3"),
        running,
        done(),
    )
    window, dock = make_window(backend, 1000)
    dock.panel.send("Check R1 and start R3")
    await wait_until(lambda: dock.panel.view.card("c") is not None)
    card = dock.panel.view.card("b")
    assert card is not None
    card.set_expanded(True)
    await grab(window, "tool-cards", out)
    dock.panel.stop()
    await wait_until(lambda: not dock.panel.composer.running)
    window.close()


def plan_request() -> ApprovalRequest:
    """A plan_lab approval as the real tool makes it: a second LAN added beside an existing one,
    validated and diffed by the core over a project's models (no server needed to draw it)."""
    from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd, Node, Port, Template
    from gns3_copilot_desktop.core.lab_plan.diff import diff_plan
    from gns3_copilot_desktop.core.lab_plan.spec import LabSpec
    from gns3_copilot_desktop.core.lab_plan.validate import validate_plan

    templates = [
        Template(template_id="t-vpcs", name="VPCS", template_type="vpcs"),
        Template(template_id="t-sw", name="Ethernet switch", template_type="ethernet_switch"),
    ]
    sw_ports = [Port(name=f"Ethernet{i}", adapter_number=0, port_number=i) for i in range(8)]
    pc_port = [Port(name="Ethernet0", short_name="e0", adapter_number=0, port_number=0)]
    nodes = [
        Node(node_id="s1", name="SW1", node_type="ethernet_switch", template_id="t-sw",
             x=-60, y=-160, ports=sw_ports),
        Node(node_id="p1", name="PC1", node_type="vpcs", template_id="t-vpcs", x=-260, y=0,
             ports=pc_port),
        Node(node_id="p2", name="PC2", node_type="vpcs", template_id="t-vpcs", x=-60, y=0,
             ports=pc_port),
    ]  # fmt: skip
    links = [
        Link(link_id="l1", nodes=[LinkEnd(node_id="p1", adapter_number=0, port_number=0),
                                  LinkEnd(node_id="s1", adapter_number=0, port_number=1)]),
        Link(link_id="l2", nodes=[LinkEnd(node_id="p2", adapter_number=0, port_number=0),
                                  LinkEnd(node_id="s1", adapter_number=0, port_number=2)]),
    ]  # fmt: skip
    spec = {
        "nodes": [
            {"name": "SW2", "template": "Ethernet switch", "x": 240, "y": -160},
            {"name": "PC3", "template": "VPCS", "x": 140, "y": 0},
            {"name": "PC4", "template": "VPCS", "x": 340, "y": 0},
        ],
        "links": [
            {"a": {"node": "SW1"}, "b": {"node": "SW2"}},
            {"a": {"node": "PC3"}, "b": {"node": "SW2"}, "subnet": "lan2"},
            {"a": {"node": "PC4"}, "b": {"node": "SW2"}, "subnet": "lan2"},
        ],
        "subnets": [{"name": "lan2", "prefix": "198.51.100.0/24"}],
        "addresses": [
            {"node": "PC3", "interface": "e0", "address": "198.51.100.3/24"},
            {"node": "PC4", "interface": "e0", "address": "198.51.100.4/24"},
        ],
    }
    diff = diff_plan(validate_plan(LabSpec.model_validate(spec), templates, nodes, links))
    return ApprovalRequest(
        tool_call_id="plan1",
        tool_name="plan_lab",
        arguments=spec,
        summary=f"plan a lab of {len(spec['nodes'])} nodes and {len(spec['links'])} links",
        risk="change",
        consequence=diff.summary(),
        plan=diff.to_json(),
    )


async def shoot_plan(
    out: Path,
    name: str = "plan-approval",
    width: int = 1000,
    dock_width: int = 460,
    edit: bool = False,
) -> None:
    """The plan's approval card; with `edit`, its tables opened by Edit plan and PC4 renamed
    (the links and addressing follow)."""
    backend = ScriptedBackend()
    backend.add_turn(
        content("Here is the plan for the second LAN: one approval applies it all."),
        approval(plan_request()),
        done(),
    )
    window, dock = make_window(backend, width, 1100, dock_width)
    dock.panel.send("Add a second LAN with a switch and two PCs, linked to SW1")
    await wait_until(
        lambda: dock.panel.view.card("plan1") is not None and not dock.panel.composer.running
    )
    if edit:
        from gns3_copilot_desktop.ui.cards.approval_card import ApprovalItem

        [item] = window.findChildren(ApprovalItem)
        item.edit_plan_button.click()
        assert item.plan_editor is not None
        name_cell = item.plan_editor.nodes.item(2, 0)
        assert name_cell is not None
        name_cell.setText("PC5")
        await asyncio.sleep(0.1)
    dock.panel.view.jump_to_latest()
    await grab(window, name, out)
    window.close()


async def shoot_lab(out: Path, name: str = "lab-card", dock_width: int = 460) -> None:
    """The Lab button's card (the lab read from a stand-in source: the shape a GNS3 project's
    nodes and links give) and a finished plan with its checks and Undo."""
    from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
    from gns3_copilot_desktop.core.protocol import ChatChunk
    from gns3_copilot_desktop.ui.lab.lab_card import TopologyCard

    picture = LabPicture(
        nodes=(
            PictureNode("R1", "dynamips", 0, -200, status="started"),
            PictureNode("R2", "dynamips", -250, 0, status="started"),
            PictureNode("R3", "dynamips", 250, 0, status="stopped"),
            PictureNode("SW1", "ethernet_switch", -250, 200, status="started"),
            PictureNode("PC1", "vpcs", -400, 380, status="started"),
            PictureNode("PC2", "vpcs", -100, 380, status="suspended"),
        ),
        links=(
            PictureLink("R1", "f0/0", "R2", "f0/0", subnet="10.0.12.0/30"),
            PictureLink("R1", "f0/1", "R3", "f0/0", subnet="10.0.13.0/30"),
            PictureLink("R2", "f1/0", "R3", "f1/0", suspended=True),
            PictureLink("R2", "f0/1", "SW1", "Ethernet0"),
            PictureLink("PC1", "Ethernet0", "SW1", "Ethernet1", filtered=True),
            PictureLink("PC2", "Ethernet0", "SW1", "Ethernet2"),
        ),
    )

    async def read() -> LabPicture:
        return picture

    backend = ScriptedBackend()
    window, dock = make_window(backend, 1000, 1100, dock_width)
    card = TopologyCard("ospf-triangle", read)
    dock.panel.view.add_card(card)
    await card.refresh()
    plan = ChatChunk(
        type="tool_end",
        tool_call_id="plan1",
        tool_name="plan_lab",
        tool_output="Applied",
        status="ok",
        duration_ms=18400,
        structured={
            "snapshot_id": "s1",
            "snapshot_name": "before plan 2026-12-03 10:20:00",
            "added_nodes": ["SW2", "PC3", "PC4"],
            "checks": [
                {"check": "PC3 started", "passed": True},
                {"check": "PC4 started", "passed": True},
                {"check": "PC3 pings 198.51.100.4", "passed": True},
                {"check": "PC3 pings 192.0.2.1", "passed": False},
            ],
        },
    )
    dock.panel.view.start_tool(plan.model_copy(update={"type": "tool_start"}))
    dock.panel.view.end_tool(plan)
    dock.panel.view.jump_to_latest()
    await grab(window, name, out)
    window.close()


async def shoot_undo(out: Path, name: str = "undo", dock_width: int = 460) -> None:
    """Finished changes with Undo (one undone, one stopped by what changed since) and a
    configuration push with Restore, then the question the user answers before an undo."""
    from PyQt6.QtWidgets import QMessageBox

    from gns3_copilot_desktop.core.protocol import ChatChunk
    from gns3_copilot_desktop.core.undo.apply import UndoAction, UndoOutcome, UndoPlan
    from gns3_copilot_desktop.core.undo.record import (
        RemoveLink,
        RestoreConfig,
        RestoreNode,
        SavedNode,
        with_undo,
    )
    from gns3_copilot_desktop.ui.cards.undo_view import outcome_text, question_text

    backend = ScriptedBackend()
    window, dock = make_window(backend, 1000, 900, dock_width)
    view = dock.panel.view
    node = SavedNode(node_id="n1", name="SW2", node_type="ethernet_switch", x=-250, y=200)
    cards = [
        ("c1", "delete_nodes", "delete SW2 with its links",
         [RestoreNode(node=node)], "bring back node SW2 (ethernet_switch) at (-250, 200)"),
        ("c2", "create_links", "create link PC1 Ethernet0 <-> SW1 Ethernet3",
         [RemoveLink(link_id="l1", label="PC1 Ethernet0 <-> SW1 Ethernet3")], ""),
        ("c3", "configure_devices", "configure R1: interface Ethernet0/0; ip address 10.0.0.9 "
         "255.255.255.0", [RestoreConfig(node_id="r1", name="R1", read_command="show "
         "running-config", lines=["interface Ethernet0/0", "ip address 10.0.0.1 255.255.255.0"])],
         ""),
    ]  # fmt: skip
    for call_id, tool, summary, steps, state in cards:
        chunk = ChatChunk(
            type="tool_end",
            tool_call_id=call_id,
            tool_name=tool,
            tool_output="done",
            status="ok",
            duration_ms=1200,
            structured=with_undo({}, tool, steps),
        )
        view.start_tool(chunk.model_copy(update={"type": "tool_start", "content": summary}))
        card = view.end_tool(chunk)
        if state and card.change_undo is not None:
            card.change_undo.set_result(outcome_text(UndoOutcome(done=[state])), done=True)
    view.jump_to_latest()
    await grab(window, name, out)

    async def nothing() -> None:
        return None

    plan = UndoPlan(
        [
            UndoAction("push back 2 line(s) to R1", nothing,
                       ("interface Ethernet0/0", "no ip address 10.0.0.9 255.255.255.0",
                        "ip address 10.0.0.1 255.255.255.0")),
            UndoAction("bring back link PC1 Ethernet0 <-> SW1 Ethernet1", nothing),
        ],
        ["PC2 Ethernet0 <-> SW1 Ethernet2: SW1 Ethernet2 is in use"],
    )  # fmt: skip
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        QCoreApplication.translate("CopilotHeader", "Undo this change"),
        question_text(plan),
        QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel,
        window,
    )
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.show()
    await asyncio.sleep(0.15)
    box.grab().save(str(out / f"{name}-question.png"))
    print(out / f"{name}-question.png")
    box.close()
    window.close()


def approval_requests() -> list[ApprovalRequest]:
    """A batch as the real tools ask it: a creation, a configuration push, a deletion."""
    from gns3_copilot_desktop.core.agent.tools.change_tools import (
        CreateNodesArgs,
        DeleteNodesArgs,
    )
    from gns3_copilot_desktop.core.agent.tools.device_tools import ConfigureDevicesArgs

    push = {
        "devices": [
            {
                "node": "R4",
                "lines": [
                    "interface GigabitEthernet0/0",
                    " ip address 10.0.14.4 255.255.255.0",
                    " no shutdown",
                    "router ospf 1",
                    " network 10.0.14.0 0.0.0.255 area 0",
                ],
            },
            {"node": "R1", "lines": ["router ospf 1", " network 10.0.14.0 0.0.0.255 area 0"]},
        ],
        "timeout_s": 30,
        "credential": None,
    }
    return [
        ApprovalRequest(
            tool_call_id="n1",
            tool_name="create_nodes",
            arguments={"nodes": [{"template": "c7200", "name": "R4", "x": None, "y": None}]},
            summary="create node R4 (c7200)",
            risk="change",
            arguments_schema=CreateNodesArgs.model_json_schema(),
        ),
        ApprovalRequest(
            tool_call_id="n2",
            tool_name="configure_devices",
            arguments=push,
            summary="configure R4: interface GigabitEthernet0/0; ... (+2 lines) | R1: router ...",
            risk="device-config",
            arguments_schema=ConfigureDevicesArgs.model_json_schema(),
            destructive=True,
            consequence="R4: 5 new line(s), 0 already there; R1: 1 new line(s), 1 already there",
            diff=(
                "== R4 (show running-config) ==\n+ interface GigabitEthernet0/0\n"
                "+  ip address 10.0.14.4 255.255.255.0\n+  no shutdown\n+ router ospf 1\n"
                "+  network 10.0.14.0 0.0.0.255 area 0\n== R1 (show running-config) ==\n"
                "  router ospf 1\n+  network 10.0.14.0 0.0.0.255 area 0"
            ),
        ),
        ApprovalRequest(
            tool_call_id="n3",
            tool_name="delete_nodes",
            arguments={"nodes": ["R3"]},
            summary="delete R3 with its links",
            risk="change",
            arguments_schema=DeleteNodesArgs.model_json_schema(),
            destructive=True,
            consequence="R3 goes with its 2 links:\n  R3 e0/0 <-> SW1 Ethernet0\n"
            "  R3 e0/1 <-> R2 e0/0\nR3 is running now",
        ),
    ]


async def shoot_approval(
    out: Path, name: str = "approval", width: int = 1000, dock_width: int = 460
) -> None:
    backend = ScriptedBackend()
    backend.add_turn(
        content("I will add **R4**, enable OSPF on it and remove R3."),
        approval(*approval_requests()),
        done(),
    )
    window, dock = make_window(backend, width, 1100, dock_width)
    dock.panel.send("Replace R3 by a fourth router running OSPF")
    await wait_until(
        lambda: dock.panel.view.card("n3") is not None and not dock.panel.composer.running
    )
    dock.panel.view.jump_to_latest()
    await grab(window, name, out)
    window.close()


async def shoot_error(out: Path) -> None:
    backend = ScriptedBackend()
    backend.add_turn(
        content("To bring R3 into area 0 you need to:\n\n1. Start R3\n2. Configure the int"),
        error(
            "The model provider did not answer within 60 s (timeout at api.example.test). "
            "Your message and the partial answer are kept."
        ),
        done(),
    )
    window, dock = make_window(backend, 1000)
    dock.panel.send("How do I add R3 to area 0?")
    await wait_until(lambda: not dock.panel.composer.running and backend.streams_closed == 1)
    await grab(window, "error", out)
    window.close()


async def shoot_error_actions(out: Path, name: str = "error-actions") -> None:
    """One banner of each kind with its action: the model settings, the login, Retry."""
    backend = ScriptedBackend()
    backend.add_turn(
        error(
            "The model provider rejected the API key (Incorrect API key provided). Check the "
            "key in the model settings.",
            "auth",
        ),
        done(),
    )
    backend.add_turn(
        content("Reading the topology of the lab"),
        error(
            "The authentication with http://127.0.0.1:3080 expired or is invalid (Could not "
            "validate credentials). Please log in again.",
            "gns3_auth",
        ),
        done(),
    )
    backend.add_turn(
        error(
            "Could not reach the model provider (connection refused). Check the base URL and "
            "the network.",
            "provider",
        ),
        done(),
    )
    window, dock = make_window(backend, 1000, dock_width=460)
    for number, question in enumerate(("Hello", "Show me the lab", "Start R1"), start=1):
        dock.panel.send(question)
        await wait_until(
            lambda n=number: not dock.panel.composer.running and backend.streams_closed == n
        )
    dock.panel.view.jump_to_latest()
    await grab(window, name, out)
    window.close()


async def shoot_history(
    out: Path, name: str, width: int, dock_width: int, answer: str = ANSWER
) -> None:
    backend = ScriptedBackend()
    seed_sessions(backend)
    entry = backend.add_session(
        "OSPF lab walkthrough",
        [
            UserTurn("Build a 3-router OSPF lab"),
            ToolRecord(
                "h1", "create_node", {"name": "R1"}, "Create router R1", "created R1", "ok", 820
            ),
            ToolRecord(
                "h2", "create_node", {"name": "R2"}, "Create router R2", "created R2", "ok", 790
            ),
            ToolRecord(
                "h3",
                "create_link",
                {"a": "R1 f0/0", "b": "R2 f0/0"},
                "Link R1 f0/0 to R2 f0/0",
                "",
                "rejected",
            ),
            AssistantTurn(answer),
            UserTurn("Thanks! Now what is the OSPF state?"),
        ],
    )
    window, dock = make_window(backend, width, dock_width=dock_width)
    await dock.panel.start()
    await dock.panel.open_session(entry.session_id)
    dock.panel.status.add_usage(TokenUsage(input_tokens=18200, output_tokens=2400), 9100, 32768)
    await grab(window, name, out)
    window.close()


async def shoot_practice(out: Path, stage: str, name: str = "") -> None:
    """A Practice session with an exercise: prepared, with the trainer's export (``trainer``),
    running (``active``), after a failed check and a hint (``checks``), or solved with its score
    (``score``). The engine is a scripted stand-in (`PracticeStandIn`): no lab is touched."""
    backend = ScriptedBackend()
    seed_sessions(backend)
    engine = PracticeStandIn(started_ago=timedelta(minutes=4, seconds=12))
    backend.practice_engine = engine
    window, dock = make_window(backend, 1000, 820, 500)
    panel = dock.panel
    await panel.start()
    entry = await backend.create_session("practice")
    await backend.rename_session(entry.session_id, "Broken LAN exercise")
    await panel.sessions.refresh()
    await panel.open_session(entry.session_id)
    practice = panel.practice
    await wait_until(lambda: practice.topic_combo.count() > 1)
    practice.start_button.click()
    await wait_until(lambda: practice._card is not None)
    card = practice._card
    assert card is not None
    if stage == "trainer":
        await grab(window, name or "practice-trainer", out)
        window.close()
        return
    card.items[0].approve.click()
    await wait_until(lambda: practice.active_row.isVisible() and practice.check_button.isEnabled())
    if stage in ("checks", "score"):
        practice.check_button.click()
        await wait_until(lambda: practice.checks_label.isVisible())
        await wait_until(practice.hint_button.isEnabled)
        practice.hint_button.click()
        await wait_until(lambda: practice.hints_label.isVisible())
    if stage == "score":
        await wait_until(practice.check_button.isEnabled)
        practice.check_button.click()
        await wait_until(lambda: practice.answer_label.isVisible())
        await wait_until(lambda: practice.past_list.count() == 1)
        practice.past_toggle.click()
    await grab(window, f"practice-{stage}", out)
    window.close()


@contextmanager
def chinese() -> Iterator[None]:
    """The shipped Simplified Chinese translation installed while the block runs."""
    app = QApplication.instance()
    assert app is not None
    translator = QTranslator()
    if not translator.load(str(resource_path("translations", "gns3_copilot_zh_CN.qm"))):
        raise RuntimeError("the zh_CN translation did not load")
    app.installTranslator(translator)
    try:
        yield
    finally:
        app.removeTranslator(translator)


async def shoot_plan_edit_chinese(out: Path) -> None:
    """Edit plan at 360 px in Simplified Chinese."""
    with chinese():
        await shoot_plan(out, "zh-CN-plan-edit", 800, 360, edit=True)


async def shoot_chinese(out: Path) -> None:
    """The dock with the shipped Simplified Chinese translation (and a Chinese conversation)."""
    with chinese():
        await shoot_streaming(out, "zh-CN-streaming", 460, ANSWER_ZH, QUESTION_ZH)
        await shoot_history(out, "zh-CN-wide-sessions", 1400, 900, ANSWER_ZH)
        await shoot_approval(out, "zh-CN-approval-narrow", 800, 360)
        await shoot_first_run(out, "zh-CN-first-run")
        await shoot_error_actions(out, "zh-CN-error-actions")
        await shoot_plan(out, "zh-CN-plan-narrow", 800, 360)
        await shoot_lab(out, "zh-CN-lab-card", 360)
        await shoot_undo(out, "zh-CN-undo", 460)
        await shoot_practice(out, "trainer", "zh-CN-practice-trainer")


async def main(out: Path, only: str | None = None) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    app.setStyle("Fusion")
    app.setPalette(light_palette())
    shots: list[tuple[str, Callable[[], object]]] = [
        ("empty", lambda: shoot_empty(out)),
        ("first-run", lambda: shoot_first_run(out)),
        ("streaming", lambda: shoot_streaming(out)),
        ("tool-cards", lambda: shoot_tools(out)),
        ("approval", lambda: shoot_approval(out)),
        ("approval-narrow", lambda: shoot_approval(out, "approval-narrow", 800, 360)),
        ("error", lambda: shoot_error(out)),
        ("error-actions", lambda: shoot_error_actions(out)),
        ("plan-approval", lambda: shoot_plan(out)),
        ("plan-narrow", lambda: shoot_plan(out, "plan-narrow", 800, 360)),
        ("plan-edit", lambda: shoot_plan(out, "plan-edit", 800, 360, edit=True)),
        ("lab-card", lambda: shoot_lab(out)),
        ("lab-card-narrow", lambda: shoot_lab(out, "lab-card-narrow", 360)),
        ("undo", lambda: shoot_undo(out)),
        ("undo-narrow", lambda: shoot_undo(out, "undo-narrow", 360)),
        ("narrow-dock", lambda: shoot_history(out, "narrow-dock", 800, 360)),
        ("narrow-streaming", lambda: shoot_streaming(out, "narrow-streaming", 360)),
        ("wide-sessions", lambda: shoot_history(out, "wide-sessions", 1400, 900)),
        ("zh-CN", lambda: shoot_chinese(out)),
        ("zh-CN-plan-edit", lambda: shoot_plan_edit_chinese(out)),
        ("practice-trainer", lambda: shoot_practice(out, "trainer")),
        ("practice-active", lambda: shoot_practice(out, "active")),
        ("practice-checks", lambda: shoot_practice(out, "checks")),
        ("practice-score", lambda: shoot_practice(out, "score")),
    ]
    for name, shoot in shots:
        if only is None or name.startswith(only):
            await shoot()  # type: ignore[misc]
    if only is None or only.startswith("dark"):
        app.setPalette(dark_palette())
        await shoot_streaming(out, "dark-streaming")
        await shoot_history(out, "dark-wide-sessions", 1400, 900)
        await shoot_approval(out, "dark-approval")
        await shoot_error_actions(out, "dark-error-actions")
        await shoot_plan(out, "dark-plan-approval")
        await shoot_plan(out, "dark-plan-edit", 800, 360, edit=True)
        await shoot_lab(out, "dark-lab-card")
        await shoot_undo(out, "dark-undo")
    app.setPalette(QPalette())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", nargs="?", type=Path, default=OUT)
    parser.add_argument("--only", help="the states whose name starts with this (e.g. zh-CN)")
    args = parser.parse_args()
    QApplication(sys.argv[:1])
    args.out_dir.mkdir(parents=True, exist_ok=True)
    qasync.run(main(args.out_dir, args.only))
