"""Benchmarks of AgentService turns, through the real langchain-openai client.

Run: ``.venv/bin/python -m bench agent``. A loopback scripted OpenAI-compatible server (the tests'
``ScriptedOpenAIServer``, in its own thread) plays every turn as the issue defines it: the user's
message, one tool call, a ~2 KB tool result, a ~500-character answer. The GNS3 server is the real
`Gns3Client` over an in-process transport that answers the topology requests with a small lab, so
the topology refresh of every model call is included. Figures:

- DB size (db + -wal + -shm) after 200 turns in one session (target <= 15 MB);
- AgentService overhead per turn: wall time of a turn minus the time spent in model calls and in
  the tool, median of turns 191-200 vs turns 1-10 (target <= 1.5x); and, since wall time on a
  shared machine moves with its load, the same ratio for the loop thread's CPU time per turn;
- longest event-loop stall during turns 191-200, from a 5 ms timer (target <= 30 ms).

The scripted model runs in a child process so that its own Python work does not compete with the
measured event loop for the GIL (a real model endpoint is another process or machine).
"""

from __future__ import annotations

import asyncio
import gc
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
from langchain_core.callbacks import AsyncCallbackHandler
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.model_factory import warm_up
from gns3_copilot_desktop.core.agent.model_quirks import CompatibleChatOpenAI
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.agent.tools import AgentTool, NoArgs, ToolResult, default_registry
from gns3_copilot_desktop.core.gns3 import Gns3Client

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.helpers.scripted_openai import (
    RecordedRequest,
    ScriptedOpenAIServer,
    ScriptedTurn,
)

TURNS = int(os.environ.get("BENCH_AGENT_TURNS", "200"))
TICK_S = 0.005
PROJECT_ID = "11111111-2222-3333-4444-555555555555"
TOOL_RESULT = ("R1 GigabitEthernet0/0 up 10.0.0.1/24 OSPF area 0 " * 50)[:2048]
ANSWER = ("The two routers are linked on Gi0/0 and OSPF is up between them. " * 9)[:500]


class ShowRunTool(AgentTool[NoArgs]):
    """The benchmark's read tool: a fixed ~2 KB result; its time is measured and excluded."""

    name = "show_running_config"
    description = "Show the running configuration of R1."
    args_schema = NoArgs
    risk = "read"

    def __init__(self) -> None:
        self.seconds = 0.0

    def summary(self, args: NoArgs) -> str:
        return "Show the running config of R1"

    async def run(self, args: NoArgs, ctx: RunContext) -> ToolResult:
        started = time.perf_counter()
        result = ToolResult(text=TOOL_RESULT)
        self.seconds += time.perf_counter() - started
        return result


def _lab_transport() -> httpx.MockTransport:
    ports = [{"name": f"Gi0/{i}", "adapter_number": 0, "port_number": i} for i in range(4)]
    nodes = [
        {
            "node_id": f"n{i}",
            "name": f"R{i}",
            "node_type": "dynamips",
            "status": "started",
            "console": 5000 + i,
            "console_type": "telnet",
            "ports": ports,
        }
        for i in range(1, 5)
    ]
    links = [
        {
            "link_id": f"l{i}",
            "nodes": [
                {"node_id": f"n{i}", "adapter_number": 0, "port_number": 0},
                {"node_id": f"n{i + 1}", "adapter_number": 0, "port_number": 1},
            ],
        }
        for i in range(1, 4)
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/nodes"):
            return httpx.Response(200, json=nodes)
        if request.url.path.endswith("/links"):
            return httpx.Response(200, json=links)
        return httpx.Response(404, json={"message": "not found"})

    return httpx.MockTransport(handler)


def _answer(request: RecordedRequest) -> ScriptedTurn:
    last = request.messages[-1]["role"] if request.messages else "user"
    if last == "tool":
        return ScriptedTurn.text(ANSWER, chunks=20)
    return ScriptedTurn.tool("show_running_config", {})


class _ModelClock(AsyncCallbackHandler):
    """Wall time spent in model calls, from LangChain's start/end callbacks."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._open: dict[UUID, float] = {}

    async def on_chat_model_start(
        self, serialized: dict[str, Any], messages: Any, *, run_id: UUID, **kw: Any
    ) -> None:
        self._open[run_id] = time.perf_counter()

    async def on_llm_end(self, response: Any, *, run_id: UUID, **kw: Any) -> None:
        self._close(run_id)

    async def on_llm_error(self, error: BaseException, *, run_id: UUID, **kw: Any) -> None:
        self._close(run_id)

    def _close(self, run_id: UUID) -> None:
        started = self._open.pop(run_id, None)
        if started is not None:
            self.seconds += time.perf_counter() - started


class _StallMeter:
    """A 5 ms timer; the longest lateness of a tick is the longest event-loop stall.

    ``worst`` is wall-clock lateness (what a user feels; on a busy machine it includes time the
    OS gave the CPU to other processes). ``worst_cpu`` is the CPU time the loop's thread spent
    between two ticks: the part of a stall that is this process's own work.
    """

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_cpu = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._tick())

    def take(self) -> tuple[float, float]:
        worst, self.worst = self.worst, 0.0
        worst_cpu, self.worst_cpu = self.worst_cpu, 0.0
        return worst, worst_cpu

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before, cpu_before = loop.time(), time.thread_time()
            await asyncio.sleep(TICK_S)
            self.worst = max(self.worst, loop.time() - before - TICK_S)
            self.worst_cpu = max(self.worst_cpu, time.thread_time() - cpu_before)


@dataclass
class TurnFigures:
    """Measured figures of one turn."""

    wall_ms: float
    model_ms: float
    tool_ms: float
    stall_ms: float
    stall_cpu_ms: float
    cpu_ms: float

    @property
    def overhead_ms(self) -> float:
        return self.wall_ms - self.model_ms - self.tool_ms


def _serve(conn: Connection) -> None:
    """Child process: run the scripted model until told to stop; report its errors."""
    server = ScriptedOpenAIServer().start()
    server.add_rule(lambda _r: True, _answer)
    conn.send((server.base_url, server.client_api_key))
    conn.recv()
    server.stop()
    conn.send(server.errors)


class _ModelProcess:
    """The scripted model in its own process, so its work never competes for our GIL."""

    def __init__(self) -> None:
        self._conn, child = multiprocessing.get_context("spawn").Pipe()
        self._process = multiprocessing.get_context("spawn").Process(
            target=_serve, args=(child,), daemon=True
        )
        self._process.start()
        self.base_url, self.api_key = self._conn.recv()

    def chat_model(self, **overrides: Any) -> ChatOpenAI:
        """The app's own ChatOpenAI (`CompatibleChatOpenAI`, OpenAI's dialect) on the scripted
        model."""
        return warm_up(  # as the app's model factory builds it
            CompatibleChatOpenAI(
                model="gpt-4o-mini",
                base_url=self.base_url,
                api_key=SecretStr(self.api_key),
                max_retries=0,
                timeout=30.0,
                stream_usage=True,
                **overrides,
            )
        )

    def stop(self) -> list[str]:
        """Stop the child; the scripted server's errors."""
        self._conn.send("stop")
        errors: list[str] = self._conn.recv()
        self._process.join(10)
        return errors


async def run_turns(folder: Path, turns: int = TURNS) -> tuple[list[TurnFigures], int]:
    """Play ``turns`` turns in one session; the figures of each turn and the final DB size."""
    server = _ModelProcess()
    clock = _ModelClock()
    tool = ShowRunTool()
    db = folder / "copilot.db"
    service = await AgentService.open(db, tools=default_registry([tool]))
    meter = _StallMeter()
    figures: list[TurnFigures] = []
    gns3 = Gns3Client("http://gns3.invalid:3080", token="x", transport=_lab_transport())
    try:
        ctx = RunContext(
            client=gns3,
            project_id=PROJECT_ID,
            model=server.chat_model(callbacks=[clock]),
            limits=AgentLimits(heartbeat_interval_s=15),
        )
        session = await service.create_session(title="Benchmark")
        meter.start()
        for turn in range(turns):
            figures.append(await _one_turn(service, session.id, ctx, turn, clock, tool, meter))
    finally:
        await meter.stop()
        await service.close()
        await gns3.aclose()
        errors = server.stop()
    if errors:
        raise RuntimeError(f"scripted server errors: {errors}")
    return figures, _db_size(db)


def _db_size(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.iterdir() if p.name.startswith(db.name))


async def _one_turn(
    service: AgentService,
    session_id: str,
    ctx: RunContext,
    turn: int,
    clock: _ModelClock,
    tool: ShowRunTool,
    meter: _StallMeter,
) -> TurnFigures:
    model_before, tool_before = clock.seconds, tool.seconds
    meter.take()
    started, cpu_started = time.perf_counter(), time.thread_time()
    stream = service.stream_chat(f"Turn {turn}: show R1", session_id, context=ctx)
    kinds = [c.type async for c in stream]
    wall = time.perf_counter() - started
    cpu = time.thread_time() - cpu_started
    if "error" in kinds or kinds[-1] != "done":
        raise RuntimeError(f"turn {turn} failed: {kinds}")
    stall, stall_cpu = meter.take()
    return TurnFigures(
        wall_ms=wall * 1000,
        model_ms=(clock.seconds - model_before) * 1000,
        tool_ms=(tool.seconds - tool_before) * 1000,
        stall_ms=stall * 1000,
        stall_cpu_ms=stall_cpu * 1000,
        cpu_ms=cpu * 1000,
    )


class _GcPauses:
    """Longest pause of Python's cyclic garbage collector during the run (it runs on the loop)."""

    def __init__(self) -> None:
        self.longest_ms = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.longest_ms = max(self.longest_ms, (time.perf_counter() - self._started) * 1000)


def main() -> None:
    """Run the benchmark and print a table of the figures against the issue's targets."""
    if os.environ.get("BENCH_AGENT_GC_FREEZE"):
        gc.freeze()  # what an app can do once after its imports: old objects leave the GC's scans
    pauses = _GcPauses()
    gc.callbacks.append(pauses)
    with tempfile.TemporaryDirectory(prefix="bench-agent-") as tmp:
        figures, size = asyncio.run(run_turns(Path(tmp)))
    gc.callbacks.remove(pauses)
    first, last = figures[:10], figures[-10:]
    over_first = statistics.median(f.overhead_ms for f in first)
    over_last = statistics.median(f.overhead_ms for f in last)
    ratio = over_last / over_first
    cpu_ratio = statistics.median(f.cpu_ms for f in last) / statistics.median(
        f.cpu_ms for f in first
    )
    worst_index = max(range(len(figures)), key=lambda i: figures[i].stall_cpu_ms)
    worst = figures[worst_index]
    stall_first = max(f.stall_ms for f in first)
    stall_last = max(f.stall_ms for f in last)
    cpu_last = max(f.stall_cpu_ms for f in last)
    rows = [
        (
            f"DB size after {len(figures)} turns (db+wal+shm)",
            f"{size / 1e6:.2f} MB",
            "<= 15 MB",
            size <= 15e6,
        ),
        ("overhead/turn, first 10 turns (median)", f"{over_first:.1f} ms", "", True),
        ("overhead/turn, last 10 turns (median)", f"{over_last:.1f} ms", "", True),
        ("overhead ratio last/first", f"{ratio:.2f}x", "<= 1.5x", ratio <= 1.5),
        ("  same, as loop-thread CPU time per turn", f"{cpu_ratio:.2f}x", "", True),
        (
            "wall/turn, last 10 (median)",
            f"{statistics.median(f.wall_ms for f in last):.1f} ms",
            "",
            True,
        ),
        (
            "model/turn, last 10 (median)",
            f"{statistics.median(f.model_ms for f in last):.1f} ms",
            "",
            True,
        ),
        ("longest loop stall, first 10 turns", f"{stall_first:.1f} ms", "", True),
        ("longest loop stall, last 10 turns", f"{stall_last:.1f} ms", "<= 30 ms", stall_last <= 30),
        ("  of which own CPU work (thread time)", f"{cpu_last:.1f} ms", "", True),
        (
            f"worst turn's own CPU stall (turn {worst_index + 1})",
            f"{worst.stall_cpu_ms:.1f} ms",
            "<= 16 ms",
            worst.stall_cpu_ms <= 16,
        ),
        ("  its wall-clock stall", f"{worst.stall_ms:.1f} ms", "", True),
        ("longest GC pause in the run", f"{pauses.longest_ms:.1f} ms", "", True),
        ("load average (1 min) after the run", f"{os.getloadavg()[0]:.1f}", "", True),
    ]
    print(f"{'figure':<42} {'measured':>10} {'target':>10}  ok")
    for name, value, target, ok in rows:
        print(f"{name:<42} {value:>10} {target:>10}  {'yes' if ok else 'NO'}")
    tens = [max(f.stall_ms for f in figures[i : i + 10]) for i in range(0, len(figures), 10)]
    print("longest stall per 10 turns (ms):", [round(t, 1) for t in tens])
    tens = [max(f.stall_cpu_ms for f in figures[i : i + 10]) for i in range(0, len(figures), 10)]
    print("  own CPU of it (ms):           ", [round(t, 1) for t in tens])
    print(json.dumps({"db_bytes": size, "overhead_ratio": round(ratio, 3), "stall_ms": stall_last}))
