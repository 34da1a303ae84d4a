"""Seat tokens and invite codes: random secrets from :mod:`secrets`, returned once, stored as SHA-256 hashes.

They are long random strings (256 and 96 bits), so a plain hash is enough to make a stolen database
useless for taking seats, and comparing hashes leaks nothing useful through timing.

>>> token = new_token()
>>> len(token), digest(token) == digest(token), len(digest(token))
(43, True, 64)
>>> matches(digest("abc"), "abc"), matches(digest("abc"), "abd"), matches(None, "abc")
(True, False, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A new seat token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def new_invite() -> str:
    """A new invite code of a private room (96 random bits, URL-safe)."""
    return secrets.token_urlsafe(12)


def digest(secret: str) -> str:
    """The stored form of a token or invite code: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def matches(stored: str | None, secret: str | None) -> bool:
    """True if ``secret`` hashes to ``stored`` (compared in constant time); False if either is missing."""
    if stored is None or not secret:
        return False
    return hmac.compare_digest(stored, digest(secret))
