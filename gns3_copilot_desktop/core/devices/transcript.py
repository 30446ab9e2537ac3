"""A bounded, redacted record of one console conversation, for debugging.

Everything the console sends and receives goes through `Transcript`; secrets given to it (login
password, enable secret, username) are replaced by ``<redacted>``, and their other printed forms
(type 7, hashes, split across lines: `secret_mask`) masked, before anything is stored or logged, so
the transcript can be shown or logged at DEBUG level without leaking credentials.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable

from gns3_copilot_desktop.core.devices.secret_mask import SecretMask

REDACTED = "<redacted>"
_MAX_ENTRY = 4000
_log = logging.getLogger(__name__)


class Transcript:
    """The last `max_entries` exchanges of a console, with every known secret redacted."""

    def __init__(self, device: str, secrets: Iterable[str | None] = (), max_entries: int = 400):
        self._device = device
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)
        self._mask = SecretMask(self._secrets)
        self._entries: deque[str] = deque(maxlen=max_entries)

    def redact(self, text: str) -> str:
        """Return `text` with every secret replaced."""
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return self._mask.mask(text)

    def sent(self, text: str, *, secret: bool = False) -> None:
        """Record a line sent to the device; a `secret` line is never stored."""
        entry = f">>> {REDACTED if secret else self.redact(text)}"
        self._entries.append(entry)
        _log.debug("%s %s", self._device, entry)

    def received(self, text: str) -> None:
        """Record text received from the device (long text: its head and tail)."""
        text = self.redact(text)  # before cutting, so no part of a secret survives the cut
        if len(text) > _MAX_ENTRY:
            half = _MAX_ENTRY // 2
            text = f"{text[:half]}...[{len(text) - _MAX_ENTRY} chars]...{text[-half:]}"
        entry = f"<<< {text!r}"
        self._entries.append(entry)
        _log.debug("%s %s", self._device, entry)

    def text(self) -> str:
        """The recorded conversation, oldest first."""
        return "\n".join(self._entries)
