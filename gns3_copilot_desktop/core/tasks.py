"""Cleanup that must finish even when the task doing it is cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def to_the_end(work: Awaitable[T]) -> T:
    """Await `work` to its end even if the caller is cancelled meanwhile (the cancellation is
    raised once `work` is done).

    Closing a database file, committing or rolling back run in another thread regardless of the
    caller: cancelling the wait would only lose track of them. The app cancels its UI tasks on
    exit, and a store cancelled half-way through its close kept its connection thread alive, so
    the process did not end.
    """
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait({task})
        raise
