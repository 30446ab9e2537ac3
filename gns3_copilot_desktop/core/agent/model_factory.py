"""Which chat model to use, how to build it, and what its failures mean to a user.

- `LlmConfig`: one resolved model configuration (the API key as a `SecretStr`, never shown).
- `resolve_llm_config`: explicit dict > saved profile (+ key from the secret store) > environment.
- `create_base_model`: a LangChain chat model through `init_chat_model`, with streamed usage on.
- `check_tool_support`: one real call with a trivial tool bound, so a model that cannot call tools
  is reported before a conversation relies on it.
- `map_provider_error`: provider SDK / transport exceptions -> `ModelProviderError(kind=...)`.
- `list_ollama_models`: the models a local Ollama offers (``GET /api/tags``).

Nothing here fetches anything at import or construction time: the only network traffic is to the
endpoint the user chose, when a call is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import importlib
import importlib.util
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args
from urllib.parse import urlsplit

import httpx
from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    ToolCallChunk,
)
from langchain_core.outputs import ChatGenerationChunk
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, SecretStr, ValidationError

from gns3_copilot_desktop.core.errors import ModelConfigError, ModelProviderError

log = logging.getLogger(__name__)

Provider = Literal["openai", "anthropic", "ollama", "deepseek", "openai_compatible"]
PROVIDERS: tuple[str, ...] = get_args(Provider)

DEEPSEEK_BASE_URL = "https://api.deepseek.com/v1"
OLLAMA_DEFAULT_HOST = "http://127.0.0.1:11434"
# The key sent to OpenAI-compatible servers that need none (LM Studio, vLLM, Ollama's /v1): the
# openai SDK refuses an empty key, and it must not fall back to the user's OPENAI_API_KEY, which
# would then be sent to a third-party endpoint.
NO_KEY_PLACEHOLDER = "not-needed"

# Models used when only an API key is found in the environment.
DEFAULT_MODELS: dict[str, str] = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-5",
    "deepseek": "deepseek-chat",
}
ENV_KEYS: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
}
_KEYLESS_PROVIDERS = ("ollama", "openai_compatible")


# --- what each server needs on the wire ---------------------------------------------------------

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


def compilable_tools(tools: list[Any]) -> list[Any]:
    """OpenAI tool definitions whose parameter schemas a grammar builder can compile."""
    compiled = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("parameters"), dict):
            function = {**function, "parameters": without_grammar_limits(function["parameters"])}
            tool = {**tool, "function": function}
        compiled.append(tool)
    return compiled


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


class LlmConfig(BaseModel):
    """One model configuration, ready for `create_base_model`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: Provider
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key: SecretStr | None = None
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=None, gt=0)
    context_window: int | None = Field(default=None, gt=0)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=2, ge=0)
    server: ServerKind | None = None
    """Which OpenAI-compatible server software answers (its row of `SERVER_QUIRKS`); None:
    inferred from the provider (OpenAI's and DeepSeek's own APIs, else a generic server)."""

    @property
    def label(self) -> str:
        """``provider:model`` for messages and logs."""
        return f"{self.provider}:{self.model}"

    @property
    def is_local(self) -> bool:
        """Whether the model runs on this computer or the lab's own network (Ollama, a local
        server kind, or any base URL on a loopback or private address)."""
        if self.provider == "ollama" or (self.server and SERVER_QUIRKS[self.server].local):
            return True
        return is_local_url(self.base_url)


class LlmProfileLike(Protocol):
    """What `resolve_llm_config` reads from a saved profile (settings' `LlmProfile`)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def provider(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def base_url(self) -> str | None: ...
    @property
    def temperature(self) -> float | None: ...
    @property
    def max_tokens(self) -> int | None: ...
    @property
    def context_window(self) -> int | None: ...
    @property
    def timeout_s(self) -> float | None: ...


ApiKeyLookup = Callable[[str], Awaitable[str | None]]


# --- building the model ------------------------------------------------------------------------


# langchain-openai (1.8+) wraps each streamed chunk in ``asyncio.wait_for`` for its own
# "stream_chunk_timeout". On Python 3.11 ``wait_for`` drops a cancel that arrives as a chunk
# completes: Stop was then lost and the turn ran on (to the end of the answer, or to the read
# timeout of a stalled stream). Off: the client's read timeout (``timeout_s``) still bounds a
# stall, Stop cancels at once, and no Task is made per chunk.
OPENAI_STREAM_OPTIONS: dict[str, Any] = {"stream_chunk_timeout": None}


def openai_client_options() -> dict[str, Any]:
    """What every OpenAI-like model is built with: `OPENAI_STREAM_OPTIONS`, and a connection
    pool of its own.

    Without its own pool, langchain-openai shares one per base URL from a process-wide cache of
    128; an entry pushed out of it closes itself from a finalizer on whatever event loop runs
    at that moment, which fails ("Event loop is closed") when its connections were made on
    another loop that has ended (the copilot service's thread, an earlier test). A pool per
    model is closed with it (`close_chat_model`).

    ``http_socket_options=()``: langchain-openai otherwise builds its (unused) sync client on a
    transport of its own for TCP keep-alive, which turns off httpx's proxy settings and logs a
    warning whenever the system has a proxy (it reached the GNS3 GUI's console). Our own pool
    keeps httpx's defaults, proxies from the environment included."""
    from openai import DefaultAsyncHttpxClient

    return {
        **OPENAI_STREAM_OPTIONS,
        "http_async_client": DefaultAsyncHttpxClient(),
        "http_socket_options": (),
    }


async def close_chat_model(model: object) -> None:
    """Close the connection pool a model built by `create_base_model` holds (when it has one
    of its own); call it on the loop the model was used on."""
    client = getattr(model, "http_async_client", None)
    close = getattr(client, "aclose", None)
    if close is not None:
        await close()


def create_base_model(config: LlmConfig) -> BaseChatModel:
    """Build the chat model for ``config`` (no network call is made here)."""
    key = config.api_key.get_secret_value() if config.api_key else None
    common: dict[str, Any] = {"max_retries": config.max_retries}
    if config.temperature is not None:
        common["temperature"] = config.temperature
    try:
        if config.provider == "ollama":
            return _ollama_model(config, common)
        if config.provider == "anthropic":
            return _anthropic_model(config, key, common)
        return _openai_like_model(config, key, common)
    except (ImportError, ValueError) as exc:
        # a ValidationError's text quotes input values: keep only the messages
        detail = _validation_text(exc) if isinstance(exc, ValidationError) else str(exc)
        raise ModelConfigError(f"The model {config.label} cannot be used: {detail}") from None


def _openai_like_model(config: LlmConfig, key: str | None, common: dict[str, Any]) -> BaseChatModel:
    provider, base_url = "openai", config.base_url
    if config.provider == "openai_compatible":
        if not base_url:
            raise ModelConfigError(
                f"The model {config.label} needs a base URL (e.g. http://127.0.0.1:1234/v1)."
            )
        key = key or NO_KEY_PLACEHOLDER
    elif config.provider == "deepseek":
        if importlib.util.find_spec("langchain_deepseek") is not None:
            provider = "deepseek"  # its client also parses DeepSeek's reasoning_content
        else:
            base_url = base_url or DEEPSEEK_BASE_URL  # DeepSeek's API is OpenAI-compatible
    if not key:
        raise ModelConfigError(_missing_key_text(config))
    kwargs: dict[str, Any] = {**common, "api_key": key, "timeout": config.timeout_s}
    kwargs["stream_usage"] = True  # usage arrives in the last chunk of every stream
    kwargs.update(openai_client_options())
    if config.max_tokens is not None:
        kwargs["max_tokens"] = config.max_tokens
    if base_url:
        # ChatDeepSeek (a ChatOpenAI subclass) names its base URL field ``api_base``
        kwargs["api_base" if provider == "deepseek" else "base_url"] = base_url
    if provider == "deepseek":
        return _init(config.model, provider, kwargs)
    quirks = quirks_for(config)
    if not quirks.streams_tool_calls:
        kwargs["disable_streaming"] = "tool_calling"
    return warm_up(CompatibleChatOpenAI(model=config.model, quirks=quirks, **kwargs))


_FIRST_CALL_MODULES = (
    "anyio._backends._asyncio",
    "anyio._core._sockets",
    "anyio.streams.memory",
    "anyio.streams.stapled",
    "langchain_core.messages.block_translators.langchain_v0",
    "langchain_core.tracers.context",
    "langchain_core.tracers.run_collector",
    "langchain_core.tracers.stdout",
)


def warm_up(model: ChatOpenAI) -> ChatOpenAI:
    """Load now what the openai SDK imports on its first request (the chat resources, the
    streaming helpers: ~80 ms of imports that stalled the event loop in the first turn). Call it
    where the model is built, off the loop (the app builds it in a thread).

    The modules the first streamed call imports (anyio's asyncio backend under httpx, the
    callback tracers, the message translators) are loaded here too: ~20 ms of the loop's own
    CPU in the first turn otherwise (``BENCH_AGENT_GC_FREEZE=1 python -m bench agent``)."""
    import openai.lib.streaming.chat  # noqa: F401

    for name in _FIRST_CALL_MODULES:
        with contextlib.suppress(ImportError):  # a library's internals move between versions
            importlib.import_module(name)
    client = getattr(model, "root_async_client", None)
    if client is not None:
        _ = client.chat.completions  # resolves the lazily imported resources
    return model


def _anthropic_model(config: LlmConfig, key: str | None, common: dict[str, Any]) -> BaseChatModel:
    if not key:
        raise ModelConfigError(_missing_key_text(config))
    kwargs: dict[str, Any] = {**common, "api_key": key, "timeout": config.timeout_s}
    kwargs["stream_usage"] = True
    if config.max_tokens is not None:
        kwargs["max_tokens"] = config.max_tokens
    if config.base_url:
        kwargs["base_url"] = config.base_url
    return _init(config.model, "anthropic", kwargs)


def _ollama_model(config: LlmConfig, common: dict[str, Any]) -> BaseChatModel:
    common = {k: v for k, v in common.items() if k != "max_retries"}  # not an Ollama option
    kwargs: dict[str, Any] = {
        **common,
        "base_url": normalize_ollama_host(config.base_url or OLLAMA_DEFAULT_HOST),
        "client_kwargs": {"timeout": config.timeout_s},
    }
    if config.max_tokens is not None:
        kwargs["num_predict"] = config.max_tokens
    if config.context_window is not None:
        kwargs["num_ctx"] = config.context_window
    return _init(config.model, "ollama", kwargs)


def with_answer_limit(
    model: BaseChatModel, tokens: int
) -> Runnable[LanguageModelInput, BaseMessage]:
    """``model`` with its answer cut at ``tokens`` for one kind of call (a title, a check).

    Ollama names the limit ``num_predict``; the OpenAI-like clients and Anthropic's take
    ``max_tokens`` (`CompatibleChatOpenAI` renames it for the server behind it)."""
    if type(model).__name__ == "ChatOllama":
        return model.bind(num_predict=tokens)
    return model.bind(max_tokens=tokens)


def _init(model: str, provider: str, kwargs: dict[str, Any]) -> BaseChatModel:
    built = init_chat_model(model, model_provider=provider, **kwargs)
    if not isinstance(built, BaseChatModel):  # a configurable wrapper: never with these args
        raise ModelConfigError(f"The model {provider}:{model} could not be built.")
    return built


def _missing_key_text(config: LlmConfig) -> str:
    env = ENV_KEYS.get(config.provider)
    hint = f" or set {env}" if env else ""
    return f"The model {config.label} needs an API key: enter it in the model settings{hint}."


# --- resolving the configuration ---------------------------------------------------------------


async def resolve_llm_config(
    explicit: Mapping[str, Any] | None,
    profile: LlmProfileLike | None,
    api_key_lookup: ApiKeyLookup | None,
    env: Mapping[str, str],
) -> LlmConfig:
    """The configuration to use: explicit dict, else saved profile, else environment variables.

    A missing API key is taken from the provider's environment variable (``OPENAI_API_KEY``...)
    for the first-party providers only, never for an OpenAI-compatible third-party endpoint.
    Raises `ModelConfigError` with a text a user can act on when nothing usable is configured.
    """
    if explicit:
        return _with_env_key(_validate(dict(explicit), "the explicit model configuration"), env)
    if profile is not None:
        return await _from_profile(profile, api_key_lookup, env)
    from_env = _from_env(env)
    if from_env is not None:
        return from_env
    raise ModelConfigError(
        "No language model is configured. Add a model in Settings, or set OPENAI_API_KEY, "
        "ANTHROPIC_API_KEY, DEEPSEEK_API_KEY or OLLAMA_HOST (with GNS3_COPILOT_MODEL)."
    )


async def _from_profile(
    profile: LlmProfileLike, api_key_lookup: ApiKeyLookup | None, env: Mapping[str, str]
) -> LlmConfig:
    fields: dict[str, Any] = {
        "provider": profile.provider,
        "model": profile.model,
        "base_url": profile.base_url or None,
        "temperature": profile.temperature,
        "max_tokens": profile.max_tokens,
        "context_window": profile.context_window,
    }
    if profile.timeout_s is not None:
        fields["timeout_s"] = profile.timeout_s
    server = getattr(profile, "server", None)  # a local model's server software
    if server in SERVER_QUIRKS:
        fields["server"] = server
    if api_key_lookup is not None:
        key = await api_key_lookup(profile.id)
        if key:
            fields["api_key"] = key
    config = _with_env_key(_validate(fields, f"the model profile {profile.name!r}"), env)
    if config.api_key is None and config.provider not in _KEYLESS_PROVIDERS:
        raise ModelConfigError(
            f"The model profile {profile.name!r} has no API key: enter it in the model settings."
        )
    return config


def _from_env(env: Mapping[str, str]) -> LlmConfig | None:
    chosen = env.get("GNS3_COPILOT_MODEL", "").strip()
    if chosen:
        provider, model = _split_model_spec(chosen)
    else:
        provider = next((p for p, var in ENV_KEYS.items() if env.get(var)), "")
        if not provider:
            if env.get("OLLAMA_HOST"):
                raise ModelConfigError(
                    "OLLAMA_HOST is set but no model is chosen: set "
                    "GNS3_COPILOT_MODEL=ollama:<model> (e.g. ollama:llama3.1:8b)."
                )
            return None
        model = DEFAULT_MODELS[provider]
    fields: dict[str, Any] = {"provider": provider, "model": model}
    if provider == "ollama" and env.get("OLLAMA_HOST"):
        fields["base_url"] = normalize_ollama_host(env["OLLAMA_HOST"])
    if provider == "openai" and env.get("OPENAI_BASE_URL"):
        fields["base_url"] = env["OPENAI_BASE_URL"]
    return _with_env_key(_validate(fields, "GNS3_COPILOT_MODEL"), env)


def _split_model_spec(spec: str) -> tuple[str, str]:
    provider, sep, model = spec.partition(":")
    if sep and provider in PROVIDERS:
        return provider, model
    lowered = spec.lower()
    for prefix, inferred in (("gpt-", "openai"), ("o1", "openai"), ("o3", "openai")):
        if lowered.startswith(prefix):
            return inferred, spec
    if lowered.startswith("claude"):
        return "anthropic", spec
    if lowered.startswith("deepseek"):
        return "deepseek", spec
    raise ModelConfigError(
        f"GNS3_COPILOT_MODEL={spec!r} does not name a provider: write it as provider:model, "
        f"with provider one of {', '.join(PROVIDERS)}."
    )


def _validate(fields: dict[str, Any], source: str) -> LlmConfig:
    try:
        return LlmConfig.model_validate(fields)
    except ValidationError as exc:
        # ``from None``: the ValidationError quotes the input, which may hold an API key
        raise ModelConfigError(f"In {source}: {_validation_text(exc)}.") from None


def _validation_text(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'config'}: {e['msg']}" for e in exc.errors()
    )


def _with_env_key(config: LlmConfig, env: Mapping[str, str]) -> LlmConfig:
    var = ENV_KEYS.get(config.provider)
    if config.api_key is not None or var is None or not env.get(var):
        return config
    return config.model_copy(update={"api_key": SecretStr(env[var])})


# --- checking tool support ---------------------------------------------------------------------

_PING_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "ping",
        "description": "Answer the connectivity check. Always call this tool.",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "Any short text."}},
            "required": ["text"],
        },
    },
}


@dataclass(frozen=True)
class ConnectionReport:
    """What "Test connection" found out about a model."""

    answers: bool
    calls_tools: bool
    streams_tool_calls: bool
    context_window: int | None = None


async def check_tool_support(model: BaseChatModel) -> ConnectionReport:
    """Make one real, tiny call with a trivial tool bound, streamed as turns are.

    Raises `ModelConfigError` when the provider rejects tools (e.g. OpenAI-compatible servers'
    400 "does not support tools", Ollama's "... does not support tools"), and the mapped
    `ModelProviderError` for any other failure (bad key, nothing listening...). A model that
    accepts tools but answers in text is accepted (``calls_tools`` False, and a log warning). A
    server that cannot stream tool calls is found here (`CompatibleChatOpenAI` falls back).
    """
    name = model_name(model)
    try:
        bound = model.bind_tools([_PING_TOOL])
    except NotImplementedError as exc:
        raise ModelConfigError(f"The model {name} does not accept tool calls.") from exc
    limited = bound.bind(max_tokens=32) if isinstance(model, ChatOpenAI) else bound
    answer: AIMessageChunk | None = None
    try:
        async for piece in limited.astream([HumanMessage("Call the ping tool with text 'ok'.")]):
            if isinstance(piece, AIMessageChunk):
                answer = piece if answer is None else answer + piece
    except Exception as exc:  # provider failure: either "no tools" or a mapped error
        if _rejects_tools(exc):
            raise ModelConfigError(
                f"The model {name} does not accept tool calls ({_provider_text(exc)}). "
                "Choose a model that supports tools (function calling)."
            ) from exc
        raise map_provider_error(exc) from exc
    calls = bool(answer is not None and answer.tool_calls)
    if not calls:
        log.warning("model %s accepted tools but answered without calling one", name)
    return ConnectionReport(
        answers=answer is not None,
        calls_tools=calls,
        streams_tool_calls=getattr(model, "disable_streaming", False) is False,
    )


def model_name(model: BaseChatModel) -> str:
    """The model's name as the provider knows it."""
    for attr in ("model_name", "model"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__


def _rejects_tools(exc: BaseException) -> bool:
    status = _status_code(exc)
    text = _provider_text(exc).lower()
    if "does not support tools" in text:
        return True
    return status in (400, 404, 422, 501) and ("tool" in text or "function" in text)


# --- mapping provider errors -------------------------------------------------------------------

CUT_OFF_TEXT = "The answer was cut off: the model provider closed the stream before it finished."


def map_provider_error(exc: BaseException) -> ModelProviderError:
    """Turn a provider SDK or transport exception into a `ModelProviderError` with a clear text.

    Works by HTTP status and by exception class names along the cause chain, so the openai,
    anthropic and ollama SDKs (and httpx or httpx2 underneath) map alike.
    """
    if isinstance(exc, ModelProviderError):
        return exc
    mapped = _map(exc)
    if not mapped.details:
        mapped.details = _provider_text(exc)
    return mapped


# A provider's own message is quoted in the one-sentence error only when it is short and plain;
# a longer one (a server's validation dump ran to 1,862 characters) stays behind "Details".
_MAX_QUOTED_CHARS = 320
_SERVER_BUG_MARKERS = ("validation error", "input should be", "field required", "traceback")


def _short(detail: str) -> str:
    """The provider text to quote in a sentence: first line, or a pointer to the details."""
    line = detail.strip().splitlines()[0] if detail.strip() else ""
    if len(line) > _MAX_QUOTED_CHARS or len(detail) > 2 * _MAX_QUOTED_CHARS:
        return "its message is under Details"
    return line


def _map(exc: BaseException) -> ModelProviderError:
    chain = _cause_chain(exc)
    names = {type(e).__name__ for e in chain}
    status = _status_code(exc)
    full = _provider_text(exc)
    detail = _short(full)
    if status is not None:
        if status >= 500 and any(m in full.lower() for m in _SERVER_BUG_MARKERS):
            return ModelProviderError(
                f"The model server could not read the request (HTTP {status}); retrying will "
                "not help. It is probably not fully OpenAI-compatible: check the server kind in "
                "the model settings.",
                kind="bad_request",
                details=full,
            )
        return _by_status(status, detail, exc)
    if isinstance(exc, json.JSONDecodeError) or "JSONDecodeError" in names:
        return ModelProviderError(
            "The model provider sent a malformed answer (not valid JSON). Try again; if it "
            "persists, the endpoint is not fully OpenAI-compatible.",
            kind="malformed",
        )
    if names & {"RemoteProtocolError", "IncompleteRead", "ChunkedEncodingError"}:
        return ModelProviderError(CUT_OFF_TEXT, kind="cut_off")
    if names & {"APITimeoutError", "TimeoutException", "ReadTimeout", "ConnectTimeout"} or any(
        isinstance(e, TimeoutError) for e in chain
    ):
        return ModelProviderError(
            "The model provider did not answer in time. Try again, or raise the timeout in the "
            "model settings.",
            kind="timeout",
        )
    if names & {"APIConnectionError", "ConnectError", "NetworkError"} or any(
        isinstance(e, ConnectionError) for e in chain
    ):
        return ModelProviderError(
            f"Could not reach the model provider ({detail}). Check the base URL and the network.",
            kind="connection",
        )
    return ModelProviderError(f"The model provider failed: {detail}", kind="provider")


def _by_status(status: int, detail: str, exc: BaseException) -> ModelProviderError:
    if status in (401, 403):
        return ModelProviderError(
            f"The model provider rejected the API key ({status}: {detail}). Check the key in "
            "the model settings.",
            kind="auth",
        )
    if status == 429:
        retry = _retry_after(exc)
        wait = f" Try again in {retry} s." if retry else " Try again in a moment."
        return ModelProviderError(
            f"The model provider's rate limit or quota was reached ({detail}).{wait}",
            kind="rate_limit",
        )
    if status == 408:
        return ModelProviderError(f"The model provider timed out ({detail}).", kind="timeout")
    if 400 <= status < 500:
        return ModelProviderError(
            f"The model provider refused the request ({status}: {detail}).", kind="bad_request"
        )
    return ModelProviderError(
        f"The model provider had an internal error ({status}: {detail}). Try again.",
        kind="provider",
    )


def _cause_chain(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _status_code(exc: BaseException) -> int | None:
    for item in _cause_chain(exc):
        status = getattr(item, "status_code", None)
        if isinstance(status, int):
            return status
        response = getattr(item, "response", None)
        status = getattr(response, "status_code", None)
        if isinstance(status, int):
            return status
    return None


def _provider_text(exc: BaseException) -> str:
    """The provider's own message (OpenAI's error.message), else the exception text."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
        if isinstance(message, str) and message:
            return message
    text = str(getattr(exc, "error", "") or exc).strip()
    return text or type(exc).__name__


def _retry_after(exc: BaseException) -> str | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    value = headers.get("retry-after")
    return str(value) if value else None


# --- Ollama ------------------------------------------------------------------------------------


def normalize_ollama_host(host: str) -> str:
    """``127.0.0.1:11434`` or ``http://host:11434/v1/`` -> ``http://host:11434``."""
    host = host.strip().rstrip("/")
    if "://" not in host:
        host = f"http://{host}"
    return host.removesuffix("/v1")


async def list_ollama_models(
    host: str = OLLAMA_DEFAULT_HOST, *, timeout_s: float = 3.0
) -> list[str]:
    """Names of the models a local Ollama offers (``GET /api/tags``), sorted.

    Returns ``[]`` when Ollama answers but has no model pulled; raises `ModelProviderError`
    (kind ``connection``) when nothing answers at ``host``, ``malformed`` for an unexpected answer.
    """
    base = normalize_ollama_host(host)
    try:
        async with httpx.AsyncClient(timeout=timeout_s) as client:
            response = await client.get(f"{base}/api/tags")
            response.raise_for_status()
            payload = response.json()
    except httpx.HTTPStatusError as exc:
        raise ModelProviderError(
            f"{base} answered {exc.response.status_code} to /api/tags: is it an Ollama server?",
            kind="bad_request",
        ) from exc
    except httpx.HTTPError as exc:
        raise ModelProviderError(
            f"Nothing answers at {base}: is Ollama running? ({type(exc).__name__})",
            kind="connection",
        ) from exc
    except ValueError as exc:
        raise ModelProviderError(
            f"{base} sent an answer that is not JSON.", kind="malformed"
        ) from exc
    models = payload.get("models") if isinstance(payload, dict) else None
    if not isinstance(models, list):
        raise ModelProviderError(f"{base} sent no model list in /api/tags.", kind="malformed")
    return sorted(str(m["name"]) for m in models if isinstance(m, dict) and m.get("name"))
