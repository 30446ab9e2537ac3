"""Where the app keeps its files, and how it finds its bundled resources.

`app_paths()` gives the per-OS config, data, log and cache folders (platformdirs' layout of
each system, held by `core.platform`; app name ``gns3-copilot``). Setting ``GNS3_COPILOT_HOME``
puts all four under that one folder, which tests and portable installs use. `resource_path()`
finds a file under the top-level ``resources/`` folder both when running from the source tree
and from a PyInstaller bundle (``sys._MEIPASS``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gns3_copilot_desktop.core.platform import Platform

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

    def ensure(self, platform: Platform | None = None) -> AppPaths:
        """Create the folders private to the user (as `platform` makes them so) and return self."""
        system = platform if platform is not None else _running_platform()
        for folder in (self.config_dir, self.data_dir, self.log_dir, self.cache_dir):
            system.private_dir(folder)
        return self


def _running_platform() -> Platform:
    from gns3_copilot_desktop.core.platform import detect_platform

    return detect_platform()


def app_paths(platform: Platform | None = None) -> AppPaths:
    """The app's folders: under ``$GNS3_COPILOT_HOME`` when set, else `platform`'s defaults."""
    home = os.environ.get(HOME_ENV)
    if home:
        root = Path(home).expanduser()
        return AppPaths(
            config_dir=root / "config",
            data_dir=root / "data",
            log_dir=root / "logs",
            cache_dir=root / "cache",
        )
    return (platform if platform is not None else _running_platform()).default_folders()


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
