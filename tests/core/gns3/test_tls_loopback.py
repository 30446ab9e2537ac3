"""HTTPS with a self-signed certificate: refused by default, accepted with an explicit CA file.

A minimal TLS HTTP responder on 127.0.0.1 stands in for an HTTPS GNS3 server (it answers only
``GET /v3/version``); the certificate is made with the openssl command line tool.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.errors import Gns3ConnectionError
from gns3_copilot_desktop.core.gns3 import Gns3Client

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def self_signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command line tool is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=gns3-test",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest_asyncio.fixture
async def https_url(self_signed: tuple[Path, Path]) -> AsyncIterator[str]:
    cert, key = self_signed
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readuntil(b"\r\n\r\n")
            body = json.dumps({"version": "3.0.6", "local": False}).encode()
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError, ssl.SSLError):
            pass  # the client refused our certificate: that is the case under test
        finally:
            writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=context)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"https://127.0.0.1:{port}"
    finally:
        server.close()
        await server.wait_closed()


async def test_self_signed_certificate_is_refused_without_a_ca_file(https_url: str) -> None:
    async with Gns3Client(https_url, timeout=5) as client:
        with pytest.raises(Gns3ConnectionError) as info:
            await client.version()
    text = info.value.user_message
    assert text.startswith(f"The TLS connection to {https_url} failed: certificate verify failed")
    assert "self-signed certificate" in text
    assert "CA certificate file" in text


async def test_explicit_ca_file_is_trusted(https_url: str, self_signed: tuple[Path, Path]) -> None:
    async with Gns3Client(https_url, ca_cert=self_signed[0], timeout=5) as client:
        assert (await client.version()).version == "3.0.6"
