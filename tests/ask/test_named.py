"""A passage that could answer must name what the question names (ask/named.py)."""

from __future__ import annotations

from curbside.ask.abstain import rarity
from curbside.ask.named import NAMED_KINDS, named_subject, naming_words, unnamed, withheld_unnamed, yes_no
from curbside.llm.extractive import answer_kind

DURATIONS = (
    "Anxiety and Depression > Follow-up/monitoring > Duration\n\n"
    "Depression: 6-12 months after symptom remission\n\nAnxiety: 12-24 months"
)
OLDER_ADULTS = (
    "Anxiety and Depression > Special populations > Older adults\n\n"
    "Medication has similar effectiveness as in younger adults. First-line: sertraline or duloxetine."
)
PTSD_LIST = "Comorbid mental health conditions\n\nPost-traumatic stress disorder (PTSD)\n\nBipolar disorder"


def test_words_that_could_name_a_subject_are_those_not_common_in_english() -> None:
    assert naming_words(["continue", "ssri", "ptsd"]) == ["ssri", "ptsd"]
    assert naming_words(["ect", "severe", "depression", "older", "adults"]) == ["ect"]
    assert naming_words(["samhd1", "gene"]) == ["samhd1"]


def test_a_charts_shorthand_names_no_subject() -> None:
    # "what age were pts included from?": the article says "patients" or "participants", never "pts"
    assert naming_words(["colorectal", "pts", "included"]) == ["colorectal"]
    assert naming_words(["older", "naproxen", "yo"]) == ["naproxen"]


def test_the_subject_is_the_rarest_word_that_could_name_one() -> None:
    idf = rarity({"continue": 17, "ssri": 16, "ptsd": 1, "ect": 0, "severe": 53}, chunks=600)
    assert named_subject(["continue", "ssri", "ptsd"], idf) == ["ptsd"]
    assert named_subject(["ect", "severe"], idf) == ["ect"]  # a word the knowledge base lacks is rarest
    assert named_subject(["continue", "severe"], idf) == []  # only common words: nothing to require


def test_a_plain_word_the_knowledge_base_lacks_is_the_subject_only_when_nothing_else_could_be() -> None:
    idf = rarity({"paxil": 3, "frail": 0, "mattress": 0, "lamotrigine": 0}, chunks=600)
    # "max paxil dose in a frail 85 yo?": the passages say "debilitated patients", not "frail"
    assert named_subject(["paxil", "frail"], idf, lacked=("frail",)) == ["paxil"]
    # "how often will ADP replace a mattress?": nothing else names the subject
    assert named_subject(["mattress"], idf, lacked=("mattress",)) == ["mattress"]
    # a drug the knowledge base lacks stays the subject
    assert named_subject(["paxil", "lamotrigine"], idf, lacked=("lamotrigine",)) == ["lamotrigine"]


def test_a_duration_about_other_conditions_leaves_the_asked_one_unnamed() -> None:
    shows = answer_kind("how long to continue an SSRI for PTSD?")
    # PTSD is in the knowledge base, but not in a passage that states a time span
    assert unnamed(["ptsd"], [DURATIONS, PTSD_LIST], shows) == ("ptsd",)
    assert unnamed(["remission"], [DURATIONS, PTSD_LIST], shows) == ()
    assert unnamed(["ptsd"], [PTSD_LIST]) == ()  # any passage, when no kind of value is asked


def test_the_best_passage_decides_and_all_words_must_be_named_together() -> None:
    one = "Sertraline is first-line for depression."
    other = "ECT is used in severe cases."
    assert unnamed(["sertraline", "ect"], [one, other]) == ("ect",)  # each named, never together
    assert unnamed(["sertraline", "ect"], [one + " " + other]) == ()
    assert unnamed([], [one]) == ()


def test_a_word_is_named_in_another_ending_spelling_or_case_but_an_abbreviation_only_whole() -> None:
    assert unnamed(["vaccine"], ["No vaccination had been performed in sheep."]) == ()
    assert unnamed(["postmenopausal"], ["Risk in post-menopausal women."]) == ()
    assert unnamed(["retest"], ["Test-retest reliability was excellent."]) == ()
    assert unnamed(["lambda"], ["The phage λ lysis time."]) == ()
    assert unnamed(["ssri"], ["SSRIs are first-line."]) == ()
    assert unnamed(["ect"], ["An ectopic pregnancy.", "The effect size."]) == ("ect",)


def test_yes_no_questions_open_with_their_verb() -> None:
    assert yes_no("is ECT recommended for severe depression in older adults?")
    assert yes_no("Is there a vaccine for farmers?")
    assert yes_no("does ADP cover hearing aids?")
    assert not yes_no("which antidepressant is recommended in pregnancy?")
    assert not yes_no("patient already bought a walker, can ADP reimburse?")  # the verb is not its opening


def test_the_message_names_the_missing_words_and_the_kind() -> None:
    assert withheld_unnamed("time span", ()) is None
    message = withheld_unnamed("time span", ("ptsd",)) or ""
    assert "state a time span mentions 'ptsd'" in message
    assert "'ect'" in (withheld_unnamed(None, ("ect",)) or "")
    assert "amount" not in NAMED_KINDS  # a share is a rule for every device, stated without naming one
    assert {"dose", "time span", "age"} <= set(NAMED_KINDS)


def test_an_abbreviation_is_named_by_what_it_stands_for_and_only_by_that() -> None:
    passage = "For adults without compelling indications, first-line options for hypertension include an ARB."
    assert unnamed(["htn"], [passage]) == ()
    assert unnamed(["htn"], ["Obtain an eGFR before starting metformin."]) == ("htn",)
    assert unnamed(["ckd"], ["Dose adjustment in chronic kidney disease."]) == ()
    assert unnamed(["ckd"], ["Dose adjustment in chronic liver disease."]) == ("ckd",)


def test_an_abbreviation_is_named_by_the_condition_word_of_what_it_stands_for() -> None:
    # the CEP page: "Depression: 6-12 months after symptom remission" answers "pt in remission from MDD - how long
    # to keep the antidepressant going?" (major depressive disorder: 'depressive' names the condition)
    shows = answer_kind("pt in remission from MDD - how long to keep the antidepressant going?")
    assert unnamed(["mdd"], ["Depression: 6-12 months after symptom remission"], shows) == ()
    # 'major' and 'disorder' name no condition: anxiety's duration does not name MDD, nor depression PTSD
    assert unnamed(["mdd"], ["Anxiety: 12-24 months after a major disorder remits"], shows) == ("mdd",)
    assert unnamed(["ptsd"], [DURATIONS], answer_kind("how long to continue an SSRI for PTSD?")) == ("ptsd",)
