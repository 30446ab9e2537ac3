"""Logging setup and the filter that keeps secrets out of every log line.

`setup_logging()` installs a rotating file log in the app's log folder plus a stderr handler, both
with a `RedactingFilter`. The filter formats the record first (message arguments, traceback, stack)
and then replaces anything that looks like a secret: JWTs, bearer tokens, ``token=`` style
parameters, LLM provider API keys, and every value registered at run time with `register_secret()`
(the SecretStore registers each secret it reads or stores).
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from logging.handlers import RotatingFileHandler
from pathlib import Path

REDACTED = "[REDACTED]"
LOG_FILE_NAME = "gns3-copilot.log"
MAX_LOG_BYTES = 2_000_000
LOG_BACKUPS = 5
# Shorter values would turn ordinary words into "[REDACTED]" everywhere.
MIN_REGISTERED_SECRET_LENGTH = 4

_B64 = r"[A-Za-z0-9_-]"
_KV_TRIGGERS = ("token", "key", "pass", "secret")
# (substrings of which one must occur in the lower-cased text, pattern). The cheap substring test
# skips most patterns for most lines. A pattern's group "keep" (when present) is kept.
_PATTERNS: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    # JWT: base64url header starting with {" -> "eyJ", payload, optional signature.
    (("eyj",), re.compile(rf"\beyJ{_B64}{{4,}}\.{_B64}{{4,}}\.{_B64}*")),
    (("bearer",), re.compile(r"(?i)(?P<keep>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}")),
    # token=..., api_key=..., password=... in query strings, headers, repr() output.
    (
        _KV_TRIGGERS,
        re.compile(
            r"(?i)(?P<keep>\b(?:access_token|refresh_token|id_token|token|api[_-]?key|password"
            r"|passwd|secret|client_secret)\s*[=:]\s*)(?!\[REDACTED\])['\"]?[^\s&'\",;}]+"
        ),
    ),
    # JSON bodies: "password": "...".
    (
        _KV_TRIGGERS,
        re.compile(
            r"(?i)(?P<keep>\"(?:access_token|refresh_token|token|api_key|apikey|password|secret)\""
            r"\s*:\s*\")[^\"]+"
        ),
    ),
    # OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), DeepSeek (sk-), OpenRouter (sk-or-v1-).
    (("sk-",), re.compile(r"\bsk-[A-Za-z0-9_-]{16,}")),
    # Google AI (AIza...), Groq (gsk_...), xAI (xai-...), Hugging Face (hf_...).
    (
        ("aiza", "gsk_", "xai-", "hf_"),
        re.compile(
            r"\b(?:AIza[A-Za-z0-9_-]{30,}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}"
            r"|hf_[A-Za-z0-9]{20,})"
        ),
    ),
)

_registered_lock = threading.Lock()
_registered: set[str] = set()
_registered_pattern: re.Pattern[str] | None = None
_installed_handlers: list[logging.Handler] = []


def register_secret(value: str | None) -> None:
    """Redact `value` from every later log line (values shorter than 4 characters are ignored)."""
    global _registered_pattern
    if not value or len(value) < MIN_REGISTERED_SECRET_LENGTH:
        return
    with _registered_lock:
        if value in _registered:
            return
        _registered.add(value)
        # Longest first so that a secret containing another one is replaced whole.
        alternatives = sorted(_registered, key=len, reverse=True)
        _registered_pattern = re.compile("|".join(map(re.escape, alternatives)))


def clear_registered_secrets() -> None:
    """Forget the run-time secrets (tests use this to stay independent of each other)."""
    global _registered_pattern
    with _registered_lock:
        _registered.clear()
        _registered_pattern = None


def _replace(match: re.Match[str]) -> str:
    keep = match.groupdict().get("keep")
    return f"{keep}{REDACTED}" if keep else REDACTED


def redact(text: str) -> str:
    """`text` with every secret-looking part replaced by ``[REDACTED]``."""
    registered = _registered_pattern
    if registered is not None:
        text = registered.sub(REDACTED, text)
    lowered = text.lower()
    for triggers, pattern in _PATTERNS:
        if any(trigger in lowered for trigger in triggers):
            text = pattern.sub(_replace, text)
    return text


def looks_like_secret(text: str) -> bool:
    """True when `text` contains a JWT, a bearer token or an API key by the built-in patterns.

    Registered secrets are not considered: this check guards files such as the settings, where a
    short password matching an ordinary word must not block saving.
    """
    return any(pattern.search(text) for _, pattern in _PATTERNS)


class RedactingFilter(logging.Filter):
    """A handler filter that formats the record, then redacts secrets from the result.

    The record is rewritten in place: ``msg`` becomes the formatted, redacted message (``args`` are
    dropped), and the traceback and stack are formatted into ``exc_text``/``stack_info`` redacted,
    so any formatter later sees only clean text.
    """

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_gns3_copilot_redacted", False):
            return True
        try:
            message = record.getMessage()
        except Exception:  # a bad format string must not turn a log call into a crash
            message = f"{record.msg!s} (unformattable log arguments: {record.args!r})"
        record.msg = redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        record._gns3_copilot_redacted = True
        return True


def setup_logging(log_dir: Path, level: int | str = logging.INFO) -> Path:
    """Log to a rotating file in `log_dir` and to stderr, both redacted. Returns the log file.

    Calling it again replaces the handlers it installed before (not anybody else's).
    """
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / LOG_FILE_NAME
    root = logging.getLogger()
    teardown_logging()
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    file_handler = RotatingFileHandler(
        log_file, maxBytes=MAX_LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
    )
    stderr_handler = logging.StreamHandler(sys.stderr)
    handlers: list[logging.Handler] = [file_handler, stderr_handler]
    for handler in handlers:
        handler.setFormatter(formatter)
        handler.addFilter(RedactingFilter())
        root.addHandler(handler)
        _installed_handlers.append(handler)
    root.setLevel(level)
    return log_file


def teardown_logging() -> None:
    """Remove and close the handlers `setup_logging()` installed (at exit, and in tests)."""
    root = logging.getLogger()
    while _installed_handlers:
        handler = _installed_handlers.pop()
        root.removeHandler(handler)
        handler.close()
