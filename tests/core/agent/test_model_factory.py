"""Model factory: configuration resolution, model building, tool-support check, error mapping.

Calls go through the real provider clients to the scripted OpenAI server on loopback; Ollama is
replaced by a loopback stand-in that serves ``/api/tags`` (Ollama itself cannot run here).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.messages import AIMessage, HumanMessage
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from gns3_copilot_desktop.core.agent.model_errors import CUT_OFF_TEXT, map_provider_error
from gns3_copilot_desktop.core.agent.model_factory import (
    DEEPSEEK_BASE_URL,
    NO_KEY_PLACEHOLDER,
    LlmConfig,
    check_tool_support,
    close_chat_model,
    create_base_model,
    list_ollama_models,
    normalize_ollama_host,
    resolve_llm_config,
)
from gns3_copilot_desktop.core.errors import ModelConfigError, ModelProviderError
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

SECRET = "sk-test-secret-4242424242"


@dataclass
class Profile:
    """Stands for settings' LlmProfile (same attributes)."""

    id: str = "p1"
    name: str = "Work model"
    provider: str = "openai_compatible"
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    temperature: float | None = 0.2
    max_tokens: int | None = 512
    context_window: int | None = 32000
    timeout_s: float | None = 12.0


def keys(mapping: dict[str, str]) -> Any:
    async def lookup(profile_id: str) -> str | None:
        return mapping.get(profile_id)

    return lookup


# --- LlmConfig -----------------------------------------------------------------------------


def test_api_key_is_never_shown() -> None:
    config = LlmConfig(provider="openai", model="gpt-4o-mini", api_key=SECRET)
    assert SECRET not in repr(config)
    assert SECRET not in str(config)
    assert SECRET not in config.model_dump_json()
    assert config.api_key is not None and config.api_key.get_secret_value() == SECRET


def test_invalid_config_is_rejected() -> None:
    with pytest.raises(ValueError):
        LlmConfig(provider="skynet", model="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        LlmConfig(provider="openai", model="")


# --- create_base_model ---------------------------------------------------------------------


def test_each_provider_builds_its_client() -> None:
    common = {"model": "m", "max_tokens": 100, "temperature": 0.3, "timeout_s": 7.0}
    openai_model = create_base_model(LlmConfig(provider="openai", api_key=SECRET, **common))
    assert isinstance(openai_model, ChatOpenAI)
    assert openai_model.stream_usage is True
    assert openai_model.max_tokens == 100 and openai_model.request_timeout == 7.0

    anthropic = create_base_model(LlmConfig(provider="anthropic", api_key=SECRET, **common))
    assert isinstance(anthropic, ChatAnthropic)
    assert anthropic.max_tokens == 100 and anthropic.temperature == 0.3

    ollama = create_base_model(
        LlmConfig(provider="ollama", base_url="10.0.0.5:11434", context_window=8192, **common)
    )
    assert isinstance(ollama, ChatOllama)
    assert ollama.base_url == "http://10.0.0.5:11434"
    assert (ollama.num_ctx, ollama.num_predict) == (8192, 100)


def test_deepseek_without_its_package_uses_the_openai_client() -> None:
    """langchain-deepseek is not a dependency: DeepSeek's OpenAI-compatible API is used."""
    model = create_base_model(LlmConfig(provider="deepseek", model="deepseek-chat", api_key=SECRET))
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_base == DEEPSEEK_BASE_URL


def test_missing_key_or_base_url_is_a_config_error() -> None:
    with pytest.raises(ModelConfigError, match=r"needs an API key.*OPENAI_API_KEY"):
        create_base_model(LlmConfig(provider="openai", model="gpt-4o-mini"))
    with pytest.raises(ModelConfigError, match="needs a base URL"):
        create_base_model(LlmConfig(provider="openai_compatible", model="local"))


@pytest.mark.asyncio
async def test_openai_compatible_model_talks_to_the_endpoint(
    scripted_openai: ScriptedOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env-must-not-leak")
    scripted_openai.push(ScriptedTurn.text("hello", usage=(10, 2)))
    config = LlmConfig(
        provider="openai_compatible", model="qwen2.5", base_url=scripted_openai.base_url
    )
    model = create_base_model(config)

    pieces = [p async for p in model.astream([HumanMessage("hi")])]

    assert "".join(str(p.content) for p in pieces) == "hello"
    assert any(p.usage_metadata and p.usage_metadata["input_tokens"] == 10 for p in pieces)
    request = scripted_openai.chat_requests()[0]
    assert request.api_key == NO_KEY_PLACEHOLDER  # not the user's OpenAI key
    assert request.body["model"] == "qwen2.5"
    assert request.body["stream_options"] == {"include_usage": True}


@pytest.mark.asyncio
async def test_stop_while_chunks_stream_ends_the_answer_at_once(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    """Stop is a cancel of the turn's task. It must land wherever the stream is: langchain-openai's
    per-chunk ``asyncio.wait_for`` (its default stream_chunk_timeout) lost a cancel that came as a
    chunk completed on Python 3.11, and the answer streamed on to its end."""
    config = LlmConfig(
        provider="openai_compatible", model="qwen2.5", base_url=scripted_openai.base_url
    )
    model = create_base_model(config)
    stops = 0
    for attempt in range(40):
        scripted_openai.push(ScriptedTurn.text("x" * 1000, chunks=1000))
        pieces: list[str] = []

        async def consume(into: list[str] = pieces) -> None:
            async for piece in model.astream([HumanMessage("hi")]):
                into.append(str(piece.content))

        task = asyncio.create_task(consume())
        async with asyncio.timeout(10):
            while not pieces:  # noqa: ASYNC110 (steps the loop one turn at a time on purpose)
                await asyncio.sleep(0)
        for _ in range(attempt % 8):  # lands at a different step of the chunk pipeline each time
            await asyncio.sleep(0)
        before_stop = len(pieces)
        if task.done() or len("".join(pieces)) == 1000:
            # the client parsed the rest from one buffer (a loaded machine lets the server run
            # ahead): the whole answer is in, the stream only ends; nothing left to stop
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            continue
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            async with asyncio.timeout(5):
                await task
        assert len(pieces) == before_stop, f"stop {attempt} was lost: the answer streamed on"
        stops += 1
    assert stops >= 20, f"only {stops} of 40 stops came while the answer streamed"


@pytest.mark.asyncio
async def test_api_key_arrives_as_bearer(scripted_openai: ScriptedOpenAIServer) -> None:
    scripted_openai.push(ScriptedTurn.text("ok"))
    config = LlmConfig(
        provider="openai", model="gpt-4o-mini", base_url=scripted_openai.base_url, api_key=SECRET
    )
    await create_base_model(config).ainvoke([HumanMessage("hi")])
    assert scripted_openai.chat_requests()[0].headers["authorization"] == f"Bearer {SECRET}"


# --- resolve_llm_config --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_explicit_dict_wins_over_profile_and_env() -> None:
    explicit = {"provider": "anthropic", "model": "claude-x", "api_key": "sk-explicit"}
    config = await resolve_llm_config(
        explicit, Profile(), keys({"p1": "sk-profile"}), {"OPENAI_API_KEY": "sk-env"}
    )
    assert (config.provider, config.model) == ("anthropic", "claude-x")
    assert config.api_key == SecretStr("sk-explicit")


@pytest.mark.asyncio
async def test_explicit_dict_takes_its_providers_env_key() -> None:
    config = await resolve_llm_config(
        {"provider": "deepseek", "model": "deepseek-chat"},
        None,
        None,
        {"DEEPSEEK_API_KEY": "sk-ds", "OPENAI_API_KEY": "sk-oa"},
    )
    assert config.api_key == SecretStr("sk-ds")


@pytest.mark.asyncio
async def test_invalid_explicit_dict_names_the_problem_without_the_key() -> None:
    with pytest.raises(ModelConfigError) as info:
        await resolve_llm_config(
            {"provider": "nope", "model": "m", "api_key": SECRET}, None, None, {}
        )
    assert "provider" in info.value.user_message
    assert SECRET not in info.value.user_message
    assert info.value.__cause__ is None


@pytest.mark.asyncio
async def test_profile_with_key_from_the_secret_store() -> None:
    profile = Profile(provider="openai", base_url="http://127.0.0.1:1/v1")
    config = await resolve_llm_config(
        None, profile, keys({"p1": "sk-profile"}), {"OPENAI_API_KEY": "sk-env"}
    )
    assert config.api_key == SecretStr("sk-profile")
    assert (config.model, config.base_url, config.timeout_s) == (
        "gpt-4o-mini",
        "http://127.0.0.1:1/v1",
        12.0,
    )
    assert (config.temperature, config.max_tokens, config.context_window) == (0.2, 512, 32000)


@pytest.mark.asyncio
async def test_profile_without_stored_key_falls_back_to_env_then_errors() -> None:
    profile = Profile(provider="anthropic", model="claude-x")
    config = await resolve_llm_config(None, profile, keys({}), {"ANTHROPIC_API_KEY": "sk-a"})
    assert config.api_key == SecretStr("sk-a")
    with pytest.raises(ModelConfigError, match="'Work model' has no API key"):
        await resolve_llm_config(None, profile, keys({}), {})


@pytest.mark.asyncio
async def test_keyless_compatible_profile_never_takes_the_openai_env_key() -> None:
    profile = Profile(provider="openai_compatible", base_url="http://127.0.0.1:1234/v1")
    config = await resolve_llm_config(None, profile, keys({}), {"OPENAI_API_KEY": "sk-oa"})
    assert config.api_key is None


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"OPENAI_API_KEY": "k"}, ("openai", "gpt-4o-mini", None)),
        (
            {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"},
            ("openai", "gpt-4o-mini", "http://127.0.0.1:8000/v1"),
        ),
        ({"ANTHROPIC_API_KEY": "k"}, ("anthropic", "claude-sonnet-4-5", None)),
        ({"DEEPSEEK_API_KEY": "k"}, ("deepseek", "deepseek-chat", None)),
        (
            {"OLLAMA_HOST": "0.0.0.0:11434", "GNS3_COPILOT_MODEL": "ollama:llama3.1:8b"},
            ("ollama", "llama3.1:8b", "http://0.0.0.0:11434"),
        ),
        (
            {"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k", "GNS3_COPILOT_MODEL": "claude-y"},
            ("anthropic", "claude-y", None),
        ),
    ],
)
async def test_environment(env: dict[str, str], expected: tuple[str, str, str | None]) -> None:
    config = await resolve_llm_config(None, None, None, env)
    assert (config.provider, config.model, config.base_url) == expected


@pytest.mark.asyncio
async def test_nothing_configured_says_what_to_do() -> None:
    with pytest.raises(ModelConfigError, match="No language model is configured"):
        await resolve_llm_config(None, None, None, {})
    with pytest.raises(ModelConfigError, match="GNS3_COPILOT_MODEL=ollama:"):
        await resolve_llm_config(None, None, None, {"OLLAMA_HOST": "127.0.0.1:11434"})
    with pytest.raises(ModelConfigError, match="does not name a provider"):
        await resolve_llm_config(None, None, None, {"GNS3_COPILOT_MODEL": "mystery-7b"})


# --- check_tool_support --------------------------------------------------------------------


@pytest.mark.asyncio
async def test_tool_support_accepted_when_the_model_calls_the_tool(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.tool("ping", {"text": "ok"}))
    await check_tool_support(scripted_openai.chat_model())
    assert scripted_openai.chat_requests()[0].tool_names == ["ping"]


@pytest.mark.asyncio
async def test_tool_support_accepted_with_warning_when_answering_text(
    scripted_openai: ScriptedOpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    scripted_openai.push(ScriptedTurn.text("pong"))
    with caplog.at_level(logging.WARNING):
        await check_tool_support(scripted_openai.chat_model())
    assert "without calling one" in caplog.text


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "message",
    [
        "registry.ollama.ai/library/gemma:2b does not support tools",
        "'tools' is not supported with this model.",
    ],
)
async def test_tool_rejection_is_a_config_error(
    scripted_openai: ScriptedOpenAIServer, message: str
) -> None:
    scripted_openai.push(ScriptedTurn.http_error(400, message, type="api_error"))
    with pytest.raises(ModelConfigError) as info:
        await check_tool_support(scripted_openai.chat_model(model="gemma:2b"))
    assert info.value.user_message.startswith("The model gemma:2b does not accept tool calls")
    assert message in info.value.user_message


@pytest.mark.asyncio
async def test_tool_check_with_a_bad_key_is_an_auth_error(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.invalid_api_key())
    with pytest.raises(ModelProviderError) as info:
        await check_tool_support(scripted_openai.chat_model())
    assert info.value.kind == "auth"


# --- map_provider_error with real exceptions -----------------------------------------------


async def _failure(server: ScriptedOpenAIServer, turn: ScriptedTurn, **kw: Any) -> BaseException:
    server.push(turn)
    try:
        async for _ in server.chat_model(**kw).astream([HumanMessage("hi")]):
            pass
    except Exception as exc:
        return exc
    raise AssertionError("the call did not fail")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("turn", "kind", "fragment"),
    [
        (ScriptedTurn.invalid_api_key(), "auth", "rejected the API key (401"),
        (ScriptedTurn.rate_limited(retry_after_s=9), "rate_limit", "Try again in 9 s"),
        (ScriptedTurn.server_error(), "provider", "internal error (500"),
        (ScriptedTurn.http_error(404, "The model `x` does not exist"), "bad_request", "x` does"),
        (ScriptedTurn.malformed(), "malformed", "malformed"),
        (ScriptedTurn.cut_off(), "cut_off", CUT_OFF_TEXT),
        (ScriptedTurn(content="abc", stream_error_after_chunks=2), "provider", "invalid content"),
    ],
)
async def test_provider_errors_are_mapped(
    scripted_openai: ScriptedOpenAIServer, turn: ScriptedTurn, kind: str, fragment: str
) -> None:
    error = map_provider_error(await _failure(scripted_openai, turn))
    assert isinstance(error, ModelProviderError)
    assert error.kind == kind
    assert fragment in error.user_message


@pytest.mark.asyncio
async def test_dangling_tool_call_400_is_a_bad_request(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    call = {"name": "t", "args": {}, "id": "call_x", "type": "tool_call"}
    with pytest.raises(Exception) as info:
        await scripted_openai.chat_model().ainvoke(
            [HumanMessage("a"), AIMessage("", tool_calls=[call])]
        )
    error = map_provider_error(info.value)
    assert error.kind == "bad_request"
    assert "must be followed by tool messages" in error.user_message


@pytest.mark.asyncio
async def test_timeout_is_mapped(scripted_openai: ScriptedOpenAIServer) -> None:
    turn = ScriptedTurn.stalled(stall_after_chunks=1)
    error = map_provider_error(await _failure(scripted_openai, turn, timeout=0.3))
    assert error.kind == "timeout"


@pytest.mark.asyncio
async def test_connection_refused_is_mapped() -> None:
    port = _free_port()
    model = ChatOpenAI(
        model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key="sk-test", max_retries=0
    )
    with pytest.raises(Exception) as info:
        await model.ainvoke([HumanMessage("hi")])
    error = map_provider_error(info.value)
    assert error.kind == "connection"
    assert "Could not reach the model provider" in error.user_message


@pytest.mark.asyncio
async def test_a_local_server_that_never_answered_is_said_not_to_run() -> None:
    """Nothing listens at the profile's base URL: the server is not running (not "the network")."""
    url = f"http://127.0.0.1:{_free_port()}/v1"
    config = LlmConfig(
        provider="openai_compatible", model="m", base_url=url, server="llama_cpp", max_retries=0
    )
    with pytest.raises(Exception) as info:
        await create_base_model(config).ainvoke([HumanMessage("hi")])
    error = map_provider_error(info.value)
    assert error.kind == "server_stopped"
    assert error.user_message.startswith(f"The model server is not running ({url} does not answer)")


def test_plain_exceptions_map_by_type() -> None:
    assert map_provider_error(TimeoutError()).kind == "timeout"
    assert map_provider_error(ConnectionRefusedError("refused")).kind == "connection"
    assert map_provider_error(RuntimeError("weird")).kind == "provider"
    original = ModelProviderError("x", kind="cut_off")
    assert map_provider_error(original) is original


# --- Ollama --------------------------------------------------------------------------------


def test_normalize_ollama_host() -> None:
    assert normalize_ollama_host("127.0.0.1:11434") == "http://127.0.0.1:11434"
    assert normalize_ollama_host("http://h:11434/v1/") == "http://h:11434"


@pytest.mark.asyncio
async def test_list_ollama_models_from_a_stand_in(scripted_openai: ScriptedOpenAIServer) -> None:
    """The scripted server stands in for Ollama's /api/tags (Ollama cannot run here)."""
    scripted_openai.ollama_models = ["qwen2.5:7b", "llama3.1:8b"]
    assert await list_ollama_models(scripted_openai.root_url) == ["llama3.1:8b", "qwen2.5:7b"]
    assert await list_ollama_models(scripted_openai.base_url) == ["llama3.1:8b", "qwen2.5:7b"]
    scripted_openai.ollama_models = []
    assert await list_ollama_models(scripted_openai.root_url) == []


@pytest.mark.asyncio
async def test_list_ollama_models_when_nothing_answers() -> None:
    host = f"127.0.0.1:{_free_port()}"
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(ModelProviderError, match=r"Nothing answers at http://127\.0\.0\.1") as info:
        await list_ollama_models(host, timeout_s=1.0)
    assert info.value.kind == "connection"
    assert loop.time() - started < 2.0


@pytest.mark.asyncio
async def test_list_ollama_models_from_a_non_ollama_server(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    with pytest.raises(ModelProviderError, match="answered 401"):
        await list_ollama_models(f"{scripted_openai.root_url}/not-ollama")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


LLAMA_VALIDATION_DUMP = (
    "1 validation error for ChatCompletionRequestAssistantMessage\ncontent\n"
    "  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n"
    + "    For further information visit https://errors.pydantic.dev/2.9/v/string_type\n"
    * 25
)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("turn", "kind", "fragment"),
    [
        # a local server's validation dump: one sentence with the fix, no "try again"
        (ScriptedTurn.http_error(500, LLAMA_VALIDATION_DUMP), "bad_request", "not help"),
        # any long provider message stays behind Details
        (ScriptedTurn.http_error(400, "x" * 1862), "bad_request", "under Details"),
    ],
)
async def test_long_provider_errors_are_one_sentence_with_the_raw_text_as_details(
    scripted_openai: ScriptedOpenAIServer, turn: ScriptedTurn, kind: str, fragment: str
) -> None:
    error = map_provider_error(await _failure(scripted_openai, turn))
    assert error.kind == kind and fragment in error.user_message
    assert len(error.user_message) < 400 and "Try again" not in error.user_message
    assert turn.error is not None and turn.error.message[:200] in error.details


@pytest.mark.asyncio
async def test_a_model_used_on_an_ended_loop_leaves_nothing_to_close_on_the_next(
    scripted_openai: ScriptedOpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A model used on one event loop (the copilot service's thread, an earlier test) and dropped
    while another runs: langchain-openai's shared, cached pool closed itself from a finalizer on
    the running loop, and failed ("Event loop is closed", seen 4 times in one fresh-clone run).
    Each model has a pool of its own now, which no finalizer closes on the wrong loop."""
    import gc
    import threading

    from langchain_openai.chat_models import _client_utils

    config = LlmConfig(
        provider="openai_compatible", model="qwen2.5", base_url=scripted_openai.base_url
    )
    scripted_openai.push(ScriptedTurn.text("from the other loop"))
    answers: list[str] = []

    def other_loop() -> None:
        async def ask() -> None:
            model = create_base_model(config)
            answers.append(str((await model.ainvoke([HumanMessage("hi")])).content))

        asyncio.run(ask())  # its loop ends here, with the connection it opened

    thread = threading.Thread(target=other_loop)
    thread.start()
    thread.join(30)
    assert answers == ["from the other loop"]
    _client_utils._cached_async_httpx_client.cache_clear()  # as an eviction from the cache does
    gc.collect()
    for _ in range(5):
        await asyncio.sleep(0)
    gc.collect()
    assert not [r for r in caplog.records if "Event loop is closed" in r.getMessage()
                or "never retrieved" in r.getMessage()]  # fmt: skip
    model = create_base_model(config)
    assert model.http_async_client is not None  # a pool of its own
    await close_chat_model(model)
    assert model.http_async_client.is_closed


@pytest.mark.parametrize("provider", ["openai_compatible", "openai", "deepseek"])
def test_a_system_proxy_gives_no_warning_and_the_model_goes_through_it(provider: str) -> None:
    """With a proxy in the environment, langchain-openai's own keep-alive transport (for a sync
    client we never use) logged a warning that reached the GNS3 GUI's console; the model is built
    without it, and its requests still go through the proxy: a loopback listener standing in
    for the proxy receives the CONNECT for the provider's host. A fresh interpreter, as
    langchain-openai warns once per process."""
    import subprocess
    import sys

    code = f"""
import asyncio, logging, os, socket, threading
logging.basicConfig(level=logging.INFO)
listener = socket.create_server(("127.0.0.1", 0))
seen = []
def accept():
    conn, _ = listener.accept()
    seen.append(conn.recv(200).decode(errors="replace").splitlines()[0])
    conn.close()
threading.Thread(target=accept, daemon=True).start()
proxy = f"http://127.0.0.1:{{listener.getsockname()[1]}}"
os.environ["HTTPS_PROXY"] = os.environ["HTTP_PROXY"] = proxy
from pydantic import SecretStr
from gns3_copilot_desktop.core.agent.model_factory import LlmConfig, create_base_model
model = create_base_model(LlmConfig(provider={provider!r}, model="m", max_retries=0,
    base_url="https://provider.invalid/v1", api_key=SecretStr("k"), timeout_s=5))
try:
    asyncio.run(model.ainvoke("hi"))
except Exception:
    pass
print("SEEN", seen)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "langchain-openai injected" not in done.stderr, done.stderr
    assert "disables httpx's proxy" not in done.stderr
    assert "CONNECT provider.invalid:443" in done.stdout, done.stdout + done.stderr
