"""The one place where Curbside errors become HTTP responses.

Every error body is ``{"error": {"code", "message", …}}`` with a stable code.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from curbside.errors import (
    CurbsideError,
)
from curbside.http_errors import error_body, error_response

__all__ = ["ERROR_RESPONSES", "ErrorBody", "ErrorDetail", "install_error_handlers"]


log = logging.getLogger("curbside.api")


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable machine-readable code, e.g. VALIDATION_ERROR, NOT_FOUND.")
    message: str = Field(description="What went wrong and how to fix it.")
    retry_after: float | None = None
    details: list[dict[str, Any]] | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Bad input"},
    401: {"model": ErrorBody, "description": "No API key, or an unknown or revoked one (UNAUTHENTICATED)"},
    403: {"model": ErrorBody, "description": "The key's role may not use this route (PERMISSION_DENIED)"},
    404: {"model": ErrorBody, "description": "Not found"},
    422: {"model": ErrorBody, "description": "Request does not match the schema"},
    413: {"model": ErrorBody, "description": "The request body is over the route's limit (FILE_TOO_LARGE)"},
    429: {"model": ErrorBody, "description": "Over the per-user rate limit; see Retry-After (RATE_LIMITED)"},
    503: {
        "model": ErrorBody,
        "description": "The audit trail cannot record (AUDIT_INTEGRITY), or data or configuration is missing "
        "(NOT_LOADED, CONFIG_ERROR)",
    },
}

def _body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return error_body(code, message, **extra)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(CurbsideError)
    async def _curbside(_: Request, exc: CurbsideError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors()
        ]
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"] if p != "body") or "request"
        return JSONResponse(_body("VALIDATION_ERROR", f"{where}: {first['msg']}", details=details), status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # a bug: the log gets the traceback (redacted), the client the error shape and no internals
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return JSONResponse(
            _body("INTERNAL_ERROR", "Something went wrong on the server; it has been logged. Try again, or report it."),
            status_code=500,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "HTTP_ERROR")
        return JSONResponse(_body(code, str(exc.detail)), status_code=exc.status_code)
