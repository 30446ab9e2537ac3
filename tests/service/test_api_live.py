"""`gns3-copilot serve` as a client meets it: the real command in a subprocess, the real GNS3
server, the scripted model; every route over loopback with httpx and an SSE parser, and once with
plain ``curl -N``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.gns3_server import Gns3Server, free_port
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.service.conftest import User, sse_events

pytestmark = pytest.mark.gns3

START_TIMEOUT_S = 30.0


@dataclass
class Service:
    url: str
    data_dir: Path
    output_path: Path
    model: ScriptedOpenAIServer
    stores: list[Path]
    """Where else the service's data lives (PostgreSQL's data folder)."""

    def output(self) -> str:
        return self.output_path.read_text(errors="replace")


def _wait(condition: Any, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def service(
    request: pytest.FixtureRequest,
    gns3_server: Gns3Server,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Service]:
    """The service as a user starts it: SQLite files, or a real PostgreSQL (the same suite)."""
    database = ["--database", "sqlite"]
    stores: list[Path] = []
    if request.param == "postgres":
        pg = request.getfixturevalue("postgres_server")
        database = ["--database", pg.dsn]
        stores = [pg.data]
    model = ScriptedOpenAIServer().start()
    model.set_title_responder("Service session")
    run_dir = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_COPILOT"))}
    env.update(
        HOME=str(run_dir / "home"),
        OPENAI_API_KEY=model.client_api_key,
        OPENAI_BASE_URL=model.base_url,
        NO_PROXY="127.0.0.1,localhost",
    )
    output_path = run_dir / "output.log"
    with output_path.open("wb") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gns3_copilot_desktop",
                "serve",
                "--gns3-server",
                gns3_server.base_url,
                "--port",
                str(port),
                "--data-dir",
                str(run_dir / "data"),
                "--model",
                "openai:gpt-4o-mini",
                *database,
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            httpx.get(f"{url}/v3/chat/sessions", timeout=1)
            break
        except httpx.HTTPError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"serve did not start:\n{output_path.read_text()}") from None
            time.sleep(0.1)
    try:
        yield Service(url, run_dir / "data", output_path, model, stores)
    finally:
        process.terminate()
        process.wait(15)
        model.stop()


@dataclass
class Streamed:
    status: int
    content_type: str
    raw: bytes
    events: list[dict[str, Any]]


def _stream(service: Service, user: User, body: dict[str, Any]) -> Streamed:
    with httpx.stream(
        "POST", f"{service.url}/v3/chat/stream", json=body, headers=user.headers, timeout=60
    ) as response:
        raw = b"".join(response.iter_bytes())
    events = sse_events(raw.decode().split("\n")) if response.status_code == 200 else []
    return Streamed(response.status_code, response.headers["content-type"], raw, events)


def test_a_turn_streams_the_designs_chunks_and_creates_the_session(
    service: Service, admin: User, project: dict[str, Any]
) -> None:
    service.model.push(
        ScriptedTurn.tool("get_topology", {}, id="call_topo"),
        ScriptedTurn.text("Le projet est vide — 空的项目.", chunks=3),
    )
    body = {"message": "What is in my lab?", "project_id": project["project_id"]}
    response = _stream(service, admin, body)
    events = response.events
    assert response.status == 200
    assert response.content_type.startswith("text/event-stream")
    types = [e["type"] for e in events]
    assert types[-1] == "done" and "error" not in types
    assert types.index("tool_call") < types.index("tool_start") < types.index("tool_end")
    session_id = events[0]["session_id"]
    assert all(e["session_id"] == session_id for e in events)
    # the design's field names, unset fields left out
    call = next(e for e in events if e["type"] == "tool_call")
    assert call["tool_call"]["type"] == "function"
    assert call["tool_call"]["function"]["name"] == "get_topology"
    assert set(call["tool_call"]) >= {"id", "type", "function"}
    end = next(e for e in events if e["type"] == "tool_end")
    assert end["tool_name"] == "get_topology" and "tool_output" in end and end["status"] == "ok"
    assert all(v is not None for e in events for v in e.values())
    assert "".join(e.get("content", "") for e in events if e["type"] == "content") == (
        "Le projet est vide — 空的项目."
    )
    # non-ASCII is kept as it is on the wire
    assert "空".encode() in response.raw and b"\\u" not in response.raw

    history = httpx.get(
        f"{service.url}/v3/chat/history/{session_id}",
        params={"project_id": project["project_id"]},
        headers=admin.headers,
    ).json()
    assert [m["role"] for m in history["messages"]] == ["user", "assistant", "tool", "assistant"]
    listed = httpx.get(
        f"{service.url}/v3/chat/sessions",
        params={"project_id": project["project_id"]},
        headers=admin.headers,
    ).json()
    assert session_id in {s["id"] for s in listed}


def test_curl_reads_the_stream_as_it_comes(
    service: Service, admin: User, project: dict[str, Any]
) -> None:
    curl = shutil.which("curl")
    if curl is None:
        pytest.skip("curl is not installed")
    service.model.push(ScriptedTurn.text("Hello from the service.", chunks=4))
    body = json.dumps({"message": "hi", "project_id": project["project_id"]})
    out = subprocess.run(
        [
            curl,
            "-sN",
            "-X",
            "POST",
            f"{service.url}/v3/chat/stream",
            "-H",
            f"Authorization: Bearer {admin.token}",
            "-H",
            "Content-Type: application/json",
            "--data",
            body,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    frames = [f for f in out.stdout.split("\n\n") if f]
    assert all(f.startswith("data: {") for f in frames)
    events = [json.loads(f[len("data: ") :]) for f in frames]
    assert events[-1]["type"] == "done"
    assert "".join(e.get("content", "") for e in events) == "Hello from the service."


@pytest.mark.parametrize(
    ("headers", "body", "status"),
    [
        ({}, {"message": "hi", "project_id": "p"}, 401),
        ({"Authorization": "Bearer not-a-token"}, {"message": "hi", "project_id": "p"}, 401),
        (None, {"message": "", "project_id": "p"}, 422),
        (None, {"project_id": "p"}, 422),
        (None, {"message": "hi", "project_id": "p", "unknown": 1}, 422),
        (None, {"message": "hi", "project_id": "00000000-0000-0000-0000-000000000000"}, 404),
    ],
)
def test_errors_have_their_status_and_a_message(
    service: Service, admin: User, headers: dict[str, str] | None, body: dict[str, Any], status: int
) -> None:
    response = httpx.post(
        f"{service.url}/v3/chat/stream",
        json=body,
        headers=admin.headers if headers is None else headers,
    )
    assert response.status_code == status
    assert response.json()["message"]


def test_sessions_belong_to_their_user(
    service: Service, admin: User, student: User, shared_project: dict[str, Any]
) -> None:
    pid = shared_project["project_id"]
    made = httpx.post(
        f"{service.url}/v3/chat/sessions",
        json={"project_id": pid, "title": "Admin's notes"},
        headers=admin.headers,
    )
    assert made.status_code == 201
    sid = made.json()["id"]
    theirs = {"project_id": pid}
    for method, path, kwargs in [
        ("GET", f"/v3/chat/history/{sid}", {"params": theirs}),
        ("DELETE", f"/v3/chat/sessions/{sid}", {"params": theirs}),
        ("PATCH", f"/v3/chat/sessions/{sid}", {"json": {**theirs, "title": "mine now"}}),
        ("GET", f"/v3/chat/sessions/{sid}/approvals", {"params": theirs}),
        (
            "POST",
            "/v3/chat/stream",
            {"json": {"message": "hi", "project_id": pid, "session_id": sid}},
        ),
    ]:
        response = httpx.request(method, service.url + path, headers=student.headers, **kwargs)
        assert response.status_code == 404, (method, path, response.text)
    listed = httpx.get(f"{service.url}/v3/chat/sessions", params=theirs, headers=student.headers)
    assert listed.status_code == 200 and sid not in {s["id"] for s in listed.json()}
    found = httpx.get(
        f"{service.url}/v3/chat/search", params={**theirs, "q": "notes"}, headers=student.headers
    )
    assert found.status_code == 200 and found.json() == []
    # a session of the student's own is the student's
    own = httpx.post(
        f"{service.url}/v3/chat/sessions", json={"project_id": pid}, headers=student.headers
    ).json()
    admin_list = httpx.get(f"{service.url}/v3/chat/sessions", params=theirs, headers=admin.headers)
    assert own["id"] not in {s["id"] for s in admin_list.json()}
    # the owner still has it, untouched
    mine = httpx.get(f"{service.url}/v3/chat/history/{sid}", params=theirs, headers=admin.headers)
    assert mine.status_code == 200
    renamed = httpx.patch(
        f"{service.url}/v3/chat/sessions/{sid}",
        json={**theirs, "title": "Renamed", "pinned": True},
        headers=admin.headers,
    ).json()
    assert renamed["title"] == "Renamed" and renamed["pinned"] is True
    deleted = httpx.delete(
        f"{service.url}/v3/chat/sessions/{sid}", params=theirs, headers=admin.headers
    )
    assert deleted.status_code == 204
    gone = httpx.get(f"{service.url}/v3/chat/history/{sid}", params=theirs, headers=admin.headers)
    assert gone.status_code == 404


SWITCH = {"name": "SW-API", "template": "Ethernet switch"}
REJECT_MAKE = {"tool_call_id": "call_make", "action": "reject", "reason": "not now"}


def test_a_change_waits_for_approval_and_resumes_over_the_api(
    service: Service, admin: User, project: dict[str, Any], gns3_server: Gns3Server
) -> None:
    pid = project["project_id"]
    service.model.push(
        ScriptedTurn.tool(
            "create_nodes",
            {"nodes": [{"name": "SW-API", "template": "Ethernet switch"}]},
            id="call_make",
        ),
    )
    events = _stream(service, admin, {"message": "Add a switch", "project_id": pid}).events
    assert [e["type"] for e in events][-1] == "done"
    request = next(e for e in events if e["type"] == "approval_request")
    sid = events[0]["session_id"]
    pending = httpx.get(
        f"{service.url}/v3/chat/sessions/{sid}/approvals",
        params={"project_id": pid},
        headers=admin.headers,
    ).json()
    assert (
        [p["tool_call_id"] for p in pending]
        == ["call_make"]
        == [a["tool_call_id"] for a in request["approvals"]]
    )
    nodes = httpx.get(f"{gns3_server.base_url}/v3/projects/{pid}/nodes", headers=admin.headers)
    assert "SW-API" not in {n["name"] for n in nodes.json()}  # nothing ran without approval
    service.model.push(ScriptedTurn.text("Rejected, nothing was added."))
    with httpx.stream(
        "POST",
        f"{service.url}/v3/chat/sessions/{sid}/resume",
        json={"project_id": pid, "decisions": [REJECT_MAKE]},
        headers=admin.headers,
        timeout=60,
    ) as resumed:
        after = sse_events(resumed.iter_lines())
    assert after[-1]["type"] == "done"
    end = next(e for e in after if e["type"] == "tool_end")
    assert end["status"] == "rejected"
    nodes = httpx.get(f"{gns3_server.base_url}/v3/projects/{pid}/nodes", headers=admin.headers)
    assert "SW-API" not in {n["name"] for n in nodes.json()}


def test_a_client_that_leaves_stops_its_turn_and_abort_stops_another(
    service: Service, admin: User, project: dict[str, Any]
) -> None:
    pid = project["project_id"]
    service.model.push(ScriptedTurn.stalled("Thinking about it", stall_after_chunks=2))
    before = service.model.disconnects
    with httpx.stream(
        "POST",
        f"{service.url}/v3/chat/stream",
        json={"message": "long one", "project_id": pid},
        headers=admin.headers,
        timeout=30,
    ) as response:
        first = json.loads(
            next(line for line in response.iter_lines() if line.startswith("data: "))[6:]
        )
    # the client is gone: the service stops the turn and closes the model's stream
    _wait(lambda: service.model.disconnects > before, 15, "the model's stream to be closed")
    sid = first["session_id"]
    history = httpx.get(
        f"{service.url}/v3/chat/history/{sid}", params={"project_id": pid}, headers=admin.headers
    )
    assert history.status_code == 200 and history.json()["messages"][0]["content"] == "long one"


def test_the_token_is_never_written(service: Service, admin: User, student: User) -> None:
    # with PostgreSQL the service keeps nothing on its own disk: it is all in the database
    roots = service.stores or [service.data_dir]
    files = [p for root in roots for p in root.rglob("*")]
    assert len(files) > 3
    for path in files:
        if path.is_file():
            raw = path.read_bytes()
            assert admin.token.encode() not in raw and student.token.encode() not in raw, path
    assert admin.token not in service.output() and student.token not in service.output()
    if not service.stores:
        assert oct(service.data_dir.stat().st_mode & 0o777) == "0o700"


DROPS = 20
DROP_TIMEOUT_S = 30.0
DROP_POINTS = ("sent", "status", "event", "content", "two contents")


def _drop_mid_stream(service: Service, user: User, body: dict[str, Any], point: str) -> bytes:
    """POST a stream over a bare socket and close the socket with the turn still running (a
    laptop that sleeps, a browser tab closed): right after sending, after the status line, after
    the first event, after the first or second piece of the answer."""
    payload = json.dumps(body).encode()
    host, port = service.url.removeprefix("http://").split(":")
    head = (
        f"POST /v3/chat/stream HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Authorization: Bearer {user.token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    enough: dict[str, Callable[[bytes], bool]] = {
        "sent": lambda _: True,
        "status": lambda got: b"\r\n\r\n" in got,
        "event": lambda got: b"data: " in got,
        "content": lambda got: got.count(b'"type":"content"') >= 1,
        "two contents": lambda got: got.count(b'"type":"content"') >= 2,
    }
    received = b""
    with socket.create_connection((host, int(port)), timeout=DROP_TIMEOUT_S) as sock:
        sock.sendall(head + payload)
        while not enough[point](received):
            data = sock.recv(65536)
            assert data, f"the stream ended before it was dropped: {received!r}"
            received += data
    return received


def test_dropped_streams_leave_the_project_writable_for_everyone(
    service: Service, admin: User, student: User, shared_project: dict[str, Any]
) -> None:
    """A client that leaves mid-turn, twenty times at different points of the turn (before and
    after a tool ran, before and after the answer began); afterwards both users write."""
    pid = shared_project["project_id"]
    started = time.monotonic()
    for drop in range(DROPS):
        user = admin if drop % 4 < 2 else student
        made = httpx.post(
            f"{service.url}/v3/chat/sessions", json={"project_id": pid}, headers=user.headers
        )
        assert made.status_code == 201, made.text
        sid = made.json()["id"]
        message = f"drop {drop}"

        def this_turn(request: Any, message: str = message) -> bool:
            return any(m.get("content") == message for m in request.messages)

        if drop % 2:
            service.model.push(
                ScriptedTurn.tool("get_topology", {}, id=f"call_drop{drop}", match=this_turn)
            )
        service.model.push(
            ScriptedTurn.stalled(
                "Still thinking about it", chunks=3, stall_after_chunks=3, match=this_turn
            )
        )
        point = DROP_POINTS[drop % len(DROP_POINTS)]
        _drop_mid_stream(
            service, user, {"message": message, "project_id": pid, "session_id": sid}, point
        )
        stopped = httpx.post(
            f"{service.url}/v3/chat/sessions/{sid}/abort",
            params={"project_id": pid},
            headers=user.headers,
            timeout=DROP_TIMEOUT_S,
        )
        assert stopped.status_code == 200, stopped.text
    _wait(lambda: service.model.stalled_count == 0, DROP_TIMEOUT_S, "the dropped turns to stop")
    dropped_s = time.monotonic() - started
    for user in (admin, student):
        made = httpx.post(
            f"{service.url}/v3/chat/sessions",
            json={"project_id": pid, "title": f"{user.name} after the drops"},
            headers=user.headers,
        )
        assert made.status_code == 201, made.text
        sid = made.json()["id"]
        service.model.push(ScriptedTurn.text(f"Answer for {user.name}."))
        streamed = _stream(service, user, {"message": "hi", "project_id": pid, "session_id": sid})
        assert streamed.status == 200
        assert [e["type"] for e in streamed.events][-1] == "done"
        assert not [e for e in streamed.events if e["type"] == "error"], streamed.events
        renamed = httpx.patch(
            f"{service.url}/v3/chat/sessions/{sid}",
            json={"project_id": pid, "title": "Renamed after the drops", "pinned": True},
            headers=user.headers,
        )
        assert renamed.status_code == 200, renamed.text
        history = httpx.get(
            f"{service.url}/v3/chat/history/{sid}", params={"project_id": pid}, headers=user.headers
        ).json()
        assert [m["content"] for m in history["messages"]] == ["hi", f"Answer for {user.name}."]
    print(f"{DROPS} dropped streams in {dropped_s:.1f} s")


def _raw_request(service: Service, user: User, head: str, body: bytes) -> bytes:
    """Send a request's head and the given part of its body, never its end, and return what the
    service answers: an answer at all means it did not wait to read the rest."""
    host, port = service.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=DROP_TIMEOUT_S) as sock:
        sock.sendall(
            (
                f"{head}\r\nHost: {host}:{port}\r\nAuthorization: Bearer {user.token}\r\n"
                "Content-Type: application/json\r\n"
            ).encode()
            + body
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
    return answer


def test_a_body_over_the_limit_is_refused_before_it_is_read(service: Service, admin: User) -> None:
    from gns3_copilot_desktop.service.requests import MAX_BODY_BYTES

    declared = _raw_request(
        service,
        admin,
        "POST /v3/chat/sessions HTTP/1.1",
        f"Content-Length: {60 * 1024 * 1024}\r\n\r\n".encode() + b'{"project_id": "',
    )
    assert declared.startswith(b"HTTP/1.1 413"), declared
    piece = b"x" * 65536
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(1 + MAX_BODY_BYTES // 65536)
    )
    chunked = _raw_request(
        service,
        admin,
        "POST /v3/chat/stream HTTP/1.1",
        b"Transfer-Encoding: chunked\r\n\r\n" + chunks,
    )
    assert chunked.startswith(b"HTTP/1.1 413"), chunked


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "field"),
    [
        ("POST", "/v3/chat/sessions", {"json": {"title": "t" * 40_000}}, "title"),
        ("POST", "/v3/chat/stream", {"json": {"message": "m" * 100_001}}, "message"),
        (
            "POST",
            "/v3/chat/stream",
            {"json": {"message": "m", "session_id": "s" * 101}},
            "session_id",
        ),
        ("POST", "/v3/chat/stream", {"json": {"message": "m", "mode": "root"}}, "mode"),
        ("PATCH", "/v3/chat/sessions/x", {"json": {"title": "t" * 201}}, "title"),
        ("GET", "/v3/chat/search", {"params": {"q": "q" * 501}}, "q"),
        ("GET", f"/v3/chat/history/{'h' * 101}", {"params": {}}, "session id"),
        (
            "POST",
            "/v3/chat/sessions/x/resume",
            {
                "json": {
                    "decisions": [{"tool_call_id": "c", "action": "reject", "reason": "r" * 2001}]
                }
            },
            "reason",
        ),
        (
            "POST",
            "/v3/chat/sessions/x/resume",
            {"json": {"decisions": [{"tool_call_id": "c", "action": "approve"}] * 101}},
            "decisions",
        ),
    ],
)
def test_every_text_field_is_bounded(
    service: Service,
    admin: User,
    project: dict[str, Any],
    method: str,
    path: str,
    kwargs: dict[str, Any],
    field: str,
) -> None:
    pid = project["project_id"]
    if "json" in kwargs:
        kwargs = {"json": {"project_id": pid, **kwargs["json"]}}
    else:
        kwargs = {"params": {"project_id": pid, **kwargs["params"]}}
    response = httpx.request(method, service.url + path, headers=admin.headers, **kwargs)
    assert response.status_code == 422, response.text
    assert field in response.json()["message"]
    listed = httpx.get(
        f"{service.url}/v3/chat/sessions", params={"project_id": pid}, headers=admin.headers
    )
    assert all(len(s["title"] or "") <= 200 for s in listed.json())


def _spellings(project_id: str, count: int) -> list[str]:
    """``count`` distinct spellings of one UUID: case, no hyphens, braces, ``urn:uuid:``."""
    forms = [
        lambda u: u,
        lambda u: u.replace("-", ""),
        lambda u: "{" + u + "}",
        lambda u: "urn:uuid:" + u,
    ]
    rng = random.Random(7)
    seen: set[str] = set()
    while len(seen) < count:
        cased = "".join(c.upper() if rng.random() < 0.5 else c for c in project_id)
        seen.add(rng.choice(forms)(cased))
    return sorted(seen)


def test_every_spelling_of_a_project_id_is_one_project(
    service: Service, admin: User, project: dict[str, Any]
) -> None:
    pid = project["project_id"]
    made = httpx.post(
        f"{service.url}/v3/chat/sessions",
        json={"project_id": pid.upper().replace("-", ""), "title": "Spelled"},
        headers=admin.headers,
    )
    assert made.status_code == 201, made.text
    sid = made.json()["id"]
    for spelling in _spellings(pid, 128):
        listed = httpx.get(
            f"{service.url}/v3/chat/sessions",
            params={"project_id": spelling},
            headers=admin.headers,
        )
        assert listed.status_code == 200, (spelling, listed.text)
        assert sid in {s["id"] for s in listed.json()}
    if not service.stores:  # SQLite: one folder per project, named by its canonical id only
        folders = {p.name for p in (service.data_dir / "projects").glob("*/*")}
        assert pid in folders
        assert all(str(uuid.UUID(name)) == name for name in folders), folders
    for refused in ("p", "../../etc", pid + "0", "urn:uuid:" + pid[:-1], " " + pid, "x" * 10_000):
        response = httpx.get(
            f"{service.url}/v3/chat/sessions", params={"project_id": refused}, headers=admin.headers
        )
        assert response.status_code == 422, (refused, response.text)
        assert "UUID" in response.json()["message"]


def test_a_decided_call_stays_decided_when_the_checkpoint_tables_are_rewound(
    request: pytest.FixtureRequest,
    service: Service,
    admin: User,
    project: dict[str, Any],
    gns3_server: Gns3Server,
) -> None:
    """The service's database is rewound under it (PostgreSQL: the newest checkpoint rows
    deleted, the session row's pending calls put back): the call it approved is not offered
    again and approving it once more runs nothing."""
    if not service.stores:
        pytest.skip("a rewound SQLite checkpoint is tests/core/agent/test_decision_log.py's")
    import psycopg

    dsn = request.getfixturevalue("postgres_server").dsn
    pid = project["project_id"]
    nodes_url = f"{gns3_server.base_url}/v3/projects/{pid}/nodes"

    def switches() -> int:
        listed = httpx.get(nodes_url, headers=admin.headers).json()
        return sum(1 for n in listed if n["name"] == "SW-RW")

    service.model.push(
        ScriptedTurn.tool(
            "create_nodes",
            {"nodes": [{"name": "SW-RW", "template": "Ethernet switch"}]},
            id="call_rw",
        ),
    )
    events = _stream(service, admin, {"message": "Add a switch", "project_id": pid}).events
    sid = events[0]["session_id"]
    assert any(e["type"] == "approval_request" for e in events)
    tables = ("checkpoints", "checkpoint_blobs", "checkpoint_writes")
    with psycopg.connect(dsn) as conn:  # a backup of the conversation while the call waits
        for table in tables:
            conn.execute(
                f"CREATE TABLE saved_{table} AS SELECT * FROM {table} WHERE thread_id = %s", (sid,)
            )
        (pending_row,) = conn.execute(
            "SELECT pending_approval::text FROM copilot_sessions WHERE thread_id = %s", (sid,)
        ).fetchone() or (None,)
    assert pending_row is not None and "call_rw" in pending_row

    def resume() -> list[dict[str, Any]]:
        with httpx.stream(
            "POST",
            f"{service.url}/v3/chat/sessions/{sid}/resume",
            json={
                "project_id": pid,
                "decisions": [{"tool_call_id": "call_rw", "action": "approve"}],
            },
            headers=admin.headers,
            timeout=60,
        ) as resumed:
            return sse_events(resumed.iter_lines())

    service.model.push(ScriptedTurn.text("The switch is added."))
    assert [e["type"] for e in resume()][-1] == "done"
    assert switches() == 1

    with psycopg.connect(dsn) as conn:  # the backup restored: the checkpoint rewinds
        for table in tables:
            conn.execute(f"DELETE FROM {table} WHERE thread_id = %s", (sid,))
            conn.execute(f"INSERT INTO {table} SELECT * FROM saved_{table}")
            conn.execute(f"DROP TABLE saved_{table}")
        interrupts = conn.execute(
            "SELECT count(*) FROM checkpoint_writes WHERE thread_id = %s"
            " AND channel = '__interrupt__'",
            (sid,),
        ).fetchone()
        assert interrupts is not None and interrupts[0] > 0  # the file itself says it waits
        conn.execute(
            "UPDATE copilot_sessions SET pending_approval = %s::jsonb WHERE thread_id = %s",
            (pending_row, sid),
        )
    pending = httpx.get(
        f"{service.url}/v3/chat/sessions/{sid}/approvals",
        params={"project_id": pid},
        headers=admin.headers,
    )
    assert pending.status_code == 200 and pending.json() == []
    again = resume()
    assert [e["type"] for e in again] == ["error", "done"], again
    assert "nothing was run" in again[0]["error"]
    assert switches() == 1


def test_the_undone_log_belongs_to_the_sessions_owner(
    service: Service, admin: User, student: User, shared_project: dict[str, Any]
) -> None:
    pid = shared_project["project_id"]
    service.model.push(ScriptedTurn.text("Hello."))
    events = _stream(service, admin, {"message": "Hi", "project_id": pid}).events
    sid = events[0]["session_id"]
    url = f"{service.url}/v3/chat/sessions/{sid}/undone"
    record = {"project_id": pid, "tool_call_id": "call_x"}
    # another user of the same project: the session does not exist for them
    assert httpx.get(url, params={"project_id": pid}, headers=student.headers).status_code == 404
    assert httpx.post(url, json=record, headers=student.headers).status_code == 404
    # the owner: a call that never ran in the session is not recorded; bad bodies are refused
    refused = httpx.post(url, json=record, headers=admin.headers)
    assert refused.status_code == 409 and "nothing recorded" in refused.json()["message"]
    for bad in ({"project_id": pid}, {**record, "tool_call_id": "x" * 10_000}, {**record, "x": 1}):
        assert httpx.post(url, json=bad, headers=admin.headers).status_code == 422
    listed = httpx.get(url, params={"project_id": pid}, headers=admin.headers)
    assert listed.status_code == 200 and listed.json() == {"tool_call_ids": []}
