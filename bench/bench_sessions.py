"""Benchmarks of the per-project session store, on real files in a temp dir.

Run: ``.venv/bin/python -m bench sessions``. Turns are (user message, assistant tool call,
~2 KB tool result, ~500-char answer), as in the issue. The size benchmark runs a real LangGraph
graph on the real AsyncSqliteSaver whose state keeps a bounded window of the last 12 messages,
appends each turn to the transcript and prunes superseded checkpoints after each turn, as the agent
does.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from gns3_copilot_desktop.core.protocol import FunctionCall, ToolCall
from gns3_copilot_desktop.core.sessions import SessionStore, TranscriptMessage

WINDOW = 12
TOOL_RESULT = ("R1 FastEthernet0/0 up 10.0.0.1/24 " * 64)[:2048]
ANSWER = ("The topology has two routers linked on Fa0/0; both are started. " * 8)[:500]


def turn_messages(turn: int, marker: str = "") -> list[TranscriptMessage]:
    """One turn as the issue's benchmarks define it: user, tool call, ~2 KB result, answer."""
    call_id = f"call_{turn}_{uuid.uuid4().hex[:8]}"
    call = ToolCall(id=call_id, function=FunctionCall(name="get_topology", arguments="{}"))
    return [
        TranscriptMessage(role="user", content=f"Turn {turn} {marker}: show the topology"),
        TranscriptMessage(role="assistant", tool_calls=[call], metadata={"turn": turn}),
        TranscriptMessage(role="tool", content=TOOL_RESULT + marker, tool_call_id=call_id),
        TranscriptMessage(role="assistant", content=ANSWER + marker),
    ]


async def _timed(fn: Callable[[], Awaitable[Any]], runs: int) -> tuple[float, float]:
    """Median and max wall time in ms over ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


async def _fill_session(store: SessionStore, turns: int) -> str:
    info = await store.create_session(title="Benchmark session")
    for turn in range(turns):
        await store.append_messages(info.id, turn_messages(turn))
    await store.update_stats(info.id, messages_delta=4 * turns)
    return info.id


async def bench_list(tmp: Path) -> list[tuple[str, str, str, str]]:
    """List a project's 1,000 sessions."""
    async with await SessionStore.open(tmp / "list.db") as store:
        for i in range(1000):
            info = await store.create_session(title=f"Session {i}")
            if i % 50 == 0:
                await store.set_pinned(info.id, True)
        await store.list_sessions()  # warm the page cache like a second open of the list would
        median, worst = await _timed(store.list_sessions, 20)
    return [("list 1,000 sessions", f"{median:.1f} ms", f"{worst:.1f} ms", "<= 20 ms")]


async def bench_history_and_delete(tmp: Path) -> list[tuple[str, str, str, str]]:
    """Load and delete a 200-turn session in a project that has other sessions too."""
    rows = []
    async with await SessionStore.open(tmp / "history.db") as store:
        for _ in range(10):
            await _fill_session(store, 20)
        sid = await _fill_session(store, 200)
        median, worst = await _timed(lambda: store.read_transcript(sid), 10)
        rows.append(
            ("load 200-turn history (800 msgs)", f"{median:.1f} ms", f"{worst:.1f} ms", "<= 100 ms")
        )
        lag = _LoopLag()
        lag.start()
        await asyncio.sleep(0.02)
        lag.take()
        stalls = []
        for _ in range(5):
            await store.read_transcript(sid)
            await asyncio.sleep(0.01)
            stalls.append(lag.take())
        await lag.stop()
        rows.append(
            (
                "loop stall opening 800 msgs (median / max)",
                f"{sorted(stalls)[2]:.1f} ms",
                f"{max(stalls):.1f} ms",
                "<= 10 ms",
            )
        )
        median, worst = await _timed(lambda: store.read_transcript(sid, limit=50), 10)
        rows.append(("load last 50 messages", f"{median:.1f} ms", f"{worst:.1f} ms", "-"))
        median, worst = await _timed(lambda: store.search("FastEthernet0"), 10)
        rows.append(("search a word in 1,200 turns", f"{median:.1f} ms", f"{worst:.1f} ms", "-"))
        start = time.perf_counter()
        await store.delete_session(sid)
        elapsed = (time.perf_counter() - start) * 1000
        rows.append(("delete 200-turn session", f"{elapsed:.1f} ms", "-", "<= 100 ms"))
    return rows


def keep_window(old: list[AnyMessage], new: list[AnyMessage]) -> list[AnyMessage]:
    """Reducer: append and keep the last WINDOW messages."""
    return (old + new)[-WINDOW:]


class WindowState(TypedDict):
    """Graph state with a bounded working context, as the agent keeps it."""

    messages: Annotated[list[AnyMessage], keep_window]


def build_turn_graph(store: SessionStore, *, ask_approval: bool = False) -> Any:
    """A real LangGraph graph on the store's checkpointer: model -> tool -> model per turn.

    With ``ask_approval`` the tool node pauses with ``interrupt()`` and returns the decision.
    """

    def llm_call(state: WindowState) -> dict[str, list[AnyMessage]]:
        last = state["messages"][-1]
        if isinstance(last, ToolMessage):
            return {"messages": [AIMessage(content=f"{ANSWER} ({last.content[-40:]})")]}
        call = {"name": "get_topology", "args": {}, "id": f"call_{uuid.uuid4().hex[:8]}"}
        return {"messages": [AIMessage(content=str(last.content), tool_calls=[call])]}

    def tools(state: WindowState) -> dict[str, list[AnyMessage]]:
        last = state["messages"][-1]
        assert isinstance(last, AIMessage)
        decision = interrupt({"tool": "get_topology"}) if ask_approval else "auto"
        call_id = last.tool_calls[0]["id"] or ""
        content = f"{TOOL_RESULT} {last.content} decision={decision}"
        return {"messages": [ToolMessage(content=content, tool_call_id=call_id)]}

    def route(state: WindowState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    builder = StateGraph(WindowState)
    builder.add_node("llm_call", llm_call)
    builder.add_node("tools", tools)
    builder.add_edge(START, "llm_call")
    builder.add_conditional_edges("llm_call", route, ["tools", END])
    builder.add_edge("tools", "llm_call")
    return builder.compile(checkpointer=store.checkpointer)


async def run_turn(graph: Any, sid: str, text: str) -> dict[str, Any]:
    """One turn of ``build_turn_graph`` on thread ``sid``."""
    config = {"configurable": {"thread_id": sid}}
    result: dict[str, Any] = await graph.ainvoke({"messages": [HumanMessage(content=text)]}, config)
    return result


class _LoopLag:
    """Longest event-loop stall seen by a 5 ms timer while it runs (reset with `take`)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.005)
            self.worst = max(self.worst, (loop.time() - start - 0.005) * 1000)

    def start(self) -> None:
        self._task = asyncio.create_task(self._tick())

    def take(self) -> float:
        worst, self.worst = self.worst, 0.0
        return worst

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


async def bench_size(tmp: Path, turns: int = 200) -> list[tuple[str, str, str, str]]:
    """DB size after ``turns`` turns: transcript + bounded checkpoint pruned each turn.

    Also the time and the longest loop stall per turn (graph + transcript + prune), early vs late.
    """
    db = tmp / "size.db"
    per_turn: list[float] = []
    lag: list[float] = []
    monitor = _LoopLag()
    async with await SessionStore.open(db) as store:
        graph = build_turn_graph(store)
        sid = (await store.create_session()).id
        config = {"configurable": {"thread_id": sid}}
        monitor.start()
        for turn in range(turns):
            monitor.take()
            start = time.perf_counter()
            await graph.ainvoke({"messages": [HumanMessage(content=f"Turn {turn}")]}, config)
            await store.append_messages(sid, turn_messages(turn))
            await store.prune_checkpoints(sid)
            per_turn.append((time.perf_counter() - start) * 1000)
            lag.append(monitor.take())
        await monitor.stop()
        open_size = _size(db)
    closed_size = _size(db)
    early, late = slice(1, 11), slice(-10, None)
    return [
        (f"DB+WAL size after {turns} turns (open)", f"{open_size / 1e6:.2f} MB", "-", "<= 15 MB"),
        (f"DB size after {turns} turns (closed)", f"{closed_size / 1e6:.2f} MB", "-", "<= 15 MB"),
        (
            "turn time, turns 2-11 / last 10 (median)",
            f"{statistics.median(per_turn[early]):.1f} ms",
            f"{statistics.median(per_turn[late]):.1f} ms",
            "<= 1.5x",
        ),
        (
            "loop stall, turns 2-11 / last 10 (max)",
            f"{max(lag[early]):.1f} ms",
            f"{max(lag[late]):.1f} ms",
            "<= 30 ms",
        ),
    ]


def _size(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


async def run() -> None:
    """Run every benchmark and print one table."""
    with tempfile.TemporaryDirectory(prefix="bench-sessions-") as tmp_name:
        tmp = Path(tmp_name)
        rows = await bench_list(tmp)
        rows += await bench_history_and_delete(tmp)
        rows += await bench_size(tmp)
    header = ("benchmark", "median/value", "max", "target")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(4)]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths, strict=True)))


def main() -> None:
    """Entry point of ``python -m bench sessions``."""
    asyncio.run(run())


if __name__ == "__main__":
    main()
