"""Confirmation routes: the calls waiting for the calling clinician's approval, and the decision.

A tool that changes something (a chart write) does not run when called: it answers 409 with a
``confirmation`` (id, the call in words, expiry). ``POST /v1/confirmations/{id}`` with
``{"decision": "approve"}`` runs it as it was asked and answers its ``ToolResult``; ``"deny"``,
or letting it expire (60 s by default), means it never runs. Only the user who made the call sees
or decides it; each outcome is on the audit trail.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, ConfigDict, Field

from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES
from curbside.api.tools import result_status
from curbside.tools.base import ToolResult
from curbside.tools.confirmations import ConfirmationInfo

__all__ = ["router"]

router = APIRouter(
    prefix="/v1/confirmations", tags=["tools"], responses=ERROR_RESPONSES, dependencies=[Depends(clinical_caller)]
)


class ConfirmationList(BaseModel):
    confirmations: list[ConfirmationInfo]


class Decision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decision: Literal["approve", "deny"] = Field(description="approve runs the call as it was asked; deny drops it.")


@router.get("", response_model=ConfirmationList)
async def list_confirmations(core: Core, caller: ClinicalCaller) -> ConfirmationList:
    """Your calls waiting for approval, oldest first (expired ones are recorded as denied and left out)."""
    await core.tools.record_expired()
    return ConfirmationList(confirmations=[p.info() for p in core.tools.pending_confirmations(caller)])


@router.post("/{confirmation_id}", response_model=ToolResult, responses={409: {"model": ToolResult}})
async def decide(
    confirmation_id: str, body: Decision, response: Response, core: Core, caller: ClinicalCaller
) -> ToolResult:
    """Approve or deny a waiting call; the answer is the call's result (or its denial, HTTP 409)."""
    result = await core.tools.decide(confirmation_id, approve=body.decision == "approve", caller=caller)
    response.status_code = result_status(result)
    return result
