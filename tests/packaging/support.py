"""Running the app (from source or the bundle) as a user would, in a throwaway home."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def run_offscreen(
    command: list[str], tmp: Path, timeout_s: float
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in ``tmp`` offscreen, HOME=``tmp/home``, no XDG_*/GNS3_COPILOT* variables,
    no proxy for loopback; bounded by ``timeout_s``."""
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_COPILOT"))}
    env.update(HOME=str(home), QT_QPA_PLATFORM="offscreen", NO_PROXY="127.0.0.1,localhost")
    return subprocess.run(
        command, cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout_s, check=False
    )
