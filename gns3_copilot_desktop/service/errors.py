"""How the Chat API answers an error: GNS3's shape ``{"message": ...}`` with a fitting status.

A route raises `HttpError` for what it refuses itself; the project's own errors (`CopilotError`)
coming from the core are mapped to 401, 403, 404 or 400 with their user-facing text.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gns3_copilot_desktop.core.errors import (
    CopilotError,
    Gns3AuthError,
    Gns3NotFoundError,
    Gns3PermissionError,
    SessionNotFoundError,
)
from gns3_copilot_desktop.service.auth import NotAuthenticatedError


class HttpError(Exception):
    """An answer other than 2xx, with GNS3's error shape ``{"message": ...}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status)


async def _http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HttpError)
    return _error(exc.status, exc.message)


async def _copilot_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, CopilotError)
    status = 400
    if isinstance(exc, NotAuthenticatedError | Gns3AuthError):
        status = 401
    elif isinstance(exc, Gns3PermissionError):
        status = 403
    elif isinstance(exc, Gns3NotFoundError | SessionNotFoundError):
        status = 404
    return _error(status, exc.user_message)


EXCEPTION_HANDLERS = {HttpError: _http_error, CopilotError: _copilot_error}
"""The application's handlers: each error class to its answer."""
