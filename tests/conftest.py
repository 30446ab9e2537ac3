"""Shared pytest setup. Fixtures live in tests/helpers/ and are registered here."""

from __future__ import annotations

import faulthandler
import functools
import logging
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

pytest_plugins: list[str] = [
    "tests.helpers.scripted_openai",
    "tests.helpers.keyring_backends",
    "tests.helpers.gns3_server",
    "tests.helpers.qt",
    "tests.helpers.telnet_lab",
    "tests.helpers.vpcs_lab.gns3_lab",
    "tests.helpers.frr_router",
    "tests.helpers.agent",
    "tests.helpers.copilot_app",
    "tests.helpers.llama_server",
    "tests.helpers.postgres",
]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_error_logs: the test expects ERROR log records")


# How the suite is spread over pytest-xdist's workers (run_suite.sh runs four). A test goes with
# the rest of its file, so a module's fixtures are made once; the tests of every file that uses
# one of these costly session fixtures share one worker, so each is started once per run (the
# local model loads a model and takes a core while it answers; the router boots a QEMU machine;
# the two-router lab is a group of its own, beside the session's router: one worker after the
# other made the routers the run's tail);
# each test of a module marked ``spread`` (it keeps nothing across tests) may go to any worker.
# pytest-xdist's own ``xdist_group`` marks do not reach its scheduler under pytest 9 (they are
# written into ``Item._nodeid``, which pytest 9 no longer reads), so the scheduler below groups
# by the test files' text instead.
SHARED_FIXTURE_GROUPS = {
    "llama_server": "local-model",
    "frr_router:": "frr-router",  # the session's router R1 (a test's parameter)
    "frr_template:": "frr-lab",  # the two-router lab's module (a worker registers its template)
    "postgres_server": "postgresql",
}
FIRST = (
    "tests/core/practice/test_practice_round_trip_live.py",  # ~330 s, mostly waiting on pings
    "frr-lab",  # ~330 s, two emulated routers booting first
    "tests/service/test_classroom_live.py",  # ~250 s
    "postgresql",  # ~170 s
    "local-model",  # ~210 s, a core while it answers
    "frr-router",  # ~150 s, a router booting
    "tests/service/test_classroom_switched_live.py",  # ~145 s, its own GNS3 server restarted
)
"""The longest groups, handed out in this order: the first four start at once, one a worker,
and the next four are queued behind them (pytest-xdist gives each worker two groups at the
start), so the local model and the session's router do not boot beside the lab's routers."""
CPU_GROUPS = ("local-model", "frr-router", "frr-lab")
CPU_GROUP_TIMEOUT_S = 480
LONG_FILES = ("test_bundle.py", "_live.py")
ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def _file_group(path: str) -> str | None:
    """The shared group of a test file, "" when its tests spread, None for its own group."""
    try:
        text = (ROOT / path).read_text(encoding="utf-8")
    except OSError:
        return None
    if "pytest.mark.spread" in text:
        return ""
    return next((g for name, g in SHARED_FIXTURE_GROUPS.items() if name in text), None)


def worker_group(nodeid: str) -> str:
    """The unit of work a test belongs to (see above)."""
    path = nodeid.split("::", 1)[0]
    group = _file_group(path)
    if group is None:
        return path
    return group or nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid)

    # the groups go out in the order collected (below), not by their number of tests
    config.option.loadscopereorder = False
    return ByGroup(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest groups first (`FIRST`, then the other live files): the scheduler hands groups
    out in the order their tests were collected, and a long group that starts last is the run's
    tail."""
    items.sort(key=_order)
    for item in items:
        # the local model and the router's boots compete for the two cores with the other
        # workers: their hang guard is longer than the suite's 180 s (a guard, not a target)
        if worker_group(item.nodeid) in CPU_GROUPS and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(CPU_GROUP_TIMEOUT_S))


def _order(item: pytest.Item) -> int:
    group = worker_group(item.nodeid)
    if group in FIRST:
        return FIRST.index(group)
    return len(FIRST) + (0 if item.path.name.endswith(LONG_FILES) else 1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """STYLE.md rule 7: a test that logs an unexpected ERROR fails.

    A test that expects an error log marks it with ``@pytest.mark.allow_error_logs``.
    """
    handler = _ErrorCollector()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        outcome = yield
    finally:
        root.removeHandler(handler)
    if handler.records and item.get_closest_marker("allow_error_logs") is None:
        lines = "\n".join(f"{r.name}: {r.getMessage()}" for r in handler.records)
        if outcome.excinfo is None:
            pytest.fail(f"unexpected ERROR log records:\n{lines}", pytrace=False)
    return None


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


EXIT_GRACE_S = 60.0


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Guarantee the test process ends once pytest is done.

    Twice in development a run finished its tests and then never exited: the interpreter waits
    for non-daemon threads (an executor thread stuck in a D-Bus or socket call, for instance).
    A CI run must not hang on that: after a grace period a daemon watchdog prints every thread's
    stack, so the cause can be found, and exits with pytest's own status.
    """
    done = threading.Event()

    def watchdog() -> None:
        if done.wait(EXIT_GRACE_S):
            return
        sys.stderr.write(
            f"\ntest process still alive {EXIT_GRACE_S:.0f} s after pytest finished; "
            "threads that kept it alive:\n"
        )
        faulthandler.dump_traceback(all_threads=True)
        sys.stderr.flush()
        os._exit(int(exitstatus))

    threading.Thread(target=watchdog, name="exit-watchdog", daemon=True).start()


_LEAKED_DB_THREADS: list[str] = []


def _db_worker_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


# With GNS3_COPILOT_TEST_TIMELINE=<dir>, each worker writes when each of its tests started and
# ended (setup to teardown) to <dir>/<worker>.tsv; tests/tools/timeline.py shows the run's tail.
_TIMELINE = os.environ.get("GNS3_COPILOT_TEST_TIMELINE")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> object:
    """Name the tests that leave an aiosqlite connection open (its thread keeps the process up)."""
    before = _db_worker_threads()
    started = time.time()
    yield
    leaked = [t for t in _db_worker_threads() - before if t.is_alive()]
    if leaked:
        _LEAKED_DB_THREADS.append(f"{item.nodeid}: {len(leaked)} connection(s)")
    if _TIMELINE:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        os.makedirs(_TIMELINE, exist_ok=True)
        with open(os.path.join(_TIMELINE, f"{worker}.tsv"), "a", encoding="utf-8") as out:
            group = worker_group(item.nodeid)
            out.write(f"{started:.3f}\t{time.time():.3f}\t{group}\t{item.nodeid}\n")
    return None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _LEAKED_DB_THREADS:
        terminalreporter.write_sep("-", "aiosqlite connections left open (not closed by the test)")
        for line in _LEAKED_DB_THREADS:
            terminalreporter.write_line(line)
