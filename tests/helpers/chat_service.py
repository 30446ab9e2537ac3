"""The copilot service (`gns3-copilot serve`'s ASGI app under uvicorn) in this process, on
127.0.0.1, in a thread with its own event loop, on the real GNS3 server and a given model.

Used by the remote-dock tests (the dock on the qasync loop talks to it over real HTTP) and by the
load benchmark; `ServeProcess` runs the real command in a process of its own (the replica tests
kill one by its PID). `stop()` asks uvicorn to exit and joins the thread; the app's lifespan
closes its databases.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from gns3_copilot_desktop.core.agent.model_factory import LlmConfig
from gns3_copilot_desktop.service.api import create_app
from gns3_copilot_desktop.service.chat_service import ServiceConfig
from tests.helpers.gns3_server import free_port

START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 20.0


def scripted_llm(base_url: str, api_key: str) -> LlmConfig:
    """The service's model: the scripted OpenAI-compatible server, no retries."""
    return LlmConfig(
        provider="openai", model="gpt-4o-mini", base_url=base_url, api_key=api_key, max_retries=0
    )


class InProcessChatService:
    """One running service; `url` is ``http://127.0.0.1:<port>``."""

    def __init__(
        self,
        gns3_url: str,
        data_dir: Path,
        llm: LlmConfig,
        *,
        heartbeat_interval_s: float = 15.0,
        backlog: int = 2048,
        idle_close_s: float | None = None,
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(
            ServiceConfig(
                gns3_url=gns3_url,
                data_dir=data_dir,
                llm=llm,
                heartbeat_interval_s=heartbeat_interval_s,
                idle_close_s=idle_close_s,
            )
        )
        self.app = app
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            backlog=backlog,
            timeout_graceful_shutdown=5,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="chat-service", daemon=True)
        self._failure: BaseException | None = None

    def _run(self) -> None:
        # qasync installs a global loop policy: this thread builds a plain loop of its own.
        try:
            with asyncio.Runner(loop_factory=asyncio.SelectorEventLoop) as runner:
                runner.run(self._server.serve())
        except BaseException as exc:  # reported by start()/stop() in the test's thread
            self._failure = exc

    def start(self) -> InProcessChatService:
        """Start serving; returns once uvicorn listens."""
        self._thread.start()
        self._thread.join(0)
        deadline = threading.Event()
        for _ in range(int(START_TIMEOUT_S / 0.02)):
            if self._server.started or not self._thread.is_alive():
                break
            deadline.wait(0.02)
        if not self._server.started:
            self.stop()
            raise RuntimeError(f"the copilot service did not start: {self._failure!r}")
        return self

    def stop(self) -> None:
        """Exit uvicorn (open streams are cancelled) and wait for the thread."""
        self._server.should_exit = True
        self._thread.join(STOP_TIMEOUT_S)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(STOP_TIMEOUT_S)
        if self._failure is not None and not isinstance(self._failure, SystemExit):
            raise RuntimeError("the copilot service failed") from self._failure


class ServeProcess:
    """``gns3-copilot serve`` as a user runs it: a process of its own (so a test can kill it by
    its PID mid-turn), on 127.0.0.1, the model at ``model_base_url`` (OpenAI-compatible)."""

    def __init__(
        self,
        gns3_url: str,
        run_dir: Path,
        *,
        model_base_url: str,
        model_api_key: str,
        database: str,
        port: int | None = None,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        self.gns3_url = gns3_url
        self.run_dir = run_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = database
        self.output_path = run_dir / f"serve-{self.port}.log"
        self._model = (model_base_url, model_api_key)
        self._extra = extra_args
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout_s: float = 60.0) -> ServeProcess:
        """Start it and wait until it answers HTTP."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_COPILOT"))}
        env.update(
            HOME=str(self.run_dir / "home"),
            OPENAI_API_KEY=self._model[1],
            OPENAI_BASE_URL=self._model[0],
            NO_PROXY="127.0.0.1,localhost",
        )
        with self.output_path.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gns3_copilot_desktop", "serve",
                 "--gns3-server", self.gns3_url, "--port", str(self.port),
                 "--data-dir", str(self.run_dir / f"data-{self.port}"),
                 "--model", "openai:gpt-4o-mini", "--database", self.database, *self._extra],
                stdout=output, stderr=subprocess.STDOUT, env=env, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                httpx.get(f"{self.url}/v3/chat/sessions", timeout=1)
                return self
            except httpx.HTTPError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError(f"serve did not start:\n{self.output()}") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL, as a crash: nothing is cleaned up."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(15)

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful shutdown), SIGKILL if it does not end."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        return self.output_path.read_text(errors="replace")
