"""Errors over HTTP: the one table of statuses, and the one response, both HTTP interfaces (the API,
MCP over HTTP) answer with.

Keyed by the stable code, so a raised ``CurbsideError`` and a tool result carrying the same
code get the same status. ``tests/test_error_edges.py`` checks that every code the error
tree defines is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from curbside.errors import CurbsideError, RateLimitedError, UnauthenticatedError

if TYPE_CHECKING:
    from starlette.responses import JSONResponse

__all__ = ["HTTP_STATUS", "error_body", "error_response", "http_status_for"]

HTTP_STATUS: dict[str, int] = {
    # the caller sent something unusable
    "VALIDATION_ERROR": 400,
    "EMPTY_DOCUMENT": 400,
    "PARSE_ERROR": 400,
    "TOOL_RETRY": 422,
    "NOT_FOUND": 404,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "RATE_LIMITED": 429,
    "PHI_REFUSED": 422,
    "FILE_TOO_LARGE": 413,
    "UNSUPPORTED_FORMAT": 415,
    # the request conflicts with stored state
    "CONFLICT": 409,
    "INVALID_TRANSITION": 409,
    "RETRY_LIMIT": 409,
    "MODEL_MISMATCH": 409,
    "CONFIRMATION_REQUIRED": 409,
    "CONFIRMATION_DENIED": 409,
    "CONFIRMATION_EXPIRED": 409,
    "CANCELLED": 409,
    "JOB_TIMEOUT": 409,
    "INTERRUPTED": 409,
    # the installation cannot serve it now
    "CONFIG_ERROR": 503,
    "NOT_LOADED": 503,
    "EHR_SANDBOX_UNAVAILABLE": 503,
    "AUDIT_INTEGRITY": 503,  # nothing may run unrecorded
    "PHI_DETECTOR_ERROR": 500,
    # a configured service failed
    "UPSTREAM_ERROR": 502,
    "UPSTREAM_TIMEOUT": 504,
    "UPSTREAM_UNAVAILABLE": 503,
    "TIMEOUT": 504,
    "INTERNAL_ERROR": 500,
}


def http_status_for(code: str) -> int:
    """The status of ``code`` (500 for a code no table knows: a bug, and reported as one)."""
    return HTTP_STATUS.get(code, 500)


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The ``{"error": {"code", "message", …}}`` body every HTTP error has (fields set to None left out)."""
    detail = {"code": code, "message": message, **{k: v for k, v in extra.items() if v is not None}}
    return {"error": detail}


def error_response(exc: CurbsideError) -> JSONResponse:
    """The response for ``exc``: its status, the error body, and Retry-After / WWW-Authenticate where they apply."""
    from starlette.responses import JSONResponse

    retry_after = exc.retry_after if isinstance(exc, RateLimitedError) else None
    headers: dict[str, str] = {}
    if retry_after:
        headers["Retry-After"] = str(int(retry_after + 0.999))
    if isinstance(exc, UnauthenticatedError):
        headers["WWW-Authenticate"] = exc.challenge
    body = error_body(exc.code, exc.message, retry_after=retry_after)
    return JSONResponse(body, status_code=http_status_for(exc.code), headers=headers or None)
