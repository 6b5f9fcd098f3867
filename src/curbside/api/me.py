"""``GET /v1/me``: who the key belongs to, its role, and what the clinician's page should offer it.

Any role may ask (an auditor's page shows the audit view only). Nothing here is a secret: the
key's own user and role, which views that role may use, whether an EHR is configured (and why
not), and where answers are written (the model, or extractive).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from curbside.api.deps import Core, require_roles
from curbside.api.errors import ERROR_RESPONSES
from curbside.auth.roles import ADMIN, AUDIT, CLINICAL, ROLES, role_allows
from curbside.types import ToolCaller

__all__ = ["router"]

any_caller = require_roles(frozenset(ROLES))
router = APIRouter(prefix="/v1", tags=["me"], responses=ERROR_RESPONSES, dependencies=[Depends(any_caller)])

View = Literal["consult", "sessions", "patient", "admin", "audit"]


class EhrStatus(BaseModel):
    configured: bool
    message: str = Field(description="Why patient context is absent, or which EHR serves it (no credentials).")


class Me(BaseModel):
    user: str
    role: str
    views: list[View] = Field(description="The page's views this role may use, in the order they are shown.")
    ehr: EhrStatus
    llm: str = Field(description="Where answers are written: the configured model(s), or extractive answers.")
    session_ttl_days: float = Field(description="A conversation is kept this long after its last message.")


def views_for(role: str) -> list[View]:
    views: list[View] = []
    if role_allows(role, CLINICAL):
        views += ["consult", "sessions", "patient"]
    if role_allows(role, ADMIN):
        views.append("admin")
    if role_allows(role, AUDIT):
        views.append("audit")
    return views


@router.get("/me", response_model=Me)
def me(core: Core, caller: Annotated[ToolCaller, Depends(any_caller)]) -> Me:
    """The calling key's user and role, the views it may use, and the EHR and model status."""
    settings = core.settings
    if settings.fhir_url:
        ehr = EhrStatus(configured=True, message="Patients come from the clinic's FHIR server.")
    else:
        ehr = EhrStatus(
            configured=False,
            message="No EHR is configured on this server (CURBSIDE_FHIR_URL is unset), so no patient can be picked; "
            "answers use the knowledge base and tools only.",
        )
    return Me(
        user=caller.user,
        role=caller.role,
        views=views_for(caller.role),
        ehr=ehr,
        llm=core.llm_description(),
        session_ttl_days=settings.session_ttl_days,
    )
