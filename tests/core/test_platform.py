"""Each system's branch of `core.platform`, run here by building that system's `Platform`.

Folders, owner-only files, the console command lines built for PuTTY, Solar-PuTTY, Windows
Terminal, macOS Terminal and iTerm from hostile node names and hosts, export text, and the
running system's layout checked against platformdirs itself (that test runs on each CI system).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest
from platformdirs import PlatformDirs

from gns3_copilot_desktop.core.paths import APP_NAME, AppPaths, app_paths
from gns3_copilot_desktop.core.platform import (
    ConsoleEndpoint,
    ConsoleLaunchError,
    LinuxPlatform,
    MacPlatform,
    Platform,
    SystemName,
    WindowsPlatform,
    detect_platform,
    safe_title,
    system_of,
)

HOSTILE_NAMES = [
    'x"; rm -rf ~',
    "x'; rm -rf ~; echo '",
    "R1 & calc.exe",
    "R1 | del /q C:\\*",
    "%COMSPEC% /c calc",
    "R1; new-tab cmd.exe",
    "$(touch pwned)",
    "`touch pwned`",
    'R1" & do shell script "touch pwned" & "',
    "R1\n\rtelnet evil 23",
    "^&calc",
]
HOSTILE_HOSTS = [
    'x"; rm -rf ~',
    "127.0.0.1; touch pwned",
    "127.0.0.1 && calc",
    "-oProxyCommand=touch",
    "$(touch pwned)",
    "host name",
    "",
    "a" * 300,
]
TITLE_FORBIDDEN = set("\"'`;&|%^$\\\n\r<>!*?{}=/~")


# --- choosing the system -----------------------------------------------------------------------


def test_sys_platform_values_name_the_three_systems():
    assert system_of("win32") is SystemName.WINDOWS
    assert system_of("darwin") is SystemName.MACOS
    assert system_of("linux") is SystemName.LINUX
    assert system_of("freebsd14") is SystemName.LINUX


def test_the_running_system_is_chosen_once():
    assert detect_platform() is detect_platform()
    assert detect_platform().system is system_of(sys.platform)


# --- folders -----------------------------------------------------------------------------------


def test_windows_folders_are_under_local_app_data():
    env = {
        "LOCALAPPDATA": r"C:\Users\ana\AppData\Local",
        "APPDATA": r"C:\Users\ana\AppData\Roaming",
    }
    folders = WindowsPlatform(home=Path("/unused"), env=env).default_folders()
    base = r"C:\Users\ana\AppData\Local\gns3-copilot"
    assert str(folders.config_dir) == base
    assert str(folders.data_dir) == base
    assert str(folders.log_dir) == base + r"\Logs"
    assert str(folders.cache_dir) == base + r"\Cache"
    assert PureWindowsPath(str(folders.log_dir)).parts[:3] == ("C:\\", "Users", "ana")
    gns3 = WindowsPlatform(env=env).gns3_config_dir()
    assert str(gns3) == r"C:\Users\ana\AppData\Roaming\GNS3\3.0"


def test_macos_folders_are_under_library(tmp_path: Path):
    folders = MacPlatform(home=tmp_path, env={}).default_folders()
    assert folders.config_dir == tmp_path / "Library" / "Application Support" / APP_NAME
    assert folders.data_dir == folders.config_dir
    assert folders.log_dir == tmp_path / "Library" / "Logs" / APP_NAME
    assert folders.cache_dir == tmp_path / "Library" / "Caches" / APP_NAME


def test_linux_folders_follow_xdg(tmp_path: Path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "c"), "XDG_STATE_HOME": str(tmp_path / "s")}
    folders = LinuxPlatform(home=tmp_path, env=env).default_folders()
    assert folders.config_dir == tmp_path / "c" / APP_NAME
    assert folders.data_dir == tmp_path / ".local" / "share" / APP_NAME
    assert folders.log_dir == tmp_path / "s" / APP_NAME / "log"
    assert folders.cache_dir == tmp_path / ".cache" / APP_NAME


def test_the_running_systems_folders_are_platformdirs_own(monkeypatch: pytest.MonkeyPatch):
    """On each CI system (Linux, Windows, macOS): the layout held here is platformdirs'."""
    monkeypatch.delenv("GNS3_COPILOT_HOME", raising=False)
    dirs = PlatformDirs(appname=APP_NAME, appauthor=False)
    expected = AppPaths(
        dirs.user_config_path, dirs.user_data_path, dirs.user_log_path, dirs.user_cache_path
    )
    assert app_paths(detect_platform()) == expected


# --- owner-only files --------------------------------------------------------------------------


@pytest.fixture
def open_umask():
    """A umask that would leave new files readable by everyone."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.skipif(os.name != "posix", reason="Unix permission bits exist on POSIX only")
@pytest.mark.parametrize("platform_type", [LinuxPlatform, MacPlatform])
def test_posix_private_files_are_owner_only(tmp_path: Path, open_umask: None, platform_type):
    platform: Platform = platform_type(home=tmp_path, env={})
    target = tmp_path / "a" / "b" / "secret.db"
    (tmp_path / "a").mkdir(mode=0o755)
    (tmp_path / "a").chmod(0o755)
    platform.private_file(target)
    assert target.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "a" / "b").stat().st_mode & 0o777 == 0o700
    # A folder that existed before is the user's choice and is left as it was.
    assert (tmp_path / "a").stat().st_mode & 0o777 == 0o755
    assert platform.owner_only_by_mode


@pytest.mark.skipif(os.name != "posix", reason="the umask shows the difference on POSIX only")
def test_windows_does_not_pretend_chmod_makes_files_private(tmp_path: Path, open_umask: None):
    platform = WindowsPlatform(home=tmp_path, env={})
    target = tmp_path / "w" / "secret.db"
    platform.private_file(target)
    assert target.is_file()
    # No chmod was attempted: the mode is what the umask gives, and the note says why that is fine.
    assert target.stat().st_mode & 0o777 == 0o644
    assert not platform.owner_only_by_mode
    assert "%LOCALAPPDATA%" in platform.privacy_note and "ACL" in platform.privacy_note


def test_ensure_makes_the_app_folders_through_the_platform(tmp_path: Path, open_umask: None):
    folders = MacPlatform(home=tmp_path, env={}).default_folders()
    folders.ensure(MacPlatform(home=tmp_path, env={}))
    for folder in (folders.config_dir, folders.log_dir, folders.cache_dir):
        assert folder.is_dir()
        if os.name == "posix":
            assert folder.stat().st_mode & 0o777 == 0o700


# --- the keyring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform_type", "keyring"),
    [
        (WindowsPlatform, "Windows Credential Manager"),
        (MacPlatform, "macOS Keychain"),
        (LinuxPlatform, "Secret Service"),
    ],
)
def test_each_system_names_its_keyring(platform_type, keyring: str):
    platform: Platform = platform_type(env={})
    assert keyring in platform.keyring_name
    assert platform.no_keyring_reason.startswith("No OS keyring is available")
    assert platform.keyring_hint


# --- consoles ----------------------------------------------------------------------------------


def _all_commands(endpoint: ConsoleEndpoint) -> list[tuple[str, list[str]]]:
    out = []
    for platform_type in (WindowsPlatform, MacPlatform, LinuxPlatform):
        platform: Platform = platform_type(env={})
        out += [(t, platform.console_command(endpoint, t)) for t in platform.terminals]
    return out


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_node_names_become_plain_titles(name: str):
    title = safe_title(name)
    assert not TITLE_FORBIDDEN & set(title)
    endpoint = ConsoleEndpoint.of("192.0.2.9", 5001, name)
    for terminal, argv in _all_commands(endpoint):
        for part in argv:
            if terminal in ("Terminal", "iTerm"):
                continue  # checked below, where AppleScript is parsed
            assert not TITLE_FORBIDDEN & set(part) - {"/", ":", "="} or part.startswith("telnet:")


@pytest.mark.parametrize("host", HOSTILE_HOSTS)
def test_hostile_hosts_are_refused(host: str):
    with pytest.raises(ConsoleLaunchError, match="not an address or a host name"):
        ConsoleEndpoint.of(host, 5001, "R1")


@pytest.mark.parametrize("port", [0, -1, 65536, True, "5000; calc"])
def test_bad_ports_are_refused(port):
    with pytest.raises(ConsoleLaunchError, match="not a TCP port"):
        ConsoleEndpoint.of("127.0.0.1", port, "R1")


def test_hosts_that_are_addresses_or_names_pass():
    assert ConsoleEndpoint.of("::1", 5000, "R1").url == "telnet://[::1]:5000"
    assert ConsoleEndpoint.of("[::1]", 5000, "R1").host == "::1"
    assert ConsoleEndpoint.of("gns3-vm.local", 5000, "R1").host == "gns3-vm.local"


def test_windows_command_lines():
    endpoint = ConsoleEndpoint.of("192.0.2.9", 5001, 'x"; rm -rf ~ & R1')
    platform = WindowsPlatform(env={})
    solar = platform.console_command(endpoint, "Solar-PuTTY")
    putty = platform.console_command(endpoint, "PuTTY")
    wt = platform.console_command(endpoint, "Windows Terminal")
    title = "x rm -rf R1"
    assert solar == [
        "Solar-PuTTY.exe", "--telnet", "--hostname", "192.0.2.9", "--port", "5001", "--name", title
    ]  # fmt: skip
    assert putty == ["putty.exe", "-telnet", "192.0.2.9", "-P", "5001", "-loghost", title]
    assert wt == ["wt.exe", "-w", "0", "new-tab", "--title", title, "telnet", "192.0.2.9", "5001"]
    # Windows joins argv with list2cmdline: the title stays one quoted argument, and nothing
    # Windows Terminal splits on (;) or cmd would expand (%, ^, &) is in the line.
    line = subprocess.list2cmdline(wt)
    assert f'"{title}"' in line
    assert not set(";%^&|") & set(line)


def _applescript_literals(line: str) -> list[str]:
    """The string literals of one AppleScript line (backslash escapes undone)."""
    out, i = [], 0
    while (start := line.find('"', i)) != -1:
        j, text = start + 1, []
        while line[j] != '"':
            if line[j] == "\\":
                j += 1
            text.append(line[j])
            j += 1
        out.append("".join(text))
        i = j + 1
    return out


@pytest.mark.skipif(os.name != "posix", reason="runs the command with a POSIX shell")
@pytest.mark.parametrize("terminal", ["Terminal", "iTerm"])
@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_macos_scripts_run_only_telnet(tmp_path: Path, terminal: str, name: str):
    """The shell command inside the AppleScript, run by real bash with a recording ``telnet``:
    only telnet with the host and port runs, whatever the node's name."""
    endpoint = ConsoleEndpoint.of("192.0.2.9", 5001, name)
    argv = MacPlatform(env={}).console_command(endpoint, terminal)
    assert argv[0] == "osascript" and argv[1::2] == ["-e"] * ((len(argv) - 1) // 2)
    lines = argv[2::2]
    command_line = next(line for line in lines if "telnet" in line)
    (shell,) = [s for s in _applescript_literals(command_line) if "telnet" in s]
    assert shell == "telnet 192.0.2.9 5001; exit"
    title_line = next(line for line in lines if "set custom title" in line or "set name" in line)
    assert _applescript_literals(title_line) == [safe_title(name)]
    recorded = tmp_path / "telnet-args"
    script = f'telnet() {{ printf "%s\\n" "$@" > {shlex.quote(str(recorded))}; }}; {shell}'
    subprocess.run(["bash", "-c", script], cwd=tmp_path, check=True, timeout=10)
    assert recorded.read_text().split() == ["192.0.2.9", "5001"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["telnet-args"]


@pytest.mark.skipif(os.name != "posix", reason="runs the command with a POSIX shell")
@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_linux_argv_runs_without_a_shell(tmp_path: Path, name: str):
    """The xterm-style argv executed for real, with a recording terminal first on PATH."""
    fake = tmp_path / "bin" / "xterm"
    fake.parent.mkdir()
    record = tmp_path / "argv"
    fake.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done > "{record}"\n')
    fake.chmod(0o700)
    argv = LinuxPlatform(env={}).console_command(ConsoleEndpoint.of("::1", 5001, name), "xterm")
    env = {**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"}
    subprocess.run(argv, env=env, cwd=tmp_path, check=True, timeout=10)
    assert record.read_bytes().split(b"\0")[:-1] == [a.encode() for a in argv[1:]]
    assert argv[-3:] == ["telnet", "::1", "5001"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["argv", "bin"]


def test_open_console_starts_the_terminal_gns3_is_set_to(tmp_path: Path):
    """macOS with GNS3's iTerm2 preset in gns3_gui.conf: iTerm is started, with the argv built."""
    conf = tmp_path / ".config" / "GNS3" / "3.0" / "gns3_gui.conf"
    conf.parent.mkdir(parents=True)
    preset = "osascript -e 'tell application \"iTerm\"' -e 'activate'"
    conf.write_text(json.dumps({"MainWindow": {"telnet_console_command": preset}}))
    started: list[Sequence[str]] = []
    platform = MacPlatform(home=tmp_path, env={}, which=lambda exe: exe, spawn=started.append)
    endpoint = ConsoleEndpoint.of("127.0.0.1", 5000, "R1")
    platform.open_console(endpoint)
    assert started == [platform.console_command(endpoint, "iTerm")]


@pytest.mark.parametrize(
    ("gns3_command", "terminal"),
    [
        # GNS3 3.0's own presets for Windows (gns3/settings.py).
        ('Solar-PuTTY.exe --telnet --hostname {host} --port {port}  --name "{name}"',
         "Solar-PuTTY"),
        ('putty_standalone.exe -telnet {host} {port} -loghost "{name}"', "PuTTY"),
        ("wt.exe -w 1 new-tab --suppressApplicationTitle --title {name} telnet {host} {port}",
         "Windows Terminal"),
        ("telnet {host} {port}", None),
    ],
)  # fmt: skip
def test_windows_recognises_gns3_presets(gns3_command: str, terminal: str | None):
    assert WindowsPlatform(env={}).terminal_for_gns3_command(gns3_command) == terminal


def test_a_missing_terminal_is_a_clear_error_and_starts_nothing():
    started: list[Sequence[str]] = []
    platform = WindowsPlatform(env={}, which=lambda exe: None, spawn=started.append)
    with pytest.raises(ConsoleLaunchError, match="Windows Terminal is not installed"):
        platform.open_console(ConsoleEndpoint.of("127.0.0.1", 5000, "R1"), "Windows Terminal")
    assert started == []


def test_an_unknown_terminal_is_refused():
    with pytest.raises(ConsoleLaunchError, match="not a terminal known on macOS"):
        MacPlatform(env={}).console_command(ConsoleEndpoint.of("::1", 1, "R1"), "cmd.exe")


# --- signals and exported text -----------------------------------------------------------------


def test_quit_signals_by_system():
    assert WindowsPlatform.quit_signals == ()
    assert MacPlatform.quit_signals == LinuxPlatform.quit_signals == ("SIGINT", "SIGTERM")


@pytest.mark.parametrize("platform_type", [WindowsPlatform, MacPlatform, LinuxPlatform])
def test_exports_use_slashes_and_newlines(tmp_path: Path, platform_type):
    platform: Platform = platform_type(env={})
    assert platform.export_name(PureWindowsPath(r"project\captures\R1.pcap")) == (
        "project/captures/R1.pcap"
    )
    assert platform.export_name(PurePosixPath("project/R1.cfg")) == "project/R1.cfg"
    device_output = "R1#show ip int brief\r\nInterface  IP\r\r\nFa0/0  10.0.0.1\rend"
    target = tmp_path / "export.md"
    platform.write_export(target, device_output)
    data = target.read_bytes()
    assert b"\r" not in data
    assert data.decode("utf-8").splitlines()[0] == "R1#show ip int brief"


def test_docking_notes_say_what_the_gns3_installers_need():
    for platform_type in (WindowsPlatform, MacPlatform):
        assert "frozen Python" in platform_type.docking_note
        assert "standalone" in platform_type.docking_note
    assert "--gns3-gui" in LinuxPlatform.docking_note
