"""The copilot service (`gns3-copilot serve`'s ASGI app under uvicorn) in this process, on
127.0.0.1, in a thread with its own event loop, on the real GNS3 server and a given model.

Used by the remote-dock tests (the dock on the qasync loop talks to it over real HTTP) and by the
load benchmark. `stop()` asks uvicorn to exit and joins the thread; the app's lifespan closes its
databases.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import uvicorn

from gns3_copilot_desktop.core.agent.model_factory import LlmConfig
from gns3_copilot_desktop.service.api import ServiceConfig, create_app
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
