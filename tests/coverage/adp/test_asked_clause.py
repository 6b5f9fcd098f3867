"""A rule's verdict answers a question only when the question asks what the rule decides (#14).

Rules quoted: ADP Manual §670.00 p. 88 ("does not contribute toward the cost of repairs"), §220.03 p. 29
("does not provide funding to replace Devices that are lost or stolen").
"""

from __future__ import annotations

import asyncio

import pytest

from curbside.coverage.adp.asked_clause import asked_clause, decides
from curbside.coverage.adp.service import AdpService
from curbside.coverage.adp.tool import AdpGetArgs, AdpGetResult

REPAIRS_THEN_REPLACE = (
    "his ADP power chair keeps breaking down and the repair bills are huge - will ADP help replace it before the "
    "5 yrs are up?"
)


def ask(adp: AdpService, q: str) -> AdpGetResult:
    return asyncio.run(adp.get(AdpGetArgs(q=q)))


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        (REPAIRS_THEN_REPLACE, "will ADP help replace it before the 5 yrs are up?"),
        ("walker was stolen last year, will ADP replace it?", "will ADP replace it?"),
        ("pt's chair broke. Can ADP fix it?", "Can ADP fix it?"),
        ("will ADP pay for repairs or new batteries for a power wheelchair?", None),  # one clause
        ("3-year-old scooter needs motor repair - what's covered?", "what's covered?"),
        ("the vendor's price - is it the approved price?", "is it the approved price?"),
        ("new chair, old one as backup", None),  # no clause asks
        # a bare yes or no asks too: the story's 'send' asks no place
        ("vendor offered our nursing home a fee for every resident we send them - allowed?", "allowed?"),
    ],
)
def test_the_clause_that_asks(question: str, clause: str | None) -> None:
    assert asked_clause(question) == clause


def test_a_rule_decides_a_replacement_only_in_its_own_words() -> None:
    stolen = ("The Program does not provide funding to replace Devices that are lost or stolen within the period.",)
    repairs = (
        "The Program does not contribute toward the cost of repairs of purchased Devices under any circumstances.",
    )
    assert decides("funding_period", stolen) and not decides("funding_period", repairs)
    assert decides("funding", repairs)  # every exclusion decides whether ADP pays


def test_a_told_repair_is_no_verdict_on_a_replacement(adp: AdpService) -> None:
    r = ask(adp, REPAIRS_THEN_REPLACE)
    assert not r.summary.startswith("No:") and "does not pay for repairs" not in r.summary
    assert not any(e.asked for e in r.exclusion_rules if e.topic == "repairs")
    assert r.confidence < 0.7  # the quoted sentences are not a checked verdict


def test_a_told_theft_decides_a_replacement(adp: AdpService) -> None:
    r = ask(adp, "patient's ADP-funded walker was stolen last year, will ADP replace it?")
    assert r.summary.startswith("No: No funding to replace a device lost or stolen") and "§220.03" in r.summary
    assert r.confidence >= 0.9


def test_a_told_repair_asked_about_payment_keeps_its_verdict(adp: AdpService) -> None:
    r = ask(adp, "his power chair keeps breaking down and the repair bills are huge - will ADP pay for them?")
    assert r.summary.startswith("No: ") and "repairs" in r.summary.split(".")[0]
    assert r.confidence >= 0.9
