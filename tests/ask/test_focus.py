"""Stay on the question: sibling headings of the passage's own document decide what it is about."""

from __future__ import annotations

import pytest

from curbside.ask.focus import Outline, missing_population, off_subject, question_populations

# the shape of the CEP anxiety-and-depression page's outline
CEP = Outline(
    [
        "Follow-up/monitoring > Anxiety > Overall approach > Duration of pharmacological treatment",
        "Follow-up/monitoring > Depression > Overall approach > Ongoing treatment options",
        "Management > First-line medication options > Sertraline (Zoloft®)",
        "Management > First-line medication options > Citalopram (Celexa®)",
        "Management > Guiding principles for the screening and assessment of anxiety and depression",
        "Management > Special populations > Older adults",
    ]
)
ANXIETY_DURATION = "Follow-up/monitoring > Anxiety > Overall approach > Duration of pharmacological treatment"


def test_a_passage_under_the_sibling_condition_is_off_subject() -> None:
    verdict = off_subject("how long to continue an antidepressant after remission of depression?", ANXIETY_DURATION, CEP)
    assert verdict is not None
    assert (verdict.heading, verdict.named) == ("Anxiety", "Depression")


def test_naming_the_passage_own_heading_keeps_it() -> None:
    assert off_subject("how long to treat anxiety?", ANXIETY_DURATION, CEP) is None
    assert off_subject("how long to treat anxiety and depression?", ANXIETY_DURATION, CEP) is None


def test_another_drug_section_is_off_subject_for_a_drug_question() -> None:
    path = "Management > First-line medication options > Citalopram (Celexa®)"
    verdict = off_subject("max daily dose of sertraline?", path, CEP)
    assert verdict is not None and verdict.named == "Sertraline (Zoloft®)"
    assert off_subject("max daily dose of citalopram?", path, CEP) is None


def test_long_descriptive_headings_name_no_subject() -> None:
    # "screening" is a word of the long sibling heading, which describes a topic rather than naming one
    path = "Management > Special populations > Older adults"
    assert off_subject("screening for depression in older adults", path, CEP) is None


def test_words_the_passage_itself_uses_do_not_make_it_off_subject() -> None:
    body = "Continue the antidepressant for depression as for anxiety: at least 12 months."
    assert off_subject("how long to continue an antidepressant for depression?", ANXIETY_DURATION, CEP, body) is None


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("highest citalopram dose in an 80 year old?", ["older adults"]),
        ("sertraline dose for a 10 year old with OCD?", ["children"]),
        ("escitalopram dose for a 15 year old with generalized anxiety?", ["adolescents"]),
        ("preferred antidepressant while breastfeeding?", ["breastfeeding"]),
        ("first-line treatment for depression in pregnancy?", ["pregnancy"]),
        ("sertraline starting dose?", []),
        ("dose for a 40 year old?", []),
        ("fluoxetine dose for a 14 yo with depression?", ["adolescents"]),  # as a clinician writes an age
        ("lithium level in a 72 y/o?", ["older adults"]),
        ("take 20 mg yo?", []),
    ],
)
def test_populations_named_in_words_or_ages(question: str, expected: list[str]) -> None:
    assert question_populations(question) == expected


def test_missing_population_is_reported_only_when_no_passage_mentions_it() -> None:
    question = "highest citalopram dose in an 80 year old?"
    assert missing_population(question, ["Initial: 20 mg daily; Max: 40 mg daily"]) == ["older adults"]
    assert missing_population(question, ["Max: 40 mg daily (20 mg in older adults)"]) == []
    assert missing_population(question, ["Management > Special populations > Elderly", "Max: 20 mg"]) == []


def test_the_question_naming_the_passage_heading_counts_even_when_the_body_uses_the_word() -> None:
    outline = Outline(
        [
            "Part 6: Device Eligibility > 600 Number of Devices Funded & Funding Periods",
            "Part 6: Device Eligibility > 605 Requests for a Replacement Device",
        ]
    )
    path = "Part 6: Device Eligibility > 600 Number of Devices Funded & Funding Periods"
    body = "Wheelchairs - 5 years; the funding period starts on delivery."
    # "how often" asks for a period, which the passage's own heading names: it is on subject
    assert off_subject("how often will ADP replace a wheelchair seating system?", path, outline, body) is None
