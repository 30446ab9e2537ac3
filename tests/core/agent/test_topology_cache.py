"""TopologyCache without a network: httpx.MockTransport stands in for GNS3's REST API and an
in-memory event stream for its notifications; turns run through the real agent graph."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import pytest_asyncio
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult

from gns3_copilot_desktop.core.agent.context import AgentLimits, RunContext
from gns3_copilot_desktop.core.agent.graph import build_graph
from gns3_copilot_desktop.core.agent.tools import ToolRegistry
from gns3_copilot_desktop.core.agent.topology_cache import TopologyCache
from gns3_copilot_desktop.core.gns3 import Gns3Client, notifications
from gns3_copilot_desktop.core.gns3.change_watch import ProjectChangeWatch
from gns3_copilot_desktop.core.gns3.models import Notification
from gns3_copilot_desktop.core.gns3.notifications import LinkState, OnLink
from tests.helpers.agent import BlockingTool, RecordingChangeTool

pytestmark = pytest.mark.asyncio

SERVER = "http://gns3.test:3080"
PID = "11111111-1111-4111-8111-111111111111"
PING = Notification(action="ping", event={"cpu_usage_percent": 1})


class FakeGns3:
    """GET nodes/links of one project; each token sees its own node name."""

    def __init__(self) -> None:
        self.node_reads: list[str] = []
        self.names = {"token-a": "PC-A", "token-b": "PC-B"}

    def handler(self, request: httpx.Request) -> httpx.Response:
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if request.url.path.endswith("/nodes"):
            self.node_reads.append(token)
            node = {"node_id": "n1", "name": self.names[token], "node_type": "vpcs"}
            return httpx.Response(200, json=[{**node, "project_id": PID, "status": "stopped"}])
        if request.url.path.endswith("/links"):
            return httpx.Response(200, json=[])
        return httpx.Response(404, json={"message": "not here"})

    def client(self, token: str) -> Gns3Client:
        return Gns3Client(SERVER, token=token, transport=httpx.MockTransport(self.handler))


class FakeStream:
    """The project's notification stream: the test pushes messages, or ends it."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Notification | LinkState] = asyncio.Queue()
        self.opened = 0
        self.ended = asyncio.Event()

    async def events(self, on_link: OnLink) -> AsyncGenerator[Notification, None]:
        self.opened += 1
        self.ended.clear()
        on_link(LinkState(connected=True))
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, LinkState):
                    on_link(item)
                else:
                    yield item  # resumed when the watch asks for the next: it handled this one
                self.queue.task_done()
        finally:
            self.ended.set()


class Cache:
    """A TopologyCache whose watches follow `FakeStream`s (one per project)."""

    def __init__(self) -> None:
        self.stream = FakeStream()
        self.watches: list[ProjectChangeWatch] = []
        self.now = 0.0
        self.cache = TopologyCache(watch_factory=self._watch, clock=self.clock)

    def clock(self) -> float:
        return self.now

    def _watch(self, client: Gns3Client, project_id: str) -> ProjectChangeWatch:
        watch = ProjectChangeWatch(self.stream.events, idle_s=60.0, clock=self.clock)
        self.watches.append(watch)
        return watch

    async def live(self) -> None:
        """Start the watch (a first summary), greet it with the server's ping, wait until the
        watch vouches for copies."""
        self.stream.queue.put_nowait(PING)
        await self.settled()
        assert self.watches[-1].generation() is not None

    async def settled(self) -> None:
        """Every message pushed so far was handled by the watch."""
        async with asyncio.timeout(2):
            await self.stream.queue.join()


@pytest_asyncio.fixture
async def cache() -> AsyncIterator[Cache]:
    made = Cache()
    yield made
    await made.cache.close()


# --- a model that plays scripted steps through the graph ---------------------------------------


class StepModel(BaseChatModel):
    """Streams one scripted step per call: a tool call ``(name, args)`` or a text answer."""

    steps: list[Any]
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "steps"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *a: Any, **kw: Any) -> ChatResult:
        raise NotImplementedError

    def _stream(self, messages: list[BaseMessage], *a: Any, **kw: Any) -> Iterator[Any]:
        step = self.steps[self.calls]
        self.calls += 1
        done = {"finish_reason": "stop"}
        if isinstance(step, str):
            yield ChatGenerationChunk(message=AIMessageChunk(content=step, response_metadata=done))
            return
        name, args = step
        call = {"name": name, "args": json.dumps(args), "id": f"call_{self.calls}", "index": 0}
        chunk = AIMessageChunk(content="", tool_call_chunks=[call], response_metadata=done)
        yield ChatGenerationChunk(message=chunk)


async def _turn(cache: TopologyCache, client: Gns3Client, *steps: Any) -> None:
    read, change = BlockingTool(), RecordingChangeTool()
    read.release.set()
    graph = build_graph(ToolRegistry([read, change]))
    ctx = RunContext(
        client=client,
        project_id=PID,
        model=StepModel(steps=list(steps)),
        server_url=SERVER,
        limits=AgentLimits(heartbeat_interval_s=0),
        always_allow=frozenset({change.name}),
        topology_cache=cache,
    )
    result = await graph.ainvoke({"messages": [HumanMessage("go")]}, context=ctx)
    assert result["llm_calls"] == len(steps)


# --- tests ---------------------------------------------------------------------------------------


async def test_two_model_calls_with_a_read_tool_between_read_the_topology_once(
    cache: Cache,
) -> None:
    gns3 = FakeGns3()
    client = gns3.client("token-a")
    await cache.cache.summary(client, PID)  # starts the watch; not vouched for yet: not kept
    await cache.live()
    before = len(gns3.node_reads)

    await _turn(cache.cache, client, ("wait_for_lab", {}), "done")

    assert len(gns3.node_reads) - before == 1
    # and the next turn, with nothing changed, reads nothing
    await _turn(cache.cache, client, "hello again")
    assert len(gns3.node_reads) - before == 1


async def test_a_change_tool_between_two_model_calls_forces_a_read(cache: Cache) -> None:
    gns3 = FakeGns3()
    client = gns3.client("token-a")
    await cache.cache.summary(client, PID)
    await cache.live()
    before = len(gns3.node_reads)

    await _turn(cache.cache, client, ("set_lab_note", {"text": "x"}), "done")

    assert len(gns3.node_reads) - before == 2


async def test_a_change_notification_makes_the_next_summary_read_again(cache: Cache) -> None:
    gns3 = FakeGns3()
    client = gns3.client("token-a")
    await cache.cache.summary(client, PID)
    await cache.live()
    text, _ = await cache.cache.summary(client, PID)
    assert '"PC-A"' in text

    gns3.names["token-a"] = "Renamed"
    cache.stream.queue.put_nowait(PING)  # pings are not changes
    await cache.settled()
    assert '"PC-A"' in (await cache.cache.summary(client, PID))[0]

    cache.stream.queue.put_nowait(Notification(action="node.updated", event={"node_id": "n1"}))
    await cache.settled()
    text, types = await cache.cache.summary(client, PID)
    assert '"Renamed"' in text and types == {"vpcs"}

    # a message that is no event the client can read counts as a change too
    gns3.names["token-a"] = "Again"
    garbage = notifications._decode(b'{"action": ', SimpleNamespace(label="gns3.test"))  # type: ignore[arg-type]
    cache.stream.queue.put_nowait(garbage)
    await cache.settled()
    assert '"Again"' in (await cache.cache.summary(client, PID))[0]


async def test_without_a_subscribed_stream_every_summary_reads(cache: Cache) -> None:
    gns3 = FakeGns3()
    client = gns3.client("token-a")
    for _ in range(3):  # the watch is up but has not been greeted: nothing proves it hears
        await cache.cache.summary(client, PID)
    assert len(gns3.node_reads) == 3

    await cache.live()
    await cache.cache.summary(client, PID)
    await cache.cache.summary(client, PID)
    assert len(gns3.node_reads) == 4

    cache.stream.queue.put_nowait(LinkState(connected=False, reason="dropped"))
    await cache.settled()
    await cache.cache.summary(client, PID)
    await cache.cache.summary(client, PID)
    assert len(gns3.node_reads) == 6


async def test_two_logins_never_share_an_entry(cache: Cache) -> None:
    gns3 = FakeGns3()
    alice, bob = gns3.client("token-a"), gns3.client("token-b")
    await cache.cache.summary(alice, PID)
    await cache.live()
    assert '"PC-A"' in (await cache.cache.summary(alice, PID))[0]
    assert '"PC-A"' in (await cache.cache.summary(alice, PID))[0]

    text, _ = await cache.cache.summary(bob, PID)

    assert '"PC-B"' in text and "PC-A" not in text
    assert gns3.node_reads == ["token-a", "token-a", "token-b"]
    assert cache.stream.opened == 1  # one watch per project, whoever asks


async def test_an_idle_watch_ends_and_the_next_use_starts_another(cache: Cache) -> None:
    gns3 = FakeGns3()
    client = gns3.client("token-a")
    await cache.cache.summary(client, PID)
    await cache.live()
    first = cache.watches[-1]

    cache.now += 61.0  # nobody asked for a minute: the next ping ends the watch
    cache.stream.queue.put_nowait(PING)
    async with asyncio.timeout(2):
        await cache.stream.ended.wait()
    await asyncio.sleep(0)  # the watch's task finishes after its stream closed
    assert not first.running and first.idled
    reads = len(gns3.node_reads)
    await cache.cache.summary(client, PID)  # a copy from the ended watch is not trusted

    assert len(gns3.node_reads) == reads + 1
    assert len(cache.watches) == 2 and cache.watches[-1].running
