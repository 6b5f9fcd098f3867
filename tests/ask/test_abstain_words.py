"""What the abstention evidence makes of a question's words, on the real knowledge base of tests/ask (the CEP
page, the PMC articles, the samples): a word the documents write another way is known, a common English word
they never use is no evidence, and the words of the asking are not key words."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from curbside.app import Curbside
from curbside.ask.abstain import common_in_english, family, key_words, resolve_unknown, spellings
from curbside.llm.extractive import answer_kind
from curbside.types import AskRequest


def _resolved(core: Curbside, question: str) -> tuple[dict[str, str], dict[str, int]]:
    engine = core.search_engine
    keys = key_words(question)
    frequencies, _ = engine.word_frequencies(list(keys))
    return resolve_unknown(keys, frequencies, lambda words, prefix: engine.word_frequencies(words, prefix=prefix)[0])


def test_words_the_documents_write_another_way_are_known(make_core) -> None:
    core = make_core()
    # the EPIC article writes "post-menopausal"; the phage article writes "λ"
    keys, frequencies = _resolved(core, "does the pill lower colorectal cancer risk in postmenopausal women?")
    assert frequencies["postmenopausal"] > 0
    keys, frequencies = _resolved(core, "how does mean lysis time relate to its standard deviation in phage lambda?")
    assert frequencies["lambda"] > 0
    assert "λ" in spellings("lambda") and "post menopausal" in spellings("postmenopausal")
    # a phage named with a Greek letter and digits: the article writes "φX174"
    keys, frequencies = _resolved(core, "phenotypic complexity estimate for phiX174?")
    assert frequencies["phix174"] > 0
    assert "φx174" in spellings("phix174") and not any(s.startswith("π") for s in spellings("pituitary"))


def test_another_ending_of_a_long_word_is_known_but_not_a_shorter_relative(make_core) -> None:
    core = make_core()
    assert family("atherosclerosis") == "atheroscler" and family("visualise") == "visual"
    assert family("methylphenidate") == "methylpheni"  # never "methyl": a long word keeps most of itself
    assert family("atrial") is None  # six letters: nothing shorter to share
    keys, frequencies = _resolved(core, "methylphenidate starting dose for a child with ADHD?")
    assert frequencies["methylphenidate"] == 0  # the knowledge base has methylation, not methylphenidate


def test_a_common_english_word_the_documents_never_use_is_no_evidence(make_core) -> None:
    core = make_core()
    keys, frequencies = _resolved(core, "patient already bought an antidepressant abroad, safe to keep taking it?")
    assert common_in_english("bought") and "bought" not in keys
    keys, frequencies = _resolved(core, "amiodarone loading dose for atrial fibrillation?")
    assert not common_in_english("amiodarone")
    assert frequencies["amiodarone"] == 0 and "amiodarone" in keys


def test_the_words_of_the_asking_are_not_key_words() -> None:
    assert "long" not in key_words("how long to continue an antidepressant after remission of depression?")
    assert "much" not in key_words("how much is the ADP grant for insulin pump supplies?")
    assert set(key_words("how long must a disability last to qualify for ADP?")) == {
        "disability",
        "last",
        "qualify",
        "adp",
    }


def test_a_time_span_in_words_is_a_time_span() -> None:
    shows = answer_kind("how long must a disability last to qualify?")
    assert shows is not None
    assert shows.search("requiring the use of a Device for six months or longer")
    assert shows.search("within thirty (30) days of the decision")
    assert not shows.search("one of the devices")


def test_a_price_is_a_sum_of_money_and_a_share_is_not() -> None:
    from curbside.llm.extractive import asked_kind

    assert asked_kind("what is the ADP approved price for a power scooter?") == "price"
    assert asked_kind("how much is the ADP grant for insulin pump supplies?") == "price"
    # a share of a price, or what a payer covers, may be a percentage
    assert asked_kind("what percentage of a walker's price does ADP pay?") == "amount"
    assert asked_kind("how much does ADP cover for a walker?") == "amount"
    shows = answer_kind("what is the approved price for a power scooter?")
    assert shows is not None
    assert shows.search("The Approved Price is $3,150.00 for this scooter")
    assert not shows.search("ADP pays 75 percent (75%) of the Approved Price")


def test_a_value_word_that_only_qualifies_what_is_asked_asks_no_value() -> None:
    from curbside.llm.extractive import asked_kind

    # questions of the guideline sets that were withheld for stating no dose, phone number or price
    assert asked_kind("PHQ-9 unchanged at 6 wks, turns out he skips doses half the week - what does CEP say?") is None
    assert asked_kind("high-dose PBDE-47 - what happened to pituitary GPHα?") is None
    assert asked_kind("very nervous pt about to start zoloft - overall dosing message to give her?") is None
    assert asked_kind("after starting an SSRI, can follow-up be a phone call or done by my nurse?") is None
    assert asked_kind("pt refuses to come in - ok to do the check-ins by phone or email?") is None
    # blind 20: a price's change or how a price is set asks the policy (ADP Manual §215.04 "cost neutral", §205.17)
    assert (
        asked_kind("manufacturer requesting a price increase on a listed device - what's the ADP expectation?") is None
    )
    assert asked_kind("manufacturer's new device is a breakthrough - how does ADP benchmark its price?") is None
    # … and those that ask one still do
    assert asked_kind("PBDE-47 minnow study high dose?") == "dose"
    assert asked_kind("local toronto phone # for ADP general inquiries?") == "phone number"
    assert asked_kind("what is the starting dose of sertraline?") == "dose"
    assert asked_kind("ADP approved price for a ROHO air cushion?") == "price"


def test_a_count_is_a_number_in_digits_or_words() -> None:
    from curbside.llm.extractive import asked_kind

    assert asked_kind("how many questions are in the Oral Health Impact Profile?") == "count"
    shows = answer_kind("how many lipase family enzymes does M. tuberculosis have?")
    assert shows is not None
    assert shows.search("which encompasses twelve serine hydrolases closely related to the human HSL")
    assert shows.search("This instrument consists of 49 questions")
    assert not shows.search("Refer adult patients to publicly funded, short-term services")


def test_the_abstention_evidence_is_recorded_with_the_resolved_words(make_core) -> None:
    answer = asyncio.run(
        make_core().asker.ask(
            AskRequest(question="does the pill lower colorectal cancer risk in postmenopausal women?", use_llm=False)
        )
    )
    evidence = answer.metadata["abstention"]
    assert evidence["unknown_words"] == [] and evidence["unknown"] == 0.0
    assert "subject_in_answer" in evidence
    assert answer.status == "answered"


def test_a_rare_word_the_knowledge_base_lacks_names_a_subject_it_does_not_cover() -> None:
    from curbside.ask.abstain import lacking_subjects

    # terms of art no chunk holds: the question is about something the knowledge base does not cover
    assert lacking_subjects(("aspirin",)) == ("aspirin",)
    assert lacking_subjects(("krabbe",)) == ("krabbe",)
    # a plain word the documents say otherwise names no missing subject (tests/ask/test_subjects.py)
    assert lacking_subjects(("regimen",)) == ()
    assert lacking_subjects(("samhd1",)) == ("samhd1",)
    # an abbreviation the knowledge base may spell out, and everyday English, say less about the subject
    assert lacking_subjects(("wsib", "ect")) == ()
    assert lacking_subjects(("wax", "slower")) == ()
    # a drug a dictionary also lists is still a drug: the offline lexicon (DrugBank's names) knows it
    assert lacking_subjects(("quinine",)) == ("quinine",)
    assert lacking_subjects(("chloramphenicol",)) == ("chloramphenicol",)


def test_a_question_about_a_drug_the_knowledge_base_never_mentions_is_not_answered(make_core) -> None:
    answer = asyncio.run(
        make_core().asker.ask(AskRequest(question="does aspirin reduce colorectal cancer risk?", use_llm=False))
    )
    assert answer.status == "no_source"
    assert "'aspirin'" in answer.answer
    assert answer.metadata["abstention"]["guard"] == "the knowledge base never mentions aspirin"


def test_a_clipped_or_prefixed_word_begins_a_word_the_documents_have() -> None:
    from curbside.ask.abstain import beginnings

    assert "fluvox" in beginnings("fluvox")  # a clinician's clipping of fluvoxamine
    assert "titrate" in beginnings("uptitrate") and "titrat" in beginnings("titrate")
    assert beginnings("ssri") == []  # an abbreviation is looked up only as itself
    known = {"fluvoxamine", "titrate", "titration"}

    def lookup(words: list[str], prefix: bool) -> dict[str, int]:
        return {w: sum(k.startswith(w) if prefix else k == w for k in known) for w in words}

    for word in ("fluvox", "uptitrate"):
        keys, frequencies = resolve_unknown({word: word[:6]}, {word: 0}, lookup)
        assert frequencies[word] > 0, word
    keys, frequencies = resolve_unknown({"amiodarone": "amioda"}, {"amiodarone": 0}, lookup)
    assert frequencies["amiodarone"] == 0


def test_a_noun_of_action_the_documents_lack_names_no_missing_subject() -> None:
    from curbside.ask.abstain import lacking_subjects

    assert lacking_subjects(["augmentation", "amiodarone"]) == ("amiodarone",)
    assert lacking_subjects(["krabbe"]) == ("krabbe",)


def test_the_name_of_the_value_asked_is_no_key_word() -> None:
    assert "cutoff" not in key_words("GAD-7 cutoff for severe anxiety?")
    assert "phone" not in key_words("phone # for the Central Equipment Pool?")
    assert "code" not in key_words("ODB LU code for vortioxetine?")


def test_the_subject_is_a_word_that_could_name_one_before_a_rare_common_word() -> None:
    from curbside.ask.abstain import rarity, subject_word

    keys = {"colorectal": "colore", "pill": "pill", "epic": "epic"}
    frequencies = {"colorectal": 40, "pill": 1, "epic": 30}
    # the article writes "oral contraceptive" and says "pill" once: "pill" is rarest but names less
    assert subject_word(keys, rarity(frequencies, 500), frequencies) == "colorectal"  # "epic" is common English
    only_common = {"pill": "pill", "women": "women"}
    assert subject_word(only_common, rarity({"pill": 1, "women": 50}, 500), {"pill": 1, "women": 50}) == "pill"
    # a clipped everyday word ('yrs': years) is rare in the knowledge base but names no subject
    clipped = {"pill": "pill", "yrs": "yrs", "colorectal": "colore"}
    counts = {"pill": 40, "yrs": 1, "colorectal": 40}
    assert subject_word(clipped, rarity(counts, 500), counts) == "colorectal"


def test_an_abbreviation_written_out_in_known_words_or_a_scale_without_its_hyphen_is_known() -> None:
    """'newly dx T2DM, eGFR 38 - start metformin?' was withheld as naming something the knowledge base lacks
    ('t2dm'), though the texts write 'diabetes mellitus'; 'PHQ9' is the CEP page's 'PHQ-9'."""
    known = {"type", "diabetes", "mellitus", "phq 9"}

    def lookup(words: list[str], prefix: bool) -> dict[str, int]:
        return {w: sum(k.startswith(w) if prefix else k == w for k in known) for w in words}

    assert "phq 9" in spellings("phq9") and "b 12" in spellings("b12")
    for word in ("t2dm", "phq9"):
        _, frequencies = resolve_unknown({word: word}, {word: 0}, lookup)
        assert frequencies[word] > 0, word
    # a clipped everyday word the texts write out: 'mild-mod depression' is 'mild to moderate depression'
    known.add("moderate")
    _, frequencies = resolve_unknown({"mod": "mod"}, {"mod": 0}, lookup)
    assert frequencies["mod"] > 0
    # an abbreviation whose written-out words are not all known is still lacking ('sodium-glucose cotransporter 2')
    _, frequencies = resolve_unknown({"sglt2": "sglt2"}, {"sglt2": 0}, lookup)
    assert frequencies["sglt2"] == 0


def test_an_abbreviation_of_the_published_lexicon_is_known_by_the_reading_the_documents_hold() -> None:
    """The search layer's list has no 'SOB'; the lexicon (``medical_abbreviations``) reads it as shortness of breath.
    Of 'ABG''s readings (arterial blood gas, autogenous bone graft) the one the texts hold counts."""
    known = {"shortness", "breath", "arterial", "blood"}

    def lookup(words: list[str], prefix: bool) -> dict[str, int]:
        return {w: sum(k.startswith(w) if prefix else k == w for k in known) for w in words}

    _, frequencies = resolve_unknown({"sob": "sob"}, {"sob": 0}, lookup)
    assert frequencies["sob"] == 1
    # 'gas' is too short to name anything alone; 'arterial', 'blood' both held
    _, frequencies = resolve_unknown({"abg": "abg"}, {"abg": 0}, lookup)
    assert frequencies["abg"] == 1
    # a reading the texts do not hold leaves the abbreviation lacking ('tpn': total parenteral nutrition)
    _, frequencies = resolve_unknown({"tpn": "tpn"}, {"tpn": 0}, lookup)
    assert frequencies["tpn"] == 0


def _holding(*known: str) -> Callable[[list[str], bool], dict[str, int]]:
    """A chunk-frequency lookup over a knowledge base holding just ``known`` (one chunk each)."""

    def lookup(words: list[str], prefix: bool) -> dict[str, int]:
        return {w: sum(k.startswith(w) if prefix else k == w for k in known) for w in words}

    return lookup


def test_a_symptom_in_everyday_words_is_known_by_its_clinical_term() -> None:
    # "new anorgasmia 2 wks into zoloft …": the CEP page files it under "sexual dysfunction" (``llm.lay_terms``)
    _, frequencies = resolve_unknown({"anorgasmia": "anorga"}, {"anorgasmia": 0}, _holding("sexual", "dysfunction"))
    assert frequencies["anorgasmia"] > 0
    _, frequencies = resolve_unknown({"anorgasmia": "anorga"}, {"anorgasmia": 0}, _holding())
    assert frequencies["anorgasmia"] == 0  # a knowledge base without the clinical term does not know it either


def test_a_devices_everyday_name_is_known_by_the_manuals_name() -> None:
    # 'rollator' (5 development questions withheld as 'the knowledge base never mentions rollator'): the ADP
    # Mobility Devices manual writes "Adult Wheeled Walker Type 3"
    _, frequencies = resolve_unknown({"rollator": "rollat"}, {"rollator": 0}, _holding("wheeled", "walker"))
    assert frequencies["rollator"] > 0
