"""The standalone ``gns3-copilot`` process, started as a user would: it quits cleanly, and it says
what to do when there is no display.

Each test runs ``python -m gns3_copilot_desktop`` in a throwaway home (HOME, XDG dirs and the app's
``--home`` under ``tmp_path``), with no GNS3 server configured. "Up" is the log line the app writes
once its window is shown and its quit signals are in place.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gns3_copilot_desktop import app
from gns3_copilot_desktop.core.logs import LOG_FILE_NAME

SOURCE_ROOT = Path(__file__).resolve().parents[1]
"""This checkout's package is the one the child imports, whatever the venv has installed."""
UP_LINE = "gns3_copilot_desktop.app: the window is shown"
UP_TIMEOUT_S = 60.0
EXIT_TIMEOUT_S = 30.0

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_COPILOT"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        NO_PROXY="127.0.0.1,localhost",
        PYTHONPATH=str(SOURCE_ROOT),
    )
    env.update(extra)
    return env


def _start(tmp: Path) -> tuple[subprocess.Popen[str], Path]:
    log_file = tmp / "app" / "logs" / LOG_FILE_NAME
    command = [sys.executable, "-m", "gns3_copilot_desktop", "--home", str(tmp / "app")]
    process = subprocess.Popen(
        command,
        cwd=tmp,
        env=_env(tmp, QT_QPA_PLATFORM="offscreen"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + UP_TIMEOUT_S
    while not (log_file.exists() and UP_LINE in log_file.read_text(encoding="utf-8")):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            out, err = process.communicate()
            pytest.fail(f"the app did not come up (exit {process.returncode}):\n{out}\n{err}")
        time.sleep(0.05)
    return process, log_file


def _problems(stderr: str) -> list[str]:
    """Lines of stderr that tell of a failure: a traceback, an ERROR or CRITICAL log line."""
    markers = ("Traceback", " ERROR ", " CRITICAL ", "unexpected error", "RuntimeError")
    return [line for line in stderr.splitlines() if any(m in line for m in markers)]


@pytest.mark.parametrize(
    "quit_signal",
    [signal.SIGINT, signal.SIGTERM],
    ids=["ctrl-c in the terminal", "closing the window (SIGTERM closes it)"],
)
def test_quitting_the_app_exits_0_without_a_traceback(
    quit_signal: signal.Signals, tmp_path: Path
) -> None:
    process, log_file = _start(tmp_path)
    process.send_signal(quit_signal)
    try:
        _, err = process.communicate(timeout=EXIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        pytest.fail(f"the app did not quit:\n{err}")
    assert process.returncode == 0, err
    assert _problems(err) == [], err
    assert _problems(log_file.read_text(encoding="utf-8")) == []
    # It shut down the way closing the window does: the window's geometry was saved.
    settings = (tmp_path / "app" / "config").glob("*.json")
    assert any('"geometry"' in p.read_text(encoding="utf-8") for p in settings)


def test_without_a_display_it_says_what_to_do_and_exits_2(tmp_path: Path) -> None:
    env = _env(tmp_path)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        env.pop(name, None)
    command = [sys.executable, "-m", "gns3_copilot_desktop", "--home", str(tmp_path / "app")]
    result = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == app.NO_DISPLAY_EXIT_CODE == 2
    assert result.stderr.strip() == app.NO_DISPLAY_MESSAGE
    assert "desktop session" in result.stderr and "QT_QPA_PLATFORM=offscreen" in result.stderr
    assert "--self-test" in result.stderr
    assert not (tmp_path / "core").exists()  # no core dump in the working folder
    assert not (tmp_path / "app").exists()  # checked before anything was set up


def test_the_display_check() -> None:
    assert app.missing_display({}, "linux")
    assert app.missing_display({"DISPLAY": ""}, "linux")
    assert not app.missing_display({"DISPLAY": ":0"}, "linux")
    assert not app.missing_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert not app.missing_display({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert not app.missing_display({}, "win32")
    assert not app.missing_display({}, "darwin")
