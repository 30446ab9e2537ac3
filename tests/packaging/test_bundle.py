"""The PyInstaller bundle: built by packaging/build.sh, then run with ``--self-test`` offscreen.

The bundle is built under the user cache dir (``$GNS3_COPILOT_TEST_CACHE`` or
``~/.cache/gns3-copilot-desktop/bundle``), not in the working tree, so test runs of several
checkouts do not fight over ``dist/``. build.sh skips the build when the hash of the sources and the
installed packages matches its stamp, and serialises builds with a lock; this module also holds a
lock while it runs the bundle, so a concurrent rebuild cannot replace it under a running test.

Cold build: about 2 minutes on a 2-core machine; unchanged sources: seconds.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gns3_copilot_desktop.selftest import CANNED_ANSWER, SELF_TEST_MESSAGE
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.packaging.support import run_offscreen

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

REPO = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 1200.0
RUN_TIMEOUT_S = 120.0
MAX_BUNDLE_MB = 240  # 214 MB on Debian 12 (249 MB with GTK and zstandard)
TEST_TOOLS = ("pytest", "_pytest", "pytestqt", "pytest_asyncio", "mypy", "ruff", "tests")


def cache_root() -> Path:
    base = os.environ.get("GNS3_COPILOT_TEST_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "gns3-copilot-desktop"
    )
    return Path(base) / "bundle"


@pytest.fixture(scope="module")
def bundle() -> Iterator[Path]:
    """The built bundle folder (``.../dist/gns3-copilot``), locked for this module's tests."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with (root / "tests.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        env = {
            **os.environ,
            "GNS3_COPILOT_DIST": str(root / "dist"),
            "GNS3_COPILOT_BUILD": str(root / "work"),
        }
        started = time.monotonic()
        build = subprocess.run(
            ["bash", str(REPO / "packaging" / "build.sh")],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
            check=False,
        )
        assert build.returncode == 0, f"build failed:\n{build.stdout[-3000:]}{build.stderr[-6000:]}"
        print(f"bundle ready in {time.monotonic() - started:.0f} s: {build.stderr.strip()[-200:]}")
        yield root / "dist" / "gns3-copilot"


def run_bundle(bundle: Path, *args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """Run the bundled executable offscreen in a throwaway home."""
    return run_offscreen([str(bundle / "gns3-copilot"), *args], tmp, RUN_TIMEOUT_S)


def test_the_bundle_self_test_streams_from_the_tests_model_server(
    bundle: Path, scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    answer = "The bundled copilot got this from the test's scripted server."
    scripted_openai.set_title_responder("Bundle check")
    scripted_openai.push(ScriptedTurn.text(answer, chunks=5))
    result = run_bundle(
        bundle,
        "--self-test",
        "--model-base-url",
        scripted_openai.base_url,
        "--expect-answer",
        answer,
        tmp=tmp_path,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "self-test: OK in" in result.stdout and answer in result.stdout, output
    calls = [r for r in scripted_openai.chat_requests() if r.tool_names]
    assert [r.last_user_text for r in calls] == [SELF_TEST_MESSAGE]
    assert calls[0].stream  # the bundled langchain-openai streamed it
    assert "refused the connection" in calls[0].system_prompt  # no GNS3 server, said so


def test_the_bundle_self_test_runs_on_its_own(bundle: Path, tmp_path: Path) -> None:
    """No model server given: the bundle's built-in loopback responder answers."""
    result = run_bundle(bundle, "--self-test", tmp=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"the dock streamed: {CANNED_ANSWER}" in result.stdout


def test_the_bundle_self_test_fails_loudly(bundle: Path, tmp_path: Path) -> None:
    """A model server that is not there: exit 1 with the reason, well within the timeout."""
    result = run_bundle(
        bundle, "--self-test", "--model-base-url", "http://127.0.0.1:9/v1", tmp=tmp_path
    )
    assert result.returncode == 1
    assert "self-test: FAILED:" in result.stdout


def test_the_bundle_is_lean_and_has_its_resources(bundle: Path) -> None:
    internal = bundle / "_internal"
    shipped = sorted(
        p.relative_to(REPO).as_posix()
        for p in (REPO / "resources").rglob("*")
        if p.is_file() and p.suffix != ".ts"  # translation sources stay out, .qm files go in
    )
    assert "resources/icons/copilot.svg" in shipped
    bundled = sorted(
        p.relative_to(internal).as_posix()
        for p in (internal / "resources").rglob("*")
        if p.is_file()
    )
    assert bundled == shipped
    present = [name for name in TEST_TOOLS if (internal / name).exists()]
    assert present == [], f"test tools in the bundle: {present}"
    for left_out in ("gns3", "tkinter", "zstandard"):
        assert not (internal / left_out).exists(), left_out
    qt_libs = {p.name.split(".so")[0] for p in (internal / "PyQt6" / "Qt6" / "lib").glob("*.so*")}
    assert {"libQt6Core", "libQt6Gui", "libQt6Widgets", "libQt6Svg"} <= qt_libs
    assert not {"libQt6Quick", "libQt6Qml", "libQt6WebEngineCore", "libQt6Pdf"} & qt_libs
    files = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink()]
    size_mb = sum(p.stat().st_size for p in files) / 2**20
    assert size_mb < MAX_BUNDLE_MB, f"bundle grew to {size_mb:.0f} MB"


def test_the_bundle_refuses_gns3_gui_mode_with_the_reason(bundle: Path, tmp_path: Path) -> None:
    """The GNS3 GUI is not bundled: ``--gns3-gui`` says what to install instead."""
    result = run_bundle(bundle, "--gns3-gui", tmp=tmp_path)
    assert result.returncode == 2
    assert "gns3-gui" in result.stderr and "is not installed" in result.stderr


def test_nothing_in_the_bundle_needs_the_gtk_it_leaves_out(bundle: Path) -> None:
    """The GTK theme plugin and its libraries are dropped: nothing left may link to them."""
    internal = bundle / "_internal"
    gtk = ("libgtk-3.so", "libgdk-3.so", "libcairo.so", "libpango-1.0.so", "libatk-1.0.so")
    assert not [p for p in internal.rglob("*.so*") if p.name.startswith(gtk)]
    needing = []
    for library in internal.rglob("*.so*"):
        if library.is_symlink() or not library.is_file():
            continue
        linked = subprocess.run(
            ["ldd", str(library)], capture_output=True, text=True, check=False
        ).stdout
        if any(name in linked for name in gtk):
            needing.append(library.relative_to(internal).as_posix())
    assert needing == []
