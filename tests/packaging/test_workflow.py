"""The CI workflow and the per-system packaging files: validated, and consistent with the repo.

The workflow is checked by action-validator (``@action-validator/cli`` from npm) against GitHub's
workflow schema when the tool is installed (on PATH, or named by ``$ACTION_VALIDATOR``); without
it that one test skips, saying how to install it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "ci.yml"
SPEC = REPO / "packaging" / "gns3-copilot.spec"
INNO = REPO / "packaging" / "windows" / "gns3-copilot.iss"


def _validator() -> str | None:
    return os.environ.get("ACTION_VALIDATOR") or shutil.which("action-validator")


def _workflow() -> dict[str, object]:
    loaded = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_action_validator_accepts_the_workflow():
    tool = _validator()
    if tool is None:
        pytest.skip("action-validator is not installed (npm install @action-validator/cli)")
    result = subprocess.run(
        [tool, str(WORKFLOW)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_action_validator_refuses_a_broken_workflow(tmp_path: Path):
    """The check above means something: the same tool fails a job with a misspelled key."""
    tool = _validator()
    if tool is None:
        pytest.skip("action-validator is not installed (npm install @action-validator/cli)")
    broken = tmp_path / "ci.yml"
    broken.write_text(
        WORKFLOW.read_text(encoding="utf-8").replace("runs-on: ubuntu-24.04", "runs-onn: x", 1)
    )
    result = subprocess.run(
        [tool, str(broken)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode != 0


def test_the_matrix_covers_linux_windows_and_macos():
    jobs = _workflow()["jobs"]
    assert isinstance(jobs, dict)
    runners = {jobs["linux"]["runs-on"], *jobs["portable"]["strategy"]["matrix"]["os"]}
    bundles = {item["os"] for item in jobs["bundle"]["strategy"]["matrix"]["include"]}
    for system in ("ubuntu", "windows", "macos"):
        assert any(r.startswith(system) for r in runners), system
        assert any(b.startswith(system) for b in bundles), system
    assert "bash .ci/run" in str(jobs["linux"]["steps"])


def test_the_portable_tests_exist():
    listed = str(_workflow()["env"]["PORTABLE_TESTS"]).split()
    assert listed
    for path in listed:
        assert (REPO / path).is_file(), path


def test_the_artifacts_are_what_the_spec_and_installer_produce():
    spec = SPEC.read_text(encoding="utf-8")
    assert 'name="GNS3 Copilot.app"' in spec and "BUNDLE(" in spec
    inno = INNO.read_text(encoding="utf-8")
    assert r'Source: "..\..\dist\gns3-copilot\*"' in inno
    assert r"OutputDir=..\..\dist\installer" in inno
    include = _workflow()["jobs"]["bundle"]["strategy"]["matrix"]["include"]
    paths = " ".join(item["path"] for item in include)
    assert "dist/GNS3 Copilot.app" in paths and "dist/installer/*.exe" in paths
