"""RedactingFilter and setup_logging: no secret reaches a log line, a traceback or the log file."""

from __future__ import annotations

import io
import logging
import timeit
from collections.abc import Iterator
from pathlib import Path

import pytest

from gns3_copilot_desktop.core import logs

JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    ".eyJzdWIiOiJhZG1pbiIsImV4cCI6MTc2NDY4MDAwMH0"
    ".c2lnbmF0dXJlLXRoYXQtbG9va3MtcmVhbC0xMjM0NTY3OA"
)
API_KEYS = [
    "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",  # OpenAI project key
    "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AA",  # Anthropic
    "sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",  # OpenRouter
    "sk-0123456789abcdef0123456789abcdef",  # DeepSeek / classic OpenAI
]


@pytest.fixture
def capture() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger whose only handler writes formatted, redacted text into a StringIO."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    handler.addFilter(logs.RedactingFilter())
    logger = logging.getLogger(f"test-redaction-{id(stream)}")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    yield logger, stream
    logger.removeHandler(handler)
    logs.clear_registered_secrets()


def test_jwt_in_args_is_redacted(capture: tuple[logging.Logger, io.StringIO]):
    logger, stream = capture
    logger.info("logged in, token %s for %s", JWT, "admin")
    out = stream.getvalue()
    assert JWT not in out
    assert JWT.split(".")[1] not in out
    assert "logged in, token [REDACTED] for admin" in out


@pytest.mark.parametrize("key", API_KEYS)
def test_provider_api_keys_are_redacted(capture: tuple[logging.Logger, io.StringIO], key: str):
    logger, stream = capture
    logger.warning("provider rejected key %r", key)
    out = stream.getvalue()
    assert key not in out
    assert key[8:24] not in out
    assert "[REDACTED]" in out


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("Authorization: Bearer abcdef0123456789opaque", "abcdef0123456789opaque"),
        (
            "GET ws://127.0.0.1:3080/v3/notifications/ws?token=opaque-ws-token-42",
            "opaque-ws-token-42",
        ),
        ('POST body {"username": "admin", "password": "correct horse"}', "correct horse"),
        ("connect(api_key='abc123xyz', model='gpt')", "abc123xyz"),
    ],
)
def test_bearer_query_and_json_secrets(
    capture: tuple[logging.Logger, io.StringIO], line: str, secret: str
):
    logger, stream = capture
    logger.info(line)
    out = stream.getvalue()
    assert secret not in out
    assert "[REDACTED]" in out


def test_registered_secret_is_redacted_even_without_a_pattern(
    capture: tuple[logging.Logger, io.StringIO],
):
    logger, stream = capture
    logger.info("router login uses %s", "Cisco-Lab-2024!")
    assert "Cisco-Lab-2024!" in stream.getvalue()  # not a pattern: only registration helps
    logs.register_secret("Cisco-Lab-2024!")
    logger.info("router login uses %s", "Cisco-Lab-2024!")
    second = stream.getvalue().splitlines()[-1]
    assert second == "INFO router login uses [REDACTED]"


def test_short_registered_values_are_ignored():
    logs.register_secret("abc")
    try:
        assert logs.redact("abc abc") == "abc abc"
    finally:
        logs.clear_registered_secrets()


@pytest.mark.allow_error_logs
def test_traceback_with_a_token_is_redacted(capture: tuple[logging.Logger, io.StringIO]):
    logger, stream = capture
    logs.register_secret("device-pass-9")
    try:
        raise ConnectionError(f"401 for /v3/projects with {JWT} (device-pass-9)")
    except ConnectionError:
        logger.exception("request failed")
    out = stream.getvalue()
    assert "Traceback (most recent call last)" in out
    assert "ConnectionError: 401 for /v3/projects with [REDACTED] ([REDACTED])" in out
    assert JWT not in out
    assert "device-pass-9" not in out


def test_stack_info_is_redacted(capture: tuple[logging.Logger, io.StringIO]):
    logger, stream = capture
    secret_local = f"Bearer {JWT}"
    logger.info("where am I %s", secret_local, stack_info=True)
    out = stream.getvalue()
    assert "Stack (most recent call last)" in out
    assert JWT not in out


def test_bad_format_arguments_do_not_raise(capture: tuple[logging.Logger, io.StringIO]):
    logger, stream = capture
    logger.info("count %d", f"not a number {JWT}")
    out = stream.getvalue()
    assert "unformattable log arguments" in out
    assert JWT not in out


def test_ordinary_text_is_left_alone():
    text = "max_tokens=4096 risk-assessment GET /v3/projects/abc-123 node R1 started (sk-1)"
    assert logs.redact(text) == text


def test_redaction_is_cheap():
    """A 1 KB line with no secret costs well under a millisecond (measured, not guessed)."""
    for index in range(50):
        logs.register_secret(f"registered-secret-{index}")
    try:
        line = "node R1 console 5000 status started " * 28
        per_call = min(timeit.repeat(lambda: logs.redact(line), number=200, repeat=3)) / 200
    finally:
        logs.clear_registered_secrets()
    assert per_call < 0.002, f"redact() took {per_call * 1e3:.3f} ms per 1 KB line"


@pytest.fixture
def root_logging() -> Iterator[None]:
    root = logging.getLogger()
    level = root.level
    yield
    logs.teardown_logging()
    root.setLevel(level)


@pytest.mark.usefixtures("root_logging")
def test_setup_logging_writes_a_redacted_file_and_stderr(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
):
    log_file = logs.setup_logging(tmp_path / "logs", logging.DEBUG)
    logs.setup_logging(tmp_path / "logs", logging.DEBUG)  # again: replaces, does not duplicate
    logging.getLogger("gns3_copilot_desktop.test").info("token=%s key=%s", JWT, API_KEYS[0])
    for handler in logging.getLogger().handlers:
        handler.flush()
    text = log_file.read_text(encoding="utf-8")
    assert text.count("gns3_copilot_desktop.test") == 1
    assert JWT not in text
    assert API_KEYS[0] not in text
    assert "token=[REDACTED]" in text
    err = capfd.readouterr().err
    assert "gns3_copilot_desktop.test" in err
    assert JWT not in err


@pytest.mark.usefixtures("root_logging")
def test_log_file_rotates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", 2_000)
    log_file = logs.setup_logging(tmp_path, logging.INFO)
    logger = logging.getLogger("gns3_copilot_desktop.rotate")
    logger.propagate = True
    for index in range(100):
        logger.info("line %d %s", index, "x" * 60)
    assert (tmp_path / f"{log_file.name}.1").exists()
    assert log_file.stat().st_size <= 2_000
