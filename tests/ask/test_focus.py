"""Stay on the question: sibling headings of the passage's own document decide what it is about."""

from __future__ import annotations

import pytest

from curbside.ask.focus import (
    Outline,
    missing_population,
    off_subject,
    question_populations,
    served_groups,
    unasked_groups,
)

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
    verdict = off_subject(
        "how long to continue an antidepressant after remission of depression?", ANXIETY_DURATION, CEP
    )
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


def test_a_word_asking_for_advice_names_no_section() -> None:
    # the CEP page files "Talking tips" beside "Specific side effect management for symptoms": 'any tip?' asks for
    # advice on the dry mouth, it does not name the talking tips
    outline = Outline(
        [
            "Management > Talking tips",
            "Management > Specific side effect management for symptoms > Dry mouth",
            "Management > First-line medication options > Paroxetine (Paxil®)",
        ]
    )
    dry_mouth = "Management > Specific side effect management for symptoms > Dry mouth"
    assert off_subject("paxil dry mouth is bugging her - any oral care tip in CEP?", dry_mouth, outline) is None
    paxil = "Management > First-line medication options > Paroxetine (Paxil®)"
    verdict = off_subject("CEP talking tips for a pt worried about starting meds?", paxil, outline)
    assert verdict is not None and verdict.named == "Talking tips"  # 'talking tips' still names them


# the shape of the ADP policies manual's Part 10
ADP_APPEALS = Outline(
    [
        "Part 10: Appeals and Complaints > 1000 Appealing a Program Decision",
        "Part 10: Appeals and Complaints > 1005 Complaints",
        "Part 6: How the Program Makes Decisions > 600 Approval of a Program Decision",
        "Part 7: Vendors > 700 Program Decision Letters",
    ]
)


def test_a_word_only_one_sibling_heading_uses_names_it() -> None:
    # "appealing" names one of three words of the sibling heading, but no heading outside Part 10 speaks of appeals
    complaints = "Part 10: Appeals and Complaints > 1005 Complaints"
    verdict = off_subject("pt appealing an ADP denial - what must the letter include?", complaints, ADP_APPEALS)
    assert verdict is not None and verdict.named == "1000 Appealing a Program Decision"
    # "decision" is a word of the sibling heading too, but other headings use it: it names no one section
    assert off_subject("when is the decision letter sent?", complaints, ADP_APPEALS) is None
    # the passage's own text speaking of appeals keeps it
    body = "A complaint about an appeal is reviewed by the Program."
    assert off_subject("pt appealing an ADP denial", complaints, ADP_APPEALS, body) is None


# the CEP page files its adjunct drugs in another branch than its first-line ones
CEP_BRANCHES = Outline(
    [
        "Management > First-line medication options > Sertraline (Zoloft®)",
        "Management > First-line medication options > Escitalopram (Cipralex®)",
        "Management > Pharmacological treatment options",
        "Management > Warnings and precautions > Hyponatremia",
        "Follow-up/monitoring > Depression > Aripiprazole (Abilify®)",
        "Follow-up/monitoring > Depression > Brexpiprazole (Rexulti®)",
        "Follow-up/monitoring > Anxiety > Overall approach > Duration of pharmacological treatment",
    ]
)
SERTRALINE = "Management > First-line medication options > Sertraline (Zoloft®)"
SERTRALINE_DOSING = "Dosing\n\nInitial: 25-50 mg daily (am/pm)\n\nUsual: MDD: 50-100 mg daily; GAD: 50-150 mg daily"


def test_a_drug_named_in_another_branch_puts_a_passage_under_another_drug_off_subject() -> None:
    question = "rexulti starting dose as an add-on for MDD?"
    verdict = off_subject(question, SERTRALINE, CEP_BRANCHES, SERTRALINE_DOSING)
    assert verdict is not None
    assert (verdict.heading, verdict.named) == ("Sertraline (Zoloft®)", "Brexpiprazole (Rexulti®)")
    adjunct = "Follow-up/monitoring > Depression > Brexpiprazole (Rexulti®)"
    verdict = off_subject("cipralex max dose in an 84 yo?", adjunct, CEP_BRANCHES, "Max: 2 mg daily")
    assert verdict is not None and verdict.named == "Escitalopram (Cipralex®)"


def test_a_cousin_does_not_count_when_the_passage_names_it_or_the_question_names_the_passage() -> None:
    # the passage's own text mentions the drug the question names: it may well answer
    body = SERTRALINE_DOSING + "\n\nSwitching to brexpiprazole: taper over 2 weeks"
    assert off_subject("rexulti starting dose as an add-on for MDD?", SERTRALINE, CEP_BRANCHES, body) is None
    # the question names the passage's own drug as well
    question = "switching from sertraline to rexulti - how?"
    assert off_subject(question, SERTRALINE, CEP_BRANCHES, SERTRALINE_DOSING) is None


def test_a_cousin_must_be_named_word_for_word_by_a_word_that_names_a_subject() -> None:
    # "pharmacogenomic" shares its six-letter stem with "Pharmacological": not a name of that heading
    question = "when is pharmacogenomic testing worth ordering for antidepressants?"
    path = "Follow-up/monitoring > Anxiety > Overall approach > Duration of pharmacological treatment"
    assert off_subject(question, path, CEP_BRANCHES, "Continue for 12-24 months after remission.") is None
    # "wheelchair" is a plain word: the replacement rules answer for wheelchairs as for every device
    manual = Outline(
        [
            "Part 2: Devices Covered > 210 Wheelchairs",
            "Part 6: Device Eligibility > 605 Requests for a Replacement Device",
        ]
    )
    body = "If approved, the ADP contribution will be determined by deducting a prorated amount."
    question = "kid outgrew his ADP wheelchair after 2 yrs - how much will ADP put toward a new one?"
    replacement = "Part 6: Device Eligibility > 605 Requests for a Replacement Device"
    assert off_subject(question, replacement, manual, body) is None


# the CEP page files its drugs and its switching guidance in different branches, a "Talking tips" beside the
# counselling section and inside it, and the adjunct drugs beside the overall approach
CEP_FILED = Outline(
    [
        "Management > First-line medication options > Paroxetine (Paxil®)",
        "Management > First-line medication options > Sertraline (Zoloft®)",
        "Management > Talking tips",
        "Management > Medication counselling > Talking tips",
        "Follow-up/monitoring > Depression > Guidance for switching medications",
        "Follow-up/monitoring > Depression > Aripiprazole (Abilify®)",
        "Follow-up/monitoring > Depression > Brexpiprazole (Rexulti®)",
        "Follow-up/monitoring > Depression > Overall approach > First-line adjunctive medication options",
    ]
)


def test_a_drug_named_elsewhere_puts_no_question_off_a_topic_heading() -> None:
    # "Guidance for switching medications" is a topic, not a subject with cousins of its kind
    path = "Follow-up/monitoring > Depression > Guidance for switching medications"
    body = "Cross-tapering: Follow-up within 1 week of each dose change."
    question = "doing a cross-taper from paxil to sertraline - how soon to f/u after each change?"
    assert off_subject(question, path, CEP_FILED, body) is None


def test_a_heading_the_passage_is_filed_under_names_no_sibling_above_it() -> None:
    path = "Management > Medication counselling > Talking tips"
    body = "Duration: It is important not to stop taking the medication “cold turkey”."
    assert off_subject("pt wants to just stop tmrw - talking point?", path, CEP_FILED, body) is None
    # the same words still name the sibling of a passage filed elsewhere
    verdict = off_subject("pt wants to just stop tmrw - talking point?", "Management > Special populations", CEP_FILED)
    assert verdict is not None and verdict.named == "Talking tips"


def test_options_the_question_sets_aside_name_no_sibling() -> None:
    path = "Follow-up/monitoring > Depression > Overall approach > First-line adjunctive medication options"
    body = "Other options include an alternative class of antidepressant."
    question = "besides abilify and rexulti, what other add-on option does CEP mention for MDD?"
    assert off_subject(question, path, CEP_FILED, body) is None
    verdict = off_subject("abilify add-on option for MDD?", path, CEP_FILED, body)
    assert verdict is not None and verdict.named == "Aripiprazole (Abilify®)"


def test_the_words_naming_the_document_asked_about_name_no_section() -> None:
    # the PBDE-47 minnow article (ehp-116-1694) files its housing and its exposures side by side
    article = Outline(["Materials and Methods > Animals and housing", "Materials and Methods > PBDE-47 exposures"])
    body = "Minnows were maintained under a 16 hr:8 hr photoperiod with 6.6–7.4 mg/L dissolved oxygen."
    path = "Materials and Methods > Animals and housing"
    assert off_subject("PBDE-47 minnow study - dissolved oxygen range in the tanks?", path, article, body) is None
    verdict = off_subject("dissolved oxygen during the PBDE-47 exposures?", path, article, body)
    assert verdict is not None and verdict.named == "PBDE-47 exposures"


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


# lines of the CEP page's resource lists and drug tables
TALK4HEALING = "Talk4Healing: 24/7 talk, text, and chat to support Indigenous women by Indigenous women. [2]"
GOOD2TALK = "Good2Talk: 1-866-925-5454 (post-secondary students) open 24/7 [1]"
CRISIS_LINE = "Crisis Line: 1-866-996-0991 (all ages) open 24/7 [1]"


def test_a_line_reserved_for_a_group_the_question_does_not_name_is_flagged() -> None:
    question = "24/7 crisis line I can give any age pt in Ontario?"
    assert unasked_groups(question, f"{CRISIS_LINE} {TALK4HEALING}") == ["Indigenous people", "women"]
    assert unasked_groups("crisis line number?", GOOD2TALK) == ["students"]
    assert unasked_groups(question, CRISIS_LINE) == []


def test_a_line_for_the_group_the_question_names_is_not_flagged() -> None:
    assert unasked_groups("crisis line for an Indigenous woman?", TALK4HEALING) == []
    assert unasked_groups("crisis line number for a uni student?", GOOD2TALK) == []
    # a line for several groups, the question's among them
    preferred = "Features: A preferred pharmacological option for older adults, pregnancy and breastfeeding [1]"
    assert unasked_groups("which SSRI in pregnancy?", preferred) == []
    assert unasked_groups("which SSRI for an 80 yo?", preferred) == []  # named as an age


def test_a_group_noted_in_passing_does_not_reserve_the_line() -> None:
    assert served_groups("Max: 80 mg daily (lower dose recommended for older adults)") == set()
    assert served_groups("Max: 20 mg daily (10 mg in older adults, liver disease)") == set()
    assert served_groups("odds ratios (OR) for women versus men 0.68 (0.57–0.81)") == set()
    assert served_groups("Not approved for children under 18") == set()
    assert served_groups("Hope for Wellness: emotional support for Indigenous people. 1-855-242-3310") == {
        "Indigenous people"
    }
