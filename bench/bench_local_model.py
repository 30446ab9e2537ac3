"""A real local model as a user on this machine meets it: llama-cpp-python's server with
SmolLM2-135M-Instruct (installed by tests/tools/fetch_local_model.sh), 8k window, on loopback.

Measured through the app's own client (`create_base_model`, server kind ``llama_cpp_python``):
- a plain answer: time to first token, then tokens/s while it streams;
- a call with every tool of the app bound (~5,000 tokens of schemas): the first such call reads
  the whole prompt; a second with the same prefix reuses the server's cache;
- a call with the read tools only (what a window too small for all tools gets);
- one model step of a turn before and after a local profile's tool choice: a question with every
  schema as it was sent (limits and all), a question with the read tools (what a local profile's
  question is offered now), a change request with every tool without grammar limits.

``python -m bench local_model [turns]`` (``turns``: the turn steps only; set
GNS3_COPILOT_LLAMA_PYTHON / GNS3_COPILOT_LLAMA_MODEL, or let it run fetch_local_model.sh into the
user cache dir).
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import httpx
from langchain_core.messages import AIMessageChunk, HumanMessage, SystemMessage

from gns3_copilot_desktop.core.agent.graph import READS_ONLY_PROMPT
from gns3_copilot_desktop.core.agent.model_factory import LlmConfig, create_base_model
from gns3_copilot_desktop.core.agent.model_quirks import SERVER_QUIRKS, CompatibleChatOpenAI
from gns3_copilot_desktop.core.agent.modes import offered_in_learner_modes
from gns3_copilot_desktop.core.agent.prompts import system_prompt
from gns3_copilot_desktop.core.agent.tools import ToolRegistry
from gns3_copilot_desktop.core.agent.tools.network import network_registry

ROOT = Path(__file__).resolve().parent.parent


def _installed() -> tuple[str, str]:
    python = os.environ.get("GNS3_COPILOT_LLAMA_PYTHON")
    model = os.environ.get("GNS3_COPILOT_LLAMA_MODEL")
    if python and model:
        return python, model
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    dest = cache / "gns3-copilot-desktop" / "local-model"
    script = ROOT / "tests/tools/fetch_local_model.sh"
    out = subprocess.run(
        ["bash", str(script), str(dest)], capture_output=True, text=True, check=True
    )
    python, model = out.stdout.split()
    return python, model


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _measure(url: str) -> None:
    config = LlmConfig(
        provider="openai_compatible", model="smollm2", base_url=url, server="llama_cpp_python",
        max_tokens=200, context_window=8192, max_retries=0, timeout_s=1200,
    )  # fmt: skip
    every = network_registry()
    if "turns" in sys.argv[2:]:  # ``python -m bench local_model turns``: the turn steps only
        await _turns(config, every)
        return
    model = create_base_model(config)
    prompt = [HumanMessage("Explain in a few sentences what a network switch does.")]
    start = time.perf_counter()
    first: float | None = None
    tokens = 0
    async for piece in model.astream(prompt):
        if isinstance(piece, AIMessageChunk) and piece.text:
            first = first or time.perf_counter()
            tokens += 1
        if isinstance(piece, AIMessageChunk) and piece.usage_metadata:
            tokens = piece.usage_metadata["output_tokens"] or tokens
    end = time.perf_counter()
    assert first is not None
    print(f"plain answer: first token {1000 * (first - start):.0f} ms, "
          f"{tokens} tokens at {tokens / (end - first):.0f} tokens/s")  # fmt: skip

    reads = ToolRegistry([t for t in every if t.risk == "read"])
    system = SystemMessage(system_prompt("assistant", "Nodes: PC1 (vpcs), PC2 (vpcs)."))
    ask = [system, HumanMessage("What is in my lab?")]
    for label, registry in (
        ("all tools", every),
        ("all tools, again", every),
        ("read tools", reads),
    ):
        bound = model.bind_tools(registry.openai_schemas())
        start = time.perf_counter()
        answer = await bound.ainvoke(ask)
        elapsed = time.perf_counter() - start
        usage = answer.usage_metadata or {"input_tokens": 0}
        calls = [c["name"] for c in answer.tool_calls]
        print(f"{label} ({len(registry.names())}): {elapsed:.1f} s for a "
              f"{usage['input_tokens']}-token prompt; called {calls or 'no tool'}")  # fmt: skip
    await _turns(config, every)


async def _turns(config: LlmConfig, every: ToolRegistry) -> None:
    """One model step of a turn as the graph sends it, before and after a local profile's tool
    choice: every schema whole (before), the read tools for a question and every tool without
    grammar limits for a change request (after). The server's prompt cache is emptied between
    them by a different opening message, so each reads its whole prompt."""
    system = system_prompt("assistant", "Nodes: PC1 (vpcs), PC2 (vpcs).")
    before = CompatibleChatOpenAI(
        model=config.model, base_url=config.base_url, api_key="not-needed",
        max_tokens=config.max_tokens, timeout=config.timeout_s, max_retries=0,
        disable_streaming="tool_calling",
        quirks=replace(SERVER_QUIRKS["llama_cpp_python"], compiles_schema_limits=True),
    )  # fmt: skip
    after = create_base_model(config)
    learner = ToolRegistry(filter(offered_in_learner_modes, every))
    question, change = "What is in my lab?", "Delete the node PC1."
    cases = [
        ("before: question, all tools as schemas were sent", before, every, system, question),
        ("after:  question, read tools (local profile)", after, learner,
         f"{system}\n\n{READS_ONLY_PROMPT}", question),
        ("after:  change request, all tools without limits", after, every, system, change),
    ]  # fmt: skip
    for index, (label, model, registry, prompt, text) in enumerate(cases):
        bound = model.bind_tools(registry.openai_schemas())
        request = [SystemMessage(f"Request {index}.\n{prompt}"), HumanMessage(text)]
        start = time.perf_counter()
        answer = await bound.ainvoke(request)
        elapsed = time.perf_counter() - start
        usage = answer.usage_metadata or {"input_tokens": 0}
        calls = [c["name"] for c in answer.tool_calls]
        print(f"{label} ({len(registry.names())} tools): {usage['input_tokens']} prompt tokens, "
              f"{elapsed:.1f} s; called {calls or 'no tool'}")  # fmt: skip


def main() -> None:
    python, gguf = _installed()
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen(
                [python, "-m", "llama_cpp.server", "--model", gguf, "--model_alias", "smollm2",
                 "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192",
                 "--chat_format", "chatml-function-calling"],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        try:
            url = f"http://127.0.0.1:{port}/v1"
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"{url}/models", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the server did not start:\n{log.read_text()}")
                time.sleep(0.25)
            asyncio.run(_measure(url))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(15)
