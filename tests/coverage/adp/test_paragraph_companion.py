"""A sentence of the best quote's own paragraph that holds as much of the question joins the quote even when it does
not say the kind of thing asked (#14): "can the OT get ADP to fund a manual wheelchair when a transport chair would
do?" is answered by Mobility Devices manual §405 (p. 22) "Where independent ambulation is not possible, a manual
wheelchair may be … basic for ADP funding purposes", which says 'may', and the same paragraph's "The Authorizer
must confirm that the individual's basic mobility requirements cannot be met by the use of a generic/transport
chair", which holds the question's words but says no 'only', 'eligible' or 'not'."""

from __future__ import annotations

from adp_policy_filler import FILLER

from curbside.coverage.adp.policy_quotes import VOCABULARY
from curbside.coverage.policy_quotes import PolicyIndex, PolicyText

SAYS = "A manual wheelchair is eligible where walking is not possible."
HOLDS = "The Authorizer must confirm that a generic transport chair cannot meet the basic mobility needs."
QUESTION = "the OT says a basic transport chair would not meet the needs - is a manual wheelchair eligible for funding?"


def quote_of(*blocks: PolicyText) -> str:
    return PolicyIndex([*blocks, *FILLER], VOCABULARY).quotes(QUESTION)[0].text


def test_a_sentence_of_the_same_paragraph_holding_the_question_joins_the_quote() -> None:
    assert quote_of(PolicyText("mobility-devices", "405", "22", f"{SAYS} {HOLDS}")) == f"{SAYS} {HOLDS}"


def test_one_of_another_paragraph_does_not() -> None:
    assert (
        quote_of(PolicyText("mobility-devices", "405", "22", SAYS), PolicyText("mobility-devices", "410", "23", HOLDS))
        == SAYS
    )
