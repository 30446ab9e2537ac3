"""Finding local model servers, the context window they run with, and testing a connection.

llama-cpp-python is the real server (tests/helpers/llama_server.py). llama.cpp's own llama-server,
Ollama and LM Studio cannot run here (no binaries in Debian or PyPI for them on this machine): their
answers (``/props``, ``/api/show``, ``/api/v0/models``) are stand-ins in an httpx MockTransport,
shaped after their documented routes, and are named so below.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from gns3_copilot_desktop.core.agent.local_servers import (
    detect_local_servers,
    identify,
    served_context_window,
    server_root,
)
from gns3_copilot_desktop.core.agent.model_factory import (
    LlmConfig,
    check_tool_support,
    create_base_model,
)
from tests.helpers.gns3_server import free_port
from tests.helpers.llama_server import CONTEXT_WINDOW, MODEL_ALIAS, LlamaServer, Tap
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = pytest.mark.asyncio


@pytest.mark.slow
async def test_the_real_llama_cpp_python_server_is_recognised(llama_server: LlamaServer) -> None:
    nothing = free_port()
    found = await detect_local_servers([nothing, llama_server.port])
    assert len(found) == 1
    server = found[0]
    assert server.kind == "llama_cpp_python" and server.models == [MODEL_ALIAS]
    assert server.base_url == f"http://127.0.0.1:{llama_server.port}/v1"
    # not on the wire: read from the settings the server was started with (--n_ctx)
    assert server.context_window == CONTEXT_WINDOW
    assert server.label == f"llama-cpp-python at 127.0.0.1:{llama_server.port}"


@pytest.mark.slow
async def test_a_typed_base_url_is_asked_first(llama_server: LlamaServer) -> None:
    typed = f"127.0.0.1:{llama_server.port}/v1/"  # as a user types it
    found = await detect_local_servers([free_port()], typed_url=typed)
    assert [(s.kind, s.base_url) for s in found] == [
        ("llama_cpp_python", f"http://127.0.0.1:{llama_server.port}/v1")
    ]
    # typed and also one of the usual ports: asked once, first
    again = await detect_local_servers([free_port(), llama_server.port], typed_url=typed)
    assert len(again) == 1
    config = LlmConfig(
        provider="openai_compatible", model=MODEL_ALIAS, server="llama_cpp_python",
        base_url=f"http://127.0.0.1:{llama_server.port}/v1",
    )  # fmt: skip
    assert await served_context_window(config) == CONTEXT_WINDOW


async def test_a_cloud_model_is_never_asked_for_its_window() -> None:
    cloud = LlmConfig(
        provider="openai", model="gpt-4o-mini", base_url="https://api.example.invalid/v1"
    )
    assert await served_context_window(cloud) is None  # no request is made (the name is invalid)


async def test_typed_base_urls_are_read_leniently_and_refused_when_not_urls() -> None:
    assert server_root("127.0.0.1:8080") == "http://127.0.0.1:8080"
    assert server_root(" http://localhost:1234/v1/ ") == "http://localhost:1234"
    assert server_root("https://gpu.lab:8443/v1") == "https://gpu.lab:8443"
    assert server_root("http://[::1]:8000/v1") == "http://[::1]:8000"
    for junk in ("", "ftp://host:21", "http://host:99999", "://"):
        assert server_root(junk) is None, junk


@pytest.mark.slow
async def test_test_connection_finds_that_the_real_server_cannot_stream_tool_calls(
    llama_tap: Tap,
) -> None:
    config = LlmConfig(
        provider="openai_compatible", model=MODEL_ALIAS, base_url=llama_tap.base_url,
        max_retries=0, timeout_s=120,
    )  # fmt: skip
    report = await check_tool_support(create_base_model(config))
    assert report.answers
    chat = llama_tap.chat_requests()
    assert chat[0].body["stream"] is True and chat[0].body.get("tool_choice") == "auto"
    if report.calls_tools:  # the tiny model chose the tool: the streamed request was refused
        assert not report.streams_tool_calls and chat[-1].body.get("stream") is not True


async def test_a_server_that_streams_tool_calls_is_reported_so(
    scripted_openai: ScriptedOpenAIServer,
) -> None:
    scripted_openai.push(ScriptedTurn.tool("ping", {"text": "ok"}))
    config = LlmConfig(
        provider="openai_compatible", model="m", base_url=scripted_openai.base_url,
        api_key=scripted_openai.client_api_key, max_retries=0,
    )  # fmt: skip
    report = await check_tool_support(create_base_model(config))
    assert report.answers and report.calls_tools and report.streams_tool_calls


# --- stand-ins for servers that cannot run here --------------------------------------------------

STAND_INS: dict[str, dict[str, Any]] = {
    "llama.cpp llama-server (stand-in)": {
        "/v1/models": {"object": "list", "data": [{"id": "qwen2.5-1.5b-instruct"}]},
        "/props": {"default_generation_settings": {"n_ctx": 16384}, "total_slots": 1},
    },
    "Ollama (stand-in)": {
        "/api/tags": {"models": [{"name": "llama3.1:8b"}, {"name": "qwen2.5:7b"}]},
        "/api/show": {"model_info": {"llama.context_length": 131072, "general.name": "x"}},
    },
    "Ollama with num_ctx in its Modelfile (stand-in)": {
        "/api/tags": {"models": [{"name": "qwen2.5:7b"}]},
        "/api/show": {
            "parameters": 'stop "<|im_end|>"\nnum_ctx                        16384',
            "model_info": {"qwen2.context_length": 32768},
        },
    },
    "LM Studio (stand-in)": {
        "/api/v0/models": {
            "data": [
                {"id": "other", "state": "not-loaded", "max_context_length": 4096},
                {"id": "qwen2.5-7b-instruct", "state": "loaded", "loaded_context_length": 8192},
            ]
        },
    },
    "LM Studio, nothing loaded (stand-in)": {
        "/api/v0/models": {
            "data": [{"id": "qwen", "state": "not-loaded", "max_context_length": 32768}]
        },
    },
    "unknown OpenAI-compatible server (stand-in)": {
        "/v1/models": {"data": [{"id": "model-a"}]},
    },
    "vLLM-like server with max_model_len (stand-in)": {
        "/v1/models": {"data": [{"id": "model-b", "max_model_len": 4096}]},
    },
    "a web server that is not a model server (stand-in)": {"/": "hello"},
}
EXPECTED = {
    "llama.cpp llama-server (stand-in)": ("llama_cpp", ["qwen2.5-1.5b-instruct"], 16384),
    "Ollama (stand-in)": ("ollama", ["llama3.1:8b", "qwen2.5:7b"], 131072),
    "Ollama with num_ctx in its Modelfile (stand-in)": ("ollama", ["qwen2.5:7b"], 16384),
    "LM Studio (stand-in)": ("lm_studio", ["other", "qwen2.5-7b-instruct"], 8192),
    "LM Studio, nothing loaded (stand-in)": ("lm_studio", ["qwen"], 32768),
    "unknown OpenAI-compatible server (stand-in)": ("compatible", ["model-a"], None),
    "vLLM-like server with max_model_len (stand-in)": ("compatible", ["model-b"], 4096),
}


@pytest.mark.parametrize("name", list(STAND_INS))
async def test_each_kind_of_server_is_told_apart_by_its_own_routes(name: str) -> None:
    routes = STAND_INS[name]

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.host == "127.0.0.1"  # only this computer is ever asked
        body = routes.get(request.url.path)
        return httpx.Response(404) if body is None else httpx.Response(200, json=body)

    async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
        server = await identify(client, 9999)
    if name not in EXPECTED:
        assert server is None
        return
    assert server is not None
    assert (server.kind, server.models, server.context_window) == EXPECTED[name]
    assert server.base_url == "http://127.0.0.1:9999/v1"
