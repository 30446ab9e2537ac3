"""Which GNS3 GUI versions `--gns3-gui` supports, checked before any GNS3 GUI code runs.

`launch` reaches into GNS3 GUI internals (its `Application` class, `MainWindow._instance`, the
`Topology` and `Controller` singletons); they are known to work with GNS3 GUI 3.0.x only, so any
other version is refused with a message that says what to install.
"""

from __future__ import annotations

import importlib
import importlib.util

from gns3_copilot_desktop.core.errors import CopilotError

SUPPORTED_SERIES = (3, 0)
TESTED_VERSION = "3.0.6"
INSTALL_HINT = (
    f"Install it with `pip install gns3-gui=={TESTED_VERSION}` (or the `gns3gui` extra of "
    "gns3-copilot-desktop), or run `gns3-copilot` on its own."
)


class UnsupportedGns3GuiError(CopilotError):
    """The GNS3 GUI is missing, or its version is not one `--gns3-gui` knows how to dock into."""


def installed_version() -> str | None:
    """The installed GNS3 GUI's version (``gns3.version.__version__``), or None without one."""
    if importlib.util.find_spec("gns3") is None:
        return None
    module = importlib.import_module("gns3.version")
    version = getattr(module, "__version__", None)
    return version if isinstance(version, str) else None


def is_supported(version: str) -> bool:
    """Whether ``version`` (e.g. ``3.0.6``, ``3.0.7rc1``) is in the supported 3.0 series."""
    parts = version.split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts[:2]):
        return False
    return (int(parts[0]), int(parts[1])) == SUPPORTED_SERIES


def check_supported(version: str | None = None) -> str:
    """Return the installed GNS3 GUI version, or raise `UnsupportedGns3GuiError` saying why not.

    ``version`` overrides the detected one (tests).
    """
    found = installed_version() if version is None else version
    series = ".".join(str(n) for n in SUPPORTED_SERIES)
    if found is None:
        raise UnsupportedGns3GuiError(
            f"The GNS3 GUI (PyPI package gns3-gui {series}.x) is not installed. {INSTALL_HINT}"
        )
    if not is_supported(found):
        raise UnsupportedGns3GuiError(
            f"gns3-copilot --gns3-gui supports GNS3 GUI {series}.x only (tested with "
            f"{TESTED_VERSION}); the installed GNS3 GUI is {found}. {INSTALL_HINT}"
        )
    return found
