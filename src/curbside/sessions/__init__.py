"""Sessions: each user's conversations (the last messages), clinical context, active patient and
preferences, kept in ``CURBSIDE_HOME/sessions.db`` (owner-only; PHI stays in that file), and the
citation styles a preference can choose.
"""

from __future__ import annotations

from curbside.sessions.citations import CITATION_STYLES, Reference, format_citation
from curbside.sessions.models import (
    SESSION_ID_PATTERN,
    Message,
    Preferences,
    Session,
    SessionInfo,
    check_session_id,
    new_session_id,
)
from curbside.sessions.store import SessionStore

__all__ = [
    "CITATION_STYLES",
    "SESSION_ID_PATTERN",
    "SESSIONS_FILE",
    "Message",
    "Preferences",
    "Reference",
    "Session",
    "SessionInfo",
    "SessionStore",
    "check_session_id",
    "format_citation",
    "new_session_id",
]

SESSIONS_FILE = "sessions.db"  # in CURBSIDE_HOME
