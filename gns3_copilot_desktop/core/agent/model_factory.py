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

import contextlib
import importlib
import importlib.util
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args

import httpx
from langchain.chat_models import init_chat_model
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
)
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from gns3_copilot_desktop.core.agent.model_errors import (
    _provider_text,
    _status_code,
    map_provider_error,
)
from gns3_copilot_desktop.core.agent.model_quirks import (
    SERVER_QUIRKS,
    CompatibleChatOpenAI,
    ServerKind,
    is_local_url,
    model_name,
    quirks_for,
)
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


def _rejects_tools(exc: BaseException) -> bool:
    status = _status_code(exc)
    text = _provider_text(exc).lower()
    if "does not support tools" in text:
        return True
    return status in (400, 404, 422, 501) and ("tool" in text or "function" in text)


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
