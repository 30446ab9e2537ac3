"""Where the app keeps its files, and how it finds its bundled resources.

`app_paths()` gives the per-OS config, data, log and cache folders (platformdirs, app name
``gns3-copilot``). Setting ``GNS3_COPILOT_HOME`` puts all four under that one folder, which tests
and portable installs use. `resource_path()` finds a file under the top-level ``resources/`` folder
both when running from the source tree and from a PyInstaller bundle (``sys._MEIPASS``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from platformdirs import PlatformDirs

APP_NAME = "gns3-copilot"
HOME_ENV = "GNS3_COPILOT_HOME"
SETTINGS_FILE_NAME = "settings.json"

# gns3_copilot_desktop/core/paths.py -> the repository root holds resources/.
_SOURCE_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class AppPaths:
    """The folders the app writes to. Nothing is created until `ensure()` is called."""

    config_dir: Path
    data_dir: Path
    log_dir: Path
    cache_dir: Path

    @property
    def settings_file(self) -> Path:
        """The settings JSON file inside the config folder."""
        return self.config_dir / SETTINGS_FILE_NAME

    def ensure(self) -> AppPaths:
        """Create the folders (private to the user where the OS allows) and return self."""
        for folder in (self.config_dir, self.data_dir, self.log_dir, self.cache_dir):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        return self


def app_paths() -> AppPaths:
    """The app's folders: under ``$GNS3_COPILOT_HOME`` when set, else the per-OS defaults."""
    home = os.environ.get(HOME_ENV)
    if home:
        root = Path(home).expanduser()
        return AppPaths(
            config_dir=root / "config",
            data_dir=root / "data",
            log_dir=root / "logs",
            cache_dir=root / "cache",
        )
    dirs = PlatformDirs(appname=APP_NAME, appauthor=False)
    return AppPaths(
        config_dir=dirs.user_config_path,
        data_dir=dirs.user_data_path,
        log_dir=dirs.user_log_path,
        cache_dir=dirs.user_cache_path,
    )


def resources_root() -> Path:
    """The ``resources/`` folder: in the PyInstaller bundle when frozen, else in the source tree."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return _SOURCE_ROOT / "resources"


def resource_path(*parts: str) -> Path:
    """The path of a bundled resource, e.g. ``resource_path("icons", "copilot.svg")``.

    Raises FileNotFoundError (a packaging bug, not a user error) when the file is missing, and
    ValueError for a path that would leave the resources folder.
    """
    root = resources_root()
    candidate = root.joinpath(*parts)
    resolved = candidate.resolve()
    if not parts or not resolved.is_relative_to(root.resolve()):
        raise ValueError(f"not a resource path: {'/'.join(parts)!r}")
    if not resolved.exists():
        raise FileNotFoundError(f"resource {'/'.join(parts)!r} is missing from {root}")
    return candidate
