"""Error codes as exit codes: the CLI's one table (0 is success).

Keyed by the stable code, so a raised ``CurbsideError`` and a tool result with the same code
exit the same way. ``tests/test_error_edges.py`` checks that every code the error tree defines
is here.
"""

from __future__ import annotations

__all__ = ["EXIT_CODES", "exit_code_for"]

_INPUT, _STATE, _CONFIG, _UPSTREAM, _AUDIT = 2, 3, 4, 5, 6

EXIT_CODES: dict[str, int] = {
    "INTERNAL_ERROR": 1,
    # the caller sent something unusable
    "VALIDATION_ERROR": _INPUT,
    "UNSUPPORTED_FORMAT": _INPUT,
    "FILE_TOO_LARGE": _INPUT,
    "EMPTY_DOCUMENT": _INPUT,
    "PARSE_ERROR": _INPUT,
    "NOT_FOUND": _INPUT,
    "UNAUTHENTICATED": _INPUT,
    "PERMISSION_DENIED": _INPUT,
    "RATE_LIMITED": _INPUT,
    "TOOL_RETRY": _INPUT,
    "PHI_REFUSED": _INPUT,
    # the request conflicts with stored state, or was stopped
    "CONFLICT": _STATE,
    "INVALID_TRANSITION": _STATE,
    "RETRY_LIMIT": _STATE,
    "MODEL_MISMATCH": _STATE,
    "CONFIRMATION_REQUIRED": _STATE,
    "CONFIRMATION_DENIED": _STATE,
    "CONFIRMATION_EXPIRED": _STATE,
    "CANCELLED": _STATE,
    "JOB_TIMEOUT": _STATE,
    "INTERRUPTED": _STATE,
    # settings, installed parts or data missing
    "CONFIG_ERROR": _CONFIG,
    "NOT_LOADED": _CONFIG,
    "EHR_SANDBOX_UNAVAILABLE": _CONFIG,
    "PHI_DETECTOR_ERROR": _CONFIG,
    # a configured service failed or timed out
    "UPSTREAM_ERROR": _UPSTREAM,
    "UPSTREAM_TIMEOUT": _UPSTREAM,
    "UPSTREAM_UNAVAILABLE": _UPSTREAM,
    "TIMEOUT": _UPSTREAM,
    # the audit trail cannot record: nothing runs
    "AUDIT_INTEGRITY": _AUDIT,
}


def exit_code_for(code: str) -> int:
    return EXIT_CODES.get(code, 1)
