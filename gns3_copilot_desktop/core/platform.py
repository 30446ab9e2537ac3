"""Everything that differs between Linux, Windows and macOS, in one place.

`detect_platform()` picks the `Platform` of the running system once; the composition root
(``app.py``) calls it at start-up and hands the object to what needs it. Every other module asks the
object, never ``sys.platform``; tests build `WindowsPlatform` or `MacPlatform` on Linux and run
their branch. What each system does, and why, is tabled in ``docs/platforms.md``.

The differences held here:
- the app's folders (platformdirs' layout of each system);
- owner-only files: 0600/0700 on POSIX; on Windows the folders live in the user's profile
  (``%LOCALAPPDATA%``), whose ACL already admits only the user, SYSTEM and Administrators, and no
  chmod is attempted (Windows' chmod only toggles the read-only flag);
- what the OS keyring is called and what the app says when there is none;
- the terminal that opens a node's console (the choices GNS3 offers on each system), as an argv
  list that never passes through a shell, with the host, port and title checked first;
- which signals close the window (none on Windows: its event loops have no signal handlers);
- the text of files the app writes for people: ``/`` in names and ``\\n`` line ends everywhere.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import re
import shutil
import subprocess
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path, PurePath
from typing import ClassVar

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.paths import APP_NAME, AppPaths

log = logging.getLogger(__name__)

GNS3_CONFIG_VERSION = "3.0"
"""The GNS3 GUI's settings live in a folder named by its major.minor version."""


class SystemName(StrEnum):
    """The systems the app knows."""

    LINUX = "linux"
    WINDOWS = "windows"
    MACOS = "macos"


class ConsoleLaunchError(CopilotError):
    """A node's console could not be opened in a terminal."""


# --- what a console command may contain ------------------------------------------------------

_HOSTNAME = re.compile(
    r"(?=.{1,253}\Z)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?"
)
_TITLE_UNSAFE = re.compile(r"[^A-Za-z0-9 _.\-()\[\]@#:+,]")
TITLE_MAX = 64


def checked_host(host: str) -> str:
    """`host` when it is an IP address or a DNS name; else ConsoleLaunchError.

    The host comes from the GNS3 server (a node's console host), so it is lab data: nothing but
    an address or a name may reach a terminal's command line.
    """
    text = host.strip("[]") if host.startswith("[") else host
    with contextlib.suppress(ValueError):
        return str(ipaddress.ip_address(text))
    if _HOSTNAME.fullmatch(host):
        return host
    raise ConsoleLaunchError(f"The console host {host[:60]!r} is not an address or a host name.")


def checked_port(port: int) -> int:
    """`port` when it is a TCP port number; else ConsoleLaunchError."""
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConsoleLaunchError(f"The console port {port!r} is not a TCP port number.")
    return port


def safe_title(name: str) -> str:
    """A node name made safe for a window title on any terminal's command line.

    Node names are lab data (a shared project can name a node ``x"; rm -rf ~``): quotes, ``;``,
    ``&``, ``|``, ``%``, ``^``, ``$``, backquotes, backslashes and control characters are dropped,
    not escaped, so no terminal's own parsing (Windows Terminal splits on ``;``, cmd expands
    ``%``, AppleScript ends a string at ``"``) can see them.
    """
    title = " ".join(_TITLE_UNSAFE.sub("", name).split())[:TITLE_MAX].strip()
    return title or "console"


@dataclass(frozen=True)
class ConsoleEndpoint:
    """A node's telnet console, checked: safe to put on a terminal's command line."""

    host: str
    port: int
    title: str

    @classmethod
    def of(cls, host: str, port: int, name: str) -> ConsoleEndpoint:
        """The endpoint of a node named `name`; ConsoleLaunchError for a bad host or port."""
        return cls(checked_host(host), checked_port(port), safe_title(name))

    @property
    def url(self) -> str:
        """``telnet://host:port`` (IPv6 hosts bracketed)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"telnet://{host}:{self.port}"


def applescript_string(text: str) -> str:
    """`text` as an AppleScript string literal (backslashes and quotes escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- the platforms ---------------------------------------------------------------------------

Spawn = Callable[[Sequence[str]], object]


def _spawn_detached(argv: Sequence[str]) -> object:
    """Start a terminal without a shell; it outlives nothing of ours and reads no stdin."""
    # An argv list and no shell: every part was checked by ConsoleEndpoint.of.
    return subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
    )


class Platform(ABC):
    """What the app does differently on one system. Build one with `detect_platform()`."""

    system: ClassVar[SystemName]
    display_name: ClassVar[str]
    quit_signals: ClassVar[tuple[str, ...]]
    """Signals that close the window as its close button does."""
    owner_only_by_mode: ClassVar[bool]
    """Whether owner-only files are made so by Unix permission bits."""
    privacy_note: ClassVar[str]
    """How the app's files are kept private on this system (for docs and the self-test)."""
    keyring_name: ClassVar[str]
    """The OS keyring the app expects here."""
    keyring_hint: ClassVar[str]
    """What the user can do when that keyring refuses to read or save a secret."""
    terminals: ClassVar[tuple[str, ...]]
    """The terminals a console can open in; the first is the default."""
    docking_note: ClassVar[str]
    """What running inside the GNS3 GUI needs on this system."""
    console_via_desktop: ClassVar[bool] = False
    """Whether the desktop's own ``telnet:`` URL handler opens consoles (rather than a terminal
    this module starts)."""

    def __init__(
        self,
        *,
        home: Path | None = None,
        env: Mapping[str, str] | None = None,
        which: Callable[[str], str | None] = shutil.which,
        spawn: Spawn = _spawn_detached,
    ) -> None:
        self.home = home if home is not None else Path.home()
        # The live environment unless one is given (tests give the other systems' variables).
        self.env: Mapping[str, str] = os.environ if env is None else dict(env)
        self._which = which
        self._spawn = spawn

    # folders ------------------------------------------------------------------------------

    @abstractmethod
    def default_folders(self) -> AppPaths:
        """The app's config, data, log and cache folders by this system's convention."""

    def gns3_config_dir(self) -> Path:
        """Where the GNS3 GUI keeps ``gns3_gui.conf`` (its telnet console command among them)."""
        base = self.env.get("XDG_CONFIG_HOME") or str(self.home / ".config")
        return Path(base) / "GNS3" / GNS3_CONFIG_VERSION

    # owner-only files ---------------------------------------------------------------------

    def private_dir(self, folder: Path) -> None:
        """Create `folder` (and its missing parents) readable by the user only; a folder that
        already existed keeps its mode (a project folder is the user's to set). Blocking."""
        missing = [p for p in [folder, *folder.parents] if not p.exists()]
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        for made in missing:
            with contextlib.suppress(OSError):  # a filesystem without modes (a share)
                os.chmod(made, 0o700)

    def private_file(self, path: Path) -> None:
        """Create `path` readable by the user only, in a private folder. SQLite gives a
        database's -wal and -shm files the database's mode. Blocking."""
        self.private_dir(path.parent)
        path.touch(mode=0o600, exist_ok=True)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)

    # the keyring --------------------------------------------------------------------------

    @property
    def no_keyring_reason(self) -> str:
        """Why secrets are kept in memory when keyring finds no usable backend."""
        return f"No OS keyring is available (the {self.keyring_name} could not be used)"

    # consoles -----------------------------------------------------------------------------

    @abstractmethod
    def console_command(self, endpoint: ConsoleEndpoint, terminal: str | None = None) -> list[str]:
        """The argv that opens `endpoint` in `terminal` (default: this system's first)."""

    def terminal_for_gns3_command(self, command: str) -> str | None:
        """Which of `terminals` a GNS3 ``telnet_console_command`` setting names, if any."""
        lowered = command.lower()
        for name in self.terminals:
            if self._terminal_marker(name) in lowered:
                return name
        return None

    def _terminal_marker(self, terminal: str) -> str:
        return terminal.lower()

    def gns3_terminal(self) -> str | None:
        """The terminal the user chose in the GNS3 GUI's preferences, when recognised."""
        import json

        try:
            raw = json.loads((self.gns3_config_dir() / "gns3_gui.conf").read_text("utf-8"))
            command = raw["MainWindow"]["telnet_console_command"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return self.terminal_for_gns3_command(command) if isinstance(command, str) else None

    def open_console(self, endpoint: ConsoleEndpoint, terminal: str | None = None) -> None:
        """Open `endpoint` in a terminal (GNS3's choice, else this system's default).

        Raises ConsoleLaunchError when the terminal is not installed or does not start.
        """
        choice = terminal or self.gns3_terminal() or self.terminals[0]
        argv = self.console_command(endpoint, choice)
        if self._which(argv[0]) is None:
            raise ConsoleLaunchError(
                f"{choice} is not installed, so the console of {endpoint.title} cannot be opened "
                f"(telnet to {endpoint.host} port {endpoint.port})."
            )
        try:
            self._spawn(argv)
        except OSError as exc:
            raise ConsoleLaunchError(f"{choice} did not start: {exc.strerror or exc}") from exc

    def _check_terminal(self, terminal: str | None) -> str:
        choice = terminal or self.terminals[0]
        if choice not in self.terminals:
            raise ConsoleLaunchError(f"{choice!r} is not a terminal known on {self.display_name}.")
        return choice

    # files people read --------------------------------------------------------------------

    @staticmethod
    def export_name(path: PurePath) -> str:
        """A path as written inside an exported file or archive: ``/`` on every system."""
        return path.as_posix()

    @staticmethod
    def export_text(text: str) -> str:
        """Text for an exported file: ``\\r\\n`` and lone ``\\r`` become ``\\n``."""
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def write_export(self, path: Path, text: str) -> None:
        """Write `text` for people to read: UTF-8, ``\\n`` line ends even on Windows (text mode
        there would turn each ``\\n`` into ``\\r\\n``). Blocking."""
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(self.export_text(text))


class LinuxPlatform(Platform):
    """Linux (and other XDG desktops)."""

    system = SystemName.LINUX
    display_name = "Linux"
    quit_signals = ("SIGINT", "SIGTERM")
    owner_only_by_mode = True
    privacy_note = "Folders 0700 and files 0600 (owner only)."
    keyring_name = "Secret Service (GNOME Keyring or KWallet on D-Bus)"
    keyring_hint = "Check that GNOME Keyring or KWallet is running and unlocked."
    terminals = ("x-terminal-emulator", "gnome-terminal", "xterm", "konsole", "xdg-open")
    console_via_desktop = True
    docking_note = (
        "`gns3-copilot --gns3-gui` runs the GNS3 GUI installed from PyPI or the distribution "
        "(same Python as the app) with the Copilot docked on its right."
    )

    def default_folders(self) -> AppPaths:
        def xdg(name: str, fallback: str) -> Path:
            value = self.env.get(name, "").strip()
            return Path(value) if value else self.home / fallback

        state = xdg("XDG_STATE_HOME", ".local/state")
        return AppPaths(
            config_dir=xdg("XDG_CONFIG_HOME", ".config") / APP_NAME,
            data_dir=xdg("XDG_DATA_HOME", ".local/share") / APP_NAME,
            log_dir=state / APP_NAME / "log",
            cache_dir=xdg("XDG_CACHE_HOME", ".cache") / APP_NAME,
        )

    @property
    def no_keyring_reason(self) -> str:
        return "No OS keyring is available (no Secret Service on D-Bus)"

    def console_command(self, endpoint: ConsoleEndpoint, terminal: str | None = None) -> list[str]:
        choice = self._check_terminal(terminal)
        telnet = ["telnet", endpoint.host, str(endpoint.port)]
        if choice == "xdg-open":
            return ["xdg-open", endpoint.url]
        if choice == "gnome-terminal":
            return ["gnome-terminal", "--title", endpoint.title, "--", *telnet]
        if choice == "konsole":
            return ["konsole", "-p", f"tabtitle={endpoint.title}", "-e", *telnet]
        # x-terminal-emulator (Debian's alternative) and xterm share xterm's options.
        return [choice, "-T", endpoint.title, "-e", *telnet]

    def _terminal_marker(self, terminal: str) -> str:
        return {"gnome-terminal": "gnome-terminal", "xterm": "xterm -"}.get(terminal, terminal)


class MacPlatform(Platform):
    """macOS."""

    system = SystemName.MACOS
    display_name = "macOS"
    quit_signals = ("SIGINT", "SIGTERM")
    owner_only_by_mode = True
    privacy_note = "Folders 0700 and files 0600 (owner only), under ~/Library."
    keyring_name = "macOS Keychain"
    keyring_hint = (
        "macOS asks whether the app may use the Keychain: choose Allow (or Always Allow), and "
        "unlock the login keychain if it is locked."
    )
    terminals = ("Terminal", "iTerm")
    docking_note = (
        "GNS3.app ships its own frozen Python, which cannot import this app: the Copilot runs "
        "as its own window beside GNS3 (the standalone dock), following the GNS3 GUI's project "
        "through the server. `--gns3-gui` works with a GNS3 GUI installed from PyPI into the "
        "app's Python."
    )

    def default_folders(self) -> AppPaths:
        library = self.home / "Library"
        return AppPaths(
            config_dir=library / "Application Support" / APP_NAME,
            data_dir=library / "Application Support" / APP_NAME,
            log_dir=library / "Logs" / APP_NAME,
            cache_dir=library / "Caches" / APP_NAME,
        )

    def console_command(self, endpoint: ConsoleEndpoint, terminal: str | None = None) -> list[str]:
        """``osascript`` with the script as separate ``-e`` lines; the shell command Terminal
        runs holds only the checked host and port, the title is set by AppleScript, not the shell.
        """
        choice = self._check_terminal(terminal)
        shell = applescript_string(f"telnet {endpoint.host} {endpoint.port}; exit")
        title = applescript_string(endpoint.title)
        if choice == "iTerm":
            lines = [
                'tell application "iTerm"',
                "activate",
                f"set w to (create window with default profile command {shell})",
                f"tell current session of w to set name to {title}",
                "end tell",
            ]
        else:
            lines = [
                'tell application "Terminal"',
                "activate",
                f"set t to do script {shell}",
                f"set custom title of t to {title}",
                "end tell",
            ]
        argv = ["osascript"]
        for line in lines:
            argv += ["-e", line]
        return argv

    def _terminal_marker(self, terminal: str) -> str:
        return {"Terminal": 'application "terminal"', "iTerm": 'application "iterm"'}[terminal]


class WindowsPlatform(Platform):
    """Windows 10 and 11."""

    system = SystemName.WINDOWS
    display_name = "Windows"
    quit_signals = ()
    owner_only_by_mode = False
    privacy_note = (
        "No permission bits: the folders are in the user's profile (%LOCALAPPDATA%), whose ACL "
        "admits only the user, SYSTEM and Administrators; the app does not chmod."
    )
    keyring_name = "Windows Credential Manager"
    keyring_hint = (
        "Windows Credential Manager keeps at most 2560 bytes per secret and can be turned off "
        "by a group policy; check Control Panel > Credential Manager > Windows Credentials."
    )
    terminals = ("Solar-PuTTY", "PuTTY", "Windows Terminal")
    docking_note = (
        "The GNS3 installer ships its own frozen Python, which cannot import this app: the "
        "Copilot runs as its own window beside GNS3 (the standalone dock), following the GNS3 "
        "GUI's project through the server. `--gns3-gui` works with a GNS3 GUI installed from "
        "PyPI into the app's Python."
    )
    _EXECUTABLES: ClassVar[Mapping[str, str]] = {
        "Solar-PuTTY": "Solar-PuTTY.exe",
        "PuTTY": "putty.exe",
        "Windows Terminal": "wt.exe",
    }

    def _local_app_data(self) -> str:
        value = self.env.get("LOCALAPPDATA")
        if value:
            return value
        return str(self.home / "AppData" / "Local").replace("/", "\\")

    def default_folders(self) -> AppPaths:
        # platformdirs' Windows layout (no author folder): Local\<app>, \Logs and \Cache in it.
        base = self._local_app_data().rstrip("\\") + "\\" + APP_NAME
        return AppPaths(
            config_dir=Path(base),
            data_dir=Path(base),
            log_dir=Path(base + "\\Logs"),
            cache_dir=Path(base + "\\Cache"),
        )

    def gns3_config_dir(self) -> Path:
        appdata = self.env.get("APPDATA") or str(self.home / "AppData" / "Roaming")
        return Path(appdata.rstrip("\\") + "\\GNS3\\" + GNS3_CONFIG_VERSION)

    def private_dir(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)

    def private_file(self, path: Path) -> None:
        self.private_dir(path.parent)
        path.touch(exist_ok=True)

    def console_command(self, endpoint: ConsoleEndpoint, terminal: str | None = None) -> list[str]:
        """The argv for `terminal`; Windows joins it with its own quoting rules (list2cmdline)
        and no cmd.exe is involved, so ``%`` and ``^`` are never expanded."""
        choice = self._check_terminal(terminal)
        exe = self._EXECUTABLES[choice]
        host, port, title = endpoint.host, str(endpoint.port), endpoint.title
        if choice == "Solar-PuTTY":
            return [exe, "--telnet", "--hostname", host, "--port", port, "--name", title]
        if choice == "PuTTY":
            return [exe, "-telnet", host, "-P", port, "-loghost", title]
        return [exe, "-w", "0", "new-tab", "--title", title, "telnet", host, port]

    def _terminal_marker(self, terminal: str) -> str:
        return {"Solar-PuTTY": "solar-putty", "PuTTY": "putty", "Windows Terminal": "wt.exe"}[
            terminal
        ]

    def terminal_for_gns3_command(self, command: str) -> str | None:
        lowered = command.lower()
        if "solar-putty" in lowered:  # checked before plain PuTTY, whose name it contains
            return "Solar-PuTTY"
        return super().terminal_for_gns3_command(command)


PLATFORMS: Mapping[SystemName, type[Platform]] = {
    SystemName.LINUX: LinuxPlatform,
    SystemName.WINDOWS: WindowsPlatform,
    SystemName.MACOS: MacPlatform,
}


def system_of(sys_platform: str) -> SystemName:
    """The system `sys.platform` names (other Unixes are treated as Linux)."""
    if sys_platform == "win32":
        return SystemName.WINDOWS
    if sys_platform == "darwin":
        return SystemName.MACOS
    return SystemName.LINUX


@cache
def detect_platform() -> Platform:
    """The running system's `Platform` (the one place ``sys.platform`` is read)."""
    return PLATFORMS[system_of(sys.platform)]()


def open_node_console(host: str, port: int, name: str, desktop: Callable[[], bool]) -> bool:
    """Open a node's console; False (the reason logged) when it cannot be.

    For the UI's node links outside the GNS3 GUI. The host, port and name are lab data and are
    checked first. Where the desktop has a ``telnet:`` URL handler (Linux: xdg's choice),
    `desktop` opens it; on Windows and macOS, which have none by default, the terminal GNS3 is set
    to use (else the system's default) is started.
    """
    system = detect_platform()
    try:
        endpoint = ConsoleEndpoint.of(host, port, name)
        if system.console_via_desktop:
            return desktop()
        system.open_console(endpoint)
    except ConsoleLaunchError as exc:
        log.warning("%s", exc)
        return False
    return True
