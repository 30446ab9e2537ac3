"""A saved console password, of any length, in none of its printed forms reaches the model, the
session database (its -wal included) or an export: a read of a router's running configuration
(type 7, a type 9 hash, a community) and an approved command on a real bash that prints it one
character per line, through the real AgentService with the scripted model. Real GNS3 nodes; the
router console is the telnet lab's IOS test double, the Linux console a real bash."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.devices.console_data import ConsoleTarget
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.devices.secret_mask import MASK
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from gns3_copilot_desktop.core.sessions.export import export_json, export_markdown
from gns3_copilot_desktop.core.settings import ConsoleLogin
from tests.helpers.agent import ServiceFactory
from tests.helpers.bash_console import BashConsole
from tests.helpers.network_copilot import call, open_copilot
from tests.helpers.scripted_openai import ScriptedOpenAIServer
from tests.helpers.secret_forms import type7, type9
from tests.helpers.telnet_lab import ModeledIosDevice, TelnetLab

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

ENABLE = "en-Secret-99"


@pytest_asyncio.fixture
async def bash(tmp_path: Path) -> AsyncIterator[BashConsole]:
    folder = tmp_path / "bash"
    folder.mkdir()
    server = BashConsole(folder)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def _giveaways(password: str) -> list[str]:
    """Text that shows the password (or a hash to crack it) in each form the devices print."""
    split = "\n".join(["d", "", *password])  # `grep -o .` of "password <it>"
    found = [
        type7(password, 9),
        type7(ENABLE, 3),
        type9(password),
        f"community {password} RO",
        split,
        json.dumps(split)[1:-1],  # as JSON text stores it
        ENABLE,
    ]
    return [*found, password] if len(password) >= 4 else found


def _database_files(folder: Path) -> dict[str, bytes]:
    """The session database's files (-wal and -shm included) and their bytes."""
    return {p.name: p.read_bytes() for p in folder.glob("copilot.db*")}


@pytest.mark.parametrize("password", ["q", "qZ", "qZ7", "Hunt3r-2-lab!x"], ids=len)
async def test_no_form_of_a_saved_password_leaves_the_device_layer(
    password: str,
    telnet_lab: TelnetLab,
    bash: BashConsole,
    gns3_client: Gns3Client,
    gns3_project: Project,
    make_service: ServiceFactory,
    scripted_openai: ScriptedOpenAIServer,
    secret_store: SecretStore,
    tmp_path: Path,
) -> None:
    router = ModeledIosDevice(
        name="R7", password=password, enable_secret=ENABLE, interfaces=1,
        globals_=[
            f"username admin privilege 15 password 7 {type7(password, 9)}",
            f"enable password 7 {type7(ENABLE, 3)}",
            f"enable secret 9 {type9(password)}",
            f"snmp-server community {password} RO",
        ],
    )  # fmt: skip
    running = await telnet_lab.start(router)
    (bash.workdir / "notes").write_text(f"password {password}\n")
    pid = gns3_project.project_id
    vpcs = next(t for t in await gns3_client.list_templates() if t.name == "VPCS")
    for name in ("R7", "L1"):
        node = await gns3_client.create_node_from_template(pid, vpcs.template_id, x=0, y=0)
        await gns3_client.update_node(pid, node.node_id, name=name)
    login = ConsoleLogin(id="login-r7", applies_to="R7", username="admin")
    await secret_store.set_named_credential(login.id, DeviceCredential("admin", password, ENABLE))
    consoles = {
        "R7": ConsoleTarget("R7", running.host, running.port, DeviceKind.IOS),
        "L1": ConsoleTarget("L1", bash.host, bash.port, DeviceKind.LINUX),
    }
    access = DeviceAccess(
        secret_store=secret_store,
        console_logins=lambda: [login],
        target_for=lambda n, _url: consoles[n.name],
    )
    db = tmp_path / "copilot.db"
    cp = await open_copilot(
        make_service, scripted_openai, gns3_client, pid, access=access, db_path=db
    )

    show = call(
        "run_device_commands", {"devices": [{"node": "R7", "commands": ["show running-config"]}]}
    )
    read = await cp.read(show)
    grep = call(
        "run_device_commands", {"devices": [{"node": "L1", "commands": ["grep -o . notes"]}]}
    )
    _, split = await cp.change(grep, "approve")

    assert read.status == "ok" and split.status == "ok", (read.tool_output, split.tool_output)
    assert router.received[:2] == ["admin", password]  # the saved login was used
    seen = cp.last_tool_text(show.id or "")
    assert f"username admin privilege 15 password 7 {MASK}" in seen
    assert f"enable secret 9 {MASK}" in seen and f"snmp-server community {MASK} RO" in seen
    assert MASK in cp.last_tool_text(grep.id or "")  # the lines spelling it out, masked
    info = await cp.service.store.get_session(cp.session_id)
    messages = await cp.service.store.read_transcript(cp.session_id)
    exports = {"json": export_json(info, messages), "md": export_markdown(info, messages)}
    requests = [json.dumps(r.body, ensure_ascii=False) for r in cp.model.chat_requests()]
    await cp.service.close()
    files = _database_files(tmp_path)
    assert "copilot.db" in files

    for giveaway in _giveaways(password):
        assert not [r for r in requests if giveaway in r], giveaway
        assert all(giveaway not in text for text in exports.values()), giveaway
        assert not [n for n, data in files.items() if giveaway.encode() in data], giveaway
