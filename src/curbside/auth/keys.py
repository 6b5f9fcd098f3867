"""API keys: ``cs_`` and 43 URL-safe characters (32 random bytes); only their SHA-256 is stored.

A key is random enough that a plain SHA-256 cannot be reversed by guessing (unlike a
password, it needs no slow hash). Its first characters are stored too, so a listing
can tell keys apart and a lookup touches few rows.
"""

from __future__ import annotations

import hashlib
import re
import secrets

__all__ = ["KEY_PREFIX", "generate_key", "key_digest", "key_lookup_prefix", "looks_like_key"]

KEY_PREFIX = "cs_"
_RANDOM_BYTES = 32
_LOOKUP_CHARS = 8  # after "cs_": 48 bits, so a lookup by prefix finds one row in practice
_SHAPE = re.compile(r"cs_[A-Za-z0-9_-]{43}")


def generate_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(_RANDOM_BYTES)


def looks_like_key(text: str) -> bool:
    return _SHAPE.fullmatch(text) is not None


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_lookup_prefix(key: str) -> str:
    return key[: len(KEY_PREFIX) + _LOOKUP_CHARS]
