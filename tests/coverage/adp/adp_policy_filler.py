"""Sentences on other matters for policy-quote tests, so that the words of the rules under test are rare, as in a
manual (``PolicyIndex`` weighs a shared word by its rarity)."""

from __future__ import annotations

from curbside.coverage.policy_quotes import PolicyText

FILLER = [
    PolicyText("core", f"300.{n:02d}", "3", f"The {thing} is kept by the {keeper} for {years} years.")
    for n, (thing, keeper, years) in enumerate(
        (thing, keeper, years)
        for thing in ("invoice", "prescription", "quotation", "receipt", "delivery slip")
        for keeper, years in (("Vendor", 7), ("Authorizer", 5), ("Ministry", 3), ("Applicant", 2))
    )
]
