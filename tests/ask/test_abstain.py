"""The answer/no-answer evidence and the fitted model (ask/abstain.py)."""

from __future__ import annotations

from dataclasses import replace

from curbside.ask.abstain import (
    FEATURES,
    Evidence,
    abstention_model,
    agreement,
    key_words,
    rarity,
    typed_answer,
    unknown_words,
    weighted_share,
)
from curbside.llm.extractive import passage_units
from curbside.types import Passage

DOSING = Passage(
    chunk_id="cep:v1:7",
    doc_key="cep",
    title="Anxiety and Depression",
    section_path="Management > First-line medication options > Sertraline (Zoloft®)",
    score=1.0,
    text="Anxiety and Depression > Management > First-line medication options > Sertraline (Zoloft®)\n\n"
    "Coverage: ODB; NIHB\n\nDosing\n\nInitial: 25-50 mg daily (am/pm)\n\nMax: 200 mg daily",
)


def test_key_words_keep_content_words_and_their_answer_terms() -> None:
    keys = key_words("What is the walker's maximum dose of sertraline?")
    assert keys == {"walker": "walker", "maximum": "max", "dose": "dose", "sertraline": "sertra"}


def test_a_patients_age_and_sex_and_the_source_asked_by_name_are_no_key_words() -> None:
    # blind 19: "34F" and "27M" were taken for the subject no passage names, and so was "CEP" in "per CEP"
    assert "34f" not in key_words("34F w mild MDD, would do yoga - how often and for how long does CEP say?")
    assert "27m" not in key_words("uninsured 27M - roughly what does cipralex cost per 100 days?")
    assert "cep" not in key_words("paxil to zoloft cross-taper - how long do these usually take per CEP?")
    assert "cep" not in key_words("how to phrase how long to stay on the AD - CEP talking tip wording?")
    assert "epic" in key_words("EPIC - HR for CRC with menopause after age 55?")  # a study named is what it asks
    assert "mdd" in key_words("34F w mild MDD - what does CEP say?")
    assert "cep" not in key_words("delayed orgasm on his SSRI - any dose-timing trick CEP suggests?")  # blind 20


def test_a_name_joined_to_its_number_is_matched_whole() -> None:
    # "GAD-7" is the scale: a unit that says only "GAD" (the disorder) does not hold it
    assert key_words("GAD-7 cutoff for severe anxiety?")["gad"] == "gad-7"
    assert key_words("PHQ-9 score?")["phq"] == "phq-9"
    assert key_words("sertraline 50-100 mg?") == {"sertraline": "sertra"}  # a range is no name


def test_contractions_leave_no_fragment_as_a_key_word() -> None:
    # "didn" and "isn" are in no document: as key words they made answerable questions look unanswerable
    question = "stopping an SSRI that didn't work to switch to another - how fast can I taper?"
    assert key_words(question) == {
        "stopping": "stopp", "ssri": "ssri", "work": "work", "switch": "switch", "another": "anothe", "taper": "taper"
    }  # fmt: skip
    assert set(key_words("depressed pt who’s lost weight and isn’t eating; they're sure")) == {
        "depressed", "lost", "weight", "eating", "sure"
    }  # fmt: skip
    assert "dint" in key_words("a dint in the wheelchair frame")  # a word ending in "n" and "t" is no contraction


def test_rare_words_weigh_more_and_unknown_words_are_named() -> None:
    idf = rarity({"dose": 90, "amiodarone": 0, "fibrillation": 0, "2024": 0}, chunks=100)
    assert idf["amiodarone"] > idf["dose"] > 0
    assert unknown_words({"dose": 90, "amiodarone": 0, "2024": 0}) == ("amiodarone",)
    keys = {"dose": "dose", "amiodarone": "amioda"}
    assert weighted_share({"dose"}, keys, idf) < 0.2  # the rare word carries the weight
    assert weighted_share({"dose", "amioda"}, keys, idf) == 1.0


def test_typed_answer_needs_the_kind_of_value_the_question_asks_for_about_its_subject() -> None:
    units = passage_units(DOSING, 0)
    frequencies = {"sertraline": 3, "starting": 20, "dose": 30, "amiodarone": 0, "loading": 0}
    idf = rarity(frequencies, chunks=200)
    sertraline = key_words("sertraline starting dose?")
    amiodarone = key_words("amiodarone loading dose?")
    f = frequencies
    assert typed_answer("sertraline starting dose?", units, sertraline, idf, f)  # "Initial: 25-50 mg", under Dosing
    assert not typed_answer("amiodarone loading dose?", units, amiodarone, idf, f)  # mg, but about sertraline
    assert typed_answer("who covers sertraline?", units, key_words("who covers sertraline?"), idf, f)  # no kind asked


def test_typed_answer_needs_the_rarest_word_the_knowledge_base_knows() -> None:
    # lithium is in the knowledge base (a line somewhere), but the doses found are sertraline's
    units = passage_units(DOSING, 0)
    frequencies = {"lithium": 2, "starting": 20, "dose": 30, "bipolar": 0}
    idf = rarity(frequencies, chunks=200)
    question = "lithium starting dose for bipolar?"
    assert not typed_answer(question, units, key_words(question), idf, frequencies)


def test_a_plain_word_the_knowledge_base_lacks_does_not_outweigh_the_subject() -> None:
    # "augmentation" is in no chunk (the page says "adjunct"); as the rarest key word it left every unit short of half
    # the weight, and withheld the dose the page gives under the drug
    units = passage_units(DOSING, 0)
    frequencies = {"sertraline": 3, "max": 20, "dose": 30, "range": 40, "augmentation": 0, "amiodarone": 0}
    idf = rarity(frequencies, chunks=200)
    question = "sertraline dose range as augmentation?"
    assert typed_answer(question, units, key_words(question), idf, frequencies)
    other = "max amiodarone dose as augmentation?"  # a drug the knowledge base lacks still weighs
    assert not typed_answer(other, units, key_words(other), idf, frequencies)


# a row of the EPIC paper's Table 2 (6605965a.nxml) under its group label, and the abstract's sentence naming the
# study: the row says neither "EPIC" nor "CRC", its document does
_EPIC_ROW = Passage(
    chunk_id="epic:v1:13",
    doc_key="epic",
    title="Oral contraceptives, reproductive history and risk of colorectal cancer",
    section_path="Figures and tables",
    score=1.0,
    text="Oral contraceptives, reproductive history and risk of colorectal cancer > Figures and tables\n\n"
    "Age at menopause\n\nVariable: >55; Number of cases/non-cases: 59/5084; "
    "Multivariable adjusted, HR (95% CI): 1.00 (0.76–1.31)",
)
_EPIC_ABSTRACT = Passage(
    chunk_id="epic:v1:0",
    doc_key="epic",
    title=_EPIC_ROW.title,
    section_path="Abstract",
    score=0.9,
    text=f"{_EPIC_ROW.title} > Abstract\n\nWe examined CRC risk in EPIC, a prospective cohort of 337 802 women.",
)


def test_a_name_in_capitals_may_be_the_documents_rather_than_the_units() -> None:
    read = [_EPIC_ROW, _EPIC_ABSTRACT]
    units = [u for rank, p in enumerate(read) for u in passage_units(p, rank)]
    frequencies = {"epic": 4, "crc": 6, "menopause": 3, "age": 40}
    idf = rarity(frequencies, chunks=120)
    question = "EPIC - HR for CRC with menopause after age 55?"
    keys = key_words(question)
    assert not typed_answer(question, units, keys, idf, frequencies)  # the row holds too little of the question
    assert typed_answer(question, units, keys, idf, frequencies, read)
    # a word not written as a name must be the unit's own: a document holding it does not make the row about it
    plain = "epic - HR for crc with menopause after age 55?"
    assert not typed_answer(plain, units, key_words(plain), idf, frequencies, read)


def test_the_rarest_word_may_be_the_documents_when_written_in_capitals() -> None:
    # the ADP policies manual's contact lines ("Fax: 416 327-8192") never say "ADP"; its other passages do
    title = "Assistive Devices Program Policies and Procedures Manual"
    fax = Passage(
        chunk_id="adp:v1:80",
        doc_key="adp",
        title=title,
        section_path="1100 Program Addresses",
        score=1.0,
        text=f"{title} > 1100 Program Addresses\n\nGrant applications\n\nFax: 416 327-8192",
    )
    intro = Passage(
        chunk_id="adp:v1:0",
        doc_key="adp",
        title=title,
        section_path="100 Introduction",
        score=0.9,
        text=f"{title} > 100 Introduction\n\nThe ADP helps people with long-term physical disabilities.",
    )
    read = [fax, intro]
    units = [u for rank, p in enumerate(read) for u in passage_units(p, rank)]
    frequencies = {"adp": 2, "fax": 3, "grant": 5, "application": 30, "send": 20}
    idf = rarity(frequencies, chunks=300)
    question = "ADP fax # to send a grant application?"
    keys = key_words(question)
    assert not typed_answer(question, units, keys, idf, frequencies)  # the fax line does not say 'ADP'
    assert typed_answer(question, units, keys, idf, frequencies, read)
    plain = "adp fax # to send a grant application?"
    assert not typed_answer(plain, units, key_words(plain), idf, frequencies, read)


def test_agreement_means_both_retrievers_rank_the_top_hit_high() -> None:
    assert agreement(1, 3)
    assert not agreement(1, None)
    assert not agreement(4, 1)


def test_the_fitted_model_reads_its_features_and_weighs_evidence_the_right_way() -> None:
    model = abstention_model()
    assert model is not None, "src/curbside/ask/abstention.toml is missing or was fitted on other features"
    assert len(model.weights) == len(FEATURES) and 0.0 <= model.threshold <= 1.0
    good = Evidence(0.95, 1.0, (), 1.0, True, False, True, False)
    assert model.probability(good) > model.threshold
    assert model.probability(replace(good, top_relevance=0.3)) < model.probability(good)
    assert model.probability(replace(good, typed_answer=False)) < model.probability(good)
    assert model.probability(replace(good, unit_coverage=0.1)) < model.probability(good)


def test_withheld_value_guards_doses_and_prices() -> None:
    from curbside.ask.abstain import withheld_value

    good = Evidence(0.95, 1.0, (), 1.0, True, False, True, False)
    untyped = replace(good, typed_answer=False)
    assert "no dose for 'quetiapine'" in (withheld_value("dose", untyped, "quetiapine", []) or "")
    # a sum of money belongs to one device: "approved price for a power scooter?" is not answered by another's
    assert "no price for 'scooter'" in (withheld_value("price", untyped, "scooter", []) or "")
    assert withheld_value("price", good, "scooter", []) is None
    assert "no count for 'sessions'" in (withheld_value("count", untyped, "sessions", []) or "")
    # a share is often a rule for every device ("the ADP pays 75%"), stated without the device asked about
    assert withheld_value("amount", untyped, "walker", []) is None
    assert withheld_value("time span", untyped, "ptsd", []) is None  # left to named.py and the model
    # an age belongs to one screening: "at what age should colorectal screening start?" is not answered by a study's ages
    assert "no age for 'colorectal'" in (withheld_value("age", untyped, "colorectal", []) or "")
    assert withheld_value("age", good, "colorectal", []) is None
    assert withheld_value(None, untyped, "x", []) is None
    assert withheld_value("dose", good, "escitalopram", []) is None
    assert "dose for children" in (withheld_value("dose", good, "sertraline", ["children"]) or "")
    assert withheld_value("amount", good, "adp", ["children"]) is None


def test_a_payment_question_needs_money_or_a_share_stated_as_a_payment() -> None:
    from curbside.ask.abstain import withheld_payment
    from curbside.llm.extractive import asked_kind

    question = "what does OHIP pay for a psychotherapy session?"
    assert asked_kind(question) == "amount"
    rule = Passage(
        chunk_id="adp:v1:1",
        doc_key="adp",
        title="ADP manual",
        section_path="Part 4 > Funding",
        score=1.0,
        text="ADP manual > Part 4 > Funding\n\nThe ADP pays 75% of the Approved Price; the client pays 25%.",
    )
    study = Passage(
        chunk_id="ohip:v1:1",
        doc_key="ohip",
        title="Dutch OHIP",
        section_path="Methods",
        score=1.0,
        text="Dutch OHIP > Methods\n\nA convenience sample of 119 consecutive patients (68.9 % women) took part.",
    )
    # a share of anything else is no payment; the rule for every device is one, though it names no device
    assert "states a payment" in (withheld_payment("amount", question, passage_units(study, 0)) or "")
    assert withheld_payment("amount", question, passage_units(rule, 0)) is None
    how_much = "how much does the client pay toward a wheelchair?"
    assert withheld_payment(asked_kind(how_much), how_much, passage_units(rule, 0)) is None
    assert withheld_payment("dose", "sertraline dose?", passage_units(study, 0)) is None  # other kinds: not this guard


def test_an_intake_question_is_not_answered_by_the_doses_of_an_experiment() -> None:
    from curbside.ask.abstain import withheld_value
    from curbside.llm.extractive import asked_kind

    feeding = Passage(
        chunk_id="pbde:v1:3",
        doc_key="pbde",
        title="PBDE-47 in minnows",
        section_path="Materials and Methods > PBDE-47 exposures",
        score=1.0,
        text="PBDE-47 in minnows > Materials and Methods > PBDE-47 exposures\n\n"
        "Minnows were fed PBDE-47 bioencapsulated Artemia (1 mL) twice daily for 21 days.",
    )
    question = "what is a safe daily intake of PBDE-47 for humans?"
    frequencies = {"safe": 8, "daily": 27, "intake": 5, "pbde": 36, "humans": 15}
    idf = rarity(frequencies, chunks=600)
    keys = key_words(question)
    typed = typed_answer(question, passage_units(feeding, 0), keys, idf, frequencies)
    assert not typed  # "1 mL" is a dose, but of the experiment's feed: no unit speaks of an intake
    evidence = Evidence(0.7, 0.77, (), 0.45, True, False, typed, False)
    assert "no dose for 'intake'" in (withheld_value(asked_kind(question), evidence, "intake", []) or "")
