"""The documented deployment, for real: nginx (Debian's package) with the repository's site file
terminating TLS (a test CA) in front of two ``gns3-copilot serve`` replicas on one real
PostgreSQL. A turn and the class's live view stream through it chunk by chunk, a body over the
service's limit is refused by nginx itself, both replicas get requests, and a session goes on
whichever replica answers.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from gns3_copilot_desktop.core.chat_service_client import ChatServiceClient
from gns3_copilot_desktop.core.errors import CopilotServiceError
from gns3_copilot_desktop.service.requests import MAX_BODY_BYTES
from gns3_copilot_desktop.ui.backends.base import UserDecision
from gns3_copilot_desktop.ui.backends.remote import RemoteBackend
from tests.helpers.chat_service import ServeProcess
from tests.helpers.classroom import (
    Account,
    live_events,
    make_account,
    make_group,
    open_exam,
    upload_task,
)
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.nginx import LocalCa, Nginx, client_max_body_size, make_test_ca, start_nginx
from tests.helpers.postgres import PostgresServer
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.service.conftest import User, sse_events

pytestmark = pytest.mark.gns3


@dataclass
class Front:
    nginx: Nginx
    replicas: list[ServeProcess]
    model: ScriptedOpenAIServer
    ca: LocalCa

    def client(self, **kw: Any) -> httpx.Client:
        """An HTTPS client that trusts the test CA (and nothing else)."""
        return httpx.Client(
            base_url=self.nginx.url, verify=ssl.create_default_context(cafile=self.ca.ca_pem), **kw
        )


@pytest.fixture(scope="module")
def front(
    gns3_server: Gns3Server,
    postgres_server: PostgresServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Front]:
    model = ScriptedOpenAIServer().start()
    model.set_title_responder("Proxied session")
    run_dir = tmp_path_factory.mktemp("front")
    ca = make_test_ca(run_dir / "tls")
    replicas: list[ServeProcess] = []
    try:
        for _ in range(2):
            replicas.append(
                ServeProcess(
                    gns3_server.base_url,
                    run_dir,
                    model_base_url=model.base_url,
                    model_api_key=model.client_api_key,
                    database=postgres_server.dsn,
                ).start()
            )
        nginx = start_nginx([f"127.0.0.1:{r.port}" for r in replicas], ca)
        try:
            yield Front(nginx, replicas, model, ca)
        finally:
            nginx.stop()
    finally:
        for replica in replicas:
            replica.stop()
        model.stop()


def test_the_site_files_body_limit_is_the_services() -> None:
    assert client_max_body_size() == MAX_BODY_BYTES


def test_tls_is_refused_without_the_ca(front: Front) -> None:
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        httpx.get(f"{front.nginx.url}/v3/chat/sessions", timeout=10)


def test_a_turn_streams_through_nginx_chunk_by_chunk(
    front: Front, admin: User, project: dict[str, Any]
) -> None:
    pid = project["project_id"]
    front.model.push(ScriptedTurn.stalled("First words", chunks=2, stall_after_chunks=2))
    seen: list[dict[str, Any]] = []
    first_at: list[float] = []
    with (
        front.client(timeout=60) as client,
        client.stream(
            "POST",
            "/v3/chat/stream",
            json={"message": "stream it", "project_id": pid},
            headers=admin.headers,
        ) as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = response.iter_lines()
        for line in lines:
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
                if seen[-1]["type"] == "content":
                    first_at.append(time.monotonic())
                    break
        # the model is stalled: the turn has not ended, yet its first chunk is here
        assert [e["type"] for e in seen].count("done") == 0
        assert seen[-1]["content"]
        released_at = time.monotonic()
        front.model.release_stall()
        rest = sse_events(list(lines))
    assert rest[-1]["type"] == "done"
    assert first_at[0] < released_at


def test_a_body_over_the_limit_gets_413_from_nginx(front: Front, admin: User) -> None:
    body = b'{"message": "' + b"x" * (MAX_BODY_BYTES + 1024) + b'", "project_id": "p"}'
    over, under_mark = f"over-{uuid.uuid4().hex}", f"under-{uuid.uuid4().hex}"
    with front.client(timeout=60) as client:
        refused = client.post(
            "/v3/chat/stream",
            content=body,
            headers={**admin.headers, "Content-Type": "application/json", "X-Test-Mark": over},
        )
        assert refused.status_code == 413
        assert refused.headers["server"].startswith("nginx")  # nginx's page, not the service's
        assert front.nginx.upstream_of(over) == "-"  # no replica saw it
        # just under the limit it reaches a replica, which answers in its own words
        under = b'{"message": "' + b"x" * (MAX_BODY_BYTES - 1024) + b'", "project_id": "p"}'
        passed = client.post(
            "/v3/chat/stream",
            content=under,
            headers={
                **admin.headers,
                "Content-Type": "application/json",
                "X-Test-Mark": under_mark,
            },
        )
    assert passed.status_code == 422 and passed.json()["message"]
    replicas = {f"127.0.0.1:{r.port}" for r in front.replicas}
    assert front.nginx.upstream_of(under_mark) in replicas


def test_both_replicas_answer_and_a_session_goes_on_through_either(
    front: Front, admin: User, student: User, shared_project: dict[str, Any]
) -> None:
    pid = shared_project["project_id"]
    marks: list[str] = []

    def marked(headers: dict[str, str]) -> dict[str, str]:
        marks.append(uuid.uuid4().hex)
        return {**headers, "X-Test-Mark": marks[-1]}

    with front.client(timeout=60) as client:
        front.model.push(ScriptedTurn.text("One.", chunks=2))
        first = client.post(
            "/v3/chat/stream",
            json={"message": "1", "project_id": pid},
            headers=marked(admin.headers),
        )
        sid = sse_events(first.text.split("\n"))[0]["session_id"]
        for n in range(6):
            front.model.push(ScriptedTurn.text(f"Reply {n}.", chunks=2))
            answer = client.post(
                "/v3/chat/stream",
                json={"message": f"m{n}", "project_id": pid, "session_id": sid},
                headers=marked(admin.headers),
            )
            events = sse_events(answer.text.split("\n"))
            assert answer.status_code == 200 and events[-1]["type"] == "done", answer.text
            assert "error" not in [e["type"] for e in events], answer.text
            listed = client.get(
                "/v3/chat/sessions", params={"project_id": pid}, headers=marked(admin.headers)
            )
            assert sid in {s["id"] for s in listed.json()}
            theirs = client.get(
                "/v3/chat/sessions", params={"project_id": pid}, headers=student.headers
            )
            assert sid not in {s["id"] for s in theirs.json()}
        history = client.get(
            f"/v3/chat/history/{sid}", params={"project_id": pid}, headers=admin.headers
        ).json()
    users = [m["content"] for m in history["messages"] if m["role"] == "user"]
    assert users == ["1", *[f"m{n}" for n in range(6)]]
    used = {front.nginx.upstream_of(mark) for mark in marks}
    assert {f"127.0.0.1:{r.port}" for r in front.replicas} == used


def test_a_stream_through_nginx_survives_the_other_replica_going(
    front: Front, admin: User, project: dict[str, Any]
) -> None:
    """A turn on one replica is not disturbed when the other stops; new requests go to the one
    left."""
    pid = project["project_id"]
    front.model.push(ScriptedTurn.stalled("Holding", chunks=2, stall_after_chunks=2))
    got: list[dict[str, Any]] = []
    done = threading.Event()

    def read() -> None:
        with front.client(timeout=60) as client, client.stream(
            "POST", "/v3/chat/stream", json={"message": "hold", "project_id": pid},
            headers=admin.headers,
        ) as response:  # fmt: skip
            for line in response.iter_lines():
                if line.startswith("data: "):
                    got.append(json.loads(line[6:]))
        done.set()

    def streams(replica: ServeProcess) -> int:  # uvicorn logs a request as its answer starts
        return replica.output().count('"POST /v3/chat/stream HTTP/1.1" 200')

    before = [streams(r) for r in front.replicas]
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 30
    while not got:
        assert time.monotonic() < deadline, "no first chunk"
        time.sleep(0.05)
    serving = [r for r, n in zip(front.replicas, before, strict=True) if streams(r) > n]
    assert len(serving) == 1
    other = next(r for r in front.replicas if r is not serving[0])
    other.stop()
    try:
        front.model.release_stall()
        assert done.wait(30)
        assert got[-1]["type"] == "done"
        with front.client(timeout=30) as client:
            for _ in range(3):
                listed = client.get(
                    "/v3/chat/sessions", params={"project_id": pid}, headers=admin.headers
                )
                assert listed.status_code == 200
    finally:
        other.start()


# --- the dock as a client of the deployment --------------------------------------------------


@pytest.mark.asyncio
async def test_the_dock_trusts_the_https_service_through_its_ca_file(
    front: Front, admin: User, project: dict[str, Any]
) -> None:
    pid = project["project_id"]
    trusted = ChatServiceClient(front.nginx.url, lambda: admin.token, ca_file=str(front.ca.ca_pem))
    try:
        assert isinstance(await trusted.list_sessions(pid), list)
    finally:
        await trusted.aclose()
    # the system's trusted certificates do not include the test CA: refused, and said so
    system = ChatServiceClient(front.nginx.url, lambda: admin.token)
    try:
        with pytest.raises(CopilotServiceError, match="CERTIFICATE_VERIFY_FAILED"):
            await system.list_sessions(pid)
    finally:
        await system.aclose()


@pytest.mark.asyncio
async def test_always_allow_from_the_dock_is_honoured_by_the_service(
    front: Front, admin: User, project: dict[str, Any], gns3_server: Gns3Server
) -> None:
    pid = project["project_id"]
    client = ChatServiceClient(front.nginx.url, lambda: admin.token, ca_file=str(front.ca.ca_pem))
    remote = RemoteBackend(client, pid)
    try:
        sid = (await remote.create_session()).session_id
        make = {"nodes": [{"name": "SW-DOCK1", "template": "Ethernet switch"}]}
        front.model.push(ScriptedTurn.tool("create_nodes", make, id="call_d1"))
        chunks = [c async for c in remote.stream_chat("add a switch", sid)]
        asked = next(c for c in chunks if c.type == "approval_request")
        assert asked.approvals is not None
        front.model.push(ScriptedTurn.text("Added."))
        decision = UserDecision(tool_call_id="call_d1", action="approve", always_allow=True)
        after = [c async for c in remote.resume(sid, [decision])]
        assert after[-1].type == "done" and not [c for c in after if c.type == "error"]
        assert await client.grants(pid) == ["create_nodes"]
        again = {"nodes": [{"name": "SW-DOCK2", "template": "Ethernet switch"}]}
        front.model.push(
            ScriptedTurn.tool("create_nodes", again, id="call_d2"), ScriptedTurn.text("Done.")
        )
        chunks = [c async for c in remote.stream_chat("one more", sid)]
        types = [c.type for c in chunks]
        assert "approval_request" not in types and "tool_end" in types
        await client.revoke_grant(pid, "create_nodes")
        assert await client.grants(pid) == []
    finally:
        await client.aclose()
    async with httpx.AsyncClient() as gns3:
        nodes = await gns3.get(
            f"{gns3_server.base_url}/v3/projects/{pid}/nodes", headers=admin.headers
        )
    assert {"SW-DOCK1", "SW-DOCK2"} <= {n["name"] for n in nodes.json()}


def test_the_class_live_view_streams_through_nginx_and_hears_the_other_replica(
    front: Front, gns3_server: Gns3Server, admin: User
) -> None:
    """The trainer's live view of an exam through the site file (unbuffered, like a turn) and
    straight from one replica, while the change is made through the other one: both hear it
    from the exam's version in the shared PostgreSQL."""
    trainer = Account(admin.name, "", admin.token, "")
    base = gns3_server.base_url
    group = make_group(base, trainer, [make_account(base, trainer)])
    first, second = front.replicas
    task = upload_task(first, trainer)  # type: ignore[arg-type]
    eid = open_exam(first, trainer, task["task_id"], group)["exam_id"]  # type: ignore[arg-type]
    path = f"/v3/classroom/exams/{eid}/events"
    tls = ssl.create_default_context(cafile=front.ca.ca_pem)
    with (
        live_events(f"{front.nginx.url}{path}", admin.headers, verify=tls) as proxied,
        live_events(f"{first.url}{path}", admin.headers) as direct,
    ):
        for stream in (proxied, direct):
            assert stream.get(timeout=10)["exam"]["released"] is False
        released = httpx.post(
            f"{second.url}/v3/classroom/exams/{eid}/release", headers=admin.headers
        )
        assert released.status_code == 204, released.text
        for stream in (proxied, direct):
            assert stream.get(timeout=10)["exam"]["released"] is True
