"""Sentences of the Schedule's prose quoted for payment questions that name no code, and the numbers that
choose one code of a banded family.

Passage texts are the Schedule's own (ohip-schedule-of-benefits-2025-03-03.txt, pages named per case), in
the shape the passage builder stores them: a title-path line, a blank line, the body.
"""

from __future__ import annotations

from curbside.coverage.ohip.preamble_quotes import SentenceIndex, asked_kinds
from curbside.coverage.ohip.quantities import asked_quantities, fit
from curbside.coverage.ohip.sql_path import in_band, setting_first


def _passage(doc: str, heading: str, page: str, body: str) -> tuple[str, str, str]:
    path = f"{heading} [{page}]"
    return (doc, path, f"OHIP Schedule 2025-03-03 — GP: {doc} > {path}\n\n{body}")


_PASSAGES = [
    _passage(
        "Consultations",
        "CONSULTATION",
        "GP16",
        "Definition/Required elements of service: A consultation is an assessment rendered following a written "
        "request from a referring physician. The written request must be retained in the consultant's records. "
        "In the event these requirements are not met, the amount payable for a consultation will be reduced to a "
        "lesser assessment fee.",
    ),
    _passage(
        "Consultations",
        "CONSULTATION",
        "GP17",
        "Payment rules: 1. Consultations rendered to the same patient by the same physician for the same "
        "diagnosis are limited to one service per two consecutive 12 month periods except: a. When the "
        "additional consultation service(s) is a repeat consultation;",
    ),
    _passage(
        "Other Premiums",
        "HOSPITALIST PREMIUM",
        "GP103",
        "The Hospitalist premium is payable automatically to an eligible physician subject to the definitions "
        "and rules described below.",
    ),
    # the chunker cuts a rule mid-sentence; 'Definitions:' is the heading of the block under HOSPITALIST PREMIUM
    _passage(
        "Other Premiums",
        "Definitions:",
        "GP104",
        "Payment rules: For the 12 month period following the date of determination of eligibility for the premium, "
        "the amount",
    ),
    _passage(
        "Other Premiums",
        "Definitions:",
        "GP104",
        "payable to a physician shall be automatically increased by 17% for all qualifying services except for "
        "E082 in the following circumstances:",
    ),
    _passage(
        "Age-Based Fee Premiums",
        "AGE-BASED FEE PREMIUMS",
        "GP64",
        "2. Despite any other provision in this Schedule, the amount payable for the following services to an "
        "insured person who is at least 65 years of age, as those services are defined in this Schedule, is "
        "increased by 15 per cent: a. A general assessment (A003, C003); c. An intermediate assessment (A007);",
    ),
]


def test_a_limit_question_naming_no_code_gets_the_preamble_rule_with_its_page() -> None:
    index = SentenceIndex(_PASSAGES)
    quotes = index.quotes(
        "how often can the same doctor bill a consultation for the same patient with the same diagnosis?"
    )
    assert quotes and "limited to one service per two consecutive 12 month periods" in quotes[0].text
    assert quotes[0].page == "GP17"


def test_a_sentence_cut_across_passages_is_quoted_whole_under_the_heading_before_its_label() -> None:
    quotes = SentenceIndex(_PASSAGES).quotes("how much is the hospitalist premium?")
    assert quotes and "the amount payable to a physician shall be automatically increased by 17%" in quotes[0].text
    assert "HOSPITALIST PREMIUM" in quotes[0].topic and quotes[0].page == "GP104"


def test_the_sentence_before_is_context_for_one_that_points_back() -> None:
    quotes = SentenceIndex(_PASSAGES).quotes(
        "the referral was only by phone, no written request: can we still bill a consultation?"
    )
    assert quotes and "lesser assessment fee" in quotes[0].text


def test_a_named_code_finds_the_sentence_listing_it() -> None:
    quotes = SentenceIndex(_PASSAGES).quotes("is there an age premium when I bill A007 for a 72 year old?", ["A007"])
    assert quotes and "15 per cent" in quotes[0].text and "A007" in quotes[0].codes


def test_a_fee_question_asks_for_no_sentence() -> None:
    assert asked_kinds("what's the code and fee for a minor assessment?") == []
    assert SentenceIndex(_PASSAGES).quotes("what's the code and fee for a minor assessment?") == []


def test_the_number_asked_selects_the_band() -> None:
    assert asked_quantities("annual physical for a 70 year old") == {"age": 70}
    assert asked_quantities("patient has been in hospital 8 weeks") == {"week": 8}
    assert asked_quantities("group visit with 3 diabetic patients") == {"patients": 3}
    assert asked_quantities("group visit with 2 diabetic pts at once") == {"patients": 2}  # a clerk's shorthand
    # titles as printed in the Schedule (A2, A10, A18)
    assert fit({"age": 70}, "Periodic health visit: adult 65 years of age and older") == 1
    assert fit({"age": 70}, "Periodic health visit: adult age 18 to 64 inclusive") == -1
    assert fit({"age": 70}, "Periodic health visit: child") == -1  # 'child': 2 to 15 (test_quantities.py)
    assert fit({"week": 8}, "Subsequent visits - sixth to thirteenth week inclusive") == 1
    assert fit({"week": 8}, "Subsequent visits - first five weeks") == -1
    assert fit({"patients": 3}, "Chronic disease shared appointment: 2 patients") == -1


def test_in_band_puts_the_code_holding_the_number_first_and_drops_the_excluded() -> None:
    texts = {
        "K140": "Chronic disease shared appointment: 2 patients",
        "K141": "Chronic disease shared appointment: 3 patients",
        "E078": "chronic disease assessment premium",
    }
    scores = {"K140": 10.0, "K141": 10.0, "E078": 9.0}
    assert in_band(["K140", "K141", "E078"], scores, "group visit with 3 patients", texts) == ["K141", "E078"]
    assert in_band(["K140", "K141", "E078"], scores, "group visit", texts) == ["K140", "K141", "E078"]


def test_an_age_word_is_checked_as_the_general_preamble_defines_it() -> None:
    # 'child' is 2 to 15 (GP 'Age Definitions'): a 6 year old is in both bands, a 16 year old in neither; a
    # 40 year old in neither either, and with no code left in the band both stay
    texts = {"K017": "Periodic health visit: child", "K267": "Periodic health visit: 2 - 11 years of age"}
    scores = {"K017": 10.0, "K267": 10.0}
    assert in_band(["K017", "K267"], scores, "well child physical for a 6 year old", texts) == ["K017", "K267"]
    assert in_band(["K017", "K267"], scores, "physical for a 40 year old", texts) == ["K017", "K267"]


def test_an_age_puts_the_code_of_its_band_first() -> None:
    # W109 'Periodic health visit' (nursing home listings, A15) states no band; K130 'adolescent' holds a 16 yo
    texts = {
        "W109": "Periodic health visit",
        "K017": "Periodic health visit: child",
        "K130": "Periodic health visit: adolescent",
    }
    scores = {"W109": 10.0, "K017": 9.0, "K130": 9.0}
    assert in_band(["W109", "K017", "K130"], scores, "16yo in for her yearly physical", texts) == ["K130", "W109"]


def test_the_setting_named_goes_first_among_codes_scoring_the_same() -> None:
    scores = {"K682": 24.0, "K683": 24.0, "W010": 24.0, "G511": 18.0}
    codes = ["K682", "K683", "W010", "G511"]
    assert setting_first(codes, scores, "monthly management fee for a nursing home patient?")[0] == "W010"
    assert setting_first(codes, scores, "monthly management fee?") == codes


def test_a_long_sentence_is_quoted_where_it_says_what_is_asked() -> None:
    row = "Applicable Premium Descriptor Premium Payable " + " ".join(
        f"Premium number {n} - {n}% of fee for virtual service" for n in range(30)
    )
    body = f"{row} Focused Practice Psychotherapy Premium - 17% of fee for virtual service. "
    passages = [_passage("Virtual Care Services", "PREMIUMS", "A70", body)]
    quotes = SentenceIndex(passages).quotes("how much is the focused practice psychotherapy premium?")
    assert quotes and "Focused Practice Psychotherapy Premium - 17%" in quotes[0].text


_COUNSELLING = _passage(  # GP58: numbered rules, the third naming no code but under the second, which does
    "Psychotherapy, Psychiatric and Counselling Services",
    "Psychotherapy, Psychiatric and Counselling Services",
    "GP58",
    "1. With the exception of the codes listed in the below, no other services are eligible for payment when "
    "rendered by the same physician the same day as any type of counselling service: E080, G010, K682, K730\n"
    "2. Individual and group counselling services are limited to 3 units per patient per physician per year at the "
    "higher fee (K013 or K040 respectively); the amount payable for services rendered in excess of this limit will "
    "be adjusted to a lesser fee (K033 or K041 respectively).\n"
    "3. If the patient does not have a pre-booked appointment, the amount payable for this service will be "
    "adjusted to a lesser assessment fee.",
)


def test_numbered_rules_are_sentences_and_one_under_a_code_counts_for_it() -> None:
    index = SentenceIndex([_COUNSELLING])
    limit = index.quotes("how many K013 units per patient per year before it drops to K033?", ["K013", "K033"])
    assert limit[0].text.startswith("2. Individual and group counselling services are limited to 3 units")
    booked = index.quotes("no booked appointment, can we still bill K013?", ["K013"])
    best = max(booked, key=lambda q: q.score)
    assert best.text.startswith("3. If the patient does not have a pre-booked appointment") and "K013" in best.codes
