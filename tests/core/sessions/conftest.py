"""Fixtures of the session store tests: a store on a real file in tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from gns3_copilot_desktop.core.sessions import SessionStore


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[SessionStore]:
    """An open store on ``tmp_path/project.db``, closed after the test."""
    opened = await SessionStore.open(tmp_path / "project.db")
    try:
        yield opened
    finally:
        await opened.close()


@pytest_asyncio.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[SessionStore]:
    """A SQLite store, for tests of its own file settings."""
    opened = await SessionStore.open(tmp_path / "project.db")
    try:
        yield opened
    finally:
        await opened.close()
