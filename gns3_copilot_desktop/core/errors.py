"""The one exception tree of the project.

Every error that can reach a user derives from `CopilotError` and carries a `user_message`: a
sentence a person can act on. Library errors (httpx, keyring, sqlite, the model provider) are caught
at the boundary that uses the library and re-raised as one of these with ``raise ... from exc``.
"""

from __future__ import annotations


class CopilotError(Exception):
    """Base of every error this project raises on purpose."""

    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)
        self.user_message = user_message

    def __str__(self) -> str:
        return self.user_message


# --- GNS3 server -----------------------------------------------------------------------------


class Gns3Error(CopilotError):
    """Anything that went wrong talking to a GNS3 server."""

    def __init__(self, user_message: str, *, server: str = "", status_code: int | None = None):
        super().__init__(user_message)
        self.server = server
        self.status_code = status_code


class Gns3ConnectionError(Gns3Error):
    """The server could not be reached (refused, DNS, TLS, timeout)."""


class Gns3AuthError(Gns3Error):
    """401: the token expired or is invalid, or the password was wrong. The UI opens the login."""


class Gns3PermissionError(Gns3Error):
    """403: the user may not do this (or the project is not opened)."""


class Gns3NotFoundError(Gns3Error):
    """404: the project, node, link... does not exist."""


class Gns3ConflictError(Gns3Error):
    """409: e.g. the port is already used, or a binary the node needs is missing."""


class Gns3ValidationError(Gns3Error):
    """422: the server rejected the request body."""


class Gns3ProtocolError(Gns3Error):
    """The server answered something this client cannot understand."""


# --- Secrets and settings --------------------------------------------------------------------


class SecretStoreError(CopilotError):
    """The OS keyring failed (locked, dismissed prompt, D-Bus error...)."""


class SettingsError(CopilotError):
    """The settings file could not be read or written."""


# --- Model provider and agent ----------------------------------------------------------------


class ModelConfigError(CopilotError):
    """The LLM profile is incomplete or names a provider/model that cannot be used."""


class ModelProviderError(CopilotError):
    """The model provider failed during a turn (auth, rate limit, timeout, malformed stream)."""

    def __init__(self, user_message: str, *, kind: str = "provider", details: str = "") -> None:
        super().__init__(user_message)
        self.kind = kind
        self.details = details
        """The provider's own text, whole (shown behind "Details"; never needed to act)."""


class ServicesClosedError(CopilotError):
    """The agent services were closed under a running request: the user logged out, switched
    server or is closing the copilot. Whatever asked has no one left to answer; the UI ends such
    a request quietly."""

    def __init__(self, user_message: str = "The copilot's conversations were closed.") -> None:
        super().__init__(user_message)


class TurnBusyError(CopilotError):
    """Another process (another app instance on this project) is running a turn in this
    session: the turn is refused, nothing is lost."""


class StaleDecisionError(CopilotError):
    """A decision for a call that is no longer waiting (a new message was sent, the turn ended,
    or the call was never asked): it is refused, nothing runs."""


class SessionStoreError(CopilotError):
    """The per-project session database failed (corrupt, locked for too long, disk full)."""


class SessionNotFoundError(SessionStoreError):
    """No session with that id in this project."""


class CopilotServiceError(CopilotError):
    """A remote copilot service (``gns3-copilot serve``) could not be reached or refused a
    request; ``status_code`` is its HTTP status when it answered."""

    def __init__(self, user_message: str, *, status_code: int | None = None) -> None:
        super().__init__(user_message)
        self.status_code = status_code


class DeviceError(CopilotError):
    """A device console (telnet) could not be reached or did not answer as expected."""
