"""`gns3-copilot --self-test`: open the window offscreen and run one chat turn over loopback only.

It proves an installed or bundled app works end to end: Qt (offscreen), the real dock and chat
panel, the real `AgentService` with its SQLite session store, and the real ``langchain-openai``
client streaming from an OpenAI-compatible server. Nothing leaves 127.0.0.1:

- The model: by default a built-in responder (`LoopbackModelServer`, stdlib only, so the bundle
  needs no test tools) that streams one canned answer in OpenAI's SSE format; or any loopback
  server given with ``--model-base-url`` (the tests pass their scripted server), with
  ``--expect-answer`` naming the text it must stream.
- The GNS3 server: none is needed. The Copilot gets an `ExternalAuth` whose server is a loopback
  port that refuses connections, and a local-only project id; the agent's topology read reports
  the server as unreachable to the model, and the turn goes on.
- The app's files go to a temporary folder (``GNS3_COPILOT_HOME``), the keyring is the null
  backend, proxies are bypassed for loopback and LangSmith tracing is off.

Prints ``self-test: OK ...`` and exits 0, or prints ``self-test: FAILED: <why>`` and exits 1; the
whole run is bounded by ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from gns3_copilot_desktop.core.errors import CopilotError

if TYPE_CHECKING:
    from PyQt6.QtWidgets import QMainWindow

    from gns3_copilot_desktop.app import AppOptions
    from gns3_copilot_desktop.ui.chat.message_view import MessageView

CANNED_ANSWER = (
    "Self-test answer: the GNS3 Copilot dock streamed this reply from a loopback model server."
)
CANNED_TITLE = "Self-test"
SELF_TEST_MESSAGE = "This is the GNS3 Copilot self-test. Please reply with the canned answer."
SELF_TEST_MODEL = "self-test-model"
LOCAL_PROJECT_ID = "5e1f7e57-0000-4000-8000-000000000000"
"""A project id no GNS3 server knows: the self-test's conversation lives only in its temp folder."""
DEFAULT_TIMEOUT_S = 90.0
SHOWN_TIMEOUT_S = 5.0
_CHUNKS = 4


class SelfTestError(CopilotError):
    """The self-test found the app broken; the message says at which step."""


# --- the built-in loopback model ---------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    """Answers ``POST /v1/chat/completions``: the canned answer, or the title for a title call."""

    server: _ResponderHTTPServer

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            self._send_json(400, {"error": {"message": "invalid JSON", "type": "invalid_request"}})
            return
        if not self.path.rstrip("/").endswith("/chat/completions") or not isinstance(body, dict):
            self._send_json(404, {"error": {"message": "not found", "type": "not_found"}})
            return
        self.server.owner.record(body)
        # The agent's call binds tools; the title call (see core/agent/title.py) binds none.
        text = CANNED_ANSWER if body.get("tools") else CANNED_TITLE
        if body.get("stream"):
            self._stream(text, body)
        else:
            self._send_json(200, _completion(text))

    def _stream(self, text: str, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        events = [_chunk({"role": "assistant", "content": ""}, None)]
        events += [_chunk({"content": piece}, None) for piece in _split(text, _CHUNKS)]
        events.append(_chunk({}, "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            events.append({**_chunk({}, None), "choices": [], "usage": _usage(text)})
        for event in events:
            self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the self-test prints its own summary."""


class _ResponderHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    owner: LoopbackModelServer


def _chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-selftest",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": SELF_TEST_MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _completion(text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-selftest",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": SELF_TEST_MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": _usage(text),
    }


def _usage(text: str) -> dict[str, int]:
    completion = max(1, len(text) // 4)
    return {"prompt_tokens": 100, "completion_tokens": completion, "total_tokens": 100 + completion}


def _split(text: str, pieces: int) -> list[str]:
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


class LoopbackModelServer:
    """A minimal OpenAI-compatible chat-completions server on 127.0.0.1 (its own thread)."""

    def __init__(self) -> None:
        self._httpd = _ResponderHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="selftest-model", daemon=True
        )
        self._lock = threading.Lock()
        self._requests: list[dict[str, Any]] = []

    @property
    def base_url(self) -> str:
        """The OpenAI base URL (``http://127.0.0.1:<port>/v1``)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The JSON bodies received so far."""
        with self._lock:
            return list(self._requests)

    def record(self, body: dict[str, Any]) -> None:
        """Keep a request body (called from the handler threads)."""
        with self._lock:
            self._requests.append(body)

    def __enter__(self) -> LoopbackModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


# --- no GNS3 server ----------------------------------------------------------------------------


class UnreachableGns3:
    """`ExternalAuth` of a GNS3 server that is not there: a bound loopback port nobody listens on.

    A TCP port that is bound but not listening refuses connections at once, so the agent's
    topology read fails fast with a clear "unreachable" text instead of waiting for a timeout.
    """

    def __init__(self) -> None:
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.bind(("127.0.0.1", 0))

    def base_url(self) -> str:
        """``http://127.0.0.1:<refusing port>``."""
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}"

    def token(self) -> str | None:
        """No JWT: there is no server to log in to (the sessions live in the app's data folder)."""
        return None

    def username(self) -> str | None:
        """No user either."""
        return None

    def close(self) -> None:
        """Release the port."""
        self._socket.close()


# --- the turn ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SelfTestResult:
    """What the self-test saw."""

    answer: str
    shown: str
    outcome: str
    elapsed_s: float


async def _run_turn(
    window: QMainWindow, options: AppOptions, auth: UnreachableGns3
) -> tuple[str, str]:
    """Build the real Copilot in ``window``, send one message; the streamed and the shown text."""
    from gns3_copilot_desktop.app import create_copilot

    handle = await create_copilot(window, options, external_auth=auth)
    try:
        await handle.set_project(LOCAL_PROJECT_ID)
        panel = handle.dock.panel
        loop = asyncio.get_running_loop()
        finished: asyncio.Future[str] = loop.create_future()
        errors: list[str] = []
        pieces: list[str] = []
        panel.controller.content_received.connect(pieces.append)
        panel.controller.error_occurred.connect(lambda message, kind: errors.append(message))
        panel.controller.finished.connect(lambda outcome: _resolve(finished, outcome))
        with _failing_on_unexpected_errors(finished):
            panel.send(SELF_TEST_MESSAGE)
            outcome = await finished
        if outcome != "done":
            why = errors[-1] if errors else "no error text"
            raise SelfTestError(f"the turn ended with {outcome!r}: {why}")
        answer = "".join(pieces)
        return answer, await _wait_shown(panel.view, answer, SHOWN_TIMEOUT_S)
    finally:
        await handle.aclose()


@contextlib.contextmanager
def _failing_on_unexpected_errors(finished: asyncio.Future[str]) -> Iterator[None]:
    """An error that reaches the excepthook (a bug in a task) fails the self-test at once."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        traceback.print_exception(kind, exc, tb)
        if not finished.done():
            finished.set_exception(SelfTestError(f"unexpected {kind.__name__}: {exc}"))

    sys.excepthook = hook
    try:
        yield
    finally:
        sys.excepthook = previous


def _resolve(future: asyncio.Future[str], value: str) -> None:
    if not future.done():
        future.set_result(value)


def visible_answer(view: MessageView) -> str:
    """The text of the last assistant answer as painted: its text labels that are fully in view.

    Checks what a user sees, not what the widgets hold: a label clipped by its parent (a wrong
    fixed height, a collapsed layout) does not count.
    """
    from PyQt6.QtWidgets import QLabel

    from gns3_copilot_desktop.ui.chat.messages import AssistantMessage
    from gns3_copilot_desktop.ui.lab.node_links import unlink

    view.flush()
    turns = [w for w in view.message_widgets() if isinstance(w, AssistantMessage)]
    if not turns:
        return ""
    labels = [
        label
        for label in turns[-1].findChildren(QLabel)
        if label.isVisible()
        and label.text()
        and label.visibleRegion().boundingRect().size() == label.size()
    ]
    return "\n\n".join(unlink(label.text()) for label in labels)


async def _wait_shown(view: MessageView, answer: str, timeout_s: float) -> str:
    """Let Qt lay the finished answer out, until the view shows ``answer`` (bounded)."""
    deadline = time.monotonic() + timeout_s
    shown = visible_answer(view)
    while shown.strip() != answer.strip() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        shown = visible_answer(view)
    return shown


async def _self_test(options: AppOptions, timeout_s: float) -> SelfTestResult:
    from PyQt6.QtWidgets import QMainWindow

    started = time.monotonic()
    window = QMainWindow()
    window.setWindowTitle("GNS3 Copilot self-test")
    window.resize(1000, 700)
    window.show()
    auth = UnreachableGns3()
    try:
        async with asyncio.timeout(timeout_s):
            answer, shown = await _run_turn(window, options, auth)
    except TimeoutError:
        raise SelfTestError(f"no complete answer within {timeout_s:.0f} s") from None
    finally:
        auth.close()
    window.close()
    return SelfTestResult(answer, shown, "done", time.monotonic() - started)


# --- entry point -------------------------------------------------------------------------------


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="gns3-copilot --self-test")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--model-base-url", help="a loopback OpenAI-compatible server to use")
    parser.add_argument("--model", default=SELF_TEST_MODEL)
    parser.add_argument("--expect-answer", help="the answer that server streams")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S)
    args, _unknown = parser.parse_known_args(argv)
    return args


def _loopback_only(url: str) -> None:
    from urllib.parse import urlsplit

    host = urlsplit(url).hostname or ""
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SelfTestError(f"the self-test talks to loopback servers only, not {host!r}")


def _isolate_environment(home: Path) -> None:
    """Offscreen Qt, a private app folder, no keyring, no proxy for loopback, no tracing."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ["GNS3_COPILOT_HOME"] = str(home)
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    no_proxy = os.environ.get("NO_PROXY", "")
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = ",".join(
        p for p in (no_proxy, "127.0.0.1", "localhost") if p
    )
    for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING"):
        os.environ[name] = "false"


def _run_qt(options: AppOptions, timeout_s: float) -> SelfTestResult:
    import qasync
    from PyQt6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "gns3-copilot"])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        result: SelfTestResult = loop.run_until_complete(_self_test(options, timeout_s))
        return result
    finally:
        loop.close()
        asyncio.set_event_loop(None)


def _check(result: SelfTestResult, expected: str | None) -> None:
    if expected is not None and result.answer != expected:
        raise SelfTestError(f"streamed {result.answer!r}, expected {expected!r}")
    if not result.answer:
        raise SelfTestError("the model's answer was empty")
    if result.shown.strip() != result.answer.strip():
        raise SelfTestError(
            f"the dock does not show the streamed answer (fully visible text: {result.shown!r})"
        )


def run(argv: list[str] | None = None) -> int:
    """Entry point of ``gns3-copilot --self-test``: 0 when the turn worked, 1 otherwise."""
    from gns3_copilot_desktop.app import AppOptions

    args = _parse(list(sys.argv[1:] if argv is None else argv))
    print(
        "self-test: one chat turn over loopback, with no GNS3 server (warnings that the server "
        "refused the connection are expected)",
        flush=True,
    )
    try:
        with tempfile.TemporaryDirectory(prefix="gns3-copilot-selftest-") as tmp:
            home = Path(tmp)
            _isolate_environment(home)
            if args.model_base_url:
                _loopback_only(args.model_base_url)
                options = AppOptions(
                    model_base_url=args.model_base_url, model_name=args.model, home=home
                )
                result = _run_qt(options, args.timeout)
                _check(result, args.expect_answer)
            else:
                with LoopbackModelServer() as model:
                    options = AppOptions(
                        model_base_url=model.base_url, model_name=args.model, home=home
                    )
                    result = _run_qt(options, args.timeout)
                    _check(result, CANNED_ANSWER)
                    if not model.requests:
                        raise SelfTestError("the loopback model server got no request")
    except CopilotError as exc:
        print(f"self-test: FAILED: {exc.user_message}", flush=True)
        return 1
    except Exception as exc:  # a bug: say so plainly, with the traceback for the report
        traceback.print_exc()
        print(f"self-test: FAILED: unexpected {type(exc).__name__}: {exc}", flush=True)
        return 1
    print(
        f"self-test: OK in {result.elapsed_s:.1f} s; the dock streamed: {result.answer}",
        flush=True,
    )
    return 0
