"""A question that chooses or compares ("which SSRI …?", "X vs Y") answered from one option's section is flagged."""

from __future__ import annotations

import pytest

from curbside.ask.focus import Outline, asks_choice, one_option

# the shape of the CEP anxiety-and-depression page's outline
CEP = Outline(
    [
        "Management > First-line medication options",
        "Management > First-line medication options > Citalopram (Celexa®)",
        "Management > First-line medication options > Fluoxetine (Prozac®)",
        "Management > First-line medication options > Sertraline (Zoloft®)",
        "Management > First-line medication options > Talking tips",
        "Management > Medication counselling > Talking tips",
        "Management > Warnings and precautions > Hyponatremia",
        "Management > Warnings and precautions > QTc prolongation",
        "Management > Special populations > Peri/post natal > Psychological management",
        "Management > Special populations > Peri/post natal > Pharmacological management",
        "Management > Special populations > Older adults > Psychological management",
        "Management > Special populations > Older adults > Pharmacological management",
        "Follow-up/monitoring > Depression > Overall approach > Ongoing treatment options",
        "Follow-up/monitoring > Anxiety > Overall approach > Ongoing treatment options",
        "Follow-up/monitoring > Discontinuation & withdrawal symptoms > Sleep",
        "Methods > Construct validity",
        "Results > Test-retest reliability",
    ]
)
SERTRALINE = "Management > First-line medication options > Sertraline (Zoloft®)"
CITALOPRAM = "Management > First-line medication options > Citalopram (Celexa®)"
DEPRESSION = "Follow-up/monitoring > Depression > Overall approach > Ongoing treatment options"
ANXIETY = "Follow-up/monitoring > Anxiety > Overall approach > Ongoing treatment options"


def parts(path: str) -> list[str]:
    return path.split(" > ")


@pytest.mark.parametrize(
    "question",
    [
        "which SSRI is easiest to come off of?",
        "what counts as remission in GAD vs just response?",
        "sertraline versus citalopram in older adults?",
        "best antidepressant for a pt with heart disease?",
        "preferred SSRI in pregnancy?",
        "safest AD for an 80 yo?",
    ],
)
def test_choosing_and_comparing_questions_are_recognised(question: str) -> None:
    assert asks_choice(question)


@pytest.mark.parametrize("question", ["sertraline starting dose?", "how long to continue an SSRI after remission?"])
def test_other_questions_do_not_choose(question: str) -> None:
    assert not asks_choice(question)


def test_drug_sections_under_one_parent_are_options() -> None:
    options = CEP.options(parts(SERTRALINE), 2)
    assert options == {"Citalopram (Celexa®)", "Fluoxetine (Prozac®)", "Sertraline (Zoloft®)"}
    # "Talking tips" beside the drugs names no subject: no option itself
    assert CEP.options(parts("Management > First-line medication options > Talking tips"), 2) == set()


def test_sections_filing_the_same_outline_below_them_are_options() -> None:
    assert CEP.options(parts(DEPRESSION), 1) == {"Depression", "Anxiety"}
    assert CEP.options(parts("Management > Special populations > Older adults"), 2) == {
        "Older adults",
        "Peri/post natal",
    }


def test_one_shared_sub_heading_or_the_top_level_makes_no_options() -> None:
    # both file a "Talking tips", which is not the same outline
    assert CEP.options(parts("Management > First-line medication options"), 1) == set()
    # the document's parts are not options of one kind
    assert CEP.options(parts("Methods > Construct validity"), 0) == set()


def test_a_choosing_question_answered_from_one_drug_section_is_flagged() -> None:
    drawn = one_option("which SSRI is easiest to come off of?", [(SERTRALINE, CEP)])
    assert drawn is not None
    assert drawn.headings == ("Sertraline (Zoloft®)",)
    assert (drawn.parent, drawn.options) == ("First-line medication options", 3)


def test_an_answer_drawing_on_unnamed_condition_branches_is_flagged() -> None:
    drawn = one_option("what counts as remission in GAD vs just response?", [(DEPRESSION, CEP), (ANXIETY, CEP)])
    assert drawn is not None and drawn.headings == ("Anxiety", "Depression")
    assert drawn.parent == "Follow-up/monitoring"


def test_comparing_two_named_options_from_one_of_them_is_flagged() -> None:
    question = "sertraline vs citalopram - which is safer for the heart?"
    drawn = one_option(question, [(SERTRALINE, CEP)])
    assert drawn is not None and drawn.headings == ("Sertraline (Zoloft®)",)
    assert one_option(question, [(SERTRALINE, CEP), (CITALOPRAM, CEP)]) is None


def test_an_answer_from_the_option_named_or_from_no_option_is_not_flagged() -> None:
    assert one_option("which sertraline dose for older adults?", [(SERTRALINE, CEP)]) is None
    assert one_option("sertraline starting dose?", [(CITALOPRAM, CEP)]) is None  # not a choosing question
    assert one_option("which SSRI is preferred?", [("Management > First-line medication options", CEP)]) is None
    assert (
        one_option(
            "which SSRI carries a hyponatremia risk?", [("Management > Warnings and precautions > Hyponatremia", CEP)]
        )
        is None
    )


def test_a_few_subject_words_among_many_topic_headings_make_no_options() -> None:
    # an article's results: three of six sub-headings hold a word no dictionary lists; they are topics, not options
    article = Outline(
        [
            "Results > Plasma thyroid hormones",
            "Results > Pituitary gene transcripts",
            "Results > TR and BTEB mRNAs in the brain",
            "Results > TR transcripts in the liver",
            "Results > Gonad staging and reproductive behavior",
            "Results > Tissue levels of PBDE-47",
        ]
    )
    path = "Results > Tissue levels of PBDE-47"
    assert article.options(parts(path), 1) == set()
    assert one_option("PBDE-47 upped TR alpha transcripts in the brain of which sex?", [(path, article)]) is None


def test_population_sections_are_what_a_question_naming_a_population_is_about() -> None:
    perinatal = "Management > Special populations > Peri/post natal > Pharmacological management"
    assert one_option("which antidepressant must be avoided in pregnancy?", [(perinatal, CEP)]) is None
    assert one_option("preferred antidepressant while breastfeeding?", [(perinatal, CEP)]) is None
    # without a population in the question, an answer from one population's section is flagged
    older = "Management > Special populations > Older adults > Pharmacological management"
    drawn = one_option("which antidepressant is best for depression?", [(older, CEP)])
    assert drawn is not None and drawn.headings == ("Older adults",)
