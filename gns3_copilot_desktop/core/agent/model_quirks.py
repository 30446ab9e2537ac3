"""What each model server needs on the wire: the kinds of server (OpenAI, llama.cpp and its
family, Ollama, vLLM, ...) and their quirks (fields they refuse, tool calls they cannot stream,
schemas their grammar engine cannot compile), the OpenAI client that applies them, and whether a
server is local and listening. `model_factory` builds the model with them."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessageChunk,
    ToolCallChunk,
)
from langchain_core.outputs import ChatGenerationChunk
from langchain_openai import ChatOpenAI
from pydantic import Field, PrivateAttr

from gns3_copilot_desktop.core.agent.model_errors import _cause_chain, _provider_text
from gns3_copilot_desktop.core.errors import ModelProviderError

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.agent.model_factory import LlmConfig

log = logging.getLogger(__name__)

ServerKind = Literal[
    "openai", "deepseek", "llama_cpp_python", "llama_cpp", "ollama", "lm_studio", "compatible"
]


@dataclass(frozen=True)
class ServerQuirks:
    """How one kind of OpenAI-compatible server must be spoken to (one row of `SERVER_QUIRKS`)."""

    max_tokens_field: Literal["max_completion_tokens", "max_tokens"]
    """The answer-length limit's name. langchain-openai sends OpenAI's newer
    ``max_completion_tokens``; llama.cpp's servers ignore it and generate without a limit."""
    empty_content_for_tool_calls: bool
    """Send ``"content": ""`` instead of ``null`` on an assistant message with tool calls:
    llama-cpp-python's server answers such a ``null`` with HTTP 500."""
    tool_choice_auto: bool
    """Send ``tool_choice: "auto"`` when tools are bound: without it llama-cpp-python's
    function-calling chat format leaves the tools out of the prompt."""
    streams_tool_calls: bool
    """False: ask without streaming whenever tools are bound (llama-cpp-python refuses to
    stream an automatic tool choice). Plain answers without tools still stream."""
    compiles_schema_limits: bool = True
    """False: leave the limits out of the tool schemas sent (`GRAMMAR_LIMIT_KEYWORDS`). llama.cpp's
    and llama-cpp-python's grammar builders turn a ``maxLength`` of 2,000 into a rule repeated
    2,000 times; llama-cpp-python 0.3 failed to parse it and its process died. Our own parser
    (`ToolRegistry.resolve`) still enforces every limit on the arguments that come back."""
    local: bool = False
    """A model server on the user's computer (or lab): small models, slow prompt reading, so a
    turn is offered only the tools it needs (`AgentLimits.tools_on_request`)."""


# Each row is exercised by tests/core/agent/test_model_quirks.py (the wire format, on the scripted
# server) and, for llama-cpp-python, by tests/core/agent/test_local_model_live.py (the real one).
SERVER_QUIRKS: dict[str, ServerQuirks] = {
    "openai": ServerQuirks("max_completion_tokens", False, False, True),
    "deepseek": ServerQuirks("max_tokens", False, False, True),
    "llama_cpp_python": ServerQuirks("max_tokens", True, True, False, False, local=True),
    "llama_cpp": ServerQuirks("max_tokens", True, True, True, False, local=True),
    "ollama": ServerQuirks("max_tokens", True, True, True, local=True),
    # LM Studio builds llama.cpp grammars too; an unknown server may be any of them
    "lm_studio": ServerQuirks("max_tokens", True, True, True, False, local=True),
    "compatible": ServerQuirks("max_tokens", True, True, True, False),
}

# JSON-schema keywords a grammar builder turns into repeated rules or cannot compile: string
# lengths, regular expressions, formats and array lengths (``maxItems: 160`` of an object).
# Titles go too: they only cost prompt tokens.
GRAMMAR_LIMIT_KEYWORDS = frozenset(
    {"maxLength", "minLength", "pattern", "format", "maxItems", "minItems", "title"}
)


def without_grammar_limits(schema: Any) -> Any:
    """``schema`` (a tool's JSON schema) without `GRAMMAR_LIMIT_KEYWORDS`, at every depth.

    A property *named* like a keyword (a ``title`` field of a tool) is kept: only the keywords of
    a schema object are dropped, never the names under ``properties``."""
    if isinstance(schema, list):
        return [without_grammar_limits(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    kept: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            kept[key] = {name: without_grammar_limits(sub) for name, sub in value.items()}
        elif key not in GRAMMAR_LIMIT_KEYWORDS:
            kept[key] = without_grammar_limits(value)
    return kept


_COMPILED: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
"""Parameter schemas already stripped, by the id of the schema (kept beside it, so an id is
never taken for another object's): the graph binds the same schema objects on every model call."""
_COMPILED_MAX = 512


def compilable_tools(tools: list[Any]) -> list[Any]:
    """OpenAI tool definitions whose parameter schemas a grammar builder can compile."""
    compiled = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("parameters"), dict):
            function = {**function, "parameters": _stripped(function["parameters"])}
            tool = {**tool, "function": function}
        compiled.append(tool)
    return compiled


def _stripped(parameters: dict[str, Any]) -> dict[str, Any]:
    known = _COMPILED.get(id(parameters))
    if known is not None and known[0] is parameters:
        return known[1]
    if len(_COMPILED) >= _COMPILED_MAX:
        _COMPILED.clear()
    stripped: dict[str, Any] = without_grammar_limits(parameters)
    _COMPILED[id(parameters)] = (parameters, stripped)
    return stripped


# What llama-cpp-python's server says (after its HTTP 200) when asked to stream a tool choice.
_NO_STREAMED_TOOLS = ("streaming tool choice is not supported", "streaming tool calls")


def quirks_for(config: LlmConfig) -> ServerQuirks:
    """The wire quirks of the server that answers ``config``."""
    if config.server is not None:
        return SERVER_QUIRKS[config.server]
    if config.provider == "openai" and not config.base_url:
        return SERVER_QUIRKS["openai"]
    if config.provider == "deepseek":
        return SERVER_QUIRKS["deepseek"]
    return SERVER_QUIRKS["compatible"]


RAW_FIELDS = ("messages", "tools")


def raw_heavy_fields(payload: dict[str, Any]) -> dict[str, Any]:
    """The request with its messages and tool schemas sent as they are.

    The openai SDK walks every parameter recursively against its type hints before sending
    (``_async_transform_recursive``): with 25 tool schemas and a working context that was one
    synchronous burst of ~25 ms on the event loop per model call, the longest stall of a turn.
    LangChain has already built these as plain JSON; passed through ``extra_body`` (merged into
    the body after the transform) they go out byte for byte the same, unwalked."""
    heavy = {key: payload.pop(key) for key in RAW_FIELDS if key in payload}
    if not heavy:
        return payload
    payload["messages"] = []  # the SDK's signature wants the parameter; the raw list wins
    payload["extra_body"] = {**(payload.get("extra_body") or {}), **heavy}
    return payload


class CompatibleChatOpenAI(ChatOpenAI):
    """`ChatOpenAI` that speaks the dialect of the server behind it (`ServerQuirks`).

    When a server refuses to stream a tool choice that was not known in advance, the same
    request is asked again without streaming and the model instance remembers it.
    """

    quirks: ServerQuirks = Field(default=SERVER_QUIRKS["openai"], exclude=True)
    _answered: bool = PrivateAttr(default=False)
    """Whether the server has answered a request of this model (a later refusal: it stopped)."""

    def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kwargs: Any) -> Any:
        """Bind tools, with ``tool_choice: "auto"`` where the server needs it said."""
        if tool_choice is None and self.quirks.tool_choice_auto:
            tool_choice = "auto"
        return super().bind_tools(tools, tool_choice=tool_choice, **kwargs)

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        if self.quirks.max_tokens_field == "max_tokens" and "max_completion_tokens" in payload:
            payload["max_tokens"] = payload.pop("max_completion_tokens")
        if self.quirks.empty_content_for_tool_calls:
            for message in payload.get("messages", []):
                if message.get("role") == "assistant" and message.get("content") is None:
                    message["content"] = ""
        if not self.quirks.compiles_schema_limits and payload.get("tools"):
            payload["tools"] = compilable_tools(payload["tools"])
        return raw_heavy_fields(payload)

    async def _astream(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        started = False
        try:
            async for chunk in super()._astream(messages, *args, **kwargs):
                started = True
                self._answered = True
                yield chunk
        except Exception as exc:
            if started or not kwargs.get("tools") or not _refuses_streamed_tools(exc):
                raise await self._explained(exc) from exc
        if started or not kwargs.get("tools"):
            return
        # llama-cpp-python answers 200, then fails and ends the body without one event (its
        # log says "Automatic streaming tool choice is not supported"); others send that text.
        log.info("%s cannot stream tool calls: asking without streaming", self.model_name)
        self.disable_streaming = "tool_calling"
        yield await self._generate_as_chunk(messages, *args, **kwargs)

    async def _agenerate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            result = await super()._agenerate(messages, *args, **kwargs)
        except Exception as exc:
            raise await self._explained(exc) from exc
        self._answered = True
        return result

    async def _explained(self, exc: Exception) -> Exception:
        """``exc``, or what it means when the server's port no longer answers at all: the
        model server stopped (it answered before) or is not running (it never did). Blaming
        the network for a local server that crashed sent users to check the wrong thing."""
        if not _is_connection_failure(exc):
            return exc
        url = str(self.openai_api_base or "")
        if not url or await port_listens(url) is not False:
            return exc
        if self._answered:
            text = (
                f"The model server stopped ({url} no longer answers). It may have crashed: see "
                "its log, start it again, then retry."
            )
        else:
            text = (
                f"The model server is not running ({url} does not answer). Start it, then "
                "retry, or check the base URL in the model settings."
            )
        return ModelProviderError(text, kind="server_stopped", details=_provider_text(exc))

    async def _generate_as_chunk(
        self, messages: Any, *args: Any, **kwargs: Any
    ) -> ChatGenerationChunk:
        try:
            result = await self._agenerate(messages, *args, **kwargs)
        except Exception as exc:
            if not any("Connection" in type(e).__name__ for e in _cause_chain(exc)):
                raise
            # the failed stream's connection went back to the pool broken: once on a fresh one
            result = await self._agenerate(messages, *args, **kwargs)
        generation = result.generations[0]
        message = generation.message
        calls = getattr(message, "tool_calls", None) or []
        return ChatGenerationChunk(
            message=AIMessageChunk(
                content=message.content,
                id=message.id,
                tool_call_chunks=[
                    ToolCallChunk(
                        name=call["name"], args=json.dumps(call["args"]), id=call.get("id"), index=i
                    )
                    for i, call in enumerate(calls)
                ],
                usage_metadata=getattr(message, "usage_metadata", None),
                response_metadata=dict(message.response_metadata),
            ),
            generation_info=generation.generation_info,
        )


_CONNECTION_FAILURES = frozenset(
    {
        "APIConnectionError",
        "ConnectError",
        "ReadError",
        "WriteError",
        "RemoteProtocolError",
        "NetworkError",
    }
)


def is_local_url(url: str | None) -> bool:
    """Whether ``url`` points at this computer or a private network."""
    host = urlsplit(url or "").hostname
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private


def _is_connection_failure(exc: BaseException) -> bool:
    chain = _cause_chain(exc)
    return bool({type(e).__name__ for e in chain} & _CONNECTION_FAILURES) or any(
        isinstance(e, ConnectionError) for e in chain
    )


async def port_listens(url: str, *, timeout_s: float = 1.5) -> bool | None:
    """Whether something accepts connections at ``url``'s host and port: False when refused,
    None when it cannot be told (no answer in time, a name that does not resolve)."""
    parts = urlsplit(url)
    if not parts.hostname:
        return None
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        async with asyncio.timeout(timeout_s):
            _, writer = await asyncio.open_connection(parts.hostname, port)
    except TimeoutError:
        return None
    except OSError as exc:
        # several addresses (localhost: ::1 and 127.0.0.1) fail as one "Multiple exceptions"
        refused = isinstance(exc, ConnectionRefusedError) or f"[Errno {errno.ECONNREFUSED}]" in str(
            exc
        )
        return False if refused else None
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


def _refuses_streamed_tools(exc: BaseException) -> bool:
    text = " ".join(str(e) for e in _cause_chain(exc)).lower()
    return any(marker in text for marker in _NO_STREAMED_TOOLS)


def model_name(model: BaseChatModel) -> str:
    """The model's name as the provider knows it."""
    for attr in ("model_name", "model"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__
