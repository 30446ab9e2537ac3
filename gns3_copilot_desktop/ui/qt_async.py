"""Small helpers for running coroutines on the qasync loop from Qt code.

The whole app runs on qasync's loop (see shared notes: keep the agent on it), so a widget can start
a coroutine with `spawn`. `spawn` keeps a strong reference to the task (asyncio only keeps weak
ones) and sends an unexpected exception to the log and `sys.excepthook`, never swallowing it.
The one expected ending it keeps quiet is `ServicesClosedError`: the user logged out or closed the
copilot while the task was still loading (a project's sessions, say), so nobody waits for it.

A modal dialog's ``exec()`` (and ``QFileDialog.get*``, ``QInputDialog.get*``, the static
``QMessageBox`` questions) runs a nested event loop. Started inside a coroutine, that loop runs
inside the task's step, and every other task that wakes meanwhile fails with "Cannot enter into
task ... while another task is being executed" and never runs again (the GNS3 notification stream
was one). `modal` runs such a call from a plain Qt callback instead and awaits its answer.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from PyQt6.QtCore import QTimer

from gns3_copilot_desktop.core.errors import ServicesClosedError

log = logging.getLogger(__name__)

T = TypeVar("T")

_tasks: set[asyncio.Task[Any]] = set()


def spawn(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Run `coro` as a task on the running loop; unexpected errors reach the excepthook."""
    task = asyncio.get_event_loop().create_task(coro, name=name)
    _tasks.add(task)
    task.add_done_callback(_finished)
    return task


def _finished(task: asyncio.Task[Any]) -> None:
    _tasks.discard(task)
    if task.cancelled():
        return
    exc = task.exception()
    if isinstance(exc, ServicesClosedError):
        log.debug("task %s ended: %s", task.get_name(), exc.user_message)
        return
    if exc is not None:
        sys.excepthook(type(exc), exc, exc.__traceback__)


def pending_tasks() -> list[asyncio.Task[Any]]:
    """Tasks started with `spawn` that have not finished (tests cancel them at teardown)."""
    return [t for t in _tasks if not t.done()]


async def modal(ask: Callable[[], T]) -> T:
    """``ask()`` (a blocking dialog) run from a Qt callback outside every task; its answer.

    The coroutine waits on a future meanwhile, so the loop's other tasks (notification streams,
    answers being streamed) go on while the dialog is open."""
    answered: asyncio.Future[T] = asyncio.get_running_loop().create_future()

    def run() -> None:
        if answered.done():  # the waiting coroutine was cancelled: no dialog
            return
        try:
            result = ask()
        except BaseException as exc:  # handed to the coroutine that asked
            if not answered.done():
                answered.set_exception(exc)
            return
        if not answered.done():
            answered.set_result(result)

    QTimer.singleShot(0, run)
    return await answered
