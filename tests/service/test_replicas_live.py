"""Several ``gns3-copilot serve`` processes on one real PostgreSQL: any replica serves any
request (sessions, owners, grants and turn claims are in the database), a turn running through
one is refused by another with 409, a Stop through another replica stops it, and a replica killed
mid-turn (SIGKILL by its PID) leaves the session usable through the others.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.chat_service_client import ChatServiceClient
from gns3_copilot_desktop.core.protocol import ChatChunk
from tests.helpers.chat_service import ServeProcess
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.postgres import PostgresServer
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.service.conftest import User, sse_events

pytestmark = pytest.mark.gns3


@dataclass
class Cluster:
    model: ScriptedOpenAIServer
    a: ServeProcess
    b: ServeProcess
    run_dir: Path
    gns3_url: str
    dsn: str

    def replica(self) -> ServeProcess:
        """One more replica on the same database (the caller stops it)."""
        return ServeProcess(
            self.gns3_url,
            self.run_dir,
            model_base_url=self.model.base_url,
            model_api_key=self.model.client_api_key,
            database=self.dsn,
        ).start()


@pytest.fixture(scope="module")
def cluster(
    gns3_server: Gns3Server,
    postgres_server: PostgresServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Cluster]:
    model = ScriptedOpenAIServer().start()
    model.set_title_responder("Replicated session")
    run_dir = tmp_path_factory.mktemp("replicas")
    made = Cluster(model, None, None, run_dir, gns3_server.base_url, postgres_server.dsn)  # type: ignore[arg-type]
    made.a = made.replica()
    try:
        made.b = made.replica()
    except BaseException:
        made.a.stop()
        raise
    try:
        yield made
    finally:
        made.a.stop()
        made.b.stop()
        model.stop()


def _wait(condition: Any, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _stream(url: str, user: User, body: dict[str, Any]) -> tuple[int, list[dict[str, Any]], str]:
    with httpx.stream(
        "POST", f"{url}/v3/chat/stream", json=body, headers=user.headers, timeout=60
    ) as response:
        raw = b"".join(response.iter_bytes()).decode()
    events = sse_events(raw.split("\n")) if response.status_code == 200 else []
    return response.status_code, events, raw


def _get(url: str, path: str, user: User, **params: str) -> httpx.Response:
    return httpx.get(f"{url}{path}", params=params, headers=user.headers, timeout=30)


class _Background:
    """A stream read in a thread: its first event is known as soon as it comes."""

    def __init__(self, url: str, user: User, path: str, body: dict[str, Any]) -> None:
        self.first: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.failure: BaseException | None = None
        self._args = (url, user, path, body)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        url, user, path, body = self._args
        try:
            with httpx.stream(
                "POST", f"{url}{path}", json=body, headers=user.headers, timeout=60
            ) as response:
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        event = json.loads(line[6:])
                        self.events.append(event)
                        if self.first is None:
                            self.first = event
        except BaseException as exc:  # the killed replica's stream breaks: expected there
            self.failure = exc


def test_a_session_made_through_one_replica_is_served_by_the_other(
    cluster: Cluster, admin: User, student: User, shared_project: dict[str, Any]
) -> None:
    pid = shared_project["project_id"]
    cluster.model.push(ScriptedTurn.text("Made through A.", chunks=2))
    status, events, raw = _stream(cluster.a.url, admin, {"message": "hello", "project_id": pid})
    assert status == 200 and events[-1]["type"] == "done", raw
    sid = events[0]["session_id"]
    # B knows it: listed, its history, and continued there
    listed = _get(cluster.b.url, "/v3/chat/sessions", admin, project_id=pid)
    assert sid in {s["id"] for s in listed.json()}
    cluster.model.push(ScriptedTurn.text("Continued through B.", chunks=2))
    status, events, raw = _stream(
        cluster.b.url, admin, {"message": "again", "project_id": pid, "session_id": sid}
    )
    assert status == 200 and "error" not in [e["type"] for e in events], raw
    history = _get(cluster.a.url, f"/v3/chat/history/{sid}", admin, project_id=pid).json()
    assert [m["content"] for m in history["messages"] if m["role"] == "user"] == [
        "hello",
        "again",
    ]
    # the student sees the project but not the admin's session, through either replica
    for url in (cluster.a.url, cluster.b.url):
        mine = _get(url, "/v3/chat/sessions", student, project_id=pid).json()
        assert sid not in {s["id"] for s in mine}
        assert _get(url, f"/v3/chat/history/{sid}", student, project_id=pid).status_code == 404
        status, _, _ = _stream(url, student, {"message": "x", "project_id": pid, "session_id": sid})
        assert status == 404
    # no owners file on either replica's disk: the owners are in the database
    assert not list(cluster.run_dir.glob("data-*/owners.db"))


def test_a_turn_running_through_one_replica_is_refused_by_the_other(
    cluster: Cluster, admin: User, project: dict[str, Any]
) -> None:
    pid = project["project_id"]
    cluster.model.push(ScriptedTurn.stalled("Working on it", stall_after_chunks=2))
    running = _Background(
        cluster.a.url, admin, "/v3/chat/stream", {"message": "long", "project_id": pid}
    )
    _wait(lambda: running.first is not None, 30, "the turn through A to start")
    assert running.first is not None
    sid = running.first["session_id"]
    status, _, raw = _stream(
        cluster.b.url, admin, {"message": "me too", "project_id": pid, "session_id": sid}
    )
    assert status == 409
    assert "already running" in json.loads(raw)["message"]
    resumed = httpx.post(
        f"{cluster.b.url}/v3/chat/sessions/{sid}/resume",
        json={"project_id": pid, "decisions": []},
        headers=admin.headers,
    )
    assert resumed.status_code == 409
    # Stop through B stops the turn running in A
    stopped = httpx.post(
        f"{cluster.b.url}/v3/chat/sessions/{sid}/abort",
        params={"project_id": pid},
        headers=admin.headers,
        timeout=30,
    )
    assert stopped.json() == {"aborted": True}
    running.thread.join(30)
    assert not running.thread.is_alive()
    assert [e.get("error_kind") for e in running.events if e["type"] == "error"] == ["cancelled"]
    cluster.model.release_stall()
    # the session is free again, through either replica
    cluster.model.push(ScriptedTurn.text("Free again.", chunks=2))
    status, events, raw = _stream(
        cluster.b.url, admin, {"message": "now", "project_id": pid, "session_id": sid}
    )
    assert status == 200 and "error" not in [e["type"] for e in events], raw


def test_a_replica_killed_mid_turn_leaves_the_session_usable(
    cluster: Cluster, admin: User, project: dict[str, Any]
) -> None:
    pid = project["project_id"]
    doomed = cluster.replica()
    try:
        cluster.model.push(ScriptedTurn.stalled("Half an answer", stall_after_chunks=2))
        running = _Background(
            doomed.url, admin, "/v3/chat/stream", {"message": "crash", "project_id": pid}
        )
        _wait(lambda: running.first is not None, 30, "the turn through the doomed replica")
        assert running.first is not None
        sid = running.first["session_id"]
        busy, _, _ = _stream(
            cluster.a.url, admin, {"message": "x", "project_id": pid, "session_id": sid}
        )
        assert busy == 409
        doomed.kill()
        running.thread.join(30)
        cluster.model.release_stall()
    finally:
        doomed.stop()
    # its claim names a dead process: the session is usable through the others
    cluster.model.push(ScriptedTurn.text("Back in business.", chunks=2))
    status, events, raw = _stream(
        cluster.a.url, admin, {"message": "after", "project_id": pid, "session_id": sid}
    )
    assert status == 200, raw
    assert "error" not in [e["type"] for e in events], raw
    assert "".join(e.get("content", "") for e in events) == "Back in business."
    history = _get(cluster.b.url, f"/v3/chat/history/{sid}", admin, project_id=pid).json()
    assert [m["content"] for m in history["messages"] if m["role"] == "user"][-1] == "after"


def test_always_allow_is_kept_per_user_and_project_across_replicas(
    cluster: Cluster,
    admin: User,
    student: User,
    shared_project: dict[str, Any],
    gns3_server: Gns3Server,
) -> None:
    pid = shared_project["project_id"]
    make = {"nodes": [{"name": "SW-GRANT1", "template": "Ethernet switch"}]}
    cluster.model.push(ScriptedTurn.tool("create_nodes", make, id="call_g1"))
    status, events, raw = _stream(cluster.a.url, admin, {"message": "add", "project_id": pid})
    assert any(e["type"] == "approval_request" for e in events), raw
    sid = events[0]["session_id"]
    # a forged call id grants nothing
    cluster.model.push(ScriptedTurn.text("Added."))
    decisions = [
        {"tool_call_id": "call_g1", "action": "approve", "always_allow": True},
    ]
    with httpx.stream(
        "POST",
        f"{cluster.b.url}/v3/chat/sessions/{sid}/resume",
        json={"project_id": pid, "decisions": decisions},
        headers=admin.headers,
        timeout=60,
    ) as resumed:
        after = sse_events(resumed.iter_lines())
    assert after[-1]["type"] == "done"
    assert _get(cluster.a.url, "/v3/chat/grants", admin, project_id=pid).json() == ["create_nodes"]
    assert _get(cluster.a.url, "/v3/chat/grants", student, project_id=pid).json() == []
    # the next change of that tool runs without asking, through the other replica
    again = {"nodes": [{"name": "SW-GRANT2", "template": "Ethernet switch"}]}
    cluster.model.push(
        ScriptedTurn.tool("create_nodes", again, id="call_g2"), ScriptedTurn.text("Done.")
    )
    status, events, raw = _stream(
        cluster.b.url, admin, {"message": "one more", "project_id": pid, "session_id": sid}
    )
    types = [e["type"] for e in events]
    assert status == 200, raw
    assert "approval_request" not in types and "tool_end" in types, raw
    nodes = httpx.get(f"{gns3_server.base_url}/v3/projects/{pid}/nodes", headers=admin.headers)
    assert {"SW-GRANT1", "SW-GRANT2"} <= {n["name"] for n in nodes.json()}
    # the student is still asked for the same tool in the same project
    student_make = {"nodes": [{"name": "SW-STUDENT", "template": "Ethernet switch"}]}
    cluster.model.push(ScriptedTurn.tool("create_nodes", student_make, id="call_s1"))
    _, events, raw = _stream(cluster.a.url, student, {"message": "add", "project_id": pid})
    assert any(e["type"] == "approval_request" for e in events), raw
    # revoked: asked again
    revoked = httpx.delete(
        f"{cluster.b.url}/v3/chat/grants/create_nodes",
        params={"project_id": pid},
        headers=admin.headers,
    )
    assert revoked.status_code == 204
    assert _get(cluster.a.url, "/v3/chat/grants", admin, project_id=pid).json() == []


# --- the dock across a restart of the service it talks to ------------------------------------


def _restart_later(replica: ServeProcess, delay_s: float) -> threading.Thread:
    """Start the killed replica again on its port after ``delay_s`` (systemd's Restart=)."""

    def run() -> None:
        time.sleep(delay_s)  # the dock must find the service down first
        replica.start()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.asyncio
async def test_the_dock_keeps_an_approval_across_a_restart_of_its_service(
    cluster: Cluster, admin: User, project: dict[str, Any], gns3_server: Gns3Server
) -> None:
    pid = project["project_id"]
    replica = cluster.replica()
    client = ChatServiceClient(replica.url, lambda: admin.token, reconnect_s=60)
    try:
        sid = (await client.create_session(pid)).id
        make = {"nodes": [{"name": "SW-RESTART", "template": "Ethernet switch"}]}
        cluster.model.push(ScriptedTurn.tool("create_nodes", make, id="call_r1"))
        chunks = [c async for c in client.stream_chat(pid, sid, "add a switch")]
        assert any(c.type == "approval_request" for c in chunks)
        replica.kill()
        restarter = _restart_later(replica, 1.0)
        cluster.model.push(ScriptedTurn.text("Added after the restart."))
        decision = ApprovalDecision(tool_call_id="call_r1", action="approve")
        after = [c async for c in client.resume(pid, sid, [decision])]
        restarter.join(60)
        assert [c.type for c in after if c.type == "error"] == [], after
        assert any(c.type == "tool_end" and c.status == "ok" for c in after)
    finally:
        await client.aclose()
        replica.stop()
    async with httpx.AsyncClient() as gns3:
        nodes = await gns3.get(
            f"{gns3_server.base_url}/v3/projects/{pid}/nodes", headers=admin.headers
        )
    assert "SW-RESTART" in {n["name"] for n in nodes.json()}


@pytest.mark.asyncio
async def test_a_stream_cut_by_a_restart_ends_clearly_and_the_conversation_is_kept(
    cluster: Cluster, admin: User, project: dict[str, Any]
) -> None:
    pid = project["project_id"]
    replica = cluster.replica()
    client = ChatServiceClient(replica.url, lambda: admin.token, reconnect_s=60)
    try:
        sid = (await client.create_session(pid)).id
        cluster.model.push(ScriptedTurn.stalled("Half", stall_after_chunks=2))
        seen: list[ChatChunk] = []
        restarter: threading.Thread | None = None
        async for chunk in client.stream_chat(pid, sid, "cut me"):
            seen.append(chunk)
            if chunk.type == "content" and restarter is None:
                replica.kill()
                restarter = _restart_later(replica, 1.0)
        cluster.model.release_stall()
        assert restarter is not None
        restarter.join(60)
        assert [c.type for c in seen][-2:] == ["error", "done"]
        assert "kept on the service" in (seen[-2].error or "")
        history = await client.history(pid, sid)
        assert [m.content for m in history if m.role == "user"] == ["cut me"]
        cluster.model.push(ScriptedTurn.text("Still here."))
        again = [c async for c in client.stream_chat(pid, sid, "still there?")]
        assert [c.type for c in again if c.type == "error"] == []
    finally:
        await client.aclose()
        replica.stop()
