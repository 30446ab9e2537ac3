"""Cold start of ``gns3-copilot`` to the window shown (offscreen), and its idle memory.

Run: ``.venv/bin/python -m bench startup`` (``BENCH_STARTUP_RUNS=N``, default 5).

Each run starts a fresh Python process running the real entry point (`app.main`) with an empty
home folder and a GNS3 server URL where nothing listens, so it shows what a first start shows: the
window with the copilot dock and the login dialog. The child only wraps `MainWindow.show` to note
the wall-clock time when the window is shown, then waits ``IDLE_S`` seconds (the agent libraries
are imported in the background meanwhile), reads its resident memory (VmRSS) and closes the
window. The parent reports the time from launching the process to the window shown: interpreter
start, imports, QApplication, settings, widgets.
Targets: cold start <= 2.0 s, idle memory <= 300 MB.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START_TARGET_S = 2.0
MEMORY_TARGET_MB = 300.0
IDLE_S = 4.0

_CHILD = r"""
import json, sys, time
from pathlib import Path

from PyQt6.QtCore import QTimer

import gns3_copilot_desktop.app as app

out = Path(sys.argv[1])
idle_ms = int(float(sys.argv[2]) * 1000)
result = {}
original_show = app.MainWindow.show


def rss_mb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return -1.0


def finish(window):
    result["idle_rss_mb"] = rss_mb()
    result["agent_loaded"] = "langgraph" in sys.modules
    out.write_text(json.dumps(result))
    window.close()


def show(self):
    original_show(self)
    result["shown_at"] = time.time()
    result["shown_rss_mb"] = rss_mb()
    QTimer.singleShot(idle_ms, lambda: finish(self))


app.MainWindow.show = show
sys.exit(app.main(sys.argv[3:]))
"""


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def one_run(python: str = sys.executable) -> dict[str, float]:
    """Start the app once; returns start-to-shown seconds and memory figures."""
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        out = Path(tmp) / "result.json"
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "GNS3_COPILOT_HOME": str(Path(tmp) / "home"),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        argv = [
            python,
            "-c",
            _CHILD,
            str(out),
            str(IDLE_S),
            "--home",
            str(Path(tmp) / "home"),
            "--server",
            f"http://127.0.0.1:{_closed_port()}",
        ]
        launched = time.time()
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
        if not out.exists():
            raise RuntimeError(f"the app did not report (exit {done.returncode}):\n{done.stderr}")
        data = json.loads(out.read_text())
    return {
        "start_s": data["shown_at"] - launched,
        "shown_rss_mb": data["shown_rss_mb"],
        "idle_rss_mb": data["idle_rss_mb"],
        "agent_loaded": float(data["agent_loaded"]),
    }


def main() -> None:
    """Run the benchmark and print the figures with the targets."""
    runs = int(os.environ.get("BENCH_STARTUP_RUNS", "5"))
    one_run()  # warm the OS file cache: "cold" means a new process, not a cold disk
    results = [one_run() for _ in range(runs)]
    starts = [r["start_s"] for r in results]
    idle = [r["idle_rss_mb"] for r in results]
    shown = [r["shown_rss_mb"] for r in results]
    print(f"gns3-copilot startup, {runs} runs (offscreen, first-run state: login dialog shown)")
    print(
        f"  launch -> window shown: median {statistics.median(starts):.2f} s, "
        f"max {max(starts):.2f} s   (target <= {START_TARGET_S:.1f} s)"
    )
    print(f"  memory when shown:      median {statistics.median(shown):.0f} MB")
    print(
        f"  idle memory after {IDLE_S:.0f} s: median {statistics.median(idle):.0f} MB, "
        f"max {max(idle):.0f} MB   (target <= {MEMORY_TARGET_MB:.0f} MB; agent libraries "
        f"{'loaded' if all(r['agent_loaded'] for r in results) else 'NOT loaded'})"
    )
    ok = max(starts) <= START_TARGET_S and max(idle) <= MEMORY_TARGET_MB
    print("  result:", "OK" if ok else "OVER TARGET")
