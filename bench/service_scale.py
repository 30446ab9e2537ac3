"""``python -m bench service --scale``: the service scaled out, as documented (README,
"Deployment"): replicas of ``gns3-copilot serve`` on one real PostgreSQL behind a real nginx with
the repository's site file (TLS with a CA made for the run).

1. Throughput: the same users streaming turns through nginx for ``--seconds`` in front of one
   replica, then in front of two; turns per second of each, their ratio, and the service's CPU
   per turn (both replicas' CPU time over the turns; the model double runs in its own process).
2. A class: ``--class-users`` GNS3 users, each opening a session and sending 5 messages, one of
   which asks for a change that waits for approval and is approved; halfway through (by turns
   done), one replica is killed (SIGKILL) and started again 2 s later. Figures: first chunk
   p50/p99, errors, turns cut by the kill (their message is checked on the service), messages
   lost (a turn the client saw end whose messages are not in the session), sessions one user can
   see of another.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import ssl
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.bench_service import (
    REQUEST_TIMEOUT_S,
    ModelProcess,
    ServiceProcess,
    User,
    _pct,
    drive_service,
    make_class,
)
from bench.pg_statements import SETTINGS, report, reset
from gns3_copilot_desktop.core.chat_service_sse import sse_data
from tests.helpers.gns3_server import start_server, stop_server
from tests.helpers.nginx import Nginx, make_test_ca, start_nginx
from tests.helpers.postgres import start_postgres

SPEEDUP_TARGET = 1.7
TURNS_PER_USER = 5
APPROVAL_TURN = 2
RESTART_AFTER_S = 2.0


@dataclass
class ClassTally:
    first_chunk_s: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    cut: int = 0
    turns: int = 0
    approvals: int = 0
    done: dict[str, list[str]] = field(default_factory=dict)
    """session id -> the messages whose turn the client saw end."""
    owners: dict[str, User] = field(default_factory=dict)


async def _turn(
    client: httpx.AsyncClient, url: str, user: User, body: dict[str, Any], tally: ClassTally
) -> list[dict[str, Any]] | None:
    """One stream; None when the connection was cut (the kill), else its chunks."""
    started = time.perf_counter()
    chunks: list[dict[str, Any]] = []
    first: float | None = None
    try:
        async with client.stream("POST", url, json=body, headers=user.headers) as response:
            if response.status_code in (502, 503, 504):
                await response.aread()
                return None
            if response.status_code != 200:
                await response.aread()
                tally.errors.append(f"{user.name}: HTTP {response.status_code} {response.text}")
                return []
            async for data in sse_data(response.aiter_lines()):
                chunk = json.loads(data)
                chunks.append(chunk)
                if chunk["type"] == "content" and first is None:
                    first = time.perf_counter() - started
                    tally.first_chunk_s.append(first)
    except httpx.TransportError:
        return None
    if not chunks or chunks[-1]["type"] != "done":
        return None  # the stream ended early: the replica went
    return chunks


async def _class_user(
    client: httpx.AsyncClient,
    base: str,
    user: User,
    index: int,
    project_id: str,
    tally: ClassTally,
) -> None:
    session_id = ""
    for _ in range(50):  # a session, through whichever replica is up
        try:
            made = await client.post(
                f"{base}/v3/chat/sessions", json={"project_id": project_id}, headers=user.headers
            )
        except httpx.TransportError:
            made = None
        if made is not None and made.status_code == 201:
            session_id = str(made.json()["id"])
            break
        await asyncio.sleep(0.2)
    if not session_id:
        tally.errors.append(f"{user.name}: no session")
        return
    tally.done[session_id] = []
    tally.owners[session_id] = user
    for turn in range(TURNS_PER_USER):
        change = turn == APPROVAL_TURN
        message = (
            f"add switch SW-{index}-{turn}" if change else f"{user.name} turn {turn}: OSPF state?"
        )
        body = {"message": message, "project_id": project_id, "session_id": session_id}
        chunks = await _turn(client, f"{base}/v3/chat/stream", user, body, tally)
        if chunks is None:
            tally.cut += 1
            await asyncio.sleep(RESTART_AFTER_S)
            continue
        kinds = [c["type"] for c in chunks]
        if "error" in kinds:
            tally.errors.append(
                f"{user.name}: {[c.get('error') for c in chunks if c['type'] == 'error']}"
            )
            continue
        if change:
            asked = next((c for c in chunks if c["type"] == "approval_request"), None)
            if asked is None:
                tally.errors.append(f"{user.name}: the change was not asked")
                continue
            calls = [a["tool_call_id"] for a in asked["approvals"]]
            decisions = [{"tool_call_id": c, "action": "approve"} for c in calls]
            resumed = await _turn(
                client,
                f"{base}/v3/chat/sessions/{session_id}/resume",
                user,
                {"project_id": project_id, "decisions": decisions},
                tally,
            )
            if resumed is None:
                tally.cut += 1
                await asyncio.sleep(RESTART_AFTER_S)
                continue
            if not any(c["type"] == "tool_end" and c.get("status") == "ok" for c in resumed):
                tally.errors.append(f"{user.name}: the approved change did not run")
                continue
            tally.approvals += 1
        tally.done[session_id].append(message)
        tally.turns += 1


async def _kill_halfway(replica: ServiceProcess, tally: ClassTally, total: int) -> float | None:
    """Kill the replica once half the turns are done, start it again 2 s later."""
    while tally.turns < total // 2:
        await asyncio.sleep(0.1)
        if tally.turns + tally.cut >= total:
            return None
    replica.kill()
    killed_at = time.monotonic()
    await asyncio.sleep(RESTART_AFTER_S)
    await asyncio.to_thread(replica.restart)
    return time.monotonic() - killed_at


async def _class_run(
    base: str, verify: ssl.SSLContext, users: list[User], project_id: str, victim: ServiceProcess
) -> tuple[ClassTally, float, float | None]:
    tally = ClassTally()
    limits = httpx.Limits(max_connections=len(users) + 10, max_keepalive_connections=len(users))
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S, limits=limits, verify=verify) as client:
        started = time.perf_counter()
        killer = asyncio.create_task(_kill_halfway(victim, tally, len(users) * TURNS_PER_USER))
        await asyncio.gather(
            *(_class_user(client, base, u, i, project_id, tally) for i, u in enumerate(users))
        )
        wall = time.perf_counter() - started
        down_s = await killer
    return tally, wall, down_s


async def _check_class(
    base: str,
    verify: ssl.SSLContext,
    project_id: str,
    tally: ClassTally,
    earlier: dict[str, User],
) -> tuple[int, int]:
    """(messages lost, sessions seen by a user who does not own them); ``earlier``: the
    sessions of the throughput runs (same users, same project) and their owners."""
    known = {
        **{s: u.name for s, u in earlier.items()},
        **{s: u.name for s, u in tally.owners.items()},
    }
    lost = foreign = 0
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S, verify=verify) as client:
        for session_id, messages in tally.done.items():
            user = tally.owners[session_id]
            history = await client.get(
                f"{base}/v3/chat/history/{session_id}",
                params={"project_id": project_id},
                headers=user.headers,
            )
            said = [m["content"] for m in history.json().get("messages", []) if m["role"] == "user"]
            lost += sum(1 for m in messages if m not in said)
            listed = await client.get(
                f"{base}/v3/chat/sessions", params={"project_id": project_id}, headers=user.headers
            )
            foreign += sum(1 for s in listed.json() if known.get(s["id"]) != user.name)
    return lost, foreign


def _cpu(replicas: list[ServiceProcess]) -> float:
    return sum(r.cpu_s() for r in replicas)


def _tree_cpu_s(root: int | None) -> float:
    """CPU time (user + system) of a process and its live descendants, from /proc (nginx's and
    PostgreSQL's workers are children of their master)."""
    if root is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    parent_of: dict[int, int] = {}
    cpu_of: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        pid = int(entry.name)
        parent_of[pid] = int(fields[1])
        cpu_of[pid] = (int(fields[11]) + int(fields[12])) / tick
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parent_of.items() if parent in tree} - tree
        grown = bool(more)
        tree |= more
    return sum(cpu_of.get(pid, 0.0) for pid in tree)


@dataclass
class CpuShares:
    """Whose CPU a run spent: the figures that say why two replicas cannot double the turns on a
    machine whose cores the model double, the proxy, the database, GNS3 and the clients share."""

    parts: dict[str, float]
    wall_s: float

    def text(self) -> str:
        busy = sum(self.parts.values()) / self.wall_s
        each = ", ".join(f"{name} {cpu / self.wall_s:.2f}" for name, cpu in self.parts.items())
        return f"{busy:.2f} cores busy: {each}"


def _shares(
    replicas: list[ServiceProcess], model: ModelProcess, front: Nginx, postgres: Any, gns3: int
) -> dict[str, float]:
    return {
        "service replicas": _cpu(replicas),
        "model double": _tree_cpu_s(model.pid),
        "nginx": _tree_cpu_s(front.master_pid()),
        "PostgreSQL": _tree_cpu_s(postgres.postmaster_pid()),
        "GNS3 server": _tree_cpu_s(gns3),
        "bench clients": time.process_time(),
    }


def run(args: argparse.Namespace) -> None:
    """Both parts, then the figures against the targets."""
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        folder = Path(tmp)
        gns3_process, gns3 = start_server(folder / "gns3")
        model = ModelProcess()
        postgres = start_postgres(settings=SETTINGS)
        replicas: list[ServiceProcess] = []
        fronts: list[Nginx] = []
        ca = make_test_ca(folder / "tls")
        verify = ssl.create_default_context(cafile=str(ca.ca_pem))
        try:
            users, project_id, setup_s = make_class(gns3, args.class_users, one_user=False)
            for _ in range(2):
                replicas.append(ServiceProcess(gns3, model, folder, postgres.dsn))
            earlier: dict[str, User] = {}
            rates: list[float] = []
            cpu_per_turn: list[float] = []
            shares: list[CpuShares] = []
            statements: list[list[str]] = []
            for count in (1, 2):
                front = start_nginx([f"127.0.0.1:{r.port}" for r in replicas[:count]], ca)
                fronts.append(front)
                reset(postgres.dsn)
                before = _cpu(replicas)
                shares_before = _shares(replicas, model, front, postgres, gns3_process.pid)
                tally, wall = asyncio.run(
                    drive_service(
                        front.url, users[: args.users], project_id, args.seconds, verify=verify
                    )
                )
                earlier.update(tally.owners)
                turns = len(tally.turn_s)
                rates.append(turns / wall)
                cpu_per_turn.append((_cpu(replicas) - before) / max(1, turns))
                after = _shares(replicas, model, front, postgres, gns3_process.pid)
                shares.append(CpuShares({k: after[k] - shares_before[k] for k in after}, wall))
                statements.append(report(postgres.dsn).lines(turns, top=8))
                if tally.errors:
                    print(f"  throughput run with {count} replica(s): {tally.errors[:3]}")
                front.stop()
                fronts.remove(front)
            front = start_nginx([f"127.0.0.1:{r.port}" for r in replicas], ca)
            fronts.append(front)
            klass, class_wall, down_s = asyncio.run(
                _class_run(front.url, verify, users, project_id, replicas[0])
            )
            lost, foreign = asyncio.run(_check_class(front.url, verify, project_id, klass, earlier))
            log_errors = [
                line for r in replicas for line in r.log().splitlines() if "ERROR" in line
            ]
        finally:
            for front in fronts:
                front.stop()
            for replica in replicas:
                replica.stop()
            model_errors = model.stop()
            stop_server(gns3_process)
            postgres.stop()
    speedup = rates[1] / rates[0] if rates[0] else float("nan")
    errors = len(klass.errors) + len(model_errors)
    rows = [
        ("users made (GNS3 API)", f"{len(users)} in {setup_s:.0f} s", "", True),
        ("turns/s, 1 replica behind nginx", f"{rates[0]:.2f}", "", True),
        ("turns/s, 2 replicas behind nginx", f"{rates[1]:.2f}", "", True),
        ("2 replicas vs 1", f"{speedup:.2f}x", ">= 1.7", speedup >= SPEEDUP_TARGET),
        (
            "service CPU per turn (1 / 2 replicas)",
            f"{cpu_per_turn[0] * 1e3:.1f} / {cpu_per_turn[1] * 1e3:.1f} ms",
            "<= 30",
            max(cpu_per_turn) <= 0.030,
        ),
        (
            f"class of {len(users)}: first chunk p50 / p99",
            f"{_pct(klass.first_chunk_s, 0.5) * 1e3:.0f} / "
            f"{_pct(klass.first_chunk_s, 0.99) * 1e3:.0f} ms",
            "",
            True,
        ),
        ("class: turns done / approvals run", f"{klass.turns} / {klass.approvals}", "", True),
        ("class: turns cut by the kill", f"{klass.cut}", "", True),
        ("class: replica down (kill -> listening)", f"{down_s or 0:.1f} s", "", down_s is not None),
        ("class: errors", f"{errors}", "0", errors == 0),
        ("class: messages lost", f"{lost}", "0", lost == 0),
        ("class: sessions seen by another user", f"{foreign}", "0", foreign == 0),
        ("class: wall time", f"{class_wall:.0f} s", "", True),
    ]
    print(
        f"service scale-out: PostgreSQL, nginx (TLS), {args.users} users x {args.seconds:g} s "
        f"per throughput run, class of {len(users)}"
    )
    print(f"{'figure':<44} {'measured':>20} {'target':>7}  ok")
    for name, value, target, ok in rows:
        print(f"{name:<44} {value:>20} {target:>7}  {'yes' if ok else 'NO'}")
    for line in [*klass.errors, *model_errors][:10]:
        print("  error:", line)
    print(f"  service log lines with ERROR (the kill's cut turns among them): {len(log_errors)}")
    for count, share, said in zip((1, 2), shares, statements, strict=True):
        print(f"  CPU during the {count}-replica run: {share.text()}")
        print("\n".join(f"  {line}" for line in said))
    print(
        json.dumps(
            {
                "turns_per_s": [round(r, 2) for r in rates],
                "speedup": round(speedup, 2),
                "service_cpu_ms_per_turn": [round(c * 1e3, 1) for c in cpu_per_turn],
                "cores_busy": [
                    {name: round(cpu / share.wall_s, 2) for name, cpu in share.parts.items()}
                    for share in shares
                ],
                "class_users": len(users),
                "first_chunk_ms": {
                    "p50": round(_pct(klass.first_chunk_s, 0.5) * 1e3, 1),
                    "p99": round(_pct(klass.first_chunk_s, 0.99) * 1e3, 1),
                },
                "errors": errors,
                "cut": klass.cut,
                "lost": lost,
                "foreign": foreign,
            }
        )
    )
