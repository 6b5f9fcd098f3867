"""Helpers for the audit tests: a stand-in redactor, rows to append, and hand edits of the database."""

from __future__ import annotations

import re

import apsw

from curbside.audit import AuditEntry, AuditTrail

__all__ = ["entry", "fake_redact", "fill", "hand_edit"]

# a stand-in for the PHI detector in tests that are about the trail, not about detection
_NAMES = re.compile(r"\b(?:John Smith|Smith|Jane Doe)\b")
_PHONES = re.compile(r"\b\d{3}-\d{3}-\d{4}\b")


def fake_redact(text: str) -> str:
    return _PHONES.sub("[PHONE]", _NAMES.sub("[PERSON]", text))


def entry(n: int = 0, **changes: object) -> AuditEntry:
    fields: dict[str, object] = {
        "action": "ask",
        "user": "dr-a",
        "role": "clinician",
        "outcome": "answered",
        "channel": "http",
        "question": f"question {n}",
        "sources": (f"doc:v1:{n}",),
        "details": {"n": n},
    }
    return AuditEntry(**(fields | changes))  # type: ignore[arg-type]


def fill(trail: AuditTrail, rows: int) -> None:
    for n in range(1, rows + 1):
        trail.append(entry(n))


def hand_edit(trail: AuditTrail, *statements: str) -> None:
    """Edit the database as someone with the file would: drop the append-only triggers, then write."""
    conn = apsw.Connection(str(trail.db_path))
    try:
        conn.execute("DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;")
        for sql in statements:
            conn.execute(sql)
    finally:
        conn.close()
