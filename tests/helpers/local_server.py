"""The environment for starting the real ``gns3server`` the way the app finds an installed one.

`local_server_env` puts the test server venv's bin dir first on PATH and points HOME, TMPDIR and
XDG_* into the test's tmp_path, so a server started without a config writes nothing to the real
home.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.gns3_server import server_venv


def local_server_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Set PATH/HOME/TMPDIR/XDG_* for a local server; returns its HOME."""
    home = tmp_path / "server-home"
    for sub in ("", ".config", ".local/share", ".cache", "tmp"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    bin_dir = server_venv() / "bin"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(home / "tmp"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(home / "tmp"))
    return home
