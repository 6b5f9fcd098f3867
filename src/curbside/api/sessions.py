"""Conversations over HTTP (clinician or admin key): list yours, read one back, set or clear its
patient, purge it.

A turn keeps its conversation when it names a ``session_id`` (``POST /v1/turns``); these routes
read what it kept, so a page keeps the conversation across reloads. Sessions belong to the user
who opened them: another user's id is simply not found. Their messages are PHI: they are
returned to their owner and never logged; a purge deletes them (``secure_delete``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path
from pydantic import BaseModel, ConfigDict, Field

from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES
from curbside.sessions import Session, SessionInfo

__all__ = ["router"]

router = APIRouter(
    prefix="/v1/sessions", tags=["sessions"], responses=ERROR_RESPONSES, dependencies=[Depends(clinical_caller)]
)

SessionId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]*$",
        description="The id the turns named (session_id in POST /v1/turns).",
    ),
]


class SessionList(BaseModel):
    sessions: list[SessionInfo]


class PatientChoice(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    patient_id: str | None = Field(
        None,
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._:/-]*$",
        description="The active patient's FHIR id; null clears it (and the clinical context).",
    )


class SessionPurged(BaseModel):
    session_id: str
    purged: bool = Field(description="False when there was nothing to purge (never opened, expired, or purged).")


@router.get("", response_model=SessionList)
def list_sessions(core: Core, caller: ClinicalCaller) -> SessionList:
    """Your live conversations, the most recently used first (no clinical content)."""
    return SessionList(sessions=core.sessions.list(caller.user))


@router.get("/{session_id}", response_model=Session)
def get_session(session_id: SessionId, core: Core, caller: ClinicalCaller) -> Session:
    """One of your conversations: its kept messages (oldest first, with their sources), patient and preferences."""
    return core.sessions.get(caller.user, session_id)


@router.put("/{session_id}/patient", response_model=Session)
def set_patient(session_id: SessionId, body: PatientChoice, core: Core, caller: ClinicalCaller) -> Session:
    """Make a patient the conversation's active one, or clear it (null); opens the session if it is new."""
    store = core.sessions
    store.open(caller.user, session_id)
    return store.set_patient(caller.user, session_id, body.patient_id)


@router.delete("/{session_id}", response_model=SessionPurged)
def purge_session(session_id: SessionId, core: Core, caller: ClinicalCaller) -> SessionPurged:
    """Delete the conversation with its messages, patient and context."""
    deleted = core.sessions.purge(user=caller.user, session_id=session_id)
    return SessionPurged(session_id=session_id, purged=deleted > 0)
