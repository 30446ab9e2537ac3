"""The composition root and the ``gns3-copilot`` entry point.

`create_copilot` builds the concrete services (`Workspace`: settings, keyring, GNS3 login, agent
services) and hands them to the widgets (`CopilotDock` with its `ChatPanel`, `CopilotHeader`), in
any `QMainWindow`: the standalone window of `main`, or the GNS3 GUI's own window, whose controller
connection is then used instead of a login (`ExternalAuth`).

`main` parses the command line, sets up logging and the excepthook, loads translations, runs the
Qt application on a qasync loop, restores and saves the window's geometry, and closes everything
cleanly on exit. LangChain and LangGraph are imported after the window is shown.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import importlib
import importlib.util
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from PyQt6.QtCore import QByteArray, QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PyQt6.QtGui import QCloseEvent
from PyQt6.QtWidgets import QApplication, QMainWindow, QMessageBox, QVBoxLayout, QWidget

from gns3_copilot_desktop.core.logs import redact, setup_logging
from gns3_copilot_desktop.core.paths import AppPaths, app_paths, resource_path
from gns3_copilot_desktop.core.platform import Platform, detect_platform
from gns3_copilot_desktop.core.workspace import Workspace
from gns3_copilot_desktop.ui.backends.remote import BackendChoice
from gns3_copilot_desktop.ui.dock import CopilotDock
from gns3_copilot_desktop.ui.file_folders import FileFolders
from gns3_copilot_desktop.ui.header.header import CopilotHeader
from gns3_copilot_desktop.ui.heap import freeze_startup_heap
from gns3_copilot_desktop.ui.qt_async import pending_tasks, spawn

log = logging.getLogger(__name__)

WINDOW_TITLE = "GNS3 Copilot"
DEFAULT_SIZE = (1000, 760)
SHUTDOWN_TIMEOUT_S = 5.0


@dataclass
class AppOptions:
    """What the command line (or the GNS3 GUI integration, or a test) chooses."""

    server_url: str | None = None
    """Overrides the saved GNS3 server."""
    model_base_url: str | None = None
    """An explicit OpenAI-compatible endpoint (self-test, CI)."""
    model_name: str | None = None
    home: Path | None = None
    """A ``GNS3_COPILOT_HOME``-like root for settings, data and logs (tests)."""


class ExternalAuth(Protocol):
    """The GNS3 GUI's own controller connection."""

    def base_url(self) -> str:
        """The controller URL, without ``/v3``."""
        ...

    def token(self) -> str | None:
        """The JWT, read fresh each time (the GUI re-authenticates)."""
        ...

    def username(self) -> str | None:
        """Who is logged in to the GUI."""
        ...


@dataclass
class CopilotHandle:
    """The copilot built into a window: its dock, its services and its header."""

    dock: CopilotDock
    workspace: Workspace
    header: CopilotHeader
    _closed: bool = field(default=False, repr=False)

    async def set_project(self, project_id: str | None) -> None:
        """Follow an external project choice (the GNS3 GUI's current project)."""
        await self.header.projects.set_project(project_id)

    async def aclose(self) -> None:
        """Stop any answer; close the agent services, the client, a local server (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.header.shutdown()
        self.dock.panel.stop()
        await _cancel_ui_tasks()
        await self.workspace.aclose()
        await self.header.backend.aclose()
        await self.header.login.stop_local_server()


def paths_for(options: AppOptions, platform: Platform | None = None) -> AppPaths:
    """The app's folders: under ``options.home`` when given, else `platform`'s defaults."""
    if options.home is None:
        return app_paths(platform)
    root = options.home.expanduser()
    return AppPaths(root / "config", root / "data", root / "logs", root / "cache")


def explicit_llm(options: AppOptions) -> dict[str, Any] | None:
    """The explicit model configuration of the command line, if any."""
    if not options.model_base_url:
        return None
    return {
        "provider": "openai_compatible",
        "model": options.model_name or "default",
        "base_url": options.model_base_url,
    }


async def create_copilot(
    window: QMainWindow, options: AppOptions, *, external_auth: ExternalAuth | None = None
) -> CopilotHandle:
    """Build the copilot dock with its services and dock it into `window` (on the right).

    The login is restored (or asked for) in the background, so this returns quickly. With
    ``external_auth`` there is no login dialog and the project is driven by `set_project`.
    """
    env: dict[str, str] | None = None
    if options.model_name and not options.model_base_url:
        env = {**os.environ, "GNS3_COPILOT_MODEL": options.model_name}
    workspace = await Workspace.open(
        paths_for(options),
        server_url=options.server_url,
        explicit_llm=explicit_llm(options),
        env=env,
        external_auth=external_auth,
    )
    backend = BackendChoice(workspace)
    dock = CopilotDock(backend, window)
    header = CopilotHeader(workspace, dock.panel, backend)
    container = QWidget(dock)
    layout = QVBoxLayout(container)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(header)
    layout.addWidget(dock.panel, 1)
    dock.setWidget(container)
    dock.add_to(window)
    dock.panel.compact_toggle.setChecked(workspace.settings.compact_tool_cards)
    folders = FileFolders(
        lambda: workspace.settings,
        lambda: spawn(workspace.save_settings(), name="save-folders"),
        header.project_combo.currentText,
    )
    dock.panel.sessions.folders = folders
    dock.panel.practice.folders = folders
    spawn(header.start(), name="copilot-start")
    return CopilotHandle(dock=dock, workspace=workspace, header=header)


# --- the standalone application ----------------------------------------------------------------


class MainWindow(QMainWindow):
    """The standalone window: the copilot dock is its only content. Tells when it closes.

    A close only hides the window and sets `closed`: `run_app` then saves, shuts down and
    returns, and returning is what stops the loop. Were the close accepted, the last window
    closing would quit Qt's loop with `run_app` still awaiting its shutdown (qasync then raises
    "Event loop stopped before Future completed").
    """

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("CopilotMainWindow")
        self.setWindowTitle(WINDOW_TITLE)
        self.resize(*DEFAULT_SIZE)
        self.closed = asyncio.Event()
        placeholder = QWidget(self)
        placeholder.setMaximumWidth(0)
        self.setCentralWidget(placeholder)

    def closeEvent(self, event: QCloseEvent | None) -> None:
        """Hide the window and let `run_app` save the state and shut down."""
        if event is not None:
            event.ignore()
        self.hide()
        self.closed.set()


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line of ``gns3-copilot``."""
    parser = argparse.ArgumentParser(prog="gns3-copilot", description="GNS3 Copilot Desktop")
    parser.add_argument("--server", metavar="URL", help="GNS3 server URL (default: last used)")
    parser.add_argument(
        "--model-base-url", metavar="URL", help="an OpenAI-compatible endpoint to use"
    )
    parser.add_argument("--model", metavar="NAME", help="model name (or provider:model)")
    parser.add_argument("--home", metavar="DIR", type=Path, help="folder for settings and data")
    parser.add_argument("--gns3-gui", action="store_true", help="run inside the GNS3 GUI")
    parser.add_argument("--self-test", action="store_true", help="check the installation")
    return parser.parse_args(list(argv))


def options_from(args: argparse.Namespace) -> AppOptions:
    """`AppOptions` from parsed arguments."""
    return AppOptions(
        server_url=args.server,
        model_base_url=args.model_base_url,
        model_name=args.model,
        home=args.home,
    )


def install_excepthook() -> None:
    """Unexpected errors are logged and shown in a dialog (STYLE.md rule 4)."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        log.error("unexpected error", exc_info=(kind, exc, tb))
        if QApplication.instance() is None or issubclass(kind, KeyboardInterrupt):
            return
        text = redact("".join(traceback.format_exception(kind, exc, tb)))
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            WINDOW_TITLE,
            QCoreApplication.translate("App", "Something went wrong."),
        )
        box.setInformativeText(redact(str(exc)) or kind.__name__)
        box.setDetailedText(text)
        box.setAccessibleName(QCoreApplication.translate("App", "Unexpected error"))
        box.open()
        _open_boxes.append(box)
        box.finished.connect(lambda *_: _open_boxes.remove(box))

    sys.excepthook = hook


_open_boxes: list[QMessageBox] = []

TRANSLATION_PREFIX = "gns3_copilot_"  # resources/translations/gns3_copilot_zh_CN.qm


def install_translator(app: QApplication, language: str | None) -> QTranslator | None:
    """Load ``resources/translations/<locale>.qm`` for the chosen or the system language."""
    names = [language] if language else QLocale.system().uiLanguages()
    for name in names:
        code = name.replace("-", "_")
        for candidate in (code, code.split("_")[0]):
            try:
                path = resource_path("translations", f"{TRANSLATION_PREFIX}{candidate}.qm")
            except (FileNotFoundError, ValueError):
                continue
            translator = QTranslator(app)
            if translator.load(str(path)):
                app.installTranslator(translator)
                translator.qt_base = install_qt_translator(app, candidate)  # type: ignore[attr-defined]
                return translator
    return None


def remove_translator(app: QApplication, translator: QTranslator) -> None:
    """Undo `install_translator` (ours and Qt's own)."""
    app.removeTranslator(translator)
    qt_base = getattr(translator, "qt_base", None)
    if qt_base is not None:
        app.removeTranslator(qt_base)


def install_qt_translator(app: QApplication, code: str) -> QTranslator | None:
    """Qt's own strings (the standard buttons: OK, Cancel, Yes...; the context menus) in the
    same language, from the translations Qt ships (PyQt6's wheel, or the bundle's copy)."""
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    translator = QTranslator(app)
    if translator.load(f"qtbase_{code}", folder) or translator.load(f"qt_{code}", folder):
        app.installTranslator(translator)
        return translator
    log.info("Qt's own %s translation was not found in %s", code, folder)
    return None


def saved_language(paths: AppPaths) -> str | None:
    """The language chosen in the settings, read without side effects (before any widget)."""
    try:
        raw = json.loads(paths.settings_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    language = raw.get("language") if isinstance(raw, dict) else None
    return language if isinstance(language, str) and language else None


def restore_window(window: QMainWindow, handle: CopilotHandle) -> None:
    """Geometry and dock layout from the settings."""
    state = handle.workspace.settings.window_state
    if state.geometry:
        window.restoreGeometry(QByteArray.fromBase64(state.geometry.encode()))
    if state.state:
        window.restoreState(QByteArray.fromBase64(state.state.encode()))


async def save_window(window: QMainWindow, handle: CopilotHandle) -> None:
    """Geometry and dock layout into the settings."""
    settings = handle.workspace.settings
    settings.window_state.geometry = bytes(window.saveGeometry().toBase64().data()).decode()
    settings.window_state.state = bytes(window.saveState().toBase64().data()).decode()
    settings.compact_tool_cards = handle.dock.panel.compact_toggle.isChecked()
    await handle.workspace.save_settings()


async def run_app(app: QApplication, options: AppOptions, platform: Platform | None = None) -> int:
    """Show the window with the copilot and run until it is closed; then shut down cleanly."""
    app.setQuitOnLastWindowClosed(False)
    window = MainWindow()
    system = platform if platform is not None else detect_platform()
    with close_on_signals(window, system.quit_signals):
        handle = await create_copilot(window, options)
        restore_window(window, handle)
        window.show()
        log.info("the window is shown")
        spawn(_warm_up(), name="warm-up")
        await window.closed.wait()
        try:
            await save_window(window, handle)
        finally:
            await shutdown(handle)
    return 0


QUIT_SIGNALS = ("SIGINT", "SIGTERM")
"""Ctrl+C in the terminal and a polite ``kill`` (or the desktop session ending) close the window
(on Linux and macOS: the running `Platform`'s ``quit_signals`` say which)."""


@contextlib.contextmanager
def close_on_signals(window: QMainWindow, signals: Sequence[str] = QUIT_SIGNALS) -> Iterator[None]:
    """While inside, `signals` (SIGINT and SIGTERM) close `window` as its close button does.

    Without this, asyncio's runner turns Ctrl+C into a cancelled main task and a
    ``KeyboardInterrupt`` traceback, skipping the shutdown. The loop's signal handlers wake the
    Qt loop through a self-pipe, so the close happens at once even while Qt sits idle in C++.
    """
    loop = asyncio.get_running_loop()
    installed: list[int] = []
    for name in signals:
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            loop.add_signal_handler(number, window.close)
        except (NotImplementedError, RuntimeError, ValueError):
            # Windows' loops have no signal handlers: Ctrl+C there ends as main() says.
            continue
        installed.append(number)
    try:
        yield
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


async def _warm_up() -> None:
    """Import the agent's heavy libraries once the window is up, off the UI thread.

    Then exempt the ~170,000 long-lived objects they bring from the cyclic collector's scans: a
    full pass over them stalled the UI ~100 ms in the middle of a streamed answer (bench ui).
    """
    await asyncio.to_thread(importlib.import_module, "gns3_copilot_desktop.core.agent.service")
    freeze_startup_heap()


async def shutdown(handle: CopilotHandle) -> None:
    """Close the services (with a time limit), then cancel whatever the widgets still run."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(SHUTDOWN_TIMEOUT_S):  # wait_for drops cancels on 3.11
            await handle.aclose()
    # Outside the time limit: a gns3server started from the login must not outlive the app.
    await handle.header.login.stop_local_server()
    await _cancel_ui_tasks()


async def _cancel_ui_tasks() -> None:
    """Cancel the widgets' running tasks (answers, list refreshes) and let them unwind."""
    current = asyncio.current_task()
    rest = [t for t in pending_tasks() if t is not current]
    for task in rest:
        task.cancel()
    if rest:
        await asyncio.wait(rest, timeout=SHUTDOWN_TIMEOUT_S)


def keep_conversations_local(env: dict[str, str] | os._Environ[str]) -> list[str]:
    """Turn off LangSmith tracing inherited from the environment; the names turned off.

    With LANGSMITH_TRACING (or the older LANGCHAIN_TRACING_V2) set, LangChain would send every
    conversation, tool output included, to a tracing service on the internet. Labs are often
    offline and conversations hold lab details: the only endpoint we talk to is the chosen model.
    """
    names = ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING")
    turned_off = [name for name in names if env.get(name, "").lower() not in ("", "false", "0")]
    for name in names:
        env[name] = "false"
    return turned_off


NO_DISPLAY_EXIT_CODE = 2
NO_DISPLAY_MESSAGE = (
    "gns3-copilot: there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY"
    " is set).\n"
    "Start it from a desktop session (X11 or Wayland). Without a screen, `gns3-copilot"
    " --self-test` checks the installation, and QT_QPA_PLATFORM=offscreen runs the window"
    " off screen."
)


def missing_display(env: dict[str, str] | os._Environ[str], platform: str = sys.platform) -> bool:
    """True when Qt would find no display on Linux (it would abort with a core dump).

    An explicit ``QT_QPA_PLATFORM`` (offscreen, vnc, eglfs...) is the user's choice and is trusted.
    """
    if not platform.startswith("linux"):
        return False
    return not any(env.get(name) for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"))


def _dispatch(module: str, argv: list[str]) -> int:
    """Run ``module.run(argv)`` when that optional module exists (GNS3 GUI, self-test)."""
    if importlib.util.find_spec(module) is None:
        print(f"gns3-copilot: {module} is not available in this installation", file=sys.stderr)
        return 2
    result = importlib.import_module(module).run(argv)
    return int(result or 0)


def main(argv: list[str] | None = None) -> int:
    """The ``gns3-copilot`` entry point."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    keep_conversations_local(os.environ)
    if "--gns3-gui" in args_list:
        if missing_display(os.environ):
            print(NO_DISPLAY_MESSAGE, file=sys.stderr)
            return NO_DISPLAY_EXIT_CODE
        return _dispatch("gns3_copilot_desktop.gns3_gui.launch", args_list)
    if args_list[:1] == ["serve"]:
        from gns3_copilot_desktop.service.cli import run as serve

        return serve(args_list[1:])
    if "--self-test" in args_list:
        return _dispatch("gns3_copilot_desktop.selftest", args_list)
    options = options_from(parse_args(args_list))
    if missing_display(os.environ):
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return NO_DISPLAY_EXIT_CODE
    platform = detect_platform()  # the one choice of system; handed to what differs by it
    paths = paths_for(options, platform).ensure(platform)
    setup_logging(paths.log_dir)
    install_excepthook()
    import qasync

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "gns3-copilot"])
    assert isinstance(app, QApplication)
    app.setApplicationName("gns3-copilot")
    app.setApplicationDisplayName(WINDOW_TITLE)
    install_translator(app, saved_language(paths))
    try:
        code = run_bounded(qasync.QEventLoop(app), run_app(app, options, platform))
    except KeyboardInterrupt:
        # Ctrl+C before the window could take it over (while Qt starts): nothing to save yet.
        code = 0
    exit_past_stuck_threads(code)
    return code


def run_bounded(
    loop: asyncio.AbstractEventLoop, main_coro: Coroutine[Any, Any, int], limit_s: float = 5.0
) -> int:
    """Run `main_coro` on `loop`; then end what is left on it within `limit_s`, and close it.

    ``asyncio.run`` (what ``qasync.run`` calls) cancels the remaining tasks and then waits for
    all of them without a limit, and for the executor's threads up to five minutes: one task that
    does not unwind (waiting on a dialog, a keyring prompt, a stream that swallows the cancel) kept
    the process alive after its window was closed. Here the wait is bounded and the tasks left
    behind are named in the log.
    """
    # Our own executor for ``to_thread``: the loop's would be waited for without a limit on close.
    executor = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="copilot-worker")
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    try:
        return int(loop.run_until_complete(main_coro))
    finally:
        try:
            _end_remaining_tasks(loop, limit_s)
        finally:
            executor.shutdown(wait=False, cancel_futures=True)  # see `exit_past_stuck_threads`
            loop.set_default_executor(None)  # type: ignore[arg-type]  # else close() waits again
            asyncio.set_event_loop(None)
            loop.close()


def _end_remaining_tasks(loop: asyncio.AbstractEventLoop, limit_s: float) -> None:
    left = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in left:
        task.cancel()

    async def settle() -> None:
        if left:
            await asyncio.wait(left, timeout=limit_s)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(limit_s):
                await loop.shutdown_asyncgens()

    loop.run_until_complete(settle())
    stuck = sorted(t.get_name() for t in left if not t.done())
    if stuck:
        log.warning("at exit, tasks that did not end within %s s were left: %s", limit_s, stuck)
    for task in left:
        if task.done() and not task.cancelled() and task.exception() is not None:
            log.warning("a task ended with an error at exit: %r", task.exception())


def exit_past_stuck_threads(code: int, limit_s: float = 3.0) -> None:
    """Exit with `code` now when a worker thread (a blocking keyring or socket call) is still
    running `limit_s` after the loop closed: the interpreter would otherwise join it forever."""
    deadline = time.monotonic() + limit_s
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.daemon:
            continue
        thread.join(max(0.0, deadline - time.monotonic()))
    stuck = [t.name for t in threading.enumerate() if t.is_alive() and not t.daemon]
    stuck = [name for name in stuck if name != threading.main_thread().name]
    if not stuck:
        return
    log.warning("at exit, threads still busy after %s s were left: %s", limit_s, stuck)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
