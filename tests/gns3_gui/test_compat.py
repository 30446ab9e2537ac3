"""The GNS3 GUI version guard of `--gns3-gui`."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.gns3_gui import compat
from gns3_copilot_desktop.gns3_gui.compat import (
    UnsupportedGns3GuiError,
    check_supported,
    is_supported,
)


@pytest.mark.parametrize("version", ["3.0.0", "3.0.6", "3.0.7rc1", "3.0.10"])
def test_the_3_0_series_is_supported(version: str) -> None:
    assert is_supported(version)
    assert check_supported(version) == version


@pytest.mark.parametrize("version", ["2.2.49", "3.1.0", "4.0.0", "3", "three.zero", ""])
def test_other_versions_are_refused_with_what_to_install(version: str) -> None:
    assert not is_supported(version)
    with pytest.raises(UnsupportedGns3GuiError) as caught:
        check_supported(version)
    text = caught.value.user_message
    assert "3.0.x" in text and "gns3-gui==3.0.6" in text
    assert f"the installed GNS3 GUI is {version}." in text


def test_a_missing_gns3_gui_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compat.importlib.util, "find_spec", lambda name: None)
    assert compat.installed_version() is None
    with pytest.raises(UnsupportedGns3GuiError, match="is not installed"):
        check_supported()


def test_the_installed_gns3_gui_is_the_tested_one() -> None:
    """The dev install pins gns3-gui to the version the integration was built against."""
    assert compat.installed_version() == compat.TESTED_VERSION
    assert check_supported() == compat.TESTED_VERSION
