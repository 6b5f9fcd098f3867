"""Tool routes: list the tools with their schemas, and call one.

A call answers with its ``ToolResult`` whatever the outcome, under the HTTP status
that outcome maps to (200 ok, 422 bad arguments, 403 denied, 429 rate limited with
Retry-After, 409 needs confirmation, 504 timed out, 500 failed). Only a tool name
that does not exist is an ordinary 404 error body. Clinician or admin key; calls run
as that user, with that role, and land on the audit trail through the executor.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Response
from pydantic import BaseModel

from curbside.api.deps import ClinicalCaller, Core, clinical_caller
from curbside.api.errors import ERROR_RESPONSES, ErrorBody
from curbside.http_errors import http_status_for
from curbside.tools.base import ToolInfo, ToolResult
from curbside.types import ToolCaller

__all__ = ["get_caller", "result_status", "router"]

router = APIRouter(
    prefix="/v1/tools", tags=["tools"], responses=ERROR_RESPONSES, dependencies=[Depends(clinical_caller)]
)

_STATUS_BY_OUTCOME = {
    "ok": 200,
    "denied": 403,
    "rate_limited": 429,
    "needs_confirmation": 409,
    "timeout": 504,
}


def get_caller(caller: ClinicalCaller) -> ToolCaller:
    """Who an HTTP tool call runs as: the key's user, with its role and the request's session."""
    return caller


class ToolList(BaseModel):
    tools: list[ToolInfo]


@router.get("", response_model=ToolList)
def list_tools(core: Core) -> ToolList:
    """Every tool with its flags, limits and argument/result JSON schemas."""
    return ToolList(tools=[ToolInfo.from_spec(spec) for spec in core.tools.registry])


@router.post(
    "/{name}",
    response_model=ToolResult,
    responses={
        **{code: {"model": ToolResult} for code in (409, 500, 504)},
        **{
            code: {
                "model": ToolResult | ErrorBody,
                "description": "A ToolResult when the tool refuses the call; an error body when the request is "
                "refused before it reaches the tool (the key's role, the per-user limit, the audit trail)",
            }
            for code in (403, 429, 503)
        },
        422: {
            "model": ToolResult | ErrorBody,
            "description": "A ToolResult when the arguments break the tool's rules; "
            "an error body when the request body is not a JSON object",
        },
    },
)
async def call_tool(
    name: str,
    response: Response,
    core: Core,
    caller: Annotated[ToolCaller, Depends(get_caller)],
    arguments: Annotated[
        dict[str, Any] | None,
        Body(description="The tool's arguments (its input schema)."),
    ] = None,
    confirm: Annotated[
        bool,
        Query(description="The user approved this call (tools that require confirmation)."),
    ] = False,
) -> ToolResult:
    """Run tool ``name`` (e.g. ``source.passages``) with the JSON body as its arguments."""
    core.tools.registry.get(name)  # an unknown tool is a 404, not a tool result
    result = await core.tools.call(name, arguments or {}, caller=caller, confirm=confirm)
    response.status_code = result_status(result)
    if result.error is not None and result.error.retry_after:
        response.headers["Retry-After"] = str(int(result.error.retry_after + 0.999))
    return result


def result_status(result: ToolResult) -> int:
    """The HTTP status a tool result answers with."""
    if result.status == "denied" and result.error is not None and result.error.code.startswith("CONFIRMATION_"):
        return 409  # the clinician said no, or did not answer in time: not a permission refusal
    if result.status in _STATUS_BY_OUTCOME:
        return _STATUS_BY_OUTCOME[result.status]
    code = result.error.code if result.error else "INTERNAL_ERROR"
    if code == "VALIDATION_ERROR":
        return 422  # as for any request body that does not fit its schema
    return http_status_for(code)
