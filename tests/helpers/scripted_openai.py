"""A loopback server that speaks OpenAI's chat-completions API and plays scripted turns.

Every agent and UI test drives the *real* provider client (``langchain-openai``'s ``ChatOpenAI``
with ``base_url``) against this server, so the streaming parser, tool-call assembly, usage and
error classes under test are the ones users run.

The server runs in its own thread with its own event loop (a ``SelectorEventLoop``), so it works
the same from pytest-asyncio tests on the default loop, from qasync/Qt tests, and from plain sync
tests. It binds 127.0.0.1 on a free port.

What it speaks (faithful to OpenAI where it matters to a client):
- ``POST /v1/chat/completions`` with ``stream: true`` (SSE ``data: {...}`` events of
  ``chat.completion.chunk`` objects over chunked transfer encoding, the first delta carrying
  ``role: "assistant"``, then ``data: [DONE]``), ``stream_options.include_usage`` (a final chunk
  with empty ``choices`` and ``usage``) and ``stream: false`` (one ``chat.completion``).
- ``GET /v1/models`` and, as an Ollama stand-in, ``GET /api/tags``.
- Always-on validation like OpenAI's: Bearer key present (and equal to ``api_key`` when set),
  JSON body, ``model`` and a non-empty ``messages`` list with known roles, and the two 400s for
  broken tool-call sequences (an assistant ``tool_calls`` message not followed by a tool message
  for each id; a tool message with no preceding tool call).

Choosing the answer to a request: first the persistent rules (``add_rule``,
``set_title_responder``), then the first queued turn (``push``) whose ``match`` accepts the
request, then ``default_turn``. A request nothing answers gets a 500 and is recorded in
``errors``, which fails the test at teardown of the ``scripted_openai`` fixture.

Usage in a test::

    def test_something(scripted_openai):
        scripted_openai.push(ScriptedTurn.text("Hello there", chunks=3))
        model = scripted_openai.chat_model()          # a ChatOpenAI, max_retries=0
        ...
        assert scripted_openai.requests[0].api_key == scripted_openai.client_api_key

For Qt tests, wait on the counters with ``qtbot.waitUntil(lambda: server.stalled_count == 1)``;
for asyncio tests, ``await server.wait_until(lambda: server.stalled_count == 1)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

__all__ = [
    "RecordedRequest",
    "ScriptedError",
    "ScriptedOpenAIServer",
    "ScriptedToolCall",
    "ScriptedTurn",
    "is_title_request",
    "scripted_openai",
]

VALID_ROLES = ("system", "developer", "user", "assistant", "tool", "function")
DEFAULT_CLIENT_KEY = "sk-test-scripted-0123456789abcdef"
_STARTUP_TIMEOUT_S = 5.0
_USED_PORTS: set[int] = set()  # see ScriptedOpenAIServer._listen_on_a_fresh_port
_SHUTDOWN_TIMEOUT_S = 5.0


# --- scripts -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScriptedToolCall:
    """One tool call the scripted model makes. ``id`` defaults to ``call_<n>``; ``""`` is sent."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str | None = None

    def arguments_json(self) -> str:
        """The arguments as the JSON string OpenAI sends."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments)


@dataclass(frozen=True)
class ScriptedError:
    """An HTTP error answer with OpenAI's error JSON."""

    status: int
    message: str
    type: str = "invalid_request_error"
    code: str | None = None
    param: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ScriptedTurn:
    """What the scripted model answers to one request.

    Streamed answers are a list of SSE data events: the role event, ``content_chunks`` content
    pieces, for each tool call one event with its id and name then ``argument_chunks`` argument
    pieces, the finish event, then (when the client asked for it) the usage event. The
    ``*_after_chunks`` fields count these data events.
    """

    content: str = ""
    tool_calls: Sequence[ScriptedToolCall] = ()
    content_chunks: int = 3
    argument_chunks: int = 3
    chunk_delay_s: float = 0.0
    finish_reason: str | None = None  # None: "tool_calls" if there are tool calls, else "stop"
    usage: tuple[int, int] | None = None  # (prompt, completion); None: estimated from the text
    stall_before_headers: bool = False
    stall_after_chunks: int | None = None
    stall_timeout_s: float | None = None  # None: until release_stall() or the client leaves
    malformed_after_chunks: int | None = None
    stream_error_after_chunks: int | None = None
    cut_off_after_chunks: int | None = None
    cut_off_clean: bool = False  # True: the body ends properly but without finish or [DONE]
    error: ScriptedError | None = None
    match: Callable[[RecordedRequest], bool] | None = None
    label: str = ""

    # -- constructors for the common cases --

    @classmethod
    def text(cls, content: str, *, chunks: int = 3, **kw: Any) -> ScriptedTurn:
        """A plain answer streamed in ``chunks`` pieces."""
        return cls(content=content, content_chunks=chunks, **kw)

    @classmethod
    def tool(
        cls,
        name: str,
        arguments: dict[str, Any] | str | None = None,
        *,
        id: str | None = None,
        **kw: Any,
    ) -> ScriptedTurn:
        """One tool call, arguments split over ``argument_chunks`` events."""
        return cls(tool_calls=(ScriptedToolCall(name, arguments or {}, id),), **kw)

    @classmethod
    def tools(cls, *calls: ScriptedToolCall, **kw: Any) -> ScriptedTurn:
        """Several parallel tool calls in one answer (distinct indexes)."""
        return cls(tool_calls=tuple(calls), **kw)

    @classmethod
    def rate_limited(cls, retry_after_s: int = 1, **kw: Any) -> ScriptedTurn:
        """OpenAI's 429 with ``retry-after``."""
        message = (
            "Rate limit reached for requests on organization org-scripted: Limit 3, Used 3, "
            f"Requested 1. Please try again in {retry_after_s}s."
        )
        headers = (
            ("retry-after", str(retry_after_s)),
            ("x-ratelimit-limit-requests", "3"),
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", f"{retry_after_s}s"),
        )
        err = ScriptedError(429, message, "requests", "rate_limit_exceeded", headers=headers)
        return cls(error=err, **kw)

    @classmethod
    def server_error(cls, **kw: Any) -> ScriptedTurn:
        """OpenAI's 500."""
        message = "The server had an error while processing your request. Sorry about that!"
        return cls(error=ScriptedError(500, message, "server_error"), **kw)

    @classmethod
    def invalid_api_key(cls, **kw: Any) -> ScriptedTurn:
        """OpenAI's 401 for a wrong key."""
        return cls(error=_invalid_key_error("sk-test-***"), **kw)

    @classmethod
    def http_error(
        cls,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        code: str | None = None,
        **kw: Any,
    ) -> ScriptedTurn:
        """Any HTTP error with OpenAI's error JSON (e.g. Ollama's "does not support tools")."""
        return cls(error=ScriptedError(status, message, type, code), **kw)

    @classmethod
    def malformed(cls, content: str = "partial", *, chunks: int = 1, **kw: Any) -> ScriptedTurn:
        """Streams ``content`` then a data line that is not JSON."""
        return cls(content=content, content_chunks=chunks, malformed_after_chunks=1 + chunks, **kw)

    @classmethod
    def stalled(
        cls,
        content: str = "Thinking...",
        *,
        chunks: int = 2,
        stall_after_chunks: int = 2,
        timeout_s: float | None = None,
        **kw: Any,
    ) -> ScriptedTurn:
        """Streams ``stall_after_chunks`` events, waits until released, then finishes normally."""
        return cls(
            content=content,
            content_chunks=chunks,
            stall_after_chunks=stall_after_chunks,
            stall_timeout_s=timeout_s,
            **kw,
        )

    @classmethod
    def cut_off(
        cls, content: str = "The answer was", *, chunks: int = 2, clean: bool = False, **kw: Any
    ) -> ScriptedTurn:
        """Streams the content then closes: no finish_reason, no ``[DONE]``.

        ``clean=False`` drops the connection mid-body (the client sees an incomplete read);
        ``clean=True`` ends the HTTP body properly, so only the missing finish reason tells.
        """
        return cls(
            content=content,
            content_chunks=chunks,
            cut_off_after_chunks=1 + chunks,
            cut_off_clean=clean,
            **kw,
        )


def _invalid_key_error(masked: str) -> ScriptedError:
    return ScriptedError(
        401, f"Incorrect API key provided: {masked}.", "invalid_request_error", "invalid_api_key"
    )


# --- recorded requests -------------------------------------------------------------------------


@dataclass
class RecordedRequest:
    """One request the server received, parsed."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    status: int = 0
    turn_label: str = ""

    @property
    def api_key(self) -> str | None:
        """The Bearer token of the Authorization header."""
        auth = self.headers.get("authorization", "")
        return auth[7:] if auth.lower().startswith("bearer ") else None

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The ``messages`` list of a chat request (empty for anything else)."""
        if isinstance(self.body, dict) and isinstance(self.body.get("messages"), list):
            return list(self.body["messages"])
        return []

    @property
    def system_prompt(self) -> str:
        """The text of every system/developer message, joined."""
        return "\n".join(
            _message_text(m) for m in self.messages if m.get("role") in ("system", "developer")
        )

    @property
    def last_user_text(self) -> str:
        """The text of the last user message."""
        users = [m for m in self.messages if m.get("role") == "user"]
        return _message_text(users[-1]) if users else ""

    @property
    def tool_names(self) -> list[str]:
        """Names of the tools bound to the request."""
        tools = self.body.get("tools") if isinstance(self.body, dict) else None
        return [t.get("function", {}).get("name", "") for t in tools or []]

    @property
    def stream(self) -> bool:
        """Whether the client asked for a stream."""
        return isinstance(self.body, dict) and bool(self.body.get("stream"))

    def all_text(self) -> str:
        """Every message's text, joined (to assert something did or did not reach the model)."""
        return "\n".join(_message_text(m) for m in self.messages)


def _message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def is_title_request(request: RecordedRequest) -> bool:
    """Default predicate of the title responder: no tools bound and a message mentions a title."""
    return not request.tool_names and "title" in request.all_text().lower()


# --- validation like OpenAI's ------------------------------------------------------------------


def validate_chat_body(body: Any) -> ScriptedError | None:
    """The 400s OpenAI returns for bodies a client could plausibly send; None when valid."""
    if not isinstance(body, dict):
        return ScriptedError(400, "We could not parse the JSON body of your request.")
    if not body.get("model"):
        return ScriptedError(400, "you must provide a model parameter", param="model")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return ScriptedError(400, f"{messages!r} is too short - 'messages'", param="messages")
    for i, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in VALID_ROLES:
            text = f"Invalid value: {role!r}. Supported values are: {', '.join(VALID_ROLES)}."
            return ScriptedError(400, text, code="invalid_value", param=f"messages[{i}].role")
    return _validate_tools(body.get("tools")) or _validate_tool_sequence(messages)


def _validate_tools(tools: Any) -> ScriptedError | None:
    """OpenAI's checks on ``tools``: a list of functions with names matching its pattern."""
    if tools is None:
        return None
    if not isinstance(tools, list) or not tools:
        return ScriptedError(400, f"{tools!r} is too short - 'tools'", param="tools")
    for i, tool in enumerate(tools):
        function = tool.get("function") if isinstance(tool, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(name, str) or not _TOOL_NAME.fullmatch(name):
            text = (
                f"Invalid 'tools[{i}].function.name': string does not match pattern. "
                "Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'."
            )
            return ScriptedError(400, text, code="invalid_value", param=f"tools[{i}].function.name")
    return None


_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def _validate_tool_sequence(messages: list[dict[str, Any]]) -> ScriptedError | None:
    i = 0
    while i < len(messages):
        message = messages[i]
        if message["role"] == "tool":
            text = (
                "Invalid parameter: messages with role 'tool' must be a response to a "
                "preceeding message with 'tool_calls'."
            )
            return ScriptedError(400, text, param=f"messages.[{i}].role")
        calls = message.get("tool_calls") if message["role"] == "assistant" else None
        if not calls:
            i += 1
            continue
        pending = [c.get("id") for c in calls]
        j = i + 1
        while j < len(messages) and messages[j]["role"] == "tool":
            answered = messages[j].get("tool_call_id")
            if answered in pending:
                pending.remove(answered)
            j += 1
        if pending:
            text = (
                "An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                f"response messages: {', '.join(str(p) for p in pending)}"
            )
            return ScriptedError(400, text, param=f"messages.[{i + 1}].role")
        i = j
    return None


# --- building the answer -----------------------------------------------------------------------


def _split(text: str, pieces: int) -> list[str]:
    """Split ``text`` into ``pieces`` non-empty parts (fewer if the text is shorter)."""
    if not text:
        return []
    pieces = max(1, min(pieces, len(text)))
    size, extra = divmod(len(text), pieces)
    parts, start = [], 0
    for k in range(pieces):
        end = start + size + (1 if k < extra else 0)
        parts.append(text[start:end])
        start = end
    return parts


class _Answer:
    """Turns a ScriptedTurn and a request into chat.completion(.chunk) objects."""

    def __init__(self, turn: ScriptedTurn, body: dict[str, Any], completion_id: str, ids: Any):
        self.turn = turn
        self.model = str(body.get("model"))
        self.completion_id = completion_id
        self.created = int(time.time())
        self.calls = [
            c if c.id is not None else replace(c, id=f"call_{next(ids)}") for c in turn.tool_calls
        ]
        prompt_chars = len(json.dumps(body.get("messages", [])))
        out_chars = len(turn.content) + sum(len(c.arguments_json()) for c in self.calls)
        self.usage = turn.usage or (max(1, prompt_chars // 4), max(1, out_chars // 4))

    @property
    def finish_reason(self) -> str:
        if self.turn.finish_reason is not None:
            return self.turn.finish_reason
        return "tool_calls" if self.calls else "stop"

    def usage_json(self) -> dict[str, Any]:
        prompt, completion = self.usage
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
        }

    def completion(self) -> dict[str, Any]:
        message: dict[str, Any] = {
            "role": "assistant",
            "content": self.turn.content or None,
            "refusal": None,
        }
        if self.calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments_json()},
                }
                for c in self.calls
            ]
        return {
            "id": self.completion_id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "system_fingerprint": "fp_scripted",
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": self.finish_reason,
                }
            ],
            "usage": self.usage_json(),
        }

    def chunks(self, include_usage: bool) -> list[dict[str, Any]]:
        usage_null = {"usage": None} if include_usage else {}
        first: dict[str, Any] = {"role": "assistant", "content": "", "refusal": None}
        deltas: list[tuple[dict[str, Any], str | None]] = [(first, None)]
        deltas += [
            ({"content": part}, None)
            for part in _split(self.turn.content, self.turn.content_chunks)
        ]
        for index, call in enumerate(self.calls):
            head = {
                "index": index,
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            deltas.append(({"tool_calls": [head]}, None))
            for part in _split(call.arguments_json(), self.turn.argument_chunks):
                piece = {"index": index, "function": {"arguments": part}}
                deltas.append(({"tool_calls": [piece]}, None))
        deltas.append(({}, self.finish_reason))
        out = [self._chunk([self._choice(d, f)], usage_null) for d, f in deltas]
        if include_usage:
            out.append(self._chunk([], {"usage": self.usage_json()}))
        return out

    @staticmethod
    def _choice(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        return {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}

    def _chunk(self, choices: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": self.completion_id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "system_fingerprint": "fp_scripted",
            "choices": choices,
            **extra,
        }


# --- the server --------------------------------------------------------------------------------


class _ClientGoneError(Exception):
    """The client closed the connection while we were answering."""


@dataclass
class _Rule:
    predicate: Callable[[RecordedRequest], bool]
    answer: Callable[[RecordedRequest], ScriptedTurn]


class ScriptedOpenAIServer:
    """The loopback server. Start with ``start()`` (or use the ``scripted_openai`` fixture)."""

    def __init__(self, *, api_key: str | None = None) -> None:
        self.api_key = api_key  # None: any non-empty Bearer key is accepted
        self.client_api_key = api_key or DEFAULT_CLIENT_KEY
        self.models: list[str] = ["gpt-4o-mini", "scripted-model"]
        self.ollama_models: list[str] = ["llama3.1:8b", "qwen2.5:7b"]
        self.default_turn: ScriptedTurn | None = None
        self.requests: list[RecordedRequest] = []
        self.errors: list[str] = []
        self.disconnects = 0
        self.stalled_count = 0
        self._queue: list[ScriptedTurn] = []
        self._rules: list[_Rule] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._release: asyncio.Event | None = None
        self._ready = threading.Event()
        self._port = 0
        self._conn_tasks: set[asyncio.Task[Any]] = set()

    # -- public API used by tests --

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:<port>`` (the Ollama stand-in's host)."""
        return f"http://127.0.0.1:{self._port}"

    @property
    def base_url(self) -> str:
        """The OpenAI base URL, ending in ``/v1``."""
        return f"{self.root_url}/v1"

    def push(self, *turns: ScriptedTurn) -> None:
        """Queue turns; each chat request takes the first one whose ``match`` accepts it."""
        with self._lock:
            self._queue.extend(turns)

    @property
    def remaining(self) -> int:
        """Queued turns not yet played."""
        with self._lock:
            return len(self._queue)

    def add_rule(
        self,
        predicate: Callable[[RecordedRequest], bool],
        answer: ScriptedTurn | Callable[[RecordedRequest], ScriptedTurn],
    ) -> None:
        """A persistent responder checked before the queue (it is never consumed)."""
        factory = answer if callable(answer) else (lambda _req, t=answer: t)
        with self._lock:
            self._rules.append(_Rule(predicate, factory))

    def set_title_responder(
        self,
        title: str | Callable[[RecordedRequest], str] = "Scripted title",
        predicate: Callable[[RecordedRequest], bool] = is_title_request,
    ) -> None:
        """Answer title-generation calls (made in parallel with normal turns) with ``title``."""

        def answer(request: RecordedRequest) -> ScriptedTurn:
            text = title(request) if callable(title) else title
            return ScriptedTurn.text(text, chunks=2, label="title")

        self.add_rule(predicate, answer)

    def release_stall(self) -> None:
        """Let every stream stalled now go on (later stalls wait for the next release)."""
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # loop already closed
                self._loop.call_soon_threadsafe(self._release_now)

    def _release_now(self) -> None:
        if self._release is not None:
            self._release.set()
        self._release = asyncio.Event()

    def chat_requests(self) -> list[RecordedRequest]:
        """The recorded chat-completion requests, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def take_errors(self) -> list[str]:
        """Return and clear the recorded server errors (for tests that provoke one)."""
        with self._lock:
            errors, self.errors = self.errors, []
        return errors

    async def wait_until(self, condition: Callable[[], bool], timeout_s: float = 5.0) -> None:
        """Wait (from any event loop) until ``condition()`` holds; TimeoutError after timeout."""
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met within {timeout_s} s")
            await asyncio.sleep(0.005)

    def chat_model(self, **overrides: Any) -> Any:
        """A real ``ChatOpenAI`` pointed at this server (no retries, usage streamed)."""
        from langchain_openai import ChatOpenAI

        from gns3_copilot_desktop.core.agent.model_factory import openai_client_options

        kwargs: dict[str, Any] = {
            "model": "gpt-4o-mini",
            "base_url": self.base_url,
            "api_key": self.client_api_key,
            "max_retries": 0,
            "timeout": 30,  # generous: a loaded CI machine must not turn a stall into a timeout
            "stream_usage": True,
            **openai_client_options(),  # as the app builds it
        }
        kwargs.update(overrides)
        return ChatOpenAI(**kwargs)

    # -- lifecycle --

    def start(self) -> ScriptedOpenAIServer:
        """Start the server thread and wait until it listens."""
        self._thread = threading.Thread(target=self._run, name="scripted-openai", daemon=True)
        self._thread.start()
        if not self._ready.wait(_STARTUP_TIMEOUT_S) or not self._port:
            raise RuntimeError(f"scripted OpenAI server did not start: {self.errors}")
        return self

    def stop(self) -> None:
        """Stop the server, end open connections and join the thread."""
        if self._loop is None or self._stop is None or self._thread is None:
            return
        with contextlib.suppress(RuntimeError):  # loop already closed
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(_SHUTDOWN_TIMEOUT_S)
        if self._thread.is_alive():
            self.errors.append("server thread did not stop in time")

    def _run(self) -> None:
        try:
            with asyncio.Runner(loop_factory=asyncio.SelectorEventLoop) as runner:
                runner.run(self._main())
        except Exception as exc:  # recorded, then failed on at teardown
            self.errors.append(f"server thread crashed: {exc!r}")
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._release = asyncio.Event()
        server = await self._listen_on_a_fresh_port()
        self._port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            server.close()
            for task in list(self._conn_tasks):
                task.cancel()
            await asyncio.gather(*self._conn_tasks, return_exceptions=True)
            await server.wait_closed()

    async def _listen_on_a_fresh_port(self) -> asyncio.Server:
        """Listen on a port no earlier server of this process used.

        langchain-openai caches one HTTP client per (base_url, timeout) for the whole process. A
        later test whose server got a reused port would then meet pooled connections bound to an
        earlier test's closed event loop ("Event loop is closed"). Ports that were used are held
        open while the OS is asked again, so it hands out another one.
        """
        rejected: list[asyncio.Server] = []
        try:
            for _ in range(100):
                server = await asyncio.start_server(self._on_connection, "127.0.0.1", 0)
                port = server.sockets[0].getsockname()[1]
                if port not in _USED_PORTS:
                    _USED_PORTS.add(port)
                    return server
                rejected.append(server)
            raise RuntimeError("no unused loopback port after 100 tries")
        finally:
            for server in rejected:
                server.close()

    # -- HTTP --

    async def _on_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._conn_tasks.add(task)
        try:
            while await self._serve_one(reader, writer):
                pass
        except (_ClientGoneError, ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        except Exception as exc:
            self.errors.append(f"handler failed: {exc!r}")
        finally:
            self._conn_tasks.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Serve one request; False when the connection should end."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return False  # the client closed an idle keep-alive connection
        lines = head.decode("latin-1").split("\r\n")
        method, path, _version = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        raw = await reader.readexactly(int(headers.get("content-length", "0") or 0))
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = _UNPARSABLE
        request = RecordedRequest(method, path.split("?", 1)[0], headers, body)
        with self._lock:
            self.requests.append(request)
        return await self._route(request, reader, writer)

    async def _route(
        self, request: RecordedRequest, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        if request.method == "GET" and request.path == "/api/tags":
            tags = {"models": [_ollama_tag(name) for name in self.ollama_models]}
            return await self._send_json(writer, request, 200, tags)
        auth_error = self._check_auth(request)
        if auth_error is not None:
            return await self._send_error(writer, request, auth_error)
        if request.method == "GET" and request.path == "/v1/models":
            data = [
                {"id": m, "object": "model", "created": 0, "owned_by": "scripted"}
                for m in self.models
            ]
            return await self._send_json(writer, request, 200, {"object": "list", "data": data})
        if request.method == "POST" and request.path == "/v1/chat/completions":
            return await self._chat(request, reader, writer)
        err = ScriptedError(
            404, f"Unknown request URL: {request.method} {request.path}.", code="unknown_url"
        )
        return await self._send_error(writer, request, err)

    def _check_auth(self, request: RecordedRequest) -> ScriptedError | None:
        key = request.api_key
        if not key:
            text = (
                "You didn't provide an API key. You need to provide your API key in an "
                "Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
            )
            return ScriptedError(401, text)
        if self.api_key is not None and key != self.api_key:
            return _invalid_key_error(f"{key[:3]}***{key[-4:]}")
        return None

    async def _chat(
        self, request: RecordedRequest, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        body = None if request.body is _UNPARSABLE else request.body
        invalid = validate_chat_body(body)
        if invalid is not None:
            return await self._send_error(writer, request, invalid)
        turn = self._pick_turn(request)
        if turn is None:
            self.errors.append(f"no scripted turn for request {request.last_user_text[:80]!r}")
            err = ScriptedError(500, "No scripted turn left for this request.", "server_error")
            return await self._send_error(writer, request, err)
        request.turn_label = turn.label
        if turn.error is not None:
            return await self._send_error(writer, request, turn.error)
        answer = _Answer(turn, body, f"chatcmpl-scripted{next(self._ids)}", self._ids)
        if not request.stream:
            return await self._complete(writer, reader, request, answer)
        options = body.get("stream_options") or {}
        return await self._stream(
            writer, reader, request, answer, bool(options.get("include_usage"))
        )

    def _pick_turn(self, request: RecordedRequest) -> ScriptedTurn | None:
        with self._lock:
            for rule in self._rules:
                if rule.predicate(request):
                    return rule.answer(request)
            for i, turn in enumerate(self._queue):
                if turn.match is None or turn.match(request):
                    return self._queue.pop(i)
            return self.default_turn

    async def _stream(
        self,
        writer: asyncio.StreamWriter,
        reader: asyncio.StreamReader,
        request: RecordedRequest,
        answer: _Answer,
        include_usage: bool,
    ) -> bool:
        turn = answer.turn
        # Streams end their connection (``connection: close``), so a read on the socket during
        # the answer completes only when the client leaves: that is how cancellation is seen.
        watch = asyncio.ensure_future(reader.read(1))
        completed = False
        try:
            if turn.stall_before_headers:
                await self._stall(turn, watch)
            request.status = 200
            writer.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                b"transfer-encoding: chunked\r\ncache-control: no-cache\r\n"
                b"x-request-id: req_scripted\r\nconnection: close\r\n\r\n"
            )
            await writer.drain()
            for n, chunk in enumerate(answer.chunks(include_usage)):
                if await self._special_event(n, turn, writer, watch):
                    completed = True
                    return False
                await self._send_event(writer, json.dumps(chunk), watch, turn.chunk_delay_s)
            await self._send_event(writer, "[DONE]", watch, 0)
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            completed = True
            return False
        finally:
            if not completed:
                with self._lock:
                    self.disconnects += 1
            await _drop(watch)

    async def _complete(
        self,
        writer: asyncio.StreamWriter,
        reader: asyncio.StreamReader,
        request: RecordedRequest,
        answer: _Answer,
    ) -> bool:
        """A non-streamed answer; stalls happen before it, a cut-off sends nothing at all."""
        turn = answer.turn
        if turn.stall_before_headers or turn.stall_after_chunks is not None:
            watch = asyncio.ensure_future(reader.read(1))
            try:
                await self._stall(turn, watch)
            except _ClientGoneError:
                with self._lock:
                    self.disconnects += 1
                raise
            finally:
                await _drop(watch)
        if turn.cut_off_after_chunks is not None:
            return False
        if turn.malformed_after_chunks is not None:
            request.status = 200
            payload = b'{"id": "chatcmpl-broken", "choices": ['
            head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
            head += f"content-length: {len(payload)}\r\n\r\n"
            writer.write(head.encode() + payload)
            await writer.drain()
            return True
        return await self._send_json(writer, request, 200, answer.completion())

    async def _special_event(
        self, n: int, turn: ScriptedTurn, writer: asyncio.StreamWriter, watch: asyncio.Future[bytes]
    ) -> bool:
        """Stall, break or cut the stream before data event ``n``; True when the stream ends."""
        if turn.stall_after_chunks == n:
            await self._stall(turn, watch)
        if turn.cut_off_after_chunks == n:
            if turn.cut_off_clean:
                writer.write(b"0\r\n\r\n")
                await writer.drain()
            return True  # unclean: the connection closes with the chunked body unfinished
        if turn.malformed_after_chunks == n:
            data = '{"id": "chatcmpl-broken", "choices": [{"delta": '
        elif turn.stream_error_after_chunks == n:
            error = {"message": "The model produced invalid content.", "type": "server_error"}
            data = json.dumps({"error": {**error, "param": None, "code": None}})
        else:
            return False
        await self._send_event(writer, data, watch, 0)
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        return True

    async def _stall(self, turn: ScriptedTurn, watch: asyncio.Future[bytes]) -> None:
        assert self._release is not None
        release = asyncio.ensure_future(self._release.wait())
        with self._lock:
            self.stalled_count += 1
        try:
            await asyncio.wait(
                {release, watch}, timeout=turn.stall_timeout_s, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            release.cancel()
            with self._lock:
                self.stalled_count -= 1
        if watch.done():
            raise _ClientGoneError

    async def _send_event(
        self, writer: asyncio.StreamWriter, data: str, watch: asyncio.Future[bytes], delay: float
    ) -> None:
        if delay:
            await asyncio.wait({watch}, timeout=delay)
        if watch.done():
            raise _ClientGoneError
        payload = f"data: {data}\n\n".encode()
        writer.write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")
        await writer.drain()

    async def _send_error(
        self, writer: asyncio.StreamWriter, request: RecordedRequest, err: ScriptedError
    ) -> bool:
        body = {
            "error": {
                "message": err.message,
                "type": err.type,
                "param": err.param,
                "code": err.code,
            }
        }
        return await self._send_json(writer, request, err.status, body, err.headers)

    async def _send_json(
        self,
        writer: asyncio.StreamWriter,
        request: RecordedRequest,
        status: int,
        body: Any,
        extra_headers: Sequence[tuple[str, str]] = (),
    ) -> bool:
        request.status = status
        payload = json.dumps(body).encode()
        head = [
            f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}",
            "content-type: application/json",
        ]
        head += [
            f"content-length: {len(payload)}",
            "x-request-id: req_scripted",
            "connection: keep-alive",
        ]
        head += [f"{k}: {v}" for k, v in extra_headers]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        await writer.drain()
        return True


async def _drop(watch: asyncio.Future[bytes]) -> None:
    """Cancel the disconnect watch and wait until the reader is free again."""
    watch.cancel()
    with contextlib.suppress(asyncio.CancelledError, ConnectionError):
        await watch


_UNPARSABLE = object()
_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


def _ollama_tag(name: str) -> dict[str, Any]:
    family = name.split(":", 1)[0]
    return {
        "name": name,
        "model": name,
        "modified_at": "2026-01-01T00:00:00Z",
        "size": 4_000_000_000,
        "digest": "0" * 64,
        "details": {
            "format": "gguf",
            "family": family,
            "parameter_size": "8B",
            "quantization_level": "Q4_K_M",
        },
    }


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture
def scripted_openai() -> Iterator[ScriptedOpenAIServer]:
    """A started scripted server for one test; fails the test on unexpected server errors."""
    server = ScriptedOpenAIServer().start()
    try:
        yield server
    finally:
        server.release_stall()
        server.stop()
    assert not server.errors, f"scripted OpenAI server errors: {server.errors}"
