"""What an attacker's checkpoint names: callables that leave a marker file when they run.

The foreign-database tests plant references to these (and to ``os.system``) in a session database;
a marker file that appears means the app rebuilt an object from a name written in the file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def boom(path: str) -> str:
    """A module-level function a msgpack extension can name."""
    Path(path).write_text("ran")
    return "boom"


class Boom:
    """A class a forged LangChain constructor can name."""

    def __init__(self, path: str = "", **_: Any) -> None:
        if path:
            Path(path).write_text("ran")


class PickleBomb:
    """Unpickling this runs a shell command."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch {self.path}",))
