"""`start_local_server` with the real ``gns3server`` 3.0.6 binary on a free loopback port.

The server's venv bin dir goes first on PATH (as an installed GNS3 would be found), and HOME/XDG_*
point into tmp_path so the server writes nothing into the real home.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import httpx
import pytest

from gns3_copilot_desktop.core.errors import Gns3ConnectionError
from gns3_copilot_desktop.core.local_server import loopback_address, start_local_server
from tests.helpers.gns3_server import free_port
from tests.helpers.local_server import local_server_env


@pytest.mark.gns3
@pytest.mark.asyncio
async def test_start_answers_and_stop_ends_the_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    home = local_server_env(monkeypatch, tmp_path)
    port = free_port()
    server = await start_local_server(f"http://localhost:{port}", log_dir=tmp_path / "logs")
    try:
        assert server.url == f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(trust_env=False) as client:
            response = await client.get(f"{server.url}/v3/version", timeout=5.0)
        assert response.status_code == 200
        assert response.json()["local"] is True  # started with --local, as the GNS3 GUI does
        assert any(home.rglob("gns3_server.conf")) or any(home.rglob("*.db"))
    finally:
        await server.stop()
    assert not server.running
    assert server.process.returncode is not None
    with pytest.raises(ProcessLookupError):
        os.kill(server.pid, 0)  # reaped: the PID is gone


@pytest.mark.parametrize(
    "url", ["http://192.0.2.10:3080", "http://gns3.example:3080", "https://127.0.0.1:3080"]
)
@pytest.mark.asyncio
async def test_only_a_plain_loopback_url_is_accepted(
    url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    local_server_env(monkeypatch, tmp_path)
    with pytest.raises(Gns3ConnectionError) as raised:
        await start_local_server(url, log_dir=tmp_path / "logs")
    assert url in raised.value.user_message
    assert not (tmp_path / "logs").exists()  # refused before anything was started


def test_loopback_addresses() -> None:
    assert loopback_address("http://127.0.0.1:3080") == ("127.0.0.1", 3080)
    assert loopback_address("http://localhost") == ("127.0.0.1", 3080)
    assert loopback_address("127.0.0.2:4000") == ("127.0.0.2", 4000)


@pytest.mark.asyncio
async def test_missing_executable_is_a_clear_error(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    with pytest.raises(Gns3ConnectionError, match="No gns3server"):
        await start_local_server(f"http://127.0.0.1:{free_port()}", log_dir=tmp_path, env=env)


@pytest.mark.asyncio
async def test_a_server_that_exits_fails_fast_with_its_output(tmp_path: Path) -> None:
    fake = tmp_path / "bin" / "gns3server"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'port already in use' >&2\nexit 3\n")
    fake.chmod(0o755)
    env = {"PATH": str(fake.parent), "HOME": str(tmp_path)}
    started = asyncio.get_running_loop().time()
    with pytest.raises(Gns3ConnectionError) as raised:
        await start_local_server(f"http://127.0.0.1:{free_port()}", log_dir=tmp_path, env=env)
    assert asyncio.get_running_loop().time() - started < 10
    assert "exit code 3" in raised.value.user_message
    assert "port already in use" in raised.value.user_message
