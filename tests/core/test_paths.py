"""App folders (platformdirs or GNS3_COPILOT_HOME) and resource_path() from source and bundle."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gns3_copilot_desktop.core import paths


def test_home_env_puts_every_folder_under_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path))
    app = paths.app_paths().ensure()
    folders = [app.config_dir, app.data_dir, app.log_dir, app.cache_dir]
    assert len(set(folders)) == 4
    for folder in folders:
        assert folder.is_dir()
        assert folder.parent == tmp_path
    assert app.settings_file == app.config_dir / "settings.json"


def test_platformdirs_default_names_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(paths.HOME_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    app = paths.app_paths()
    assert paths.APP_NAME in app.config_dir.parts
    if sys.platform.startswith("linux"):
        assert app.config_dir == tmp_path / "xdg-config" / paths.APP_NAME


def test_resource_path_finds_the_icon_in_the_source_tree(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)
    icon = paths.resource_path("icons", "copilot.svg")
    assert icon.is_file()
    assert icon.read_text(encoding="utf-8").lstrip().startswith("<svg")
    assert icon.parent.parent.name == "resources"


def test_resource_path_uses_the_pyinstaller_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    bundled = tmp_path / "resources" / "icons" / "copilot.svg"
    bundled.parent.mkdir(parents=True)
    bundled.write_text("<svg/>", encoding="utf-8")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.resource_path("icons", "copilot.svg") == bundled
    # The source tree's copy is not used as a fallback: the bundle must be complete.
    bundled.unlink()
    with pytest.raises(FileNotFoundError, match=r"copilot\.svg"):
        paths.resource_path("icons", "copilot.svg")


def test_resource_path_refuses_to_leave_resources(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)
    with pytest.raises(ValueError):
        paths.resource_path("..", "pyproject.toml")
    with pytest.raises(ValueError):
        paths.resource_path()
