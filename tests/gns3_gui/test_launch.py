"""`gns3-copilot --gns3-gui`: the command line and the refusal of unsupported GNS3 GUIs.

(The GUI itself runs in a subprocess: test_gns3_gui.py. Nothing here imports the gns3 package,
which changes the process it is imported in.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gns3_copilot_desktop.gns3_gui import compat, launch


def test_our_options_are_split_from_the_gns3_gui_arguments() -> None:
    options, rest = launch.parse_args(
        ["--gns3-gui", "--model", "qwen2.5:7b", "--debug", "--home", "/tmp/h", "lab.gns3"]
    )
    assert options.model_name == "qwen2.5:7b" and options.home == Path("/tmp/h")
    assert options.model_base_url is None
    assert rest == ["--debug", "lab.gns3"]  # GNS3's own parser reads these


def test_an_unsupported_gns3_gui_is_refused_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(compat, "installed_version", lambda: "2.2.49")
    assert launch.run(["--gns3-gui"]) == 2
    err = capsys.readouterr().err
    assert "supports GNS3 GUI 3.0.x only" in err and "the installed GNS3 GUI is 2.2.49" in err
    assert "gns3.main" not in sys.modules  # refused before any GNS3 GUI code ran


def test_the_command_dispatches_to_the_gns3_gui_mode(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gns3_copilot_desktop import app

    monkeypatch.setattr(compat, "installed_version", lambda: None)
    assert app.main(["--gns3-gui"]) == 2
    assert "is not installed" in capsys.readouterr().err
