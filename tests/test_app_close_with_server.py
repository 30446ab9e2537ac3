"""Closing the window ends the ``gns3-copilot`` process, whatever the app was doing.

The app runs as a user starts it (``python -m gns3_copilot_desktop``, offscreen) against the real
GNS3 server, with no saved login: the login dialog is open, a task waits on it, the controller's
the window is closed the way its close button closes it
(the quit signal calls ``window.close()``, the same close event) and the process must be gone
within a bound. A process that stays is ended by its PID and the test fails.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.logs import LOG_FILE_NAME
from tests.helpers.gns3_server import Gns3Server
from tests.test_app_lifecycle import SOURCE_ROOT, UP_LINE, UP_TIMEOUT_S, _env, _problems

EXIT_BOUND_S = 20.0
"""The app's own shutdown bound (services, then tasks) plus the interpreter's exit."""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals")


def _wait_for_line(process: subprocess.Popen[str], log_file: Path, line: str) -> None:
    deadline = time.monotonic() + UP_TIMEOUT_S
    while not (log_file.exists() and line in log_file.read_text(encoding="utf-8")):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            out, err = process.communicate()
            pytest.fail(f"no {line!r} (exit {process.returncode}):\n{out}\n{err}")
        time.sleep(0.05)


def test_closing_the_window_while_it_starts_against_a_server_ends_the_process(
    gns3_server: Gns3Server, tmp_path: Path
) -> None:
    log_file = tmp_path / "app" / "logs" / LOG_FILE_NAME
    command = [
        sys.executable,
        "-m",
        "gns3_copilot_desktop",
        "--home",
        str(tmp_path / "app"),
        "--server",
        gns3_server.base_url,
    ]
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=_env(tmp_path, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(SOURCE_ROOT)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_line(process, log_file, UP_LINE)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)  # the loop's handler calls window.close()
        try:
            _, err = process.communicate(timeout=EXIT_BOUND_S)
        except subprocess.TimeoutExpired:
            process.kill()  # only the process this test started, by its PID
            _, err = process.communicate()
            pytest.fail(f"the process outlived its closed window by {EXIT_BOUND_S} s:\n{err}")
        took = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert took < EXIT_BOUND_S
    assert _problems(err) == [], err
    assert _problems(log_file.read_text(encoding="utf-8")) == []


STUCK_APP = """
import asyncio, logging, sys, threading, time
from PyQt6.QtWidgets import QApplication
import qasync
from gns3_copilot_desktop import app as app_module

logging.basicConfig(level=logging.INFO, stream=sys.stderr)
qapp = QApplication([])

async def stubborn():
    while True:  # a task that swallows its cancel, as one waiting on a dialog may
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            pass

async def main():
    print(f"main started at {time.monotonic()}", file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    loop.create_task(stubborn(), name="waits-on-a-dialog")
    loop.run_in_executor(None, threading.Event().wait)  # a blocking call that never returns
    await asyncio.sleep(0.1)
    return 0

if sys.argv[1] == "asyncio.run":
    sys.exit(qasync.run(main()))
code = app_module.run_bounded(qasync.QEventLoop(qapp), main(), limit_s=1.0)
app_module.exit_past_stuck_threads(code, limit_s=1.0)
sys.exit(code)
"""


def _run_stuck(runner: str, tmp_path: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", STUCK_APP, runner],
        cwd=tmp_path,
        env=_env(tmp_path, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_the_app_s_loop_ends_past_a_task_and_a_thread_that_never_end(tmp_path: Path) -> None:
    result = _run_stuck("bounded", tmp_path, timeout=EXIT_BOUND_S)
    ended = time.monotonic()
    assert result.returncode == 0, result.stderr
    # from the app's main() (not the interpreter's and PyQt's start-up, slow on a loaded
    # machine) to the process gone: the two 1 s limits, well within 10 s
    started = re.search(r"main started at ([0-9.]+)", result.stderr)
    assert started is not None, result.stderr
    assert ended - float(started.group(1)) < 10.0
    # What was left behind is named, so a hang's cause is in the log.
    assert "waits-on-a-dialog" in result.stderr
    assert "threads still busy" in result.stderr


def test_asyncio_run_alone_waits_for_them_forever(tmp_path: Path) -> None:
    """The cause: the runner the app used before waits for every task without a limit."""
    with pytest.raises(subprocess.TimeoutExpired):
        _run_stuck("asyncio.run", tmp_path, timeout=8.0)
