"""The forms in which devices print a password, made the way the devices make them, so tests can
put a saved secret into a device's configuration or files and check that none of its forms leaves
the device layer.

- IOS type 7: the XOR of each byte with IOS's fixed table, from a two-digit offset.
- IOS type 5: md5-crypt, made by ``openssl passwd -1`` (a real implementation).
- IOS type 8 / 9: PBKDF2-SHA256 (20000 rounds) / scrypt (N=16384, r=1, p=1) with a 14-character
  salt, in the crypt alphabet, as IOS prints them.
- Junos ``$9$``: Juniper's reversible encoding (a salt, random characters, then each character as
  gaps in a 65-letter alphabet); `junos9_decode` reverses it, so a test can show the encoding is
  the real one.
"""

from __future__ import annotations

import base64
import hashlib
import random
import subprocess

_XLAT = b"dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"
_CRYPT_ALPHABET = bytes.maketrans(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
)


def type7(secret: str, offset: int = 7) -> str:
    """``secret`` as IOS ``service password-encryption`` prints it."""
    data = secret.encode()
    return f"{offset:02d}" + "".join(
        f"{byte ^ _XLAT[(offset + i) % len(_XLAT)]:02X}" for i, byte in enumerate(data)
    )


def type5(secret: str, salt: str = "mERr") -> str:
    """md5-crypt of ``secret`` (IOS ``secret 5``), by openssl."""
    done = subprocess.run(
        ["openssl", "passwd", "-1", "-salt", salt, "-stdin"],
        input=secret.encode(),
        capture_output=True,
        check=True,
        timeout=10,
    )
    return done.stdout.decode().strip()


def _crypt_b64(raw: bytes) -> str:
    return base64.b64encode(raw).translate(_CRYPT_ALPHABET).decode().rstrip("=")


def type8(secret: str, salt: str = "dsYGNam3K1SIJO") -> str:
    """IOS ``secret 8``: PBKDF2-HMAC-SHA256, 20000 rounds."""
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt.encode(), 20000)
    return f"$8${salt}${_crypt_b64(digest)}"


def type9(secret: str, salt: str = "nhEmQVczB7dqsO") -> str:
    """IOS ``secret 9``: scrypt N=16384, r=1, p=1."""
    digest = hashlib.scrypt(secret.encode(), salt=salt.encode(), n=16384, r=1, p=1, dklen=32)
    return f"$9${salt}${_crypt_b64(digest)}"


_FAMILIES = ("QzF3n6/9CAtpu0O", "B1IREhcSyrleKvMW8LXx", "7N-dVbwsY2g4oaJZGUDj", "iHkq.mPf5T")
_LETTERS = "".join(_FAMILIES)
_EXTRA = {c: 3 - i for i, family in enumerate(_FAMILIES) for c in family}
_GAPS = ((1, 4, 32), (1, 16, 32), (1, 8, 32), (1, 64), (1, 32), (1, 4, 16, 128), (1, 32, 64))


def junos9(secret: str, seed: int = 3) -> str:
    """``secret`` in Junos's reversible ``$9$`` encoding."""
    rng = random.Random(seed)
    salt = rng.choice(_LETTERS)
    out = "$9$" + salt + "".join(rng.choice(_LETTERS) for _ in range(_EXTRA[salt]))
    previous = salt
    for position, char in enumerate(secret):
        weights = _GAPS[position % len(_GAPS)]
        value = ord(char)
        gaps = []
        for weight in reversed(weights):
            gaps.insert(0, value // weight)
            value %= weight
        for gap in gaps:
            previous = _LETTERS[(_LETTERS.index(previous) + gap + 1) % len(_LETTERS)]
            out += previous
    return out


def junos9_decode(encoded: str) -> str:
    """The text a Junos ``$9$`` string stands for."""
    salt, rest = encoded[3], encoded[4:]
    rest = rest[_EXTRA[salt] :]
    previous, out = salt, ""
    while rest:
        weights = _GAPS[len(out) % len(_GAPS)]
        chunk, rest = rest[: len(weights)], rest[len(weights) :]
        value = 0
        for char, weight in zip(chunk, weights, strict=True):
            gap = (_LETTERS.index(char) - _LETTERS.index(previous)) % len(_LETTERS) - 1
            value += gap * weight
            previous = char
        out += chr(value)
    return out
