"""Load on the copilot service (``gns3-copilot serve``): a class of users chatting at once.

Run: ``.venv/bin/python -m bench service [--users 30] [--seconds 60] [--one-user]``.

Everything is on loopback and bounded (users, time, per-request timeouts):
- the real GNS3 server 3.0.6 (the tests' helper starts it in a temporary folder) checks every
  user's login; each user is a GNS3 user of their own, made through GNS3's API and given the
  "User" role on the class project (``--one-user``: one login with one session per simulated
  user, when making users is too slow);
- the scripted OpenAI-compatible model (the tests' ``ScriptedOpenAIServer``) in a child process
  answers every call at once with a ~300-character answer in 10 pieces;
- the service is the real command in a child process, with SQLite (its default database).

Each user opens a session, then streams turns back to back until the time is up (a turn started
before the end is finished). Figures: first-chunk latency p50/p99 of the service (request sent
-> first content chunk) against the scripted model's own first chunk under the same concurrency
(measured first, directly), the difference being what the service adds; turns per second;
errors (target 0); and whether every transcript is complete at the end (target: no message lost).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import secrets
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.pg_statements import SETTINGS, Statements, report, reset
from gns3_copilot_desktop.core.chat_service_sse import sse_data
from tests.helpers.gns3_server import Gns3Server, free_port, start_server, stop_server
from tests.helpers.postgres import start_postgres
from tests.helpers.scripted_openai import RecordedRequest, ScriptedOpenAIServer, ScriptedTurn

ANSWER = ("OSPF is up between R1 and R2 on Gi0/0; the routes are in the table. " * 5)[:300]
REQUEST_TIMEOUT_S = 60.0
START_TIMEOUT_S = 60.0
BASELINE_SHARE = 0.25
CPU_TARGET_S = 0.030
"""The service's own CPU per turn (the model double's is in its own process, not counted)."""
"""Part of ``--seconds`` spent measuring the model directly (at least 5 s)."""


# --- the scripted model, in its own process ---------------------------------------------------


def _answer(request: RecordedRequest) -> ScriptedTurn:
    """The answer; a user's "add switch NAME" (``--scale``'s class) asks for the change first."""
    last = request.messages[-1] if request.messages else {}
    text = request.last_user_text
    if last.get("role") == "user" and text.startswith("add switch ") and "tools" in request.body:
        name = text.removeprefix("add switch ").strip()
        nodes = {"nodes": [{"name": name, "template": "Ethernet switch"}]}
        return ScriptedTurn.tool("create_nodes", nodes, id=f"call_{name}")
    return ScriptedTurn.text(ANSWER, chunks=10)


def _serve(conn: Connection) -> None:
    server = ScriptedOpenAIServer().start()
    server.add_rule(lambda _r: True, _answer)
    conn.send((server.base_url, server.client_api_key))
    conn.recv()
    server.stop()
    conn.send(server.errors)


class ModelProcess:
    """The scripted model in a child process, so its work never competes for our GIL."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child,), daemon=True)
        self._process.start()
        self.base_url, self.api_key = self._conn.recv()

    @property
    def pid(self) -> int | None:
        """The child process (its CPU is reported apart from the service's)."""
        return self._process.pid

    def stop(self) -> list[str]:
        self._conn.send("stop")
        errors: list[str] = self._conn.recv()
        self._process.join(10)
        return errors


# --- the service, as the real command ---------------------------------------------------------

_PROFILED = """
import cProfile, runpy
profile = cProfile.Profile()
profile.enable()
try:
    runpy.run_module("gns3_copilot_desktop", run_name="__main__", alter_sys=True)
except (SystemExit, KeyboardInterrupt):
    pass
finally:
    profile.disable()
    profile.dump_stats({path!r})
"""


class ServiceProcess:
    """``python -m gns3_copilot_desktop serve`` on a free loopback port."""

    def __init__(
        self,
        gns3: Gns3Server,
        model: ModelProcess,
        folder: Path,
        database: str = "sqlite",
        *,
        port: int | None = None,
        profile: Path | None = None,
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / f"service-{self.port}.log"
        self._start_args = (gns3, model, folder, database, profile)
        self._launch()

    def _launch(self) -> None:
        gns3, model, folder, database, profile = self._start_args
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_COPILOT"))}
        env.update(
            HOME=str(folder / "home"),
            OPENAI_API_KEY=model.api_key,
            OPENAI_BASE_URL=model.base_url,
            NO_PROXY="127.0.0.1,localhost",
        )
        # uvicorn ends by raising the signal it got again: stopped with SIGINT (a KeyboardInterrupt)
        # the profile is still written, which `python -m cProfile` does not do
        runner = (
            ["-c", _PROFILED.format(path=str(profile))]
            if profile is not None
            else ["-m", "gns3_copilot_desktop"]
        )
        command = [
            sys.executable,
            *runner,
            "serve",
            "--gns3-server",
            gns3.base_url,
            "--port",
            str(self.port),
            "--data-dir",
            str(folder / f"data-{self.port}"),
            "--model",
            "openai:gpt-4o-mini",
            "--database",
            database,
        ]
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                httpx.get(f"{self.url}/v3/chat/sessions", timeout=1)
                return
            except httpx.HTTPError:
                if self._process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"serve did not start:\n{self.log()}") from None
                time.sleep(0.1)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def pid(self) -> int:
        return self._process.pid

    def cpu_s(self) -> float:
        """The process's CPU time so far (user + system), from /proc."""
        fields = Path(f"/proc/{self._process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        """SIGKILL, as a crash."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait(10)

    def restart(self) -> None:
        """Start again on the same port (systemd's Restart=)."""
        self._launch()

    def stop(self) -> None:
        if self._process.poll() is None:
            profiled = self._start_args[4] is not None
            self._process.send_signal(signal.SIGINT if profiled else signal.SIGTERM)
            try:
                self._process.wait(15)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)


# --- users ------------------------------------------------------------------------------------


@dataclass
class User:
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def _login(gns3: Gns3Server, username: str, password: str) -> str:
    response = httpx.post(
        f"{gns3.base_url}/v3/access/users/authenticate",
        json={"username": username, "password": password},
        timeout=30,
    )
    response.raise_for_status()
    return str(response.json()["access_token"])


def make_class(gns3: Gns3Server, count: int, one_user: bool) -> tuple[list[User], str, float]:
    """The users (or one user ``count`` times), the class project, and the seconds it took."""
    started = time.perf_counter()
    admin = User("admin", _login(gns3, gns3.username, gns3.password))
    base = gns3.base_url
    project = httpx.post(
        f"{base}/v3/projects",
        json={"name": f"class-{secrets.token_hex(3)}", "auto_close": False},
        headers=admin.headers,
        timeout=30,
    )
    project.raise_for_status()
    project_id = str(project.json()["project_id"])
    if one_user:
        return [admin] * count, project_id, time.perf_counter() - started
    roles = httpx.get(f"{base}/v3/access/roles", headers=admin.headers, timeout=30).json()
    role_id = next(r["role_id"] for r in roles if r["name"] == "User")
    users: list[User] = []
    for index in range(count):
        name, password = f"student{index:02d}{secrets.token_hex(2)}", secrets.token_urlsafe(12)
        made = httpx.post(
            f"{base}/v3/access/users",
            json={"username": name, "password": password, "email": f"{name}@class.gns3-lab.org"},
            headers=admin.headers,
            timeout=30,
        )
        made.raise_for_status()
        ace = {
            "ace_type": "user",
            "path": f"/projects/{project_id}",
            "user_id": made.json()["user_id"],
            "role_id": role_id,
            "propagate": True,
            "allowed": True,
        }
        httpx.post(
            f"{base}/v3/access/acl", json=ace, headers=admin.headers, timeout=30
        ).raise_for_status()
        users.append(User(name, _login(gns3, name, password)))
    return users, project_id, time.perf_counter() - started


# --- load -------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the users saw."""

    first_chunk_s: list[float] = field(default_factory=list)
    turn_s: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent: dict[str, list[str]] = field(default_factory=dict)
    """session id -> the messages of its completed turns, in order."""
    owners: dict[str, User] = field(default_factory=dict)


async def _model_user(
    client: httpx.AsyncClient, model: ModelProcess, deadline: float, tally: Tally
) -> None:
    body = {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": "How is OSPF between R1 and R2?"}],
        "stream": True,
    }
    headers = {"Authorization": f"Bearer {model.api_key}"}
    while time.monotonic() < deadline:
        started = time.perf_counter()
        first: float | None = None
        try:
            async with client.stream(
                "POST", f"{model.base_url}/chat/completions", json=body, headers=headers
            ) as response:
                async for data in sse_data(response.aiter_lines()):
                    if data == "[DONE]":
                        continue
                    choices = json.loads(data).get("choices") or [{}]
                    if first is None and choices[0].get("delta", {}).get("content"):
                        first = time.perf_counter() - started
        except httpx.HTTPError as exc:
            tally.errors.append(f"model: {exc!r}")
            continue
        if first is not None:
            tally.first_chunk_s.append(first)
        tally.turn_s.append(time.perf_counter() - started)


async def _service_user(
    client: httpx.AsyncClient,
    service: str,
    user: User,
    index: int,
    project_id: str,
    deadline: float,
    tally: Tally,
) -> None:
    made = await client.post(
        f"{service}/v3/chat/sessions", json={"project_id": project_id}, headers=user.headers
    )
    if made.status_code != 201:
        tally.errors.append(f"user {index}: session not created: {made.status_code} {made.text}")
        return
    session_id = str(made.json()["id"])
    tally.sent[session_id] = []
    tally.owners[session_id] = user
    turn = 0
    while time.monotonic() < deadline:
        message = f"User {index}, turn {turn}: how is OSPF between R1 and R2?"
        body = {"message": message, "project_id": project_id, "session_id": session_id}
        started = time.perf_counter()
        first: float | None = None
        kinds: list[str] = []
        text: list[str] = []
        try:
            async with client.stream(
                "POST", f"{service}/v3/chat/stream", json=body, headers=user.headers
            ) as response:
                if response.status_code != 200:
                    await response.aread()
                    tally.errors.append(f"user {index}: HTTP {response.status_code}")
                    return
                async for data in sse_data(response.aiter_lines()):
                    chunk = json.loads(data)
                    kinds.append(chunk["type"])
                    if chunk["type"] == "content":
                        text.append(chunk.get("content", ""))
                        if first is None:
                            first = time.perf_counter() - started
                    elif chunk["type"] == "error":
                        tally.errors.append(f"user {index}: {chunk.get('error')}")
        except httpx.HTTPError as exc:
            tally.errors.append(f"user {index}: {exc!r}")
            return
        if kinds[-1:] != ["done"] or "error" in kinds or "".join(text) != ANSWER:
            tally.errors.append(f"user {index}: turn {turn} incomplete: {kinds[-3:]}")
            return
        tally.sent[session_id].append(message)
        tally.turn_s.append(time.perf_counter() - started)
        if first is not None:
            tally.first_chunk_s.append(first)
        turn += 1


async def drive_model(model: ModelProcess, users: int, seconds: float) -> Tally:
    """``users`` clients streaming straight from the scripted model for ``seconds``."""
    tally = Tally()
    limits = httpx.Limits(max_connections=users + 5, max_keepalive_connections=users + 5)
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S, limits=limits) as client:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(_model_user(client, model, deadline, tally) for _ in range(users)))
    return tally


async def drive_service(
    service: str,
    users: list[User],
    project_id: str,
    seconds: float,
    *,
    verify: ssl.SSLContext | bool = True,
) -> tuple[Tally, float]:
    """Every user streaming turns for ``seconds``; the tally and the wall time of the run."""
    tally = Tally()
    limits = httpx.Limits(max_connections=len(users) + 5, max_keepalive_connections=len(users) + 5)
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S, limits=limits, verify=verify) as client:
        started = time.perf_counter()
        deadline = time.monotonic() + seconds
        await asyncio.gather(
            *(
                _service_user(client, service, user, i, project_id, deadline, tally)
                for i, user in enumerate(users)
            )
        )
        return tally, time.perf_counter() - started


async def lost_messages(service: str, project_id: str, tally: Tally) -> tuple[int, int]:
    """(messages expected, messages missing or wrong) over every session's transcript."""
    expected = missing = 0
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S) as client:
        for session_id, messages in tally.sent.items():
            response = await client.get(
                f"{service}/v3/chat/history/{session_id}",
                params={"project_id": project_id},
                headers=tally.owners[session_id].headers,
            )
            if response.status_code != 200:
                tally.errors.append(f"history of {session_id}: HTTP {response.status_code}")
            got = response.json().get("messages", []) if response.status_code == 200 else []
            want = [("user", m) for m in messages]
            want = [pair for m in want for pair in (m, ("assistant", ANSWER))]
            seen = [(m.get("role"), m.get("content")) for m in got]
            expected += len(want)
            missing += sum(1 for a, b in zip(want, seen, strict=False) if a != b)
            missing += max(0, len(want) - len(seen))
            missing += max(0, len(seen) - len(want))  # an extra message is as wrong as a lost one
    return expected, missing


# --- report -----------------------------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench service", description=__doc__)
    parser.add_argument("--users", type=int, default=30, help="simultaneous users (max 100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the service run")
    parser.add_argument(
        "--one-user", action="store_true", help="one GNS3 login with a session per simulated user"
    )
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="the service's store: SQLite files, or a real PostgreSQL started for the run",
    )
    parser.add_argument(
        "--profile", type=Path, help="run the service under cProfile and write its profile here"
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="replicas on PostgreSQL behind nginx: 1 vs 2 replicas, then a class run with one "
        "replica killed and restarted halfway (bench/service_scale.py)",
    )
    parser.add_argument(
        "--class-users", type=int, default=200, help="GNS3 users of the --scale class run"
    )
    args = parser.parse_args(argv)
    if args.scale and not 1 <= args.class_users <= 400:
        parser.error("--class-users must be 1..400")
    if not 1 <= args.users <= 100 or not 1 <= args.seconds <= 600:
        parser.error("--users must be 1..100 and --seconds 1..600 (the run is bounded)")
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the load and print the figures against the targets."""
    args = parse_args(sys.argv[2:] if argv is None else argv)
    if args.scale:
        from bench.service_scale import run

        run(args)
        return
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        folder = Path(tmp)
        gns3_process, gns3 = start_server(folder / "gns3")
        model = ModelProcess()
        service: ServiceProcess | None = None
        postgres = start_postgres(settings=SETTINGS) if args.database == "postgres" else None
        statements: Statements | None = None
        try:
            users, project_id, setup_s = make_class(gns3, args.users, args.one_user)
            baseline_s = max(5.0, args.seconds * BASELINE_SHARE)
            baseline = asyncio.run(drive_model(model, args.users, baseline_s))
            database = postgres.dsn if postgres is not None else "sqlite"
            service = ServiceProcess(gns3, model, folder, database, profile=args.profile)
            if postgres is not None:
                reset(postgres.dsn)
            cpu_before = service.cpu_s()
            tally, wall = asyncio.run(drive_service(service.url, users, project_id, args.seconds))
            cpu_per_turn = (service.cpu_s() - cpu_before) / max(1, len(tally.turn_s))
            if postgres is not None:
                statements = report(postgres.dsn)
            expected, missing = asyncio.run(lost_messages(service.url, project_id, tally))
            log_errors = [line for line in service.log().splitlines() if "ERROR" in line]
        finally:
            if service is not None:
                service.stop()
            model_errors = model.stop()
            stop_server(gns3_process)
            if postgres is not None:
                postgres.stop()
    _report(
        args, setup_s, baseline, tally, wall, expected, missing, log_errors, model_errors,
        cpu_per_turn,
    )  # fmt: skip
    print("\n".join(statements.lines(len(tally.turn_s)) if statements else []))


def _report(
    args: argparse.Namespace,
    setup_s: float,
    baseline: Tally,
    tally: Tally,
    wall: float,
    expected: int,
    missing: int,
    log_errors: list[str],
    model_errors: list[str],
    cpu_per_turn: float,
) -> None:
    turns = len(tally.turn_s)
    who = (
        f"1 GNS3 user with {args.users} sessions"
        if args.one_user
        else f"{args.users} GNS3 users (made in {setup_s:.1f} s), one session each"
    )
    store = "PostgreSQL" if args.database == "postgres" else "SQLite"
    print(f"service load: {who}, {store}, {args.seconds:g} s, loopback")
    model_p50, model_p99 = _pct(baseline.first_chunk_s, 0.5), _pct(baseline.first_chunk_s, 0.99)
    p50, p99 = _pct(tally.first_chunk_s, 0.5), _pct(tally.first_chunk_s, 0.99)
    errors = len(tally.errors) + len(baseline.errors) + len(log_errors) + len(model_errors)
    rows: list[tuple[str, str, str, bool]] = [
        (
            "model's own first chunk p50 / p99",
            f"{model_p50 * 1e3:.0f} / {model_p99 * 1e3:.0f} ms",
            "",
            True,
        ),
        ("service first chunk p50 / p99", f"{p50 * 1e3:.0f} / {p99 * 1e3:.0f} ms", "", True),
        (
            "added by the service p50 / p99",
            f"{(p50 - model_p50) * 1e3:.0f} / {(p99 - model_p99) * 1e3:.0f} ms",
            "",
            True,
        ),
        (
            "turn (request -> done) p50 / p99",
            f"{_pct(tally.turn_s, 0.5) * 1e3:.0f} / {_pct(tally.turn_s, 0.99) * 1e3:.0f} ms",
            "",
            True,
        ),
        ("turns completed", f"{turns}", "", turns > 0),
        ("turns per second", f"{turns / wall:.2f}", "", True),
        (
            "service CPU per turn",
            f"{cpu_per_turn * 1e3:.1f} ms",
            "<= 30",
            cpu_per_turn <= CPU_TARGET_S,
        ),
        ("errors (clients, service log, model)", f"{errors}", "0", errors == 0),
        ("transcript messages checked", f"{expected}", "", True),
        ("messages lost or wrong", f"{missing}", "0", missing == 0 and expected == 2 * turns),
    ]
    print(f"{'figure':<40} {'measured':>20} {'target':>7}  ok")
    for name, value, target, ok in rows:
        print(f"{name:<40} {value:>20} {target:>7}  {'yes' if ok else 'NO'}")
    for line in [*tally.errors, *baseline.errors, *log_errors, *model_errors][:10]:
        print("  error:", line)
    print(f"load average (1 min) after the run: {os.getloadavg()[0]:.1f}")
    summary = {
        "users": args.users,
        "one_user": args.one_user,
        "seconds": args.seconds,
        "first_chunk_ms": {"p50": round(p50 * 1e3, 1), "p99": round(p99 * 1e3, 1)},
        "model_first_chunk_ms": {
            "p50": round(model_p50 * 1e3, 1),
            "p99": round(model_p99 * 1e3, 1),
        },
        "turns_per_s": round(turns / wall, 2),
        "service_cpu_ms_per_turn": round(cpu_per_turn * 1e3, 1),
        "errors": errors,
        "messages_lost": missing,
    }
    print(json.dumps(summary))
