"""Fixtures of the session store tests: a store on a real file in tmp_path, and benchmark turns."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest_asyncio
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.types import interrupt

from gns3_copilot_desktop.core.protocol import FunctionCall, ToolCall
from gns3_copilot_desktop.core.sessions import SessionStore, TranscriptMessage

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


def db_files(db: Path) -> list[Path]:
    """The database and its -wal / -shm, those that exist."""
    return [p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[SessionStore]:
    """An open store on ``tmp_path/project.db``, closed after the test."""
    opened = await SessionStore.open(tmp_path / "project.db")
    try:
        yield opened
    finally:
        await opened.close()


class WindowState(TypedDict):
    """Graph state with a bounded working context, as the agent keeps it."""

    messages: Annotated[list[AnyMessage], keep_window]


def keep_window(old: list[AnyMessage], new: list[AnyMessage]) -> list[AnyMessage]:
    """Reducer: append and keep the last 12 messages."""
    return (old + new)[-12:]


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


async def count_rows(store: SessionStore, table: str, sid: str) -> int:
    """Rows of ``table`` that belong to thread ``sid``."""
    rows = await store.checkpointer.conn.execute_fetchall(
        f"SELECT count(*) FROM {table} WHERE thread_id = ?", (sid,)
    )
    return int(next(iter(rows))[0])
