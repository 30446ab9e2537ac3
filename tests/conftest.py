"""Shared pytest setup. Fixtures live in tests/helpers/ and are registered here."""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading

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


# Tests that share one of these costly session fixtures run in one pytest-xdist worker, so each
# is started once per run (the local model loads a model and takes a core while it answers; the
# router boots a QEMU machine); every other test runs with the rest of its file.
SHARED_FIXTURE_GROUPS = {
    "llama_server": "local-model",
    "frr_template": "frr-router",
    "postgres_server": "postgresql",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each test its pytest-xdist group (used by ``--dist loadgroup``): the group of a
    shared fixture it needs, else its file, so a module's fixtures and order hold as in one
    process; a test marked ``spread`` is a group of its own. Without xdist the marks do
    nothing."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        names = set(getattr(item, "fixturenames", ()))
        own = item.nodeid if item.get_closest_marker("spread") is not None else str(item.path)
        group = next((g for fixture, g in SHARED_FIXTURE_GROUPS.items() if fixture in names), own)
        item.add_marker(pytest.mark.xdist_group(group))
    # The longest groups first: the scheduler hands groups out in this order, and a long group
    # that starts last is the run's tail. The local model and the router's boots also take a
    # core each: started early they share the cores with tests that mostly wait on consoles.
    items.sort(key=lambda item: not _long(item))


LONG_GROUPS = ("local-model", "frr-router", "postgresql")
LONG_FILES = ("test_bundle.py", "_live.py")


def _long(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("xdist_group")
    group = str(marker.args[0]) if marker is not None and marker.args else ""
    return group in LONG_GROUPS or item.path.name.endswith(LONG_FILES)


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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> object:
    """Name the tests that leave an aiosqlite connection open (its thread keeps the process up)."""
    before = _db_worker_threads()
    yield
    leaked = [t for t in _db_worker_threads() - before if t.is_alive()]
    if leaked:
        _LEAKED_DB_THREADS.append(f"{item.nodeid}: {len(leaked)} connection(s)")
    return None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _LEAKED_DB_THREADS:
        terminalreporter.write_sep("-", "aiosqlite connections left open (not closed by the test)")
        for line in _LEAKED_DB_THREADS:
            terminalreporter.write_line(line)
