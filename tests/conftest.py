"""Shared pytest setup. Fixtures live in tests/helpers/ and are registered here."""

from __future__ import annotations

import logging
import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

pytest_plugins: list[str] = [
    "tests.helpers.scripted_openai",
    "tests.helpers.keyring_backends",
    "tests.helpers.gns3_server",
    "tests.helpers.qt",
    "tests.helpers.telnet_lab",
    "tests.helpers.vpcs_lab.gns3_lab",
    "tests.helpers.agent",
    "tests.helpers.copilot_app",
]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_error_logs: the test expects ERROR log records")


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
