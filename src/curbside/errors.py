"""Curbside's exceptions, each with a stable code.

The tree::

    CurbsideError                    base; ``code`` is stable, ``message`` names the fix
    ├── InputError                   the caller sent something unusable (HTTP 4xx, CLI exit 2)
    │   ├── ValidationError          VALIDATION_ERROR
    │   ├── ToolRetry                TOOL_RETRY (a tool asks for the call again with corrected arguments)
    │   ├── UnsupportedFormatError   UNSUPPORTED_FORMAT
    │   ├── FileTooLargeError        FILE_TOO_LARGE
    │   ├── EmptyDocumentError       EMPTY_DOCUMENT
    │   ├── DocumentParseError       PARSE_ERROR (corrupt, encrypted, not what it claims)
    │   ├── NotFoundError            NOT_FOUND
    │   ├── UnauthenticatedError     UNAUTHENTICATED (no API key, or an unknown or revoked one; HTTP 401)
    │   ├── PermissionDeniedError    PERMISSION_DENIED (the caller's role may not do this)
    │   ├── RateLimitedError         RATE_LIMITED (try again after ``retry_after`` seconds)
    │   └── PhiRefusedError          PHI_REFUSED (an outbound query holds PHI: it was not sent)
    ├── StateError                   the request conflicts with stored state (HTTP 409, CLI exit 3)
    │   ├── InvalidTransitionError   INVALID_TRANSITION
    │   ├── RetryLimitError          RETRY_LIMIT
    │   └── ModelMismatchError       MODEL_MISMATCH
    ├── ConfigError                  CONFIG_ERROR (settings or installed parts missing; HTTP 503, CLI exit 4)
    │   └── NotLoadedError           NOT_LOADED (a coverage source has no loaded edition: `coverage load DIR`)
    ├── JobStoppedError              CANCELLED / JOB_TIMEOUT / INTERRUPTED (an ingest job stopped; retry it)
    ├── PhiDetectorError             PHI_DETECTOR_ERROR (PHI detection failed: treat the text as PHI)
    ├── AuditIntegrityError          AUDIT_INTEGRITY (the audit trail fails its check; HTTP 503, CLI exit 6)
    └── UpstreamError                UPSTREAM_ERROR / UPSTREAM_TIMEOUT / UPSTREAM_UNAVAILABLE (a configured
                                     service failed, timed out, or is skipped while its circuit is open)

Core code raises these; each edge maps a code once: HTTP statuses in ``curbside/http_errors.py``
(the API and MCP over HTTP), exit codes in ``curbside/cli/_exit.py``; MCP tool calls carry the
code in their ``ToolResult``.
"""

from __future__ import annotations

__all__ = [
    "AuditIntegrityError",
    "ConfigError",
    "CurbsideError",
    "DocumentParseError",
    "EmptyDocumentError",
    "FileTooLargeError",
    "InputError",
    "InvalidTransitionError",
    "JobStoppedError",
    "ModelMismatchError",
    "NotFoundError",
    "NotLoadedError",
    "PermissionDeniedError",
    "PhiDetectorError",
    "PhiRefusedError",
    "RateLimitedError",
    "RetryLimitError",
    "StateError",
    "ToolRetry",
    "UnauthenticatedError",
    "UnsupportedFormatError",
    "UpstreamError",
    "ValidationError",
    "size_text",
    "too_large",
]


class CurbsideError(Exception):
    """Base of every error Curbside raises on purpose."""

    code = "INTERNAL_ERROR"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message


class InputError(CurbsideError):
    code = "VALIDATION_ERROR"


class ValidationError(InputError):
    code = "VALIDATION_ERROR"


class ToolRetry(InputError):
    """A tool asks its caller to call again with corrected arguments; the message says what to change.

    Raised on purpose inside a tool (a control-flow signal, in the manner of pydantic-ai's
    ``ModelRetry``): the call ends ``status: error`` with code ``TOOL_RETRY``, which an agent's
    validate → fix loop reads as "fix the arguments as told, then retry".
    """

    code = "TOOL_RETRY"


class UnsupportedFormatError(InputError):
    code = "UNSUPPORTED_FORMAT"


class FileTooLargeError(InputError):
    code = "FILE_TOO_LARGE"


def size_text(n: int) -> str:
    """Bytes for a person: '512 bytes', '1.5 KiB', '200.0 MiB', '1.5 GiB'."""
    value = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{n:,} bytes" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def too_large(what: str, size: int, limit: int, setting: str | None = None) -> FileTooLargeError:
    """'<what> is 2.0 GiB; the limit is 200.0 MiB (SETTING).' — in bytes when the rounded sizes would look equal."""
    shown, cap = size_text(size), size_text(limit)
    if shown == cap:
        shown, cap = f"{size:,} bytes", f"{limit:,} bytes"
    where = f" ({setting})" if setting else ""
    return FileTooLargeError(f"{what} is {shown}; the limit is {cap}{where}.")


class JobStoppedError(CurbsideError):
    """An ingest job stopped before it finished: cancelled by an administrator, or over its time limit."""

    code = "CANCELLED"

    @classmethod
    def cancelled(cls, job_id: int) -> JobStoppedError:
        return cls(f"Job {job_id} was cancelled; retry it to run it again.", code="CANCELLED")

    @classmethod
    def interrupted(cls, job_id: int) -> JobStoppedError:
        return cls(f"Job {job_id} was stopped because the server shut down; retry it.", code="INTERRUPTED")

    @classmethod
    def timed_out(cls, job_id: int, limit_s: float) -> JobStoppedError:
        return cls(
            f"Job {job_id} ran longer than {limit_s:,.0f} s (CURBSIDE_INGEST_JOB_TIMEOUT_S) and was stopped; "
            "split the document, or raise the limit and retry the job.",
            code="JOB_TIMEOUT",
        )


class EmptyDocumentError(InputError):
    code = "EMPTY_DOCUMENT"


class DocumentParseError(InputError):
    code = "PARSE_ERROR"


class NotFoundError(InputError):
    code = "NOT_FOUND"


class UnauthenticatedError(InputError):
    """No usable credentials; ``challenge`` is the ``WWW-Authenticate`` value an HTTP edge sends."""

    code = "UNAUTHENTICATED"

    def __init__(self, message: str, *, challenge: str = 'Bearer realm="curbside"', code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.challenge = challenge


class PermissionDeniedError(InputError):
    code = "PERMISSION_DENIED"


class RateLimitedError(InputError):
    code = "RATE_LIMITED"

    def __init__(self, message: str, *, retry_after: float | None = None, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after = retry_after


class PhiRefusedError(InputError):
    """A query bound for an outside service holds PHI (or could not be checked): it was not sent.

    The message names the field and the kind of PHI found, never the text itself.
    """

    code = "PHI_REFUSED"


class StateError(CurbsideError):
    code = "CONFLICT"


class InvalidTransitionError(StateError):
    code = "INVALID_TRANSITION"


class RetryLimitError(StateError):
    code = "RETRY_LIMIT"


class ModelMismatchError(StateError):
    code = "MODEL_MISMATCH"


class ConfigError(CurbsideError):
    code = "CONFIG_ERROR"


class NotLoadedError(ConfigError):
    """A coverage source has no loaded edition: nothing to answer from until ``curbside coverage load DIR``.

    A ConfigError (HTTP 503, CLI exit 4): the installation lacks its data, and asking again will not help.
    """

    code = "NOT_LOADED"


class AuditIntegrityError(CurbsideError):
    """The audit trail was edited, truncated or cannot be checked: nothing more is recorded until it is resolved."""

    code = "AUDIT_INTEGRITY"


class PhiDetectorError(CurbsideError):
    """The PHI detector could not load or failed on a text; callers must assume the text holds PHI."""

    code = "PHI_DETECTOR_ERROR"


class UpstreamError(CurbsideError):
    code = "UPSTREAM_ERROR"
