"""`gns3-copilot --gns3-gui`: the real GNS3 GUI 3.0.x with the Copilot docked on its right.

The one module that touches GNS3 GUI internals (checked by `compat.check_supported` first):

- the hook: ``gns3.main.main()`` builds its QApplication as ``gns3.main.Application(sys.argv)``;
  a subclass assigned to that name starts a qasync loop on GNS3's own Qt loop and, once
  ``MainWindow._instance`` exists and the GUI is logged in to its controller, docks the Copilot
  as a full-height column right of GNS3's own right-hand docks;
- `GuiControllerAuth` reads the GUI's controller connection (URL, user, JWT) fresh on every call,
  so the user logs in once, in the GNS3 GUI, and a re-login there is seen at once;
- `ProjectFollower` follows ``Topology.project_changed_signal`` and the new project's
  ``project_updated_signal`` (its id may arrive there) and hands the current project id to
  ``CopilotHandle.set_project``, one change at a time, the latest winning.

GNS3's crash reporting (Sentry) is switched off before the GUI starts: tracebacks of this process
are not GNS3's to collect. On quit, the Copilot is closed (databases, tasks) from
``aboutToQuit``, while the Qt loop can still run its coroutines.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import QEventLoop, QObject, Qt, QTimer, pyqtSignal
from PyQt6.QtWidgets import QApplication, QDockWidget, QMainWindow

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.gns3_gui.compat import UnsupportedGns3GuiError, check_supported
from gns3_copilot_desktop.ui.qt_async import spawn

if TYPE_CHECKING:
    from gns3_copilot_desktop.app import AppOptions, CopilotHandle

log = logging.getLogger(__name__)

ATTACH_RETRY_MS = 50
LOGIN_POLL_MS = 250
DOCK_WIDTH = 420
CLOSE_TIMEOUT_MS = 10_000

ApplyProject = Callable[[str | None], Coroutine[Any, Any, None]]


@dataclass
class GuiSession:
    """The running integration: the GNS3 main window, the Copilot in it, the project follower."""

    main_window: QMainWindow
    handle: CopilotHandle
    follower: ProjectFollower


OnReady = Callable[[GuiSession], Coroutine[Any, Any, None]]
OnApplication = Callable[[QApplication], None]


class GuiControllerAuth:
    """`ExternalAuth` over the GNS3 GUI's controller connection (read fresh on every call)."""

    def _http_client(self) -> Any:
        from gns3.controller import Controller

        client = Controller.instance().httpClient()
        if client is None:
            raise CopilotError("The GNS3 GUI is not connected to a GNS3 server yet.")
        return client

    def base_url(self) -> str:
        """The controller's URL without ``/v3``, e.g. ``http://127.0.0.1:3080``."""
        return str(self._http_client().fullUrl())

    def token(self) -> str | None:
        """The JWT the GUI holds now (None before its login)."""
        token = self._http_client().getToken()
        return str(token) if token else None

    def username(self) -> str | None:
        """The user name of the GUI's controller settings, if it has one."""
        from gns3.controller import Controller

        name = Controller.instance().settings().get("username")
        return str(name) if name else None


def _project_id(project: Any) -> str | None:
    """The GNS3 GUI project's id (None for no project, or one not created on the server yet)."""
    if project is None:
        return None
    pid = project.id()
    return str(pid) if pid else None


class ProjectFollower(QObject):
    """Keeps the Copilot on the GNS3 GUI's current project.

    ``followed`` is emitted with the project id (or None) once the Copilot switched to it.
    """

    followed = pyqtSignal(object)

    _UNSET = object()

    def __init__(self, topology: Any, apply: ApplyProject, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._topology = topology
        self._apply = apply
        self._watched: Any = None
        self._desired: str | None = None
        self._applied: object = self._UNSET
        self._task: asyncio.Task[None] | None = None

    @property
    def current(self) -> str | None:
        """The project id the Copilot follows now (None before the first switch completed)."""
        return self._applied if isinstance(self._applied, str) else None

    @property
    def wanted(self) -> str | None:
        """The GNS3 GUI's project id as last seen (the switch to it may still run)."""
        return self._desired

    def start(self) -> None:
        """Follow the topology's project from now on (and apply the current one)."""
        self._topology.project_changed_signal.connect(self._project_changed)
        self._project_changed()

    def stop(self) -> None:
        """Stop following (the Copilot stays on its last project)."""
        with contextlib.suppress(TypeError, RuntimeError):
            self._topology.project_changed_signal.disconnect(self._project_changed)
        self._unwatch()

    def _project_changed(self) -> None:
        self._unwatch()
        project = self._topology.project()
        if project is not None:
            # A just-created project learns its id (and name, path) from this signal.
            project.project_updated_signal.connect(self._project_updated)
            self._watched = project
        self._want(_project_id(project))

    def _project_updated(self) -> None:
        self._want(_project_id(self._topology.project()))

    def _unwatch(self) -> None:
        if self._watched is not None:
            # already disconnected, or the GUI deleted the project object
            with contextlib.suppress(TypeError, RuntimeError):
                self._watched.project_updated_signal.disconnect(self._project_updated)
            self._watched = None

    def _want(self, project_id: str | None) -> None:
        self._desired = project_id
        if self._task is None or self._task.done():
            self._task = spawn(self._sync(), name="gns3-gui-follow-project")

    async def _sync(self) -> None:
        while self._applied is self._UNSET or self._applied != self._desired:
            target = self._desired
            try:
                await self._apply(target)
            except CopilotError as exc:  # expected (server, storage): keep following
                log.warning("could not switch to project %s: %s", target, exc.user_message)
            self._applied = target
            log.info("the Copilot follows GNS3 project %s", target or "(none)")
            self.followed.emit(target)


class _Integration:
    """State shared by the Application hook, the docking step and the shutdown."""

    def __init__(
        self, options: AppOptions, on_ready: OnReady | None, on_application: OnApplication | None
    ) -> None:
        self.options = options
        self.on_ready = on_ready
        self.on_application = on_application
        self.loop: asyncio.AbstractEventLoop | None = None
        self.session: GuiSession | None = None
        self.start_error: BaseException | None = None

    def application_created(self, app: QApplication) -> None:
        import qasync

        from gns3_copilot_desktop.app import install_translator, paths_for, saved_language

        # The Copilot's own strings in the user's language (GNS3 keeps its own translators).
        install_translator(app, saved_language(paths_for(self.options)))
        self.loop = qasync.QEventLoop(app, already_running=True)
        asyncio.set_event_loop(self.loop)
        app.aboutToQuit.connect(self._about_to_quit)
        if self.on_application is not None:
            self.on_application(app)
        QTimer.singleShot(0, self._attach)

    def _attach(self) -> None:
        """Dock the Copilot once the main window exists and the GUI is logged in to its server.

        The Copilot works with the GUI's login, so it waits for it (the GUI shows its own
        connection errors and login dialog meanwhile); then its header starts logged in.
        """
        from gns3.main_window import MainWindow

        window = getattr(MainWindow, "_instance", None)  # .instance() would create one
        if window is None:
            QTimer.singleShot(ATTACH_RETRY_MS, self._attach)
            return
        if not _gui_logged_in():
            QTimer.singleShot(LOGIN_POLL_MS, self._attach)
            return
        spawn(self._start(window), name="gns3-gui-attach-copilot")

    async def _start(self, window: QMainWindow) -> None:
        from gns3.topology import Topology

        from gns3_copilot_desktop.app import create_copilot
        from gns3_copilot_desktop.gns3_gui.canvas import GuiCanvas

        try:
            handle = await create_copilot(window, self.options, external_auth=GuiControllerAuth())
        except CopilotError as exc:
            self.start_error = exc
            text = exc.user_message
            log.error("the Copilot could not start in the GNS3 GUI: %s", text)
            # a dialog runs a nested loop: never from inside this task (see gns3-gui.md)
            QTimer.singleShot(0, lambda: _warn(window, text))
            return
        _dock_as_right_column(window, handle.dock)
        handle.header.node_links.canvas = GuiCanvas(window)
        follower = ProjectFollower(Topology.instance(), handle.set_project, window)
        self.session = GuiSession(window, handle, follower)
        follower.start()
        if self.on_ready is not None:
            spawn(self.on_ready(self.session), name="gns3-gui-on-ready")

    def _about_to_quit(self) -> None:
        """Close the Copilot (its databases, its tasks) while the Qt loop can still run them."""
        if self.session is None or self.loop is None:
            return
        self.session.follower.stop()
        task = self.loop.create_task(self.session.handle.aclose())
        waiter = QEventLoop()
        task.add_done_callback(lambda _: waiter.quit())
        QTimer.singleShot(CLOSE_TIMEOUT_MS, waiter.quit)
        if not task.done():
            waiter.exec()
        if not task.done():
            log.warning("the Copilot did not close within %d ms", CLOSE_TIMEOUT_MS)
            task.cancel()
        elif not task.cancelled() and task.exception() is not None:
            log.error("closing the Copilot failed", exc_info=task.exception())

    def close_loop(self) -> None:
        """After GNS3's ``main()`` returned: the qasync loop cannot run any more; close it."""
        if self.loop is None:
            return
        self.loop.stop()
        asyncio.events._set_running_loop(None)
        self.loop.close()
        asyncio.set_event_loop(None)
        self.loop = None


def _gui_logged_in() -> bool:
    from gns3.controller import Controller

    controller = Controller.instance()
    client = controller.httpClient()
    return bool(controller.connected() and client is not None and client.getToken())


def _dock_as_right_column(window: QMainWindow, dock: QDockWidget) -> None:
    """Put the dock in a full-height column right of GNS3's own right docks (not under them)."""
    window.removeDockWidget(dock)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock, Qt.Orientation.Horizontal)
    dock.show()
    window.resizeDocks([dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)


def _warn(window: QMainWindow, text: str) -> None:
    from PyQt6.QtWidgets import QMessageBox

    QMessageBox.warning(window, "GNS3 Copilot", text)


def _application_class(base: type, integration: _Integration) -> type:
    """A subclass of GNS3's Application that starts the Copilot's side of the integration."""

    class CopilotGns3Application(base):  # type: ignore[misc]
        def __init__(self, argv: list[str]) -> None:
            super().__init__(argv)
            integration.application_created(self)

    return CopilotGns3Application


def _silence_crash_reports() -> None:
    """GNS3's excepthook sends crash reports to Sentry when enabled: never from this process."""
    import gns3.crash_report

    gns3.crash_report.SENTRY_SDK_AVAILABLE = False


def run_gui(
    options: AppOptions,
    gns3_argv: list[str],
    *,
    on_ready: OnReady | None = None,
    on_application: OnApplication | None = None,
    program: str = "gns3-copilot",
) -> int:
    """Run the GNS3 GUI (``gns3_argv`` are its own arguments) with the Copilot docked in it.

    Returns the GUI's exit code; raises `UnsupportedGns3GuiError` for a missing or unsupported
    GNS3 GUI. ``on_application(app)`` is called once GNS3's QApplication exists (before its main
    window), ``on_ready(session)`` is run as a task once the Copilot is docked.
    """
    version = check_supported()
    import gns3.main

    _silence_crash_reports()
    integration = _Integration(options, on_ready, on_application)
    original_class, original_argv = gns3.main.Application, sys.argv
    gns3.main.Application = _application_class(original_class, integration)
    sys.argv = [program, *gns3_argv]
    log.info("starting the GNS3 GUI %s with the Copilot docked", version)
    try:
        gns3.main.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        gns3.main.Application = original_class
        sys.argv = original_argv
        integration.close_loop()
    if integration.start_error is not None and code == 0:
        code = 1
    return code


def parse_args(argv: list[str]) -> tuple[AppOptions, list[str]]:
    """Split our options from the GNS3 GUI's own arguments (which GNS3's parser reads)."""
    from gns3_copilot_desktop.app import AppOptions

    parser = argparse.ArgumentParser(prog="gns3-copilot --gns3-gui", add_help=False)
    parser.add_argument("--gns3-gui", action="store_true")
    parser.add_argument("--model-base-url")
    parser.add_argument("--model")
    parser.add_argument("--home", type=Path)
    ours, rest = parser.parse_known_args(argv)
    options = AppOptions(model_base_url=ours.model_base_url, model_name=ours.model, home=ours.home)
    return options, rest


def run(argv: list[str] | None = None) -> int:
    """Entry point of ``gns3-copilot --gns3-gui [our options] [GNS3 GUI arguments]``."""
    options, gns3_argv = parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        return run_gui(options, gns3_argv)
    except UnsupportedGns3GuiError as exc:
        print(f"gns3-copilot: {exc.user_message}", file=sys.stderr)
        return 2
