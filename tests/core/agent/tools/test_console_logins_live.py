"""Saved console logins from the settings: used by the device tools when a console asks, never in
the chat; whatever a device prints of the secret is scrubbed before the model, the transcript or
the log sees it. Real GNS3 node and approval path; the router console is the telnet lab's
IOS-like test double (real routers cannot run here)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.devices.console_data import ConsoleTarget
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from gns3_copilot_desktop.core.settings import ConsoleLogin
from tests.helpers.agent import ServiceFactory, collect
from tests.helpers.network_copilot import call, open_copilot, tool_end
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.helpers.telnet_lab import IosDevice, TelnetLab

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

PASSWORD = "s3cret-console-pass"
ENABLE = "s3cret-enable-word"


def _files_holding(folder: Path, secret: str) -> list[Path]:
    return [p for p in folder.glob("copilot.db*") if secret.encode() in p.read_bytes()]


@pytest.mark.parametrize("applies_to", ["R7", "template:VPCS"])
async def test_a_saved_login_is_used_and_its_secrets_never_leave_the_device_layer(
    applies_to: str,
    telnet_lab: TelnetLab,
    gns3_client: Gns3Client,
    gns3_project: Project,
    make_service: ServiceFactory,
    scripted_openai: ScriptedOpenAIServer,
    secret_store: SecretStore,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    # the device prints its secrets back (a config listing them)
    device = IosDevice(
        name="R7", password=PASSWORD, enable_secret=ENABLE,
        extra_config=[f"username admin password 0 {PASSWORD}", f"enable password {ENABLE}"],
        interfaces=2,
    )  # fmt: skip
    running = await telnet_lab.start(device)
    pid = gns3_project.project_id
    templates = await gns3_client.list_templates()
    vpcs = next(t for t in templates if t.name == "VPCS")
    node = await gns3_client.create_node_from_template(pid, vpcs.template_id, x=0, y=0)
    await gns3_client.update_node(pid, node.node_id, name="R7")
    login = ConsoleLogin(id="login-lab", applies_to=applies_to, username="admin")
    await secret_store.set_named_credential(login.id, DeviceCredential("admin", PASSWORD, ENABLE))
    access = DeviceAccess(
        secret_store=secret_store,
        console_logins=lambda: [login],
        target_for=lambda n, _url: ConsoleTarget(
            n.name, running.host, running.port, DeviceKind.IOS
        ),
    )
    db = tmp_path / "copilot.db"
    cp = await open_copilot(
        make_service, scripted_openai, gns3_client, pid, access=access, db_path=db
    )
    show = call(
        "run_device_commands", {"devices": [{"node": "R7", "commands": ["show running-config"]}]}
    )
    cp.model.push(ScriptedTurn.tools(show), ScriptedTurn.text("Here is the config."))
    chunks = await collect(
        cp.service.stream_chat("show me R7's config", cp.session_id, context=cp.ctx)
    )

    end = tool_end(chunks, show.id or "")
    assert end.status == "ok", end.tool_output
    assert device.received[:2] == ["admin", PASSWORD]  # the saved login answered the console
    assert "username admin password 0 ********" in (end.tool_output or "")
    await cp.service.close()
    for secret in (PASSWORD, ENABLE):
        assert all(secret not in c.model_dump_json() for c in chunks)
        assert all(secret not in r.all_text() for r in cp.model.chat_requests())
        assert not _files_holding(tmp_path, secret)
        assert secret not in caplog.text
