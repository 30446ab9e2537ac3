"""Through the real tool path: run_device_commands on a real GNS3 node whose console is a real
bash (tests/helpers/bash_console.py). A read runs at once; every known change waits for approval
and a command with control characters is refused as an argument error, and the shell's files are
unchanged in both cases until the user decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.devices.console_data import ConsoleTarget
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from tests.core.devices.test_gate_real_bash import CHANGES, EDITS, _workdir
from tests.helpers.agent import ServiceFactory, collect, types_of
from tests.helpers.bash_console import BashConsole
from tests.helpers.network_copilot import call, open_copilot, tool_end
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


async def test_reads_run_changes_wait_and_line_edits_are_refused(
    gns3_client: Gns3Client,
    gns3_project: Project,
    make_service: ServiceFactory,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
) -> None:
    shell = BashConsole(_workdir(tmp_path))
    await shell.start()
    try:
        pid = gns3_project.project_id
        await gns3_client.create_node(pid, "Linux1", "vpcs")
        access = DeviceAccess(
            target_for=lambda n, _url: ConsoleTarget(
                n.name, shell.host, shell.port, DeviceKind.LINUX
            )
        )
        cp = await open_copilot(make_service, scripted_openai, gns3_client, pid, access=access)
        read = call("run_device_commands", {"devices": [{"node": "Linux1", "commands": ["ls"]}]})
        chunks = await cp.ask(read)
        end = tool_end(chunks, read.id or "")
        assert end.status == "ok" and "victim.txt" in (end.tool_output or "")
        assert "approval_request" not in types_of(chunks)
        before = shell.fingerprint()  # with the shell's HOME made by the first session

        for command, _changed in CHANGES:
            change = call(
                "run_device_commands", {"devices": [{"node": "Linux1", "commands": [command]}]}
            )
            cp.model.push(ScriptedTurn.tools(change))
            chunks = await collect(cp.service.stream_chat("go", cp.session_id, context=cp.ctx))
            assert "approval_request" in types_of(chunks), command
            assert shell.fingerprint() == before, command
            cp.model.push(ScriptedTurn.text("Not run."))
            await cp.decide(ApprovalDecision(tool_call_id=change.id or "", action="reject"))
            assert shell.fingerprint() == before, command

        for command, _changed in EDITS:
            edit = call(
                "run_device_commands", {"devices": [{"node": "Linux1", "commands": [command]}]}
            )
            chunks = await cp.ask(edit)
            end = tool_end(chunks, edit.id or "")
            assert end.status == "error" and "never sent" in (end.tool_output or ""), command
            assert "approval_request" not in types_of(chunks)
            assert shell.fingerprint() == before, command
    finally:
        await shell.stop()


async def test_obfuscated_changes_are_refused_before_the_card_or_named_on_it(
    gns3_client: Gns3Client,
    gns3_project: Project,
    make_service: ServiceFactory,
    scripted_openai: ScriptedOpenAIServer,
    tmp_path: Path,
) -> None:
    """Commands that hide what they run are refused before any card (the model is told why)
    and the real shell is unchanged; a change the list lets through but that may reboot or hides
    its command is asked in red with what it may do named."""
    from tests.helpers.network_copilot import only_approval

    shell = BashConsole(_workdir(tmp_path))
    await shell.start()
    try:
        pid = gns3_project.project_id
        await gns3_client.create_node(pid, "Linux1", "vpcs")
        access = DeviceAccess(
            target_for=lambda n, _url: ConsoleTarget(
                n.name, shell.host, shell.port, DeviceKind.LINUX
            )
        )
        cp = await open_copilot(make_service, scripted_openai, gns3_client, pid, access=access)
        before = shell.fingerprint()
        for command in ("$(echo touch made.txt)", "t${x}ouch made.txt", "echo touch x | sh",
                        "echo dG91Y2ggeA== | base64 -d | bash", "eval touch made.txt",
                        "f(){ f|f& };f", "echo x > /dev/sda", "!touch made.txt"):  # fmt: skip
            hidden = call(
                "run_device_commands", {"devices": [{"node": "Linux1", "commands": [command]}]}
            )
            chunks = await cp.ask(hidden)
            end = tool_end(chunks, hidden.id or "")
            assert "approval_request" not in types_of(chunks), command
            assert end.status == "error" and "Refused, nothing was sent" in (end.tool_output or "")
            assert shell.fingerprint() == before, command
        assert shell.shells_alive()

        named = call(
            "run_device_commands",
            {"devices": [{"node": "Linux1", "commands": ["python3 -c 'print(7)'", "ls"]}]},
        )
        chunks = await cp.ask(named)
        approval = only_approval(chunks)
        assert approval.destructive
        assert approval.consequence == "Linux1: 'python3 -c 'print(7)'' hides the command it runs"
        cp.model.push(ScriptedTurn.text("Not run."))
        await cp.decide(ApprovalDecision(tool_call_id=named.id or "", action="reject"))
    finally:
        await shell.stop()
