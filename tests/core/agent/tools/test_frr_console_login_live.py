"""A console login saved in the settings logs the device tools into a REAL FRR router's vtysh.

The login is saved the way the Settings' Console logins tab saves it: a `ConsoleLogin` for
``template:FRR router`` in the settings and its password in the secret store. The model asks for a
read on node R1 of the session's router (``frr_router``); the tool finds the login by the node's
template, answers the real ``login:``/``Password:`` of the serial console and runs the command in
vtysh. The password never reaches the model.
"""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore
from gns3_copilot_desktop.core.settings import ConsoleLogin
from tests.helpers.agent import ServiceFactory, collect
from tests.helpers.frr_router import (
    ROUTER_PASSWORD,
    ROUTER_USER,
    TEMPLATE_NAME,
    FrrRouter,
    log_out,
    logged_in_client,
)
from tests.helpers.network_copilot import call, open_copilot, tool_end
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]


async def test_the_saved_template_login_reaches_vtysh_on_the_real_router(
    frr_router: FrrRouter,
    make_service: ServiceFactory,
    scripted_openai: ScriptedOpenAIServer,
    secret_store: SecretStore,
) -> None:
    await log_out(frr_router)  # the console asks for the login again
    login = ConsoleLogin(id="frr-lab", applies_to=f"template:{TEMPLATE_NAME}", username=ROUTER_USER)
    await secret_store.set_named_credential(
        login.id, DeviceCredential(ROUTER_USER, ROUTER_PASSWORD, "")
    )
    access = DeviceAccess(secret_store=secret_store, console_logins=lambda: [login])
    async with await logged_in_client(frr_router.lab) as client:
        cp = await open_copilot(
            make_service, scripted_openai, client, frr_router.project_id, access=access
        )
        show = call(
            "run_device_commands", {"devices": [{"node": "R1", "commands": ["show version"]}]}
        )
        cp.model.push(ScriptedTurn.tools(show), ScriptedTurn.text("R1 runs FRR."))
        chunks = await collect(
            cp.service.stream_chat("what does R1 run?", cp.session_id, context=cp.ctx)
        )
        await cp.service.close()
    end = tool_end(chunks, show.id or "")
    assert end.status == "ok", end.tool_output
    assert "FRRouting 8.4" in (end.tool_output or ""), end.tool_output
    assert all(ROUTER_PASSWORD not in r.all_text() for r in cp.model.chat_requests())
