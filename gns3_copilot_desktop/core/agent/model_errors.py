"""A model provider's failures as the user reads them: each SDK's exception (OpenAI, Anthropic,
Ollama, httpx) mapped to a `ModelProviderError` with a sentence saying what to do (a refused key,
an unknown model, a quota with its retry time, a server that stopped, an answer cut off)."""

from __future__ import annotations

import json
import logging

from gns3_copilot_desktop.core.errors import ModelProviderError

log = logging.getLogger(__name__)

CUT_OFF_TEXT = "The answer was cut off: the model provider closed the stream before it finished."


def map_provider_error(exc: BaseException) -> ModelProviderError:
    """Turn a provider SDK or transport exception into a `ModelProviderError` with a clear text.

    Works by HTTP status and by exception class names along the cause chain, so the openai,
    anthropic and ollama SDKs (and httpx or httpx2 underneath) map alike.
    """
    if isinstance(exc, ModelProviderError):
        return exc
    mapped = _map(exc)
    if not mapped.details:
        mapped.details = _provider_text(exc)
    return mapped


# A provider's own message is quoted in the one-sentence error only when it is short and plain;
# a longer one (a server's validation dump ran to 1,862 characters) stays behind "Details".
_MAX_QUOTED_CHARS = 320
_SERVER_BUG_MARKERS = ("validation error", "input should be", "field required", "traceback")


def _short(detail: str) -> str:
    """The provider text to quote in a sentence: first line, or a pointer to the details."""
    line = detail.strip().splitlines()[0] if detail.strip() else ""
    if len(line) > _MAX_QUOTED_CHARS or len(detail) > 2 * _MAX_QUOTED_CHARS:
        return "its message is under Details"
    return line


def _map(exc: BaseException) -> ModelProviderError:
    chain = _cause_chain(exc)
    names = {type(e).__name__ for e in chain}
    status = _status_code(exc)
    full = _provider_text(exc)
    detail = _short(full)
    if status is not None:
        if status >= 500 and any(m in full.lower() for m in _SERVER_BUG_MARKERS):
            return ModelProviderError(
                f"The model server could not read the request (HTTP {status}); retrying will "
                "not help. It is probably not fully OpenAI-compatible: check the server kind in "
                "the model settings.",
                kind="bad_request",
                details=full,
            )
        return _by_status(status, detail, exc)
    if isinstance(exc, json.JSONDecodeError) or "JSONDecodeError" in names:
        return ModelProviderError(
            "The model provider sent a malformed answer (not valid JSON). Try again; if it "
            "persists, the endpoint is not fully OpenAI-compatible.",
            kind="malformed",
        )
    if names & {"RemoteProtocolError", "IncompleteRead", "ChunkedEncodingError"}:
        return ModelProviderError(CUT_OFF_TEXT, kind="cut_off")
    if names & {"APITimeoutError", "TimeoutException", "ReadTimeout", "ConnectTimeout"} or any(
        isinstance(e, TimeoutError) for e in chain
    ):
        return ModelProviderError(
            "The model provider did not answer in time. Try again, or raise the timeout in the "
            "model settings.",
            kind="timeout",
        )
    if names & {"APIConnectionError", "ConnectError", "NetworkError"} or any(
        isinstance(e, ConnectionError) for e in chain
    ):
        return ModelProviderError(
            f"Could not reach the model provider ({detail}). Check the base URL and the network.",
            kind="connection",
        )
    return ModelProviderError(f"The model provider failed: {detail}", kind="provider")


def _by_status(status: int, detail: str, exc: BaseException) -> ModelProviderError:
    if status in (401, 403):
        return ModelProviderError(
            f"The model provider rejected the API key ({status}: {detail}). Check the key in "
            "the model settings.",
            kind="auth",
        )
    if status == 429:
        retry = _retry_after(exc)
        wait = f" Try again in {retry} s." if retry else " Try again in a moment."
        return ModelProviderError(
            f"The model provider's rate limit or quota was reached ({detail}).{wait}",
            kind="rate_limit",
        )
    if status == 408:
        return ModelProviderError(f"The model provider timed out ({detail}).", kind="timeout")
    if 400 <= status < 500:
        return ModelProviderError(
            f"The model provider refused the request ({status}: {detail}).", kind="bad_request"
        )
    return ModelProviderError(
        f"The model provider had an internal error ({status}: {detail}). Try again.",
        kind="provider",
    )


def _cause_chain(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _status_code(exc: BaseException) -> int | None:
    for item in _cause_chain(exc):
        status = getattr(item, "status_code", None)
        if isinstance(status, int):
            return status
        response = getattr(item, "response", None)
        status = getattr(response, "status_code", None)
        if isinstance(status, int):
            return status
    return None


def _provider_text(exc: BaseException) -> str:
    """The provider's own message (OpenAI's error.message), else the exception text."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else None
        if isinstance(message, str) and message:
            return message
    text = str(getattr(exc, "error", "") or exc).strip()
    return text or type(exc).__name__


def _retry_after(exc: BaseException) -> str | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    value = headers.get("retry-after")
    return str(value) if value else None
