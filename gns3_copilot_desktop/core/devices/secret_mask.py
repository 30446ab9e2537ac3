"""Mask saved console secrets in whatever a device printed, in every form a device prints them.

A device that knows a login's password prints it back in many shapes: ``show running-config``
lists it as IOS type 7 (a reversible XOR), as a type 5/8/9 hash, Junos as ``$9$`` (reversible) or
a crypt hash; a shell prints a file holding it, one character per line (``grep -o .``), folded,
spaced out, in hex or in base64. `SecretMask.mask` replaces each of these with ``********`` before
device text leaves the device layer (the model, tool cards, the session database, exports, logs).

What is masked, for the saved secrets given to the mask:

- The secret itself. From 4 characters on: anywhere, also with whitespace (spaces, line breaks)
  between its characters, so a secret split one or a few characters per line is masked as a whole.
  Shorter secrets (1-3 characters) would turn ordinary words and numbers into masks, so they are
  masked only where a secret is written: the value after a secret keyword (``password``,
  ``secret``, ``key``, ``key-string``, ``community``, ``md5``, ``Password:`` ...), also when that
  text is printed a few characters per line.
- IOS type 7 (``password 7 0822455D0A16``): every hex token of that shape is decoded and masked
  when it decodes to a saved secret; for 1-character secrets (a 4-digit token, which ordinary
  numbers decode to by chance) only after a secret keyword.
- Hashes, whether or not they are of a saved secret: crypt strings (``$1$`` md5-crypt = IOS
  type 5, ``$5$``/``$6$`` sha-crypt, ``$8$`` PBKDF2 = type 8, ``$9$`` scrypt = type 9, bcrypt,
  yescrypt) and every Junos ``$9$`` string; after a keyword, the values of types 4, 5, 6, 8 and 9.
  Any of them lets the secret be cracked offline, nothing the copilot does needs them, and
  checking each against each secret would cost tens of milliseconds per pair.
- The hex (``xxd -p``, ``od -x1``) and base64 (``base64``) encodings of a secret: whole tokens for
  every length, inside longer encoded text from 4 (hex) or 6 (base64) characters on.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from dataclasses import dataclass

MASK = "********"
"""What a secret is replaced with (its length is never shown)."""
MIN_ANYWHERE_CHARS = 4
"""Secrets at least this long are masked wherever they appear; shorter ones in context only."""

# IOS's type 7 table: the cipher is a XOR of each byte with this text, starting at the offset the
# first two decimal digits give.
_XLAT = b"dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"

_KEYWORDS = (
    "authentication-key|key-string|pre-shared-key|encrypted-password|message-digest-key"
    "|password|passwd|passphrase|pass|pwd|secret|community|psk|md5|key|credentials?"
)
# The keyword itself is what matches; the value is read in a lookahead so that a value which is
# itself a keyword (``authentication-key 1 md5 7 ...``) is read again as one.
_CONTEXT_RE = re.compile(
    rf"(?i)(?=[acekmps])\b(?:{_KEYWORDS})\b(?=[\"']?(?:[ \t]*[:=][ \t]*|[ \t]+)"
    r"(?:(?P<type>\d{1,2})[ \t]+(?=\S))?"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;]+))"
)
_HASH_TYPES = frozenset({4, 5, 6, 8, 9})
_MIN_HASH_VALUE = 8
_CRYPT_RE = re.compile(
    r"\$(?:1|2[abxy]?|5|6|8|9|14|y|gy|md5|sha1)\$[A-Za-z0-9./+=,$-]{4,}"
    r"|\$9\$[A-Za-z0-9./-]{2,}"
)
_TYPE7_RE = re.compile(r"(?<![0-9A-Za-z])[0-5][0-9](?:[0-9A-Fa-f]{2})+(?![0-9A-Za-z])")
_SHORT_LINE = 3
"""Lines of at most this many characters may be a secret printed a few characters per line."""


def decode_type7(text: str) -> bytes | None:
    """The bytes an IOS type 7 string stands for, or None when ``text`` is not one."""
    if len(text) < 4 or len(text) % 2 or not text[:2].isdigit():
        return None
    offset = int(text[:2])
    if offset >= len(_XLAT):
        return None
    try:
        data = bytes.fromhex(text[2:])
    except ValueError:
        return None
    return bytes(byte ^ _XLAT[(offset + i) % len(_XLAT)] for i, byte in enumerate(data))


@dataclass(frozen=True)
class _Secret:
    text: str
    raw: bytes
    spread: re.Pattern[str] | None
    """The secret with any whitespace between its characters (4+ characters only)."""


class SecretMask:
    """Masks the given secrets (and every crypt hash) in device text; see the module docstring.

    Build one per set of secrets and call `mask` on each text: the patterns are compiled once.
    The repr never shows a secret.
    """

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        unique = sorted({s for s in secrets if s and s.strip()}, key=len, reverse=True)
        self._secrets = [_secret(s) for s in unique]
        self._exact = frozenset(s.text for s in self._secrets)
        self._raw = frozenset(s.raw for s in self._secrets)
        self._type7_lengths = frozenset(len(s.raw) for s in self._secrets if len(s.raw) >= 2)
        self._encoded = _encodings(unique)

    def __repr__(self) -> str:
        return f"SecretMask({len(self._secrets)} secret(s))"

    def mask(self, text: str) -> str:
        """``text`` with every form of every secret, and every hash, replaced by `MASK`."""
        if not text:
            return text
        spans = self._spans(text)
        spans += self._split_spans(text)
        return _replace_spans(text, spans)

    def _spans(self, text: str, *, loose: bool = False) -> list[tuple[int, int]]:
        spans = [m.span() for m in _CRYPT_RE.finditer(text)]
        spans += self._context_spans(text, loose=loose)
        for secret in self._secrets:
            if secret.spread is not None:
                spans += [m.span() for m in secret.spread.finditer(text)]
        if self._type7_lengths:
            spans += [m.span() for m in _TYPE7_RE.finditer(text) if self._is_type7(m.group())]
        spans += self._encoded.spans(text)
        return spans

    def _context_spans(self, text: str, *, loose: bool) -> list[tuple[int, int]]:
        """Values after a secret keyword. ``loose``: the text was put back together from short
        lines, where nothing shows where a value ended, so a value that starts with a secret
        counts."""
        spans = []
        for match in _CONTEXT_RE.finditer(text):
            value = match.group("value")
            kind = match.group("type")
            quoted = value[:1] in "\"'" and len(value) > 1
            bare = value[1:-1] if quoted else value
            start = match.start("value") + quoted
            if kind is not None and int(kind) in _HASH_TYPES:
                length = len(bare) if len(bare) >= _MIN_HASH_VALUE else 0
            elif kind == "7":
                length = self._type7_prefix(bare, loose=loose)
            elif loose:
                length = next((len(s.text) for s in self._secrets if bare.startswith(s.text)), 0)
            else:
                length = len(bare) if bare in self._exact else 0
            if length:
                spans.append((start, start + length))
        return spans

    def _type7_prefix(self, value: str, *, loose: bool) -> int:
        """How much of ``value`` is the type 7 of a saved secret (0: none)."""
        if not loose:
            return len(value) if decode_type7(value) in self._raw else 0
        for secret in self._secrets:
            length = 2 + 2 * len(secret.raw)
            if decode_type7(value[:length]) == secret.raw:
                return length
        return 0

    def _is_type7(self, token: str) -> bool:
        if (len(token) - 2) // 2 not in self._type7_lengths:
            return False
        return decode_type7(token) in self._raw

    def _split_spans(self, text: str) -> list[tuple[int, int]]:
        """Secrets printed a few characters per line: each run of short lines is read as the
        text it was cut from (an empty line was a space), and a secret found there masks every
        line it touches."""
        if "\n" not in text:
            return []
        spans: list[tuple[int, int]] = []
        for starts, joined, owners in _short_line_runs(text):
            for start, end in self._spans(joined, loose=True):
                first, last = owners[start], owners[max(start, end - 1)]
                line_end = text.find("\n", starts[last])
                spans.append((starts[first], len(text) if line_end < 0 else line_end))
        return spans


def _secret(text: str) -> _Secret:
    chars = [c for c in text if not c.isspace()]
    spread = None
    if len(chars) >= MIN_ANYWHERE_CHARS:
        spread = re.compile(r"\s*".join(re.escape(c) for c in chars))
    return _Secret(text, text.encode(), spread)


@dataclass(frozen=True)
class _Encoded:
    """Hex and base64 forms of the secrets: ``whole`` only as whole tokens, ``inner`` anywhere."""

    whole: frozenset[str]
    inner: frozenset[str]

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where the forms are in ``text`` (str.find: a regex of alternatives is ten times
        slower on a large configuration)."""
        spans = []
        for needle, whole in [*((n, True) for n in self.whole), *((n, False) for n in self.inner)]:
            start = text.find(needle)
            while start >= 0:
                end = start + len(needle)
                if not whole or (_token_edge(text, start - 1) and _token_edge(text, end)):
                    spans.append((start, end))
                start = text.find(needle, start + 1)
        return spans


_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")


def _token_edge(text: str, index: int) -> bool:
    return index < 0 or index >= len(text) or text[index] not in _TOKEN_CHARS


def _encodings(secrets: list[str]) -> _Encoded:
    """Hex and base64 forms of the secrets (with and without the newline ``echo`` adds)."""
    whole: set[str] = set()
    inner: set[str] = set()
    for secret in secrets:
        for raw in (secret.encode(), (secret + "\n").encode()):
            if len(raw) >= 2:
                whole.update((raw.hex(), raw.hex().upper()))
            for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
                whole.update((encoded.decode(), encoded.decode().rstrip("=")))
        raw = secret.encode()
        if len(raw) >= MIN_ANYWHERE_CHARS:
            inner.update((raw.hex(), raw.hex().upper()))
        if len(raw) >= 6:
            inner.update(_base64_cores(raw))
    return _Encoded(frozenset(whole - inner), frozenset(inner))


def _base64_cores(raw: bytes) -> set[str]:
    """The base64 characters that depend on ``raw`` alone, for each of the three alignments it
    can have inside longer encoded data."""
    cores: set[str] = set()
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + raw).decode().rstrip("=")
        start = -(-shift * 8 // 6)  # the first characters hold bits of what comes before
        end = (shift + len(raw)) * 8 // 6  # the last one may hold bits of what comes after
        core = encoded[start:end]
        if len(core) >= 8:
            cores.update((core, core.replace("+", "-").replace("/", "_")))
    return cores


def _short_line_runs(text: str) -> Iterable[tuple[list[int], str, list[int]]]:
    """Each run of at least two consecutive short lines: the start of each of its lines in
    ``text``, the text the run reads as, and for each character of that the line it came from."""
    starts: list[int] = []
    pieces: list[str] = []
    position = 0
    for line in text.split("\n"):
        if len(line.strip()) <= _SHORT_LINE:
            starts.append(position)
            pieces.append(line.strip("\r") or " ")
        else:
            yield from _run(starts, pieces)
            starts, pieces = [], []
        position += len(line) + 1
    yield from _run(starts, pieces)


def _run(starts: list[int], pieces: list[str]) -> Iterable[tuple[list[int], str, list[int]]]:
    if len(pieces) < 2:
        return
    owners = [index for index, piece in enumerate(pieces) for _ in piece]
    yield starts, "".join(pieces), owners


def _replace_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by `MASK`; overlapping or touching spans become one."""
    if not spans:
        return text
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out: list[str] = []
    kept = 0
    for start, end in merged:
        out += [text[kept:start], MASK]
        kept = end
    out.append(text[kept:])
    return "".join(out)
