"""Reading how a llama-cpp-python server was started, from a /proc tree laid out as Linux lays it
out (the real one is read in test_local_servers.py, against the real server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.server_process import (
    LLAMA_CPP_PYTHON_DEFAULT_N_CTX,
    listening_pid,
    llama_cpp_python_window,
)

PORT = 8000
SERVER = ["/venv/bin/python", "-m", "llama_cpp.server", "--model", "m.gguf"]


def _proc(tmp_path: Path, args: list[str], environ: dict[str, str] | None = None) -> Path:
    proc = tmp_path / "proc"
    (proc / "net").mkdir(parents=True)
    header = (
        "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt uid  inode\n"
    )
    rest = "00000000:00000000 00:00000000 00000000  1000  0"
    listen = f"   0: 0100007F:{PORT:04X} 00000000:0000 0A {rest} 4242 1\n"
    other = f"   1: 0100007F:0050 0100007F:9C40 01 {rest} 777 1\n"
    (proc / "net" / "tcp").write_text(header + other + listen)
    (proc / "net" / "tcp6").write_text(header)
    for pid, inode in (("99", "777"), ("123", "4242")):
        (proc / pid / "fd").mkdir(parents=True)
        (proc / pid / "fd" / "3").symlink_to("/dev/null")
        (proc / pid / "fd" / "5").symlink_to(f"socket:[{inode}]")
        (proc / pid / "cwd").mkdir()
    (proc / "123" / "cmdline").write_bytes("\0".join(args).encode() + b"\0")
    env = {"PATH": "/usr/bin", **(environ or {})}
    (proc / "123" / "environ").write_bytes("\0".join(f"{k}={v}" for k, v in env.items()).encode())
    return proc


def test_the_process_listening_on_the_port_is_found(tmp_path: Path) -> None:
    proc = _proc(tmp_path, SERVER)
    assert listening_pid(PORT, proc) == 123
    assert listening_pid(PORT + 1, proc) is None


@pytest.mark.parametrize(
    ("args", "environ", "window"),
    [
        ([*SERVER, "--n_ctx", "8192"], {}, 8192),
        ([*SERVER, "--n_ctx=4096"], {}, 4096),
        (SERVER, {"N_CTX": "16384"}, 16384),
        (SERVER, {}, LLAMA_CPP_PYTHON_DEFAULT_N_CTX),  # its own default when nothing sets it
        ([*SERVER, "--n_ctx", "0"], {}, None),  # 0: the model's own, not known here
        ([*SERVER, "--n_ctx", "lots"], {}, LLAMA_CPP_PYTHON_DEFAULT_N_CTX),
        (["/usr/bin/nginx", "-g", "daemon off;"], {"N_CTX": "9"}, None),  # not llama-cpp-python
    ],
)
def test_the_window_is_read_from_how_the_server_was_started(
    tmp_path: Path, args: list[str], environ: dict[str, str], window: int | None
) -> None:
    proc = _proc(tmp_path, args, environ)
    assert llama_cpp_python_window(f"http://127.0.0.1:{PORT}", proc) == window


def test_a_config_file_is_read_relative_to_the_servers_folder(tmp_path: Path) -> None:
    proc = _proc(tmp_path, [*SERVER[:3], "--config_file", "models.json"])
    config = {"models": [{"model": "m.gguf", "n_ctx": 12288}]}
    (proc / "123" / "cwd" / "models.json").write_text(json.dumps(config))
    assert llama_cpp_python_window(f"http://localhost:{PORT}", proc) == 12288


def test_a_server_on_another_computer_is_not_looked_for_here(tmp_path: Path) -> None:
    proc = _proc(tmp_path, [*SERVER, "--n_ctx", "8192"])
    assert llama_cpp_python_window(f"http://192.168.1.20:{PORT}", proc) is None
    assert llama_cpp_python_window("http://127.0.0.1", proc) is None
