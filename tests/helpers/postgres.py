"""A real PostgreSQL server for the tests: Debian's package, a throwaway data folder, loopback.

`start_postgres` runs ``initdb`` and ``postgres`` from ``/usr/lib/postgresql/<version>/bin``
(installed by ``make test`` when it runs as root), listening on 127.0.0.1 on a free port with its
socket in the data folder, trust authentication (loopback only, throwaway data). PostgreSQL
refuses to run as root: as root the server runs as the ``postgres`` user the package created.
Stopped by the PID this helper started.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.gns3_server import free_port


@dataclass
class PostgresServer:
    """A running server: its DSN and process."""

    port: int
    data: Path
    process: subprocess.Popen[bytes]
    dbname: str = "copilot"

    @property
    def dsn(self) -> str:
        """The connection string of the test database."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{self.dbname}"

    def stop(self) -> None:
        """Fast shutdown of the server process (its PID from ``postmaster.pid``: as root the
        process started is ``runuser``, which does not pass signals on), then the data folder."""
        pid = self.postmaster_pid()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.data, ignore_errors=True)

    def postmaster_pid(self) -> int | None:
        """The server's own PID, as it wrote it."""
        try:
            return int((self.data / "db" / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/postgres"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    return Path(found[-1]).parent if found else None


def _as_user() -> tuple[list[str], int | None, int | None]:
    if os.geteuid() != 0:
        return [], None, None
    user = pwd.getpwnam("postgres")
    return ["runuser", "-u", "postgres", "--"], user.pw_uid, user.pw_gid


def start_postgres(timeout_s: float = 60.0, settings: Sequence[str] = ()) -> PostgresServer:
    """Start a server and create the ``copilot`` database; raises RuntimeError if it cannot.
    ``settings`` are extra ``name=value`` server settings (``-c``)."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: postgresql)")
    prefix, uid, gid = _as_user()
    data = Path(tempfile.mkdtemp(prefix="copilot-pg-"))
    if uid is not None and gid is not None:
        os.chown(data, uid, gid)
    subprocess.run(
        [*prefix, str(bin_dir / "initdb"), "-D", str(data / "db"), "-U", "postgres",
         "--auth=trust", "-E", "UTF8", "--no-sync"],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    port = free_port()
    process = subprocess.Popen(
        [*prefix, str(bin_dir / "postgres"), "-D", str(data / "db"), "-h", "127.0.0.1",
         "-p", str(port), "-k", str(data), "-c", "fsync=off", "-c", "max_connections=200",
         *(arg for setting in settings for arg in ("-c", setting))],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    server = PostgresServer(port, data, process)
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            shutil.rmtree(data, ignore_errors=True)
            raise RuntimeError(f"PostgreSQL did not start: {err[-500:]}")
        ready = subprocess.run(
            [str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-q"],
            check=False, timeout=10,
        )  # fmt: skip
        if ready.returncode == 0:
            break
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError("PostgreSQL did not become ready in time")
        time.sleep(0.1)
    subprocess.run(
        [str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
         server.dbname],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return server


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """`start_postgres` as a context manager."""
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL for the whole run (each test uses its own project id in it).

    Without the server installed the tests that need it skip, saying why; ``make test`` installs
    it when it runs as root, so CI never skips them."""
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (Debian: postgresql; make test installs it)")
    with running_postgres() as server:
        yield server
