"""What one domain tool contributed, read into one shape the synthesis merges.

Each reader (``readers/``) turns its tool's result into a ``DomainFinding``; a call
that did not answer becomes one through ``unanswered``. ``subjects`` names what the
tool decided about (a drug, a device), with the decision's sign, so two tools that
decide the same subject differently can be reported as a conflict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from curbside.coverage.answer.execution import CallOutcome
from curbside.coverage.answer.models import (
    AnswerConflict,
    CallStatus,
    Decision,
    Domain,
    FollowUp,
    Highlight,
)
from curbside.errors import NotLoadedError

__all__ = ["DOMAIN_LABEL", "RETRYABLE", "DomainFinding", "failure_words", "subject_key", "unanswered"]

DOMAIN_LABEL: dict[Domain, str] = {"billing": "Billing", "device": "Device", "drug": "Drug"}
_STATUS_WORDS: dict[str, str] = {
    "timeout": "timed out",
    "cancelled": "ran out of time",
    "error": "failed",
    "denied": "was refused for this caller",
    "rate_limited": "was rate-limited",
    "needs_confirmation": "needs the user's confirmation",
    "unavailable": "is not installed",
}


# failures that may pass if the part is asked again (not: unavailable, denied, needs_confirmation)
RETRYABLE = frozenset({"timeout", "cancelled", "error", "rate_limited"})


@dataclass(slots=True)
class DomainFinding:
    domain: Domain
    tool: str
    status: CallStatus
    decision: Decision | None
    confidence: float
    summary: str
    needs_more_info: bool = False
    highlights: list[Highlight] = field(default_factory=list)
    conflicts: list[AnswerConflict] = field(default_factory=list)
    followups: list[FollowUp] = field(default_factory=list)  # the tool's own follow-up questions
    provenance: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    subjects: dict[str, bool] = field(default_factory=dict)  # subject_key -> decided positively
    retryable: bool = True  # False when asking again cannot help (the tool's data is not loaded)

    @property
    def answered(self) -> bool:
        return self.status == "ok"


def subject_key(name: str) -> str:
    """'Power Wheelchair' and 'power wheelchairs' -> 'power wheelchair'."""
    words = re.sub(r"[^a-z0-9]+", " ", name.lower()).split()
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


def unanswered(outcome: CallOutcome) -> DomainFinding:
    """A call that gave no result; the why is in the trace (``outcome.error``), not in the clinician's summary,
    except for data that is not loaded: the warning then says what to load."""
    call = outcome.call
    if outcome.error_code == NotLoadedError.code:  # asking again cannot help: say what to load
        return DomainFinding(
            domain=call.domain,
            tool=call.tool,
            status=outcome.status,
            decision=None,
            confidence=0.0,
            summary=f"The {call.domain} part was not answered: its data is not loaded.",
            warnings=[f"{call.tool}: {outcome.error}"],
            retryable=False,
        )
    what = _STATUS_WORDS.get(outcome.status, outcome.status)
    return DomainFinding(
        domain=call.domain,
        tool=call.tool,
        status=outcome.status,
        decision=None,
        confidence=0.0,
        summary=f"The {call.domain} part was not answered: {call.tool} {what}.",
        warnings=[f"{call.tool} {what}: the {call.domain} part of the answer is missing."],
    )


def failure_words(status: str) -> str:
    return _STATUS_WORDS.get(status, status)
