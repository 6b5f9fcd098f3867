"""What a session holds, as its callers see it: messages, preferences, the session and its listing row.

The session id rule is the API's ``X-Session-Id`` rule (``api/deps.py``, ``auth/access.py``), so an id
the API admits is one the store accepts and the other way round.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from curbside.errors import ValidationError

__all__ = [
    "SESSION_ID_PATTERN",
    "AnswerLength",
    "CitationStyle",
    "Message",
    "Preferences",
    "Role",
    "Session",
    "SessionInfo",
    "check_session_id",
    "new_session_id",
]

SESSION_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
# 22 url-safe characters carry 132 random bits: an id no one can guess, in every id alphabet above
_GENERATED_BYTES = 16

Role = Literal["user", "assistant"]
CitationStyle = Literal["ama", "apa", "vancouver"]
AnswerLength = Literal["short", "normal", "long"]
SPECIALTY_MAX_CHARS = 64


def new_session_id() -> str:
    """A fresh opaque id: ``s_`` and 22 url-safe random characters."""
    return "s_" + secrets.token_urlsafe(_GENERATED_BYTES)


def check_session_id(session_id: object) -> str:
    """``session_id`` when it follows the rule, else ValidationError (which never repeats the id:
    a client may have put anything in it, a patient's name included)."""
    if not isinstance(session_id, str) or not SESSION_ID_PATTERN.fullmatch(session_id):
        raise ValidationError(
            "The session id must be 1-128 letters, digits, '.', '_', ':' or '-', starting with a letter or "
            "digit; leave it out to start a new session."
        )
    return session_id


class Message(BaseModel):
    """One turn of the conversation. ``payload``: the turn's structured part (its citations, a summary
    of its tool results), as JSON."""

    model_config = ConfigDict(frozen=True)

    role: Role
    text: str
    at: datetime
    payload: dict[str, Any] | None = None


class Preferences(BaseModel):
    """How this session's answers are written. Unknown names are refused, not ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    citation_style: CitationStyle = Field(
        "vancouver", description="How references are written: ama, apa or vancouver (ICMJE's, PubMed's 'NLM')."
    )
    answer_length: AnswerLength = Field("normal", description="short, normal or long.")
    specialty: str | None = Field(
        None, max_length=SPECIALTY_MAX_CHARS, description="The clinician's specialty, free text (64 characters)."
    )

    @field_validator("citation_style", "answer_length", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("specialty", mode="before")
    @classmethod
    def _one_line(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        folded = " ".join(value.split())  # newlines and tabs would break the prompt it is written into
        return folded or None


class SessionInfo(BaseModel):
    """A session as a listing shows it: no clinical content (not the patient id, not a message)."""

    model_config = ConfigDict(frozen=True)

    session_id: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime
    messages: int = Field(description="Messages kept (the last N).")
    has_patient: bool = Field(description="Whether an active patient is set.")


class Session(BaseModel):
    """A whole session: its kept messages (oldest first), clinical context, patient and preferences."""

    model_config = ConfigDict(frozen=True)

    session_id: str
    user: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime
    patient_id: str | None = None
    context: dict[str, Any] = Field(default_factory=dict)
    preferences: Preferences = Field(default_factory=Preferences)
    messages: list[Message] = Field(default_factory=list)
