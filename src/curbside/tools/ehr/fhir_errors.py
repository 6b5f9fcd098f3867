"""What a FHIR server's refusal means, in words: OperationOutcome issues read out, and each HTTP
status turned into the Curbside error a caller can act on.

    status        error                 code                  what to do
    400, 422 …    FhirRejectedError     VALIDATION_ERROR      correct the request or resource
    401, 403      FhirAuthError         CONFIG_ERROR          fix Curbside's FHIR credentials or scope
    404, 410      FhirNotFoundError     NOT_FOUND             the resource is not (or no longer) there
    409, 412      FhirConflictError     CONFLICT              read the resource again, reapply
    429           RateLimitedError      RATE_LIMITED          wait ``retry_after`` seconds
    5xx, other    FhirServerError       UPSTREAM_ERROR        the server failed; try again later

401/403 are configuration errors, not ``UNAUTHENTICATED``: it is Curbside's own credentials the
server refused, not the person asking Curbside. Each error keeps ``status`` and ``issues``.
Diagnostics can echo chart content, so they are cut short; callers log codes, not messages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from curbside.errors import (
    ConfigError,
    CurbsideError,
    NotFoundError,
    RateLimitedError,
    StateError,
    UpstreamError,
    ValidationError,
)

__all__ = [
    "FhirAuthError",
    "FhirConflictError",
    "FhirNotFoundError",
    "FhirRejectedError",
    "FhirServerError",
    "OutcomeIssue",
    "describe_issues",
    "error_for_status",
    "outcome_issues",
    "outcome_issues_of",
]

_DIAGNOSTICS_CHARS = 300
_ISSUES_SHOWN = 5


@dataclass(frozen=True)
class OutcomeIssue:
    """One ``OperationOutcome.issue``: how bad (fatal/error/warning/information), what kind
    (``invalid``, ``required``, ``not-found`` …), where (FHIRPath expressions) and the server's words."""

    severity: str
    code: str
    diagnostics: str = ""
    expression: tuple[str, ...] = ()

    def describe(self) -> str:
        where = f" at {', '.join(self.expression)}" if self.expression else ""
        said = f": {self.diagnostics}" if self.diagnostics else ""
        return f"{self.severity} ({self.code}){where}{said}"


class _FhirFailure(CurbsideError):
    """The HTTP status and OperationOutcome issues behind a FHIR error."""

    def __init__(
        self, message: str, *, status: int, issues: tuple[OutcomeIssue, ...] = (), code: str | None = None
    ) -> None:
        super().__init__(message, code=code)
        self.status = status
        self.issues = issues


class FhirRejectedError(_FhirFailure, ValidationError):
    """The server refused the request or resource as invalid (400, 422, 405 …)."""


class FhirAuthError(_FhirFailure, ConfigError):
    """The server or its token endpoint refused Curbside's credentials (401) or their scope (403)."""


class FhirNotFoundError(_FhirFailure, NotFoundError):
    """No such resource (404), or it was deleted (410)."""


class FhirConflictError(_FhirFailure, StateError):
    """The write conflicts with the server's copy (409), or its version moved on (412)."""


class FhirServerError(_FhirFailure, UpstreamError):
    """The server failed (5xx after retries) or answered in a way Curbside cannot use."""


def outcome_issues(body: bytes) -> tuple[OutcomeIssue, ...]:
    """The issues of an OperationOutcome body (empty when the body is something else)."""
    try:
        data = json.loads(body) if body else None
    except (ValueError, UnicodeDecodeError):
        return ()
    return outcome_issues_of(data) if isinstance(data, dict) else ()


def outcome_issues_of(resource: dict[str, Any]) -> tuple[OutcomeIssue, ...]:
    """The issues of an OperationOutcome resource (empty for any other resource)."""
    if resource.get("resourceType") != "OperationOutcome":
        return ()
    issues = []
    for raw in resource.get("issue") or ():
        if not isinstance(raw, dict):
            continue
        words = raw.get("diagnostics") or _details_text(raw.get("details"))
        expression = raw.get("expression") or raw.get("location") or ()
        issues.append(
            OutcomeIssue(
                severity=str(raw.get("severity") or "error"),
                code=str(raw.get("code") or "unknown"),
                diagnostics=_cut(" ".join(str(words).split())) if words else "",
                expression=tuple(str(e) for e in expression if isinstance(e, str)),
            )
        )
    return tuple(issues)


def describe_issues(issues: tuple[OutcomeIssue, ...]) -> str:
    """'error (required) at Observation.status: …; warning (…)' — the worst first, at most five."""
    order = {"fatal": 0, "error": 1, "warning": 2, "information": 3}
    ranked = sorted(issues, key=lambda issue: order.get(issue.severity, 1))
    text = "; ".join(issue.describe() for issue in ranked[:_ISSUES_SHOWN])
    if len(ranked) > _ISSUES_SHOWN:
        text += f"; and {len(ranked) - _ISSUES_SHOWN} more"
    return text


def error_for_status(
    status: int,
    body: bytes,
    *,
    action: str,
    server: str,
    auth_hint: str = "",
    retry_after: float | None = None,
    attempts: int = 1,
) -> CurbsideError:
    """The error for a non-2xx answer to ``action`` ('read Patient/123', 'create Observation' …).

    ``server`` names the far end ('the FHIR server at host:port'); ``auth_hint`` the settings behind
    the credentials in use (for 401/403); ``attempts`` how many times the request went out (for 5xx).
    """
    issues = outcome_issues(body)
    said = describe_issues(issues) or _plain_text(body)
    detail = f": {said}" if said else ""
    if status in (404, 410):
        gone = "was deleted from" if status == 410 else "is not on"
        return FhirNotFoundError(
            f"{_capital(action)} failed: it {gone} {server} (HTTP {status}){detail}.",
            status=status,
            issues=issues,
        )
    if status == 401:
        return FhirAuthError(
            f"{_capital(server)} refused Curbside's credentials when asked to {action} (HTTP 401){detail}. {auth_hint}".strip(),
            status=status,
            issues=issues,
        )
    if status == 403:
        return FhirAuthError(
            f"{_capital(server)} does not allow Curbside to {action} (HTTP 403){detail}. {auth_hint}".strip(),
            status=status,
            issues=issues,
        )
    if status in (409, 412):
        why = "its version changed since it was read" if status == 412 else "it conflicts with the server's copy"
        return FhirConflictError(
            f"Could not {action}: {why} (HTTP {status}){detail}. Read it again and reapply the change.",
            status=status,
            issues=issues,
        )
    if status == 429:
        when = f" for {retry_after:.0f} s" if retry_after is not None else ""
        return RateLimitedError(
            f"{_capital(server)} asks Curbside to wait{when} before it will {action} (HTTP 429){detail}.",
            retry_after=retry_after,
        )
    if 400 <= status < 500:
        return FhirRejectedError(
            f"{_capital(server)} refused to {action} (HTTP {status}){detail}. Correct the request and send it again.",
            status=status,
            issues=issues,
        )
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    return FhirServerError(
        f"{_capital(server)} failed to {action} (HTTP {status}){tries}{detail}; try again later.",
        status=status,
        issues=issues,
    )


def _details_text(details: Any) -> str:
    if not isinstance(details, dict):
        return ""
    if details.get("text"):
        return str(details["text"])
    for coding in details.get("coding") or ():
        if isinstance(coding, dict) and (coding.get("display") or coding.get("code")):
            return str(coding.get("display") or coding.get("code"))
    return ""


def _plain_text(body: bytes) -> str:
    """A short, single-line quote of a body that is not an OperationOutcome (HTML error pages, JSON errors)."""
    if not body:
        return ""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        text = body[:400].decode("utf-8", errors="replace")
        return "" if "<html" in text.lower() else _cut(" ".join(text.split()))
    if isinstance(data, dict):
        for key in ("error_description", "message", "error"):
            value = data.get(key)
            if isinstance(value, str) and value:
                return _cut(value)
            if isinstance(value, dict) and isinstance(value.get("message"), str):
                return _cut(value["message"])
    return ""


def _cut(text: str) -> str:
    return text if len(text) <= _DIAGNOSTICS_CHARS else text[: _DIAGNOSTICS_CHARS - 1] + "…"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
