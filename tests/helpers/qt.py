"""The qasync loop for pytest-qt tests (pattern A of shared/notes/stack.md).

Rules for tests that use `qasync_loop`:
- Build widgets with `qtbot` as usual. Start coroutines with `ui.qt_async.spawn` or
  `loop.create_task`; never `loop.run_until_complete` / `asyncio.run`.
- Wait with `qtbot.waitUntil(condition, timeout=...)` (or `qtbot.waitSignal`): that spins Qt's
  event loop, which *is* the asyncio loop. Tests are plain (not `async def`) functions.
- Teardown cancels every task still pending, lets them unwind, then clears the running loop and
  closes it (clearing qasync's private "running" flag first: `already_running=True` set it and
  only `stop()` would clear it). It never calls `loop.stop()`: that calls `QApplication.exit()`,
  after which every later `qtbot.wait*` returns at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import qasync
from PyQt6.QtWidgets import QApplication


@pytest.fixture
def qasync_loop(qapp: QApplication, qtbot: object) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop running on the test's QApplication, set as the current asyncio loop."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in tasks:
            task.cancel()
        deadline = loop.time() + 2.0
        while any(not t.done() for t in tasks) and loop.time() < deadline:
            qapp.processEvents()
        asyncio.events._set_running_loop(None)
        # qasync refuses to close a loop it believes runs; it was never started by run_forever.
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
        loop.close()
        asyncio.set_event_loop(None)
