"""Benchmarks of the per-project session store (issue 3 targets), on real files in a temp dir.

Run: ``.venv/bin/python -m bench sessions``. Turns are (user message, assistant tool call,
~2 KB tool result, ~500-char answer), as in the issue. The size benchmark runs a real LangGraph
graph on the real AsyncSqliteSaver whose state keeps a bounded window of the last 12 messages,
appends each turn to the transcript and prunes superseded checkpoints after each turn, as the agent
does.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph

from gns3_copilot_desktop.core.protocol import FunctionCall, ToolCall
from gns3_copilot_desktop.core.sessions import SessionStore, TranscriptMessage

WINDOW = 12
TOOL_RESULT = ("R1 FastEthernet0/0 up 10.0.0.1/24 " * 64)[:2048]
ANSWER = ("The topology has two routers linked on Fa0/0; both are started. " * 8)[:500]


def turn_messages(turn: int) -> list[TranscriptMessage]:
    """One benchmark turn in the transcript's OpenAI shape."""
    call_id = f"call_{turn}_{uuid.uuid4().hex[:8]}"
    call = ToolCall(id=call_id, function=FunctionCall(name="get_topology", arguments="{}"))
    return [
        TranscriptMessage(role="user", content=f"Turn {turn}: show me the topology please"),
        TranscriptMessage(role="assistant", tool_calls=[call]),
        TranscriptMessage(role="tool", content=TOOL_RESULT, tool_call_id=call_id),
        TranscriptMessage(role="assistant", content=ANSWER),
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
        median, worst = await _timed(lambda: store.read_transcript(sid, limit=50), 10)
        rows.append(("load last 50 messages", f"{median:.1f} ms", f"{worst:.1f} ms", "-"))
        median, worst = await _timed(lambda: store.search("FastEthernet0"), 10)
        rows.append(("search a word in 1,200 turns", f"{median:.1f} ms", f"{worst:.1f} ms", "-"))
        start = time.perf_counter()
        await store.delete_session(sid)
        elapsed = (time.perf_counter() - start) * 1000
        rows.append(("delete 200-turn session", f"{elapsed:.1f} ms", "-", "<= 100 ms"))
    return rows


def _window(old: list[AnyMessage], new: list[AnyMessage]) -> list[AnyMessage]:
    """Reducer: append, keep only the last WINDOW messages (the bounded working context)."""
    return (old + new)[-WINDOW:]


class _State(TypedDict):
    messages: Annotated[list[AnyMessage], _window]


def _build_graph(store: SessionStore) -> Any:
    def llm_call(state: _State) -> dict[str, list[AnyMessage]]:
        last = state["messages"][-1]
        if isinstance(last, ToolMessage):
            return {"messages": [AIMessage(content=ANSWER)]}
        call = {"name": "get_topology", "args": {}, "id": f"call_{uuid.uuid4().hex[:8]}"}
        return {"messages": [AIMessage(content="", tool_calls=[call])]}

    def tools(state: _State) -> dict[str, list[AnyMessage]]:
        last = state["messages"][-1]
        assert isinstance(last, AIMessage)
        call_id = last.tool_calls[0]["id"] or ""
        return {"messages": [ToolMessage(content=TOOL_RESULT, tool_call_id=call_id)]}

    def route(state: _State) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    builder = StateGraph(_State)
    builder.add_node("llm_call", llm_call)
    builder.add_node("tools", tools)
    builder.add_edge(START, "llm_call")
    builder.add_conditional_edges("llm_call", route, ["tools", END])
    builder.add_edge("tools", "llm_call")
    return builder.compile(checkpointer=store.checkpointer)


async def bench_size(tmp: Path, turns: int = 200) -> list[tuple[str, str, str, str]]:
    """DB size after ``turns`` turns: transcript + bounded checkpoint pruned each turn."""
    db = tmp / "size.db"
    per_turn: list[float] = []
    async with await SessionStore.open(db) as store:
        graph = _build_graph(store)
        sid = (await store.create_session()).id
        config = {"configurable": {"thread_id": sid}}
        for turn in range(turns):
            start = time.perf_counter()
            await graph.ainvoke({"messages": [HumanMessage(content=f"Turn {turn}")]}, config)
            await store.append_messages(sid, turn_messages(turn))
            await store.prune_checkpoints(sid)
            per_turn.append((time.perf_counter() - start) * 1000)
        open_size = _size(db)
    closed_size = _size(db)
    return [
        (f"DB+WAL size after {turns} turns (open)", f"{open_size / 1e6:.2f} MB", "-", "<= 15 MB"),
        (f"DB size after {turns} turns (closed)", f"{closed_size / 1e6:.2f} MB", "-", "<= 15 MB"),
        (
            "store work per turn, turn 1 / last",
            f"{per_turn[0]:.1f} ms",
            f"{per_turn[-1]:.1f} ms",
            "-",
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
