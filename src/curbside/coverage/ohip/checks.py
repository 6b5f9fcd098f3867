"""Payment rules applied to the facts a request gives: stay length, MRP, day of the week.

Each check reads its condition and threshold from the rule's own words in the
loaded edition — nothing here knows that C124 needs 48 hours:

* ``… not eligible for payment …: a.The patient was discharged within 48 hours
  of admission to hospital …`` (GP45, C124) -> stay length against the hours given;
* ``… only payable to the MRP …`` -> whether the caller is the MRP;
* a premium for ``Saturdays, Sundays and holidays`` (E084, GP47) -> the day given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from curbside.coverage.ohip.query import Request
from curbside.coverage.ohip.store import RuleRow
from curbside.coverage.ohip.tool import RuleCheck

__all__ = ["rule_checks"]

_STAY = re.compile(r"discharged within (?P<hours>\d+) hours of admission", re.IGNORECASE)
_MRP_ONLY = re.compile(r"only payable (?:to the MRP|for visits rendered by the MRP)", re.IGNORECASE)
_WEEKEND = re.compile(r"Saturdays?, Sundays? (?:and|or) [Hh]olidays?")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday")


def _clause(text: str, match: re.Match[str]) -> str:
    """The lead-in ('C124 is not eligible for payment under any of the following circumstances:') and the item."""
    start = max(text.rfind(";", 0, match.start()), text.rfind(":", 0, match.start())) + 1
    end_candidates = [i for i in (text.find(";", match.end()), text.find(". ", match.end())) if i >= 0]
    end = min(end_candidates) if end_candidates else len(text)
    item = " ".join(text[start:end].split())
    lead_end = text.rfind(":", 0, match.start())
    lead_start = max(text.rfind(". ", 0, lead_end), text.rfind(":", 0, max(lead_end - 1, 0))) + 1
    lead = " ".join(text[lead_start : lead_end + 1].split()) if lead_end > 0 else ""
    lead = re.sub(r"^\d+\.\s*", "", lead)
    return f"{lead} {item}".strip() if lead and lead != item else item


def _sentence(text: str, match: re.Match[str]) -> str:
    """The sentence around ``match``, without the block's label ('Payment rules:')."""
    cut = text.rfind(". ", 0, match.start())
    start = cut + 2 if cut >= 0 else 0
    end = text.find(".", match.end())
    sentence = " ".join(text[start : end + 1 if end >= 0 else len(text)].split())
    return re.sub(r"^[A-Z][a-z ]+:\s*", "", sentence)


def _weekend_rule(code: str, description: str, rules: list[RuleRow]) -> tuple[str, str] | None:
    """(quote, page) when the code is a premium for weekends and holidays: its title, or a rule about it, says so."""
    for rule in rules:
        for match in _WEEKEND.finditer(rule.text):
            sentence = _sentence(rule.text, match)
            if code in sentence:
                return sentence, rule.page
    if _WEEKEND.search(description) or re.search(r"\bSaturday, Sunday or Holiday\b", description):
        return description, rules[0].page if rules else ""
    return None


def rule_checks(request: Request, code: str, rules: Iterable[RuleRow], description: str) -> list[RuleCheck]:
    """The checks one code's own rules call for, decided where the request gives the fact."""
    out: list[RuleCheck] = []
    own = [r for r in rules if r.relation == "subject" and r.kind in ("payment_rules", "definition", "note")]
    for rule in own:
        stay = _STAY.search(rule.text)
        if stay and not any(c.reason.startswith("stay") for c in out):
            hours = int(stay.group("hours"))
            quote = _clause(rule.text, stay)
            given = request.hours_since_admission
            if given is None:
                out.append(
                    RuleCheck(
                        code=code,
                        verdict="needs_fact",
                        reason=f"stay: needs the hours from admission to "
                        f"discharge ({code} is not payable within {hours} hours)",
                        rule=quote,
                        page=rule.page,
                    )
                )
            elif given < hours:
                out.append(
                    RuleCheck(
                        code=code,
                        verdict="not_eligible",
                        reason=f"stay: discharged {given:g} hours after admission, within {hours} hours",
                        rule=quote,
                        page=rule.page,
                    )
                )
            else:
                out.append(
                    RuleCheck(
                        code=code,
                        verdict="satisfied",
                        reason=f"stay: discharged {given:g} hours after admission, not within {hours} hours",
                        rule=quote,
                        page=rule.page,
                    )
                )
        mrp = _MRP_ONLY.search(rule.text)
        if mrp and not any(c.reason.startswith("MRP") for c in out):
            quote = _sentence(rule.text, mrp)
            if request.mrp is None:
                out.append(
                    RuleCheck(
                        code=code,
                        verdict="needs_fact",
                        reason="MRP: needs whether you are the most responsible physician",
                        rule=quote,
                        page=rule.page,
                    )
                )
            else:
                verdict = "satisfied" if request.mrp else "not_eligible"
                reason = "MRP: you are the MRP" if request.mrp else "MRP: you are not the MRP"
                out.append(RuleCheck(code=code, verdict=verdict, reason=reason, rule=quote, page=rule.page))
    weekend = _weekend_rule(code, description, own)
    if weekend and request.day is not None:
        quote, page = weekend
        if request.day in _WEEKDAYS:
            out.append(
                RuleCheck(
                    code=code,
                    verdict="not_applicable",
                    reason=f"day: a {request.day.title()} is not a Saturday, Sunday or holiday",
                    rule=quote,
                    page=page,
                )
            )
        else:
            out.append(RuleCheck(code=code, verdict="satisfied", reason=f"day: {request.day}", rule=quote, page=page))
    return out
