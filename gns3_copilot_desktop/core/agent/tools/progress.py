"""Progress of a long tool call (a node boot, a capture) told to the UI while it runs.

The graph's tool node installs a reporter for each call (`reporting`); a tool calls `report` with
a short sentence ("R1 started, waiting for R2 (12 s)"). Outside a reporter, `report` does nothing,
so tools stay callable from tests and scripts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Reporter = Callable[[str], None]

_current: ContextVar[Reporter | None] = ContextVar("tool_progress_reporter", default=None)


def report(text: str) -> None:
    """Tell the UI how the running tool call is doing (no-op without a reporter)."""
    reporter = _current.get()
    if reporter is not None:
        reporter(text)


@contextmanager
def reporting(reporter: Reporter) -> Iterator[None]:
    """Send `report` calls made inside this block (and its tasks) to `reporter`."""
    token = _current.set(reporter)
    try:
        yield
    finally:
        _current.reset(token)
