"""Gns3Client without a network: httpx.MockTransport stands in for the server."""

from __future__ import annotations

import json
import ssl
import time
from collections.abc import Callable

import httpx
import pytest

from gns3_copilot_desktop.core.errors import (
    Gns3AuthError,
    Gns3ConflictError,
    Gns3ConnectionError,
    Gns3Error,
    Gns3NotFoundError,
    Gns3PermissionError,
    Gns3ProtocolError,
    Gns3ValidationError,
)
from gns3_copilot_desktop.core.gns3 import Gns3Client
from tests.helpers.gns3_server import craft_hs256_token

pytestmark = pytest.mark.asyncio

SERVER = "http://gns3.test:3080"
PID = "11111111-1111-4111-8111-111111111111"
NID = "22222222-2222-4222-8222-222222222222"


def _client(handler: Callable[[httpx.Request], httpx.Response], **kwargs: object) -> Gns3Client:
    return Gns3Client(SERVER, transport=httpx.MockTransport(handler), **kwargs)  # type: ignore[arg-type]


def _answer(status: int, body: object) -> Callable[[httpx.Request], httpx.Response]:
    return lambda request: httpx.Response(status, json=body)


def _raise(exc: Exception) -> Callable[[httpx.Request], httpx.Response]:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    return handler


def _valid_token() -> str:
    return craft_hs256_token("secret", "alice", time.time() + 600)


# --- requests ------------------------------------------------------------------------------------


async def test_power_actions_send_an_empty_json_body_and_the_bearer_token() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    token = _valid_token()
    async with _client(handler, token=token) as client:
        await client.start_node(PID, NID)
        await client.reload_all_nodes(PID)
    assert [r.url.path for r in seen] == [
        f"/v3/projects/{PID}/nodes/{NID}/start",
        f"/v3/projects/{PID}/nodes/reload",
    ]
    assert all(json.loads(r.content) == {} for r in seen)
    assert all(r.headers["Authorization"] == f"Bearer {token}" for r in seen)


async def test_ids_cannot_escape_their_path_segment() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    async with _client(handler, token=_valid_token()) as client:
        await client.delete_node(PID, "../../../access/users/x")
    assert seen[0].url.raw_path.decode() == (
        f"/v3/projects/{PID}/nodes/..%2F..%2F..%2Faccess%2Fusers%2Fx"
    )


async def test_login_sends_no_token_and_decodes_expiry() -> None:
    token = craft_hs256_token("secret", "alice", 2_000_000_000)
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"access_token": token, "token_type": "bearer"})

    async with _client(handler, token=_valid_token()) as client:
        auth = await client.authenticate("alice", "pw")
    assert "Authorization" not in seen[0].headers
    assert json.loads(seen[0].content) == {"username": "alice", "password": "pw"}
    assert auth.username == "alice"
    assert auth.expires_at is not None and int(auth.expires_at.timestamp()) == 2_000_000_000


async def test_expired_token_is_refused_before_anything_is_sent() -> None:
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(200, json=[])

    expired = craft_hs256_token("secret", "alice", time.time() - 5)
    async with _client(handler, token=expired) as client:
        with pytest.raises(Gns3AuthError, match="expired or is invalid"):
            await client.list_projects()
    assert calls == []


# --- error answers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "error_type"),
    [
        (403, Gns3PermissionError),
        (404, Gns3NotFoundError),
        (409, Gns3ConflictError),
        (422, Gns3ValidationError),
    ],
)
async def test_status_maps_to_error_with_server_message(
    status: int, error_type: type[Gns3Error]
) -> None:
    async with _client(_answer(status, {"message": "Project ID x doesn't exist"})) as client:
        with pytest.raises(error_type) as info:
            await client.get_project(PID)
    assert info.value.user_message == "Project ID x doesn't exist"
    assert (info.value.status_code, info.value.server) == (status, SERVER)


async def test_401_says_expired_or_invalid_and_names_the_server() -> None:
    async with _client(_answer(401, {"message": "Not authenticated"})) as client:
        with pytest.raises(Gns3AuthError) as info:
            await client.list_projects()
    assert info.value.user_message == (
        f"The authentication with {SERVER} expired or is invalid (Not authenticated). "
        "Please log in again."
    )


async def test_bad_password_keeps_the_server_message() -> None:
    body = {"message": "Authentication was unsuccessful."}
    async with _client(_answer(401, body)) as client:
        with pytest.raises(Gns3AuthError) as info:
            await client.authenticate("alice", "nope")
    assert info.value.user_message == (
        f"{SERVER} refused the login for 'alice': Authentication was unsuccessful."
    )


async def test_422_fastapi_detail_list_is_readable() -> None:
    body = {
        "detail": [
            {"loc": ["body", "name"], "msg": "Field required", "type": "missing"},
            {"loc": ["body", "nodes", 0, "port_number"], "msg": "Input should be a valid integer"},
        ]
    }
    async with _client(_answer(422, body)) as client:
        with pytest.raises(Gns3ValidationError) as info:
            await client.create_project("x")
    assert info.value.user_message == (
        "name: Field required; nodes.0.port_number: Input should be a valid integer"
    )


async def test_422_flattened_into_the_message_is_readable() -> None:
    # GNS3 answers str(RequestValidationError): Python reprs of FastAPI's error list.
    message = (
        "[{'type': 'missing', 'loc': ('body', 'name'), 'msg': 'Field required', "
        "'input': {'auto_close': False}}, {'type': 'int_parsing', 'loc': ('body', 'x'), "
        "'msg': 'Input should be a valid integer, unable to parse string as an integer', "
        "'input': 'a'}]"
    )
    async with _client(_answer(422, {"message": message})) as client:
        with pytest.raises(Gns3ValidationError) as info:
            await client.create_project("x")
    assert info.value.user_message == (
        "name: Field required; "
        "x: Input should be a valid integer, unable to parse string as an integer"
    )


async def test_500_with_plain_text_is_a_gns3_error_with_status() -> None:
    async with _client(lambda r: httpx.Response(500, text="Internal Server Error")) as client:
        with pytest.raises(Gns3Error) as info:
            await client.version()
    assert type(info.value) is Gns3Error
    assert info.value.user_message == (
        f"{SERVER} failed to handle the request (HTTP 500): Internal Server Error"
    )


async def test_unexpected_shapes_are_protocol_errors() -> None:
    async with _client(lambda r: httpx.Response(200, text="<html>proxy</html>")) as client:
        with pytest.raises(Gns3ProtocolError, match="not JSON"):
            await client.version()
    async with _client(_answer(200, {"name": "no id"})) as client:
        with pytest.raises(Gns3ProtocolError, match="does not understand"):
            await client.get_project(PID)


# --- transport failures --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (
            httpx.ConnectError("[Errno 111] Connection refused"),
            f"{SERVER} refused the connection: is the GNS3 server running and listening on that "
            "address and port?",
        ),
        (
            httpx.ConnectError("[Errno -2] Name or service not known"),
            f"The host name of {SERVER} could not be resolved (DNS): check the address.",
        ),
        (
            httpx.ConnectTimeout("timed out"),
            f"Could not connect to {SERVER}: no answer within 15 s (timed out).",
        ),
        (httpx.ReadTimeout("timed out"), f"{SERVER} did not answer within 15 s (timed out)."),
        (
            httpx.RemoteProtocolError("Server disconnected without sending a response."),
            f"The connection to {SERVER} broke off: "
            "Server disconnected without sending a response.",
        ),
    ],
)
async def test_transport_failures_name_the_server(exc: Exception, expected: str) -> None:
    async with _client(_raise(exc)) as client:
        with pytest.raises(Gns3ConnectionError) as info:
            await client.version()
    assert info.value.user_message == expected
    assert info.value.__cause__ is exc


async def test_tls_failure_explains_the_ca_certificate_setting() -> None:
    try:
        raise ssl.SSLCertVerificationError(
            1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate"
        )
    except ssl.SSLError as tls:
        try:
            raise httpx.ConnectError(str(tls)) from tls
        except httpx.ConnectError as wrapped:
            failure = wrapped
    async with _client(_raise(failure)) as client:
        with pytest.raises(Gns3ConnectionError) as info:
            await client.version()
    text = info.value.user_message
    assert text.startswith(f"The TLS connection to {SERVER} failed: ")
    assert "self-signed certificate" in text
    assert "CA certificate file in the server settings" in text


async def test_a_closed_client_says_so_and_sends_nothing() -> None:
    """Something that kept a client past a logout (a Lab card's timer) gets a `Gns3Error` it
    handles, not httpx's RuntimeError escaping into the Qt loop (a fresh-clone run found one)."""
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json=[])

    client = _client(handler, token=_valid_token())
    assert await client.list_nodes(PID) == []
    await client.aclose()
    with pytest.raises(Gns3ConnectionError, match="was closed"):
        await client.list_nodes(PID)
    assert len(sent) == 1
