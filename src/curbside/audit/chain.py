"""The MACs that make the trail tamper-evident: one per row, chained, and one over the head.

A row's MAC is HMAC-SHA256 over the canonical JSON of every stored column plus the
previous row's MAC, so editing any field, reordering rows or removing one from the
middle breaks the chain; the head (row count and last MAC, kept outside the table)
catches removals at the end. Each MAC has its own domain prefix so one kind can
never stand in for another.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["COLUMNS", "GENESIS_MAC", "canonical_json", "digest", "head_mac", "row_mac"]

# every stored column but mac, in table order; the MAC covers exactly these
COLUMNS: tuple[str, ...] = (
    "seq",
    "at",
    "action",
    "user",
    "role",
    "channel",
    "session",
    "question",
    "intent",
    "sources",
    "tools",
    "model_used",
    "phi",
    "outcome",
    "details",
    "prev_mac",
)
GENESIS_MAC = "0" * 64  # what row 1 chains to

_ROW_DOMAIN = b"curbside-audit-row-v1\n"
_HEAD_DOMAIN = b"curbside-audit-head-v1\n"


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 text kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def digest(key: bytes, domain: str, payload: str) -> str:
    """HMAC-SHA256 of ``payload`` under ``domain`` (hex); for MACs beyond rows and head, e.g. user rows."""
    message = b"curbside-" + domain.encode() + b"-v1\n" + payload.encode("utf-8")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def row_mac(key: bytes, row: Mapping[str, Any]) -> str:
    """The MAC of a stored row (``row`` holds at least ``COLUMNS``, as stored: JSON columns as text)."""
    payload = canonical_json({name: row[name] for name in COLUMNS})
    return hmac.new(key, _ROW_DOMAIN + payload.encode("utf-8"), hashlib.sha256).hexdigest()


def head_mac(key: bytes, count: int, last_mac: str) -> str:
    payload = canonical_json({"count": count, "last_mac": last_mac})
    return hmac.new(key, _HEAD_DOMAIN + payload.encode("utf-8"), hashlib.sha256).hexdigest()
