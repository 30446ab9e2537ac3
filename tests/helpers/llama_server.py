"""Pytest plugin: a REAL local model behind llama-cpp-python's OpenAI-compatible server.

The server and SmolLM2-135M-Instruct (GGUF) are installed by tests/tools/fetch_local_model.sh
(run_suite.sh exports ``GNS3_COPILOT_LLAMA_PYTHON`` and ``GNS3_COPILOT_LLAMA_MODEL``); without them
the tests that need the model skip with the reason. The server listens on 127.0.0.1, with the
``chatml-function-calling`` chat format and an 8k window, as a user following our README would
start it; it is stopped by PID at the end of the session.

Between the client and the server sits `Tap`, a byte relay on another loopback port that keeps
the requests as sent, so a test can see what the model was asked (the server does not say). It
changes nothing on the wire. Each test gets its own tap on its own port: langchain-openai keeps one
HTTP client per base URL for the process, and a client made on an earlier test's (closed) event
loop cannot be used on the next one.

Fixtures: ``llama_server`` (session), ``llama_tap`` (per test: ``llama_tap.base_url``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.gns3_server import free_port

MODEL_ALIAS = "smollm2"
CONTEXT_WINDOW = 8192
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 10.0


@dataclass
class LlamaServer:
    """The running server: its port, its log, its PID."""

    port: int
    log_path: Path
    pid: int

    def log_text(self) -> str:
        """What the server wrote so far."""
        return self.log_path.read_text(errors="replace")


@dataclass
class TappedRequest:
    """One HTTP request as the client sent it."""

    method: str
    path: str
    body: Any

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat request's messages."""
        return list(self.body.get("messages", [])) if isinstance(self.body, dict) else []

    @property
    def tool_names(self) -> list[str]:
        """The tools bound to the request."""
        tools = self.body.get("tools") if isinstance(self.body, dict) else None
        return [t["function"]["name"] for t in tools or []]

    def text(self) -> str:
        """Every message's text content, joined."""
        return "\n".join(str(m.get("content") or "") for m in self.messages)


@dataclass
class Tap:
    """A loopback byte relay that records the HTTP requests passing through it."""

    target_port: int
    port: int = 0
    requests: list[TappedRequest] = field(default_factory=list)
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        """The OpenAI base URL through this tap (ends in ``/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)  # gather() of no relay asks this thread for its loop
            self._loop = loop
            server = loop.run_until_complete(asyncio.start_server(self._relay, "127.0.0.1", 0))
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            server.close()
            relays = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in relays:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*relays, return_exceptions=True))
            loop.run_until_complete(server.wait_closed())
            loop.close()

        self._thread = threading.Thread(target=run, name="llama-tap", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the recording tap did not start")

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)

    def chat_requests(self) -> list[TappedRequest]:
        """The chat-completion requests recorded so far."""
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return

        async def client_to_server() -> None:
            buffer = b""
            while data := await reader.read(65536):
                up_writer.write(data)
                await up_writer.drain()
                buffer = self._parse(buffer + data)
            up_writer.close()

        async def server_to_client() -> None:
            while data := await up_reader.read(65536):
                writer.write(data)
                await writer.drain()
            writer.close()

        with contextlib.suppress(OSError, asyncio.CancelledError):
            await asyncio.gather(client_to_server(), server_to_client())
        for w in (writer, up_writer):
            w.close()

    def _parse(self, buffer: bytes) -> bytes:
        """Take every complete request (Content-Length bodies) off the front of ``buffer``."""
        while b"\r\n\r\n" in buffer:
            head, rest = buffer.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            headers = dict(
                (k.strip().lower(), v.strip())
                for k, _, v in (line.partition(":") for line in lines[1:])
            )
            length = int(headers.get("content-length", "0"))
            if len(rest) < length:
                return buffer
            method, path, *_ = lines[0].split(" ")
            raw = rest[:length]
            try:
                body: Any = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            with self._lock:
                self.requests.append(TappedRequest(method, path, body))
            buffer = rest[length:]
        return buffer


def _installed() -> tuple[Path, Path] | None:
    python = os.environ.get("GNS3_COPILOT_LLAMA_PYTHON")
    model = os.environ.get("GNS3_COPILOT_LLAMA_MODEL")
    if python and model and Path(python).exists() and Path(model).exists():
        return Path(python), Path(model)
    return None


def _models_answer(url: str) -> bool:
    try:
        return httpx.get(f"{url}/models", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.contextmanager
def running_llama_server(run_dir: Path) -> Iterator[tuple[LlamaServer, subprocess.Popen[bytes]]]:
    """Start llama-cpp-python's server in ``run_dir`` and stop it (by its PID) on leaving; skips
    the test when the model is not installed."""
    installed = _installed()
    if installed is None:
        pytest.skip(
            "no local model: run tests/tools/fetch_local_model.sh DIR and set "
            "GNS3_COPILOT_LLAMA_PYTHON / GNS3_COPILOT_LLAMA_MODEL to the two paths it prints"
        )
    python, model = installed
    port = free_port()
    log_path = run_dir / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING"))}
    env.update(HOME=str(run_dir), HF_HUB_OFFLINE="1")
    # One thread generates: the suite's other workers (and the emulated routers) hold the two
    # cores, and ggml's threads wait on each other by spinning, so two threads on a loaded machine
    # lose more than they win. The prompt (~1,250 tokens of tools) is read with two. ``--cache``
    # keeps the model's state after each answer: a follow-up re-reads only what is new, not the
    # whole conversation (the title request in between no longer evicts it): 8.9 s less per turn.
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                str(python), "-m", "llama_cpp.server",
                "--model", str(model),
                "--model_alias", MODEL_ALIAS,
                "--host", "127.0.0.1",
                "--port", str(port),
                "--chat_format", "chatml-function-calling",
                "--n_ctx", str(CONTEXT_WINDOW),
                "--n_threads", "1",
                "--n_threads_batch", "2",
                "--cache", "true",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=run_dir,
            start_new_session=True,
        )  # fmt: skip
    direct = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _models_answer(direct):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"llama-cpp-python's server did not start:\n{log_path.read_text()}")
        time.sleep(0.25)
    try:
        yield LlamaServer(port=port, log_path=log_path, pid=process.pid), process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_TIMEOUT_S)


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """llama-cpp-python's server with SmolLM2-135M on a loopback port (session scoped)."""
    with running_llama_server(tmp_path_factory.mktemp("llama")) as (server, _process):
        yield server


@pytest.fixture
def llama_tap(llama_server: LlamaServer) -> Iterator[Tap]:
    """A recording tap in front of the server, for this test only."""
    tap = Tap(target_port=llama_server.port)
    tap.start()
    try:
        yield tap
    finally:
        tap.stop()
