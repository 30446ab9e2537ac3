"""Console logins come from the secret store: the node's own, else a named one the model names."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools.device_tools import DeviceAccess, RunDeviceCommandsTool
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.secrets import DeviceCredential, SecretStore

pytestmark = pytest.mark.asyncio

SERVER = "http://gns3.test:3080"


async def test_node_login_first_then_the_named_one(secret_store: SecretStore) -> None:
    r1 = Node(node_id="n1", name="R1", node_type="dynamips")
    r2 = Node(node_id="n2", name="R2", node_type="dynamips")
    await secret_store.set_node_credential(SERVER, "p", "n1", DeviceCredential("r1-user", "pw-1"))
    await secret_store.set_named_credential("lab routers", DeviceCredential("lab", "pw-lab"))
    tool = RunDeviceCommandsTool(DeviceAccess(secret_store=secret_store))
    async with Gns3Client(SERVER) as client:
        ctx = RunContext(client=client, project_id="p", model=None, server_url=SERVER)  # type: ignore[arg-type]
        own = await tool._credentials(ctx, r1, "lab routers")
        named = await tool._credentials(ctx, r2, "lab routers")
        none = await tool._credentials(ctx, r2, None)
        with pytest.raises(CopilotError, match="No console login is saved under the name 'x'"):
            await tool._credentials(ctx, r2, "x")
    assert own is not None and (own.username, own.password) == ("r1-user", "pw-1")
    assert named is not None and (named.username, named.password) == ("lab", "pw-lab")
    assert none is None
    assert "pw" not in repr(own)  # DeviceCredentials hides its fields


async def test_no_store_means_no_login() -> None:
    tool = RunDeviceCommandsTool()
    async with Gns3Client(SERVER) as client:
        ctx = RunContext(client=client, project_id="p", model=None)  # type: ignore[arg-type]
        node = Node(node_id="n1", name="R1", node_type="dynamips")
        assert await tool._credentials(ctx, node, "lab routers") is None
