"""The settings a llama-cpp-python server was started with, read from its process.

llama-cpp-python's server (0.3) says its context window nowhere on the wire: not in ``/v1/models``,
not in an error until a prompt overflows. When it runs on this computer as this user, the process
that listens on its port says how it was started: ``--n_ctx`` on its command line, ``N_CTX`` in its
environment, or a ``--config_file``. Linux only (``/proc``); elsewhere, or for a process of another
user, the window stays unknown. Nothing is changed: files are only read.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from pathlib import Path
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

PROC = Path("/proc")
LLAMA_CPP_PYTHON_DEFAULT_N_CTX = 2048
"""``ModelSettings.n_ctx``'s default in llama-cpp-python 0.3 when nothing sets it."""
_LISTEN = "0A"


def llama_cpp_python_window(root: str, proc: Path = PROC) -> int | None:
    """The context window of the llama-cpp-python server at ``root`` (``http://host:port``), or
    None when it cannot be read (not this computer, not our process, 0: the model's own)."""
    parts = urlsplit(root)
    if not _is_this_computer(parts.hostname or "") or parts.port is None:
        return None
    try:
        pid = listening_pid(parts.port, proc)
        if pid is None:
            return None
        args = (proc / str(pid) / "cmdline").read_bytes().decode(errors="replace").split("\0")
        if not any("llama_cpp" in arg for arg in args):
            return None
        window = _from_args(args)
        if window is None:
            window = _from_environ(proc / str(pid) / "environ")
        if window is None:
            window = _from_config_file(args, proc / str(pid) / "cwd")
    except OSError as exc:
        log.debug("cannot read the settings of the server at %s: %s", root, exc)
        return None
    if window is None:
        return LLAMA_CPP_PYTHON_DEFAULT_N_CTX
    return window if window > 0 else None


def listening_pid(port: int, proc: Path = PROC) -> int | None:
    """The process of this user that listens on TCP ``port``, or None."""
    inodes = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (proc / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            listening = len(fields) > 9 and fields[3] == _LISTEN
            if listening and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = {fd.readlink().as_posix() for fd in (entry / "fd").iterdir()}
        except OSError:  # another user's process, or it ended meanwhile
            continue
        if links & inodes:
            return int(entry.name)
    return None


def _is_this_computer(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _from_args(args: list[str]) -> int | None:
    for index, arg in enumerate(args):
        if arg in ("--n_ctx", "--n-ctx") and index + 1 < len(args):
            return _integer(args[index + 1])
        for flag in ("--n_ctx=", "--n-ctx="):
            if arg.startswith(flag):
                return _integer(arg.removeprefix(flag))
    return None


def _from_environ(path: Path) -> int | None:
    for item in path.read_bytes().decode(errors="replace").split("\0"):
        name, _, value = item.partition("=")
        if name.upper() == "N_CTX":
            return _integer(value)
    return None


def _from_config_file(args: list[str], cwd: Path) -> int | None:
    """``n_ctx`` of the first model of a JSON ``--config_file`` (YAML ones are not read)."""
    for index, arg in enumerate(args[:-1]):
        if arg in ("--config_file", "--config-file"):
            path = Path(args[index + 1])
            path = path if path.is_absolute() else cwd / path
            try:
                config = json.loads(path.read_text())
            except ValueError:
                return None
            models = config.get("models") if isinstance(config, dict) else None
            first = models[0] if isinstance(models, list) and models else None
            return _integer(first.get("n_ctx")) if isinstance(first, dict) else None
    return None


def _integer(value: object) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None
