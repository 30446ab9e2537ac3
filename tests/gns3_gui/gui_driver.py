"""Drive the real GNS3 GUI with the Copilot docked, in its own process (run by test_gns3_gui.py).

Usage: ``python tests/gns3_gui/gui_driver.py CONFIG.json``. The GNS3 GUI changes its process for
good (it replaces QMessageBox, sys.excepthook, the root logger's level and the SIGINT handler),
so the tests run it here rather than in the pytest process. The config names the GNS3 server
(the GUI reads its own gns3_gui.conf, written by the test), the loopback model server, the two
projects and where to write results. Results are JSON lines (one object per step, ``event`` names
the step) appended to the results file: GNS3 copies stdout into its Console dock, so stdout is
not used. Every wait is on a condition with a timeout; the scenario ends by closing the main
window (the "Confirm Exit" box is answered) and the last line is ``{"event": "exit", ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Before anything imports gns3 (which replaces QMessageBox with a subclass of it).
from PyQt6.QtCore import Qt, QTimer
from PyQt6.QtWidgets import QApplication, QDialog, QLabel, QMessageBox, QProgressDialog

from gns3_copilot_desktop.app import AppOptions
from gns3_copilot_desktop.gns3_gui.launch import GuiControllerAuth, GuiSession, run_gui
from gns3_copilot_desktop.selftest import visible_answer
from gns3_copilot_desktop.ui.chat.messages import UserBubble

ORIGINAL_MESSAGE_BOX = QMessageBox
HOST_GREY = "#535353"  # the background of every widget under GNS3's charcoal style sheet
POLL_S = 0.05


class Reporter:
    """Appends one JSON object per line to the results file (flushed at once)."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("a", encoding="utf-8", buffering=1)

    def __call__(self, event: str, **fields: Any) -> None:
        self._file.write(json.dumps({"event": event, "t": time.monotonic(), **fields}) + "\n")
        self._file.flush()


class ModalAnswerer:
    """Answers the modal dialogs no GNS3 setting turns off (root warning, New Project, Exit)."""

    def __init__(self, report: Reporter) -> None:
        self._report = report
        self._timer: QTimer | None = None

    def start(self, app: QApplication) -> None:
        self._timer = QTimer(app)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._answer)
        self._timer.start()

    def _answer(self) -> None:
        widget = QApplication.activeModalWidget()
        if widget is None or isinstance(widget, QProgressDialog):
            return  # progress dialogs close themselves
        if isinstance(widget, ORIGINAL_MESSAGE_BOX):
            self._report("dialog", kind="message", title=widget.windowTitle(), text=widget.text())
            for choice in (
                ORIGINAL_MESSAGE_BOX.StandardButton.Yes,
                ORIGINAL_MESSAGE_BOX.StandardButton.Ok,
            ):
                button = widget.button(choice)
                if button is not None:
                    button.click()
                    return
            widget.accept()
        elif isinstance(widget, QDialog):
            self._report("dialog", kind=type(widget).__name__, title=widget.windowTitle())
            widget.reject()


async def wait_until(condition: Callable[[], object], timeout_s: float, what: str) -> None:
    """Let the Qt/asyncio loop run until ``condition()`` is true; TimeoutError names ``what``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout_s:g} s waiting for {what}")
        await asyncio.sleep(POLL_S)


def _gui_project() -> Any:
    from gns3.topology import Topology

    return Topology.instance().project()


def _open_project(project_id: str) -> None:
    """Open a project the way the GUI's project dialog does (deferred: it may run nested loops)."""
    from gns3.topology import Topology

    QTimer.singleShot(0, lambda: Topology.instance().createLoadProject({"project_id": project_id}))


async def _follow(session: GuiSession, project_id: str, name: str, report: Reporter) -> None:
    _open_project(project_id)
    await wait_until(
        lambda: (
            session.follower.current == project_id
            and _gui_project() is not None
            and _gui_project().name() == name
        ),
        60,
        f"the Copilot to follow project {name}",
    )
    panel = session.handle.dock.panel
    await panel.sessions.refresh()
    report(
        "followed",
        project_id=session.follower.current,
        gui_project_id=_gui_project().id(),
        gui_project_name=_gui_project().name(),
        window_title=session.main_window.windowTitle(),
        sessions=[e.session_id for e in panel.sessions.entries],
    )


async def _chat(session: GuiSession, message: str, report: Reporter) -> None:
    panel = session.handle.dock.panel
    loop = asyncio.get_running_loop()
    finished: asyncio.Future[str] = loop.create_future()
    pieces: list[str] = []
    errors: list[str] = []
    panel.controller.content_received.connect(pieces.append)
    panel.controller.error_occurred.connect(lambda text, kind: errors.append(f"{kind}: {text}"))
    panel.controller.finished.connect(
        lambda outcome: finished.done() or finished.set_result(outcome)
    )
    panel.send(message)
    outcome = await asyncio.wait_for(finished, 60)
    streamed = "".join(pieces)
    with contextlib.suppress(TimeoutError):  # the test compares what is shown
        await wait_until(
            lambda: visible_answer(panel.view).strip() == streamed.strip(), 10, "the answer shown"
        )
    await panel.sessions.refresh()
    bubbles = [w for w in panel.view.message_widgets() if isinstance(w, UserBubble)]
    report(
        "turn",
        bubble_host_grey=[_share_of(w, HOST_GREY) for w in bubbles],
        outcome=outcome,
        streamed=streamed,
        pieces=len(pieces),
        shown=visible_answer(panel.view),
        errors=errors,
        session_id=panel.session_id,
        sessions=[e.session_id for e in panel.sessions.entries],
    )


def _share_of(widget: Any, colour: str) -> float:
    """The share of the widget's pixels of `colour` (GNS3's style sheet painting through)."""
    from PyQt6.QtGui import QColor, QImage

    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    wanted = QColor(colour).rgb()
    hits = sum(
        image.pixel(x, y) == wanted for y in range(image.height()) for x in range(image.width())
    )
    return hits / max(image.width() * image.height(), 1)


async def _show_node(session: GuiSession, name: str, report: Reporter) -> None:
    """A node link's "Show in GNS3": the node's item selected alone, the view centred on it."""
    links = session.handle.header.node_links
    await wait_until(lambda: name in links.nodes, 20, "the node links")
    menu = links.build_menu(links.nodes[name])
    labels = [a.text() for a in menu.actions()]
    menu.actions()[-1].trigger()
    view = session.main_window.uiGraphicsView
    selected = [i for i in view.scene().selectedItems() if callable(getattr(i, "node", None))]
    centre = view.mapToScene(view.viewport().rect().center())
    item_centre = selected[0].sceneBoundingRect().center() if len(selected) == 1 else None
    report(
        "show_node",
        actions=labels,
        selected=[i.node().name() for i in selected],
        distance=None
        if item_centre is None
        else abs(centre.x() - item_centre.x()) + abs(centre.y() - item_centre.y()),
    )


def _rgba(image: Any, point: Any) -> list[int]:
    colour = image.pixelColor(round(point.x()), round(point.y()))
    return [colour.red(), colour.green(), colour.blue(), colour.alpha()]


async def _lab_card(session: GuiSession, report: Reporter) -> None:
    """The Lab card inside the GNS3 GUI: its colours as painted under GNS3's style sheet, its
    node menu before any hover, "Open console" (GNS3's own telnet console, recorded instead of
    starting a terminal) and "Show in GNS3"."""
    import gns3.telnet_console
    from PyQt6.QtCore import QPoint

    opened: list[list[Any]] = []

    def record_console(node: Any, port: int, command: Any = None) -> None:
        opened.append([node.name(), node.consoleHost(), port])

    gns3.telnet_console.nodeTelnetConsole = record_console
    header = session.handle.header
    card = header.labs.show_lab()
    assert card is not None
    drawing = card.drawing
    await wait_until(
        lambda: len(drawing.picture.nodes) == 3 and card.isVisible(), 20, "the Lab card"
    )
    await wait_until(
        lambda: drawing.height() >= drawing.heightForWidth(drawing.width()) > 0, 10, "its layout"
    )
    await wait_until(lambda: "PC1" in header.node_links.nodes, 10, "the card's node links")
    image = drawing.grab().toImage()
    dots = {n: _rgba(image, drawing.status_dot(n)) for n in ("HUB1", "PC1", "PC2")}
    squares = {k: _rgba(image, r.center()) for k, r in drawing.legend_swatches().items()}
    card._node_clicked("PC1")  # what a click on the node does
    menu = card.node_menu
    assert menu is not None
    await wait_until(menu.isVisible, 5, "the node menu")
    menu_image = menu.grab().toImage()
    menu_pixels = [
        _rgba(menu_image, p) for p in (QPoint(menu.width() - 4, menu.height() // 2), QPoint(4, 4))
    ]
    actions = [a.text() for a in menu.actions()]
    hovered = menu.activeAction() is not None
    menu.actions()[0].trigger()
    await wait_until(lambda: opened, 10, "GNS3's console for PC1")
    menu.actions()[-1].trigger()
    view = session.main_window.uiGraphicsView
    selected = [i for i in view.scene().selectedItems() if callable(getattr(i, "node", None))]
    entry = header.node_links.nodes["PC1"]
    menu.close()
    report(
        "lab_card",
        statuses={n.name: n.status for n in drawing.picture.nodes},
        dots=dots,
        squares=squares,
        menu_pixels=menu_pixels,
        hovered=hovered,
        actions=actions,
        opened=opened,
        pc1_console=entry.console,
        selected=[i.node().name() for i in selected],
    )


async def _screenshot(session: GuiSession, path: Path, report: Reporter) -> None:
    window = session.main_window
    path.parent.mkdir(parents=True, exist_ok=True)
    ok = window.grab().save(str(path))
    report("screenshot", path=str(path), saved=ok, width=window.width(), height=window.height())


async def _classroom(session: GuiSession, config: dict[str, Any], report: Reporter) -> None:
    """A student's exam in the Class panel of the dock inside the GNS3 GUI: their lab open in
    the GUI, the exam chosen, Start (the service injects the fault), a hint, then the picture."""
    class_config = config["classroom"]
    await _follow(session, class_config["project_id"], class_config["project_name"], report)
    toggle = session.handle.dock.panel.classroom_toggle
    await wait_until(toggle.isVisible, 30, "the Class toggle (a dock on a copilot service)")
    toggle.click()
    panel = toggle.panel
    title = class_config["exam_title"]
    await wait_until(lambda: panel.exam_combo.findText(title) >= 0, 60, f"the exam {title}")
    panel.exam_combo.setCurrentIndex(panel.exam_combo.findText(title))
    student = panel.student
    await wait_until(lambda: student.start_button.isVisible(), 60, "Start")
    student.start_button.click()
    await wait_until(lambda: student.submit_button.isVisible(), 120, "the started exam")
    await wait_until(lambda: student.hint_button.isEnabled(), 60, "Hint enabled")
    student.hint_button.click()
    await wait_until(lambda: student.hints_label.text(), 60, "the hint")
    await wait_until(lambda: student.isEnabled(), 60, "the panel after the hint")
    await _screenshot(session, Path(config["screenshot"]), report)
    report(
        "classroom",
        title=student.title_label.text(),
        ticket=student.ticket_label.text(),
        time_left=student.time_label.text(),
        hints=student.hints_label.text(),
        error=panel.error_label.text() if panel.error_label.isVisible() else "",
        buttons=[b.text() for b in (student.hint_button, student.submit_button) if b.isVisible()],
        dock_width=session.handle.dock.width(),
        texts=[w.text() for w in session.handle.dock.findChildren(QLabel) if w.isVisible()],
    )


def scenario(config: dict[str, Any], report: Reporter) -> Callable[[GuiSession], Any]:
    async def run(session: GuiSession) -> None:
        from gns3.controller import Controller

        window = session.main_window
        try:
            window.resize(1440, 860)
            report(
                "docked",
                area=window.dockWidgetArea(session.handle.dock).name,
                right=window.dockWidgetArea(session.handle.dock)
                == Qt.DockWidgetArea.RightDockWidgetArea,
                visible=session.handle.dock.isVisible(),
                window_class=f"{type(window).__module__}.{type(window).__name__}",
                logged_in=GuiControllerAuth().token() is not None,
                header_account=session.handle.header.account_label.text(),
                follows=session.follower.current,
            )
            auth = GuiControllerAuth()
            await wait_until(
                lambda: Controller.instance().connected() and auth.token(), 60, "GNS3 login"
            )
            report("connected", base_url=auth.base_url(), username=auth.username())
            if "classroom" in config:
                await _classroom(session, config, report)
                return
            first, second = config["projects"]
            await _follow(session, first["id"], first["name"], report)
            await _chat(session, config["message"], report)
            if config.get("screenshot"):
                await _screenshot(session, Path(config["screenshot"]), report)
            await _show_node(session, "PC1", report)
            await _lab_card(session, report)
            await _follow(session, second["id"], second["name"], report)
        except BaseException as exc:
            report("error", text="".join(traceback.format_exception(exc)))
        finally:
            QTimer.singleShot(0, window.close)

    return run


def _sentry_initialized() -> bool:
    try:
        import sentry_sdk
    except ImportError:
        return False
    return bool(sentry_sdk.is_initialized())


def main(config_path: str) -> int:
    config = json.loads(Path(config_path).read_text(encoding="utf-8"))
    report = Reporter(Path(config["results"]))
    options = AppOptions(
        model_base_url=config.get("model_base_url"),
        model_name=config.get("model_name"),
        home=Path(config["home"]),
    )
    answerer = ModalAnswerer(report)
    try:
        code = run_gui(
            options, [], on_application=answerer.start, on_ready=scenario(config, report)
        )
    except BaseException as exc:
        report("error", text="".join(traceback.format_exception(exc)))
        code = 99
    report("exit", code=code, sentry_initialized=_sentry_initialized())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
