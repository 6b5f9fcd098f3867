"""The keyed, tamper-evident audit trail (issue #4).

``AuditTrail.append(AuditEntry(...))`` records one action: the question through the
PHI redactor, who (user, role, session, channel), what (intent, sources, tools,
model, PHI flag) and how it ended. Rows are HMAC-SHA256-chained with a key kept in a
0600 file outside the database, and the head (row count, last MAC) is anchored in a
MACed file, so edits, inserts, reorders, deletions and truncation are detected by
``verify``. Whoever holds the key can rewrite the whole chain and head: see README.

The names below load on first use, so importing a submodule (``audit.chain`` for the
user-row MACs) does not load the rest — the CLI's ``--help`` stays fast.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from curbside.audit.entries import denied_entry, passages_entry, search_entry, tool_entry
    from curbside.audit.recording import AuditScope, audited, audited_async
    from curbside.audit.trail import WITHHELD, AuditEntry, AuditTrail, Redactor, utc_text
    from curbside.audit.verify import VerifyReport

_EXPORTS = {
    "WITHHELD": "trail",
    "AuditEntry": "trail",
    "AuditScope": "recording",
    "AuditTrail": "trail",
    "Redactor": "trail",
    "VerifyReport": "verify",
    "audited": "recording",
    "audited_async": "recording",
    "denied_entry": "entries",
    "passages_entry": "entries",
    "search_entry": "entries",
    "tool_entry": "entries",
    "utc_text": "trail",
}
__all__ = [  # the keys of _EXPORTS, written out so linters and readers see the public names
    "WITHHELD",
    "AuditEntry",
    "AuditScope",
    "AuditTrail",
    "Redactor",
    "VerifyReport",
    "audited",
    "audited_async",
    "denied_entry",
    "passages_entry",
    "search_entry",
    "tool_entry",
    "utc_text",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'curbside.audit' has no attribute {name!r}")
    value = getattr(import_module(f"curbside.audit.{_EXPORTS[name]}"), name)
    globals()[name] = value  # later lookups skip this function
    return value
