"""Yes/no criteria a note states plainly, read without a model (note_criteria.py), and the model's
focused questions (one criterion, the sentences that mention it).

The sentences are written for these tests in the manner of clinical notes, not copied from the
development notes.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from curbside.errors import UpstreamError
from curbside.tools.calculators.catalog import calculator, calculators
from curbside.tools.calculators.kit import CalcResult, Criterion
from curbside.tools.calculators.note import evaluate_note
from curbside.tools.calculators.note_criteria import criterion_terms, find_mentions, plain_answer
from curbside.tools.calculators.note_model import NO_MODEL


def _read(calc_id: str, note: str) -> CalcResult:
    return asyncio.run(evaluate_note(calculator(calc_id), note, {}))


def _criteria(result: CalcResult) -> dict[str, dict[str, Any]]:
    return {e["input"]: e for e in result.extracted if e["value"] in ("yes", "no")}


def test_a_denied_criterion_is_read_no_with_its_sentence() -> None:
    note = "Seen for tiredness. She denies black stools or vomiting blood. BUN 30 mg/dL."
    read = _criteria(_read("glasgow_blatchford", note))
    melena = read["melena"]
    assert (melena["value"], melena["method"]) == ("no", "parsed")
    assert melena["sentence"] == "She denies black stools or vomiting blood."
    assert melena["text"] == "black stools" and melena["note"] == "'black stools' denied ('denies')"


@pytest.mark.parametrize(
    "sentence",
    [
        "Chest film negative for pleural effusion.",
        "There is no pleural effusion on the radiograph.",
        "Radiograph without pleural effusion.",
        "A pleural effusion was excluded on ultrasound.",
        "Pleural effusion: ruled out.",
    ],
)
def test_negation_cues_before_and_after(sentence: str) -> None:
    assert _criteria(_read("psi_port", sentence))["pleural_effusion"]["value"] == "no"


def test_a_plain_history_is_read_yes() -> None:
    note = "Lives in a nursing home. Past history of congestive heart failure and COPD."
    read = _criteria(_read("psi_port", note))
    assert read["congestive_heart_failure"]["value"] == "yes"
    assert read["nursing_home_resident"]["value"] == "yes"
    assert read["congestive_heart_failure"]["sentence"] == "Past history of congestive heart failure and COPD."


@pytest.mark.parametrize(
    "note",
    [
        "Admitted to rule out pleural effusion.",  # a question, not a finding
        "Possible small pleural effusion on the left.",
        "Her mother died of congestive heart failure.",  # a relative's
        "Family history of congestive heart failure.",
        "At risk of congestive heart failure given her valve disease.",
    ],
)
def test_uncertain_or_someone_elses_is_not_read(note: str) -> None:
    read = _criteria(_read("psi_port", note))
    assert "pleural_effusion" not in read and "congestive_heart_failure" not in read


def test_not_stated_stays_missing_and_says_why() -> None:
    result = _read("psi_port", "An 80-year-old man with a cough. Temperature 38.4 °C.")
    assert _criteria(result) == {}
    assert {"nursing_home_resident", "pleural_effusion"} <= {m.input for m in result.missing}
    assert result.warnings[-1] == NO_MODEL


def test_a_clause_ends_the_negation() -> None:
    note = "No fever, but she has a history of stroke."
    read = _criteria(_read("psi_port", note))
    assert read["cerebrovascular_disease"]["value"] == "yes"


def test_mentions_that_disagree_are_not_read() -> None:
    note = "No history of stroke. MRI shows an old stroke in the left parietal lobe."
    assert "cerebrovascular_disease" not in _criteria(_read("psi_port", note))


def test_a_criterion_of_several_parts_is_not_denied_by_one_of_them() -> None:
    # RCRI cerebrovascular disease is a prior stroke or TIA: "no stroke" says nothing of a TIA
    assert "cerebrovascular_disease" not in _criteria(_read("rcri", "He has had no stroke."))
    # both denied together is plain
    denied = _criteria(_read("rcri", "He denies any prior stroke or transient ischemic attack."))
    assert denied["cerebrovascular_disease"]["value"] == "no"


def test_a_threshold_or_time_window_is_never_read_yes_from_a_mention() -> None:
    # HAS-BLED's hypertension is uncontrolled (systolic > 160): a history of it is not enough
    assert "hypertension" not in _criteria(_read("has_bled", "Known uncontrolled hypertension."))
    # Charlson's connective tissue disease counts moderate-severe rheumatoid arthritis only
    assert "connective_tissue_disease" not in _criteria(_read("charlson", "History of rheumatoid arthritis."))
    # PERC: surgery within 4 weeks; a mention of surgery is not that
    assert "recent_surgery_or_trauma" not in _criteria(_read("perc", "Recent surgery: knee arthroscopy in 2019."))
    # Caprini's acute myocardial infarction: an old one is not acute
    assert "acute_mi" not in _criteria(_read("caprini", "Admitted with pneumonia. History of MI in 2015."))


def test_us_spelling_and_full_names_of_abbreviations() -> None:
    terms = criterion_terms(calculator("rcri").input("cerebrovascular_disease"))  # type: ignore[arg-type]
    assert "transient ischemic attack" in terms and "TIA" in terms
    haemoptysis = calculator("perc").input("haemoptysis")
    assert isinstance(haemoptysis, Criterion)
    assert "hemoptysis" in [t.lower() for t in criterion_terms(haemoptysis)]
    assert _criteria(_read("perc", "She has no hemoptysis."))["haemoptysis"]["value"] == "no"


def test_short_capitals_only_as_written() -> None:
    item = calculator("psi_port").input("congestive_heart_failure")
    assert isinstance(item, Criterion)
    text = "She said chf was a word she had heard."  # lower-case 'chf' is no abbreviation of record
    assert [m.term for m in find_mentions(item, text, [(0, len(text))])] == []


def test_every_parsed_criterion_rests_on_words_in_its_sentence() -> None:
    """Whatever calculator and note, a criterion read without a model carries the words it was read from,
    and they are in the sentence shown, which is in the note."""
    note = (
        "An 70-year-old woman from a nursing home. History of stroke, COPD and congestive heart failure. "
        "She denies black stools, chest pain or syncope. No pleural effusion. No history of DVT or PE. "
        "She is not on oral contraceptives. No hemoptysis."
    )
    seen = 0
    for calc in calculators().values():
        try:
            result = asyncio.run(evaluate_note(calc, note, {}, missing="absent"))
        except Exception:  # noqa: BLE001 - a calculator whose required numbers this note lacks
            continue
        for entry in result.extracted:
            if entry["method"] == "parsed" and entry["value"] in ("yes", "no"):
                seen += 1
                assert entry["text"] in entry["sentence"] and entry["sentence"] in note
    assert seen >= 5


def test_plain_answer_needs_a_mention() -> None:
    item = Criterion("x", "Haemoptysis")
    assert plain_answer(item, []) is None


# --- the model, one criterion at a time ----------------------------------------------------------------------


class ItemModel:
    """A local model answering each item by its label, keeping every prompt it was sent."""

    name = "local"

    def __init__(self, answers: dict[str, dict[str, str]]) -> None:
        self.answers = answers
        self.prompts: list[str] = []

    async def complete_json(self, messages: list[dict[str, str]], schema: dict[str, Any], *, max_tokens: int) -> str:
        prompt = messages[-1]["content"]
        self.prompts.append(prompt)
        for label, answer in self.answers.items():
            if f"Item: {label}" in prompt:
                return json.dumps(answer)
        return json.dumps({"answer": "not stated", "quote": ""})


PERC_NOTE = (
    "A 58-year-old man with sudden dyspnoea. Heart rate 96, SpO2 97 %. "
    "On examination there is unilateral swelling of the right calf, which is tender. "
    "He takes no hormones. He flew home from Sydney last week."
)


def test_a_criterion_is_asked_only_with_the_sentences_that_mention_it() -> None:
    model = ItemModel({"Unilateral leg swelling": {"answer": "yes", "quote": "unilateral swelling of the right calf"}})
    result = asyncio.run(evaluate_note(calculator("perc"), PERC_NOTE, {}, model=model))
    asked = [p for p in model.prompts if "Item: Unilateral leg swelling" in p]
    assert len(asked) == 1 and "swelling of the right calf" in asked[0] and "Sydney" not in asked[0]
    # never mentioned: not asked at all, and left missing
    assert not any("Item: Haemoptysis" in p for p in model.prompts)
    assert "haemoptysis" in {m.input for m in result.missing}
    swelling = next(e for e in result.extracted if e["input"] == "unilateral_leg_swelling")
    assert (swelling["value"], swelling["method"]) == ("yes", "model")
    assert swelling["sentence"] == "On examination there is unilateral swelling of the right calf, which is tender."


def test_the_models_yes_is_dropped_without_its_quote_in_the_note() -> None:
    model = ItemModel({"Unilateral leg swelling": {"answer": "yes", "quote": "left leg markedly oedematous"}})
    result = asyncio.run(evaluate_note(calculator("perc"), PERC_NOTE, {}, model=model))
    assert "unilateral_leg_swelling" not in {e["input"] for e in result.extracted}
    assert "unilateral_leg_swelling" in {m.input for m in result.missing}
    assert any("quoting words that are not in the note" in w for w in result.warnings)


def test_the_models_yes_is_dropped_from_a_sentence_that_denies_it() -> None:
    note = "Sudden dyspnoea. He denies hemoptysis. Heart rate 90."
    model = ItemModel({"Haemoptysis": {"answer": "yes", "quote": "He denies hemoptysis"}})
    # parsing reads the denial first; the model is not asked what the note states plainly
    result = asyncio.run(evaluate_note(calculator("perc"), note, {}, model=model))
    haemoptysis = next(e for e in result.extracted if e["input"] == "haemoptysis")
    assert (haemoptysis["value"], haemoptysis["method"]) == ("no", "parsed")
    assert not any("Item: Haemoptysis" in p for p in model.prompts)
    # where parsing cannot decide (the mentions disagree), a 'yes' quoting the denial is still refused
    mixed = "He denies hemoptysis. Possible hemoptysis overnight per nursing."
    result = asyncio.run(evaluate_note(calculator("perc"), mixed, {}, model=model))
    assert "haemoptysis" not in {e["input"] for e in result.extracted}
    assert any("denies it or says it only as a possibility" in w for w in result.warnings)


def test_a_quote_from_a_sentence_not_shown_is_refused() -> None:
    model = ItemModel({"Unilateral leg swelling": {"answer": "yes", "quote": "He flew home from Sydney last week"}})
    result = asyncio.run(evaluate_note(calculator("perc"), PERC_NOTE, {}, model=model))
    assert "unilateral_leg_swelling" not in {e["input"] for e in result.extracted}
    assert any("quoting a sentence it was not shown" in w for w in result.warnings)


def test_a_model_that_fails_stops_being_asked() -> None:
    class Down(ItemModel):
        async def complete_json(
            self, messages: list[dict[str, str]], schema: dict[str, Any], *, max_tokens: int
        ) -> str:
            self.prompts.append(messages[-1]["content"])
            raise UpstreamError("cannot reach the local model at http://127.0.0.1:9/v1")

    model = Down({})
    result = asyncio.run(evaluate_note(calculator("perc"), PERC_NOTE, {}, model=model))
    assert len(model.prompts) == 1
    assert result.warnings[-1].startswith("the local model failed (cannot reach")


# --- criteria that are a measurement past a cut-off ----------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "value", "shown"),
    [
        ("On arrival pulse was 124 beats per minute and BP 102/64 mmHg.", "yes", "heart rate 124 /min > 100 /min"),
        ("HR 100, RR 18, afebrile.", "no", "heart rate 100 /min ≤ 100 /min"),  # exactly 100 does not count
    ],
)
def test_a_heart_rate_decides_tachycardia(note: str, value: str, shown: str) -> None:
    entry = _criteria(_read("wells_pe", note))["heart_rate_over_100"]
    assert (entry["value"], entry["method"], entry["note"]) == (value, "parsed", shown)
    assert entry["sentence"] == note


def test_a_temperature_in_fahrenheit_decides_fever() -> None:
    entry = _criteria(_read("centor", "Sore throat for two days; temperature 101.3 °F."))["fever"]
    assert (entry["value"], entry["note"]) == ("yes", "temperature 38.5 °C > 38 °C")


def test_no_measurement_written_leaves_it_to_the_words() -> None:
    # no temperature given: "fever" alone is not a temperature > 38 °C, so it stays missing without a model
    result = _read("centor", "Three days of fever and sore throat.")
    assert "fever" not in _criteria(result) and "fever" in {m.input for m in result.missing}


def test_the_models_yes_must_quote_words_that_name_the_criterion() -> None:
    note = "Sore throat for 2 days. The tonsils were examined. No cough."
    model = ItemModel({"Tonsillar swelling or exudate": {"answer": "yes", "quote": "The tonsils were examined"}})
    result = asyncio.run(evaluate_note(calculator("centor"), note, {}, model=model))
    assert "tonsillar_swelling_or_exudate" not in {e["input"] for e in result.extracted}
    assert any("quoting words that do not name it" in w for w in result.warnings)
    named = ItemModel({"Tonsillar swelling or exudate": {"answer": "yes", "quote": "exudate on both tonsils"}})
    result = asyncio.run(evaluate_note(calculator("centor"), "There is exudate on both tonsils.", {}, model=named))
    assert next(e for e in result.extracted if e["input"] == "tonsillar_swelling_or_exudate")["value"] == "yes"


def test_an_abbreviation_in_a_label_finds_its_full_name() -> None:
    note = "Past history: hypertension, gout and a pulmonary embolism in 2015."
    model = ItemModel({"Prior PE or DVT": {"answer": "yes", "quote": "a pulmonary embolism in 2015"}})
    result = asyncio.run(evaluate_note(calculator("perc"), note, {}, model=model))
    assert any("Item: Prior PE or DVT" in p and "pulmonary embolism" in p for p in model.prompts)
    assert next(e for e in result.extracted if e["input"] == "previous_dvt_pe")["method"] == "model"


def test_a_qualified_name_is_another_condition() -> None:
    note = "Known pulmonary hypertension on sildenafil."
    assert "hypertension" not in _criteria(_read("cha2ds2_vasc", note))
    assert _criteria(_read("cha2ds2_vasc", "Known hypertension on amlodipine."))["hypertension"]["value"] == "yes"


def test_an_option_for_absence_is_read_from_a_denial() -> None:
    note = "Abdomen soft, nondistended, without ascites. Bilirubin 1.1 mg/dL, albumin 3.9 g/dL, INR 1.1."
    entry = next(e for e in _read("child_pugh", note).extracted if e["input"] == "ascites")
    assert (entry["value"], entry["method"], entry["text"]) == ("none", "parsed", "ascites")
    # present says nothing of how much: left to the model, or asked
    present = _read("child_pugh", "Moderate ascites on ultrasound. Bilirubin 1.1 mg/dL, albumin 3.9 g/dL, INR 1.1.")
    assert "ascites" in {m.input for m in present.missing}


def test_the_models_no_must_quote_words_that_deny_the_criterion() -> None:
    note = "Haemoglobin 9.1 g/dL. INR checked monthly at the anticoagulation clinic. INR stable in range all year."
    # a sentence that does not mention it is no "no"
    guess = ItemModel(
        {
            "Labile INR (unstable or high INRs, time in therapeutic range < 60 %)": {
                "answer": "no",
                "quote": "INR checked monthly at the anticoagulation clinic",
            }
        }
    )
    result = asyncio.run(evaluate_note(calculator("has_bled"), note, {}, model=guess))
    assert "labile_inr" not in {e["input"] for e in result.extracted}
    assert any("quoting words that do not deny it" in w for w in result.warnings)
    stated = ItemModel(
        {
            "Labile INR (unstable or high INRs, time in therapeutic range < 60 %)": {
                "answer": "no",
                "quote": "INR stable in range all year",
            }
        }
    )
    result = asyncio.run(evaluate_note(calculator("has_bled"), note, {}, model=stated))
    assert next(e for e in result.extracted if e["input"] == "labile_inr")["value"] == "no"


def test_an_option_must_quote_words_of_the_item_or_the_option() -> None:
    note = "Found confused at home. Eyes open to voice; localises to pain; speech confused."
    model = ItemModel({"Best eye response (E)": {"answer": "to_speech", "quote": "e"}})
    result = asyncio.run(evaluate_note(calculator("gcs"), note, {}, model=model))
    assert "eye" not in {e["input"] for e in result.extracted}
    assert any("quoting words that do not name it" in w for w in result.warnings)
    named = ItemModel({"Best eye response (E)": {"answer": "to_speech", "quote": "Eyes open to voice"}})
    result = asyncio.run(evaluate_note(calculator("gcs"), note, {}, model=named))
    assert next(e for e in result.extracted if e["input"] == "eye")["value"] == "to_speech"


def test_the_callers_question_is_never_read_from_a_note() -> None:
    # the glucocorticoid to convert to is what the clinician asks, not a fact the note states
    model = ItemModel({"Glucocorticoid to convert to": {"answer": "prednisone", "quote": "prednisone"}})
    note = "Takes prednisone 20 mg daily."
    result = asyncio.run(evaluate_note(calculator("steroid_conversion"), note, {}, model=model))
    assert not any("Item: Glucocorticoid to convert to" in p for p in model.prompts)
    assert "to_drug" in {m.input for m in result.missing}
