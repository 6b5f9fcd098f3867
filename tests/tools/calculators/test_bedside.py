"""Glasgow Coma Scale, McIsaac (modified Centor) and FeverPAIN against their published definitions."""

from __future__ import annotations

import pytest

from curbside.errors import ValidationError
from curbside.tools.calculators.catalog import calculator
from curbside.tools.calculators.kit import CalcResult, evaluate


def _run(calc_id: str, **given: object) -> CalcResult:
    return evaluate(calculator(calc_id), given)


def _run_absent(calc_id: str, **given: object) -> CalcResult:
    """Unmentioned criteria scored absent (and listed), as ``missing="absent"``."""
    return evaluate(calculator(calc_id), given, missing="absent")


# --- Glasgow Coma Scale --------------------------------------------------------------------------------------


def test_gcs_extremes() -> None:
    # Teasdale & Jennett 1974/1976: E4 V5 M6 = 15 (fully alert); E1 V1 M1 = 3 (no response)
    alert = _run("gcs", eye="spontaneous", verbal="oriented", motor="obeys_commands")
    assert (alert.value, alert.display, alert.category) == (15, "15 points", "mild")
    assert alert.meaning is not None and alert.meaning.startswith("E4 V5 M6 = 15")
    deep = _run("gcs", eye="none", verbal="none", motor="none")
    assert (deep.value, deep.category) == (3, "severe")
    assert deep.extra == {"eye": 1.0, "verbal": 1.0, "motor": 1.0}


def test_gcs_every_response_level() -> None:
    # each named response scores its level (Teasdale & Jennett 1974 scale; motor 6 levels as in 1976)
    eye = {"spontaneous": 4, "to_speech": 3, "to_pain": 2, "none": 1}
    verbal = {"oriented": 5, "confused": 4, "inappropriate_words": 3, "incomprehensible_sounds": 2, "none": 1}
    motor = {
        "obeys_commands": 6, "localizes_pain": 5, "withdraws_from_pain": 4,
        "abnormal_flexion": 3, "extension": 2, "none": 1,
    }  # fmt: skip
    for name, points in eye.items():
        assert _run("gcs", eye=name, verbal="none", motor="none").value == points + 2
    for name, points in verbal.items():
        assert _run("gcs", eye="none", verbal=name, motor="none").value == points + 2
    for name, points in motor.items():
        result = _run("gcs", eye="none", verbal="none", motor=name)
        assert result.value == points + 2
        assert [p.points for p in result.points] == [1, 1, points]


def test_gcs_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 21: eyes open spontaneously (4), oriented (5), localizes pain (5)
    # -> 14 (its answer)
    result = _run("gcs", eye="spontaneous", verbal="oriented", motor="localizes_pain")
    assert (result.value, result.category) == (14, "mild")


@pytest.mark.parametrize(
    ("eye", "verbal", "motor", "total", "band"),
    [
        ("to_pain", "incomprehensible_sounds", "withdraws_from_pain", 8, "severe"),
        ("to_pain", "inappropriate_words", "withdraws_from_pain", 9, "moderate"),
        ("to_speech", "confused", "withdraws_from_pain", 11, "moderate"),
        ("to_speech", "confused", "localizes_pain", 12, "moderate"),
        ("spontaneous", "confused", "localizes_pain", 13, "mild"),
    ],
)
def test_gcs_band_thresholds(eye: str, verbal: str, motor: str, total: int, band: str) -> None:
    # ≤ 8 severe, 9–12 moderate, 13–15 mild
    result = _run("gcs", eye=eye, verbal=verbal, motor=motor)
    assert (result.value, result.category) == (total, band)


def test_gcs_missing_components_are_asked_even_with_absent() -> None:
    result = _run("gcs", eye="spontaneous")
    assert result.status == "needs_more_info"
    assert [(m.input, m.kind) for m in result.missing] == [("verbal", "choice"), ("motor", "choice")]
    assert result.missing[1].options is not None and "abnormal_flexion" in result.missing[1].options
    # a GCS component is never assumed
    assert [m.input for m in _run_absent("gcs", eye="spontaneous").missing] == ["verbal", "motor"]
    with pytest.raises(ValidationError, match="not an option"):
        _run("gcs", eye="open", verbal="oriented", motor="obeys_commands")


# --- McIsaac (modified Centor) ------------------------------------------------------------------------------

_ALL_SIGNS = {"fever": True, "no_cough": True, "tender_anterior_nodes": True, "tonsillar_swelling_or_exudate": True}
_NO_SIGNS = {key: False for key in _ALL_SIGNS}


def test_centor_mcisaac_worked_examples() -> None:
    # computed by hand from McIsaac 1998 (CMAJ 158:75, score table): child of 8 with all four signs -> 4 + 1 = 5,
    # "culture all, treat on clinical grounds"; a 50-year-old with fever only -> 1 - 1 = 0, no culture or antibiotic
    child = _run("centor", age=8, **_ALL_SIGNS)
    assert (child.value, child.category) == (5, "high")
    assert child.extra == {"age_points": 1.0, "gas_positive_percent_fine_2012": 55.0}
    older = _run("centor", age=50, **{**_NO_SIGNS, "fever": True})
    assert (older.value, older.category) == (0, "low")
    assert older.extra["age_points"] == -1.0
    assert _run("centor", age=60, **_NO_SIGNS).value == -1


def test_centor_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 20: 17 years (0), 40.0 °C (+1), tender nodes (+1), cough absent
    # false, exudate false -> 2 (its answer)
    result = _run(
        "centor", age=17, fever=True, tender_anterior_nodes=True, no_cough=False, tonsillar_swelling_or_exudate=False
    )
    assert (result.value, result.category) == (2, "intermediate")
    assert result.extra["gas_positive_percent_fine_2012"] == 23.0


@pytest.mark.parametrize(
    ("age", "points"), [(3, 1), (14, 1), (14.9, 1), (15, 0), (44, 0), (44.9, 0), (45, -1), (90, -1)]
)
def test_centor_age_bands(age: float, points: int) -> None:
    # McIsaac 1998: 3-14 years +1, 15-44 years 0, ≥ 45 years -1
    result = _run("centor", age=age, **_NO_SIGNS)
    assert result.extra["age_points"] == points
    assert result.value == points


@pytest.mark.parametrize(("signs", "category"), [(1, "low"), (2, "intermediate"), (3, "intermediate"), (4, "high")])
def test_centor_band_thresholds(signs: int, category: str) -> None:
    # McIsaac 1998 management: ≤ 1 none; 2-3 culture, treat if positive; ≥ 4 treat on clinical grounds
    keys = list(_ALL_SIGNS)
    given = {key: index < signs for index, key in enumerate(keys)}
    result = _run("centor", age=30, **given)
    assert (result.value, result.category) == (signs, category)


def test_centor_age_units_refusal_missing() -> None:
    # 60 months = 5 years -> +1
    months = _run("centor", age={"value": 60, "unit": "months"}, **_NO_SIGNS)
    assert months.extra["age_points"] == 1
    assert months.conversions == ["Age: 60 months = 5 years"]
    with pytest.raises(ValidationError, match=r"expected 0–120 years"):
        _run("centor", age=150, **_NO_SIGNS)
    with pytest.raises(ValidationError, match="from age 3"):
        _run("centor", age=2, **_NO_SIGNS)
    result = _run("centor", age=30, fever=True)
    assert [m.input for m in result.missing] == ["no_cough", "tender_anterior_nodes", "tonsillar_swelling_or_exudate"]
    assert [m.input for m in _run("centor", **_ALL_SIGNS).missing] == ["age"]
    absent = _run_absent("centor", age=30, fever=True)
    assert absent.value == 1 and len(absent.assumed_absent) == 3


# --- FeverPAIN -------------------------------------------------------------------------------------------------

_FEVERPAIN_KEYS = ("fever_24h", "purulence", "attend_rapidly", "inflamed_tonsils", "no_cough_or_coryza")


@pytest.mark.parametrize(
    ("present", "category"),
    [(0, "low"), (1, "low"), (2, "intermediate"), (3, "intermediate"), (4, "high"), (5, "high")],
)
def test_feverpain_band_thresholds(present: int, category: str) -> None:
    # Little 2013: one point per item, 0-5; NICE NG84: 0-1, 2-3, 4-5
    given = {key: index < present for index, key in enumerate(_FEVERPAIN_KEYS)}
    result = _run("feverpain", **given)
    assert (result.value, result.category) == (present, category)


def test_feverpain_worked_examples() -> None:
    # computed by hand from Little 2013: fever, pus and rapid attendance, with cough -> 3 (34-40 %, back-up
    # antibiotic); all five -> 5 (62-65 %)
    three = _run("feverpain", fever_24h=True, purulence=True, attend_rapidly=True, inflamed_tonsils=False,
                 no_cough_or_coryza=False)  # fmt: skip
    assert three.value == 3 and three.meaning is not None and "34–40 %" in three.meaning
    five = _run("feverpain", **dict.fromkeys(_FEVERPAIN_KEYS, True))
    assert five.value == 5 and five.meaning is not None and "62–65 %" in five.meaning


def test_feverpain_medcalc_dev_note() -> None:
    # MedCalc-Bench one-shot note for calculator 33: its input_parameters give symptom onset ≤ 3 days true,
    # purulent tonsils false, severe inflammation false, and a mislabelled "altered_mental_status_" true (not a
    # FeverPAIN item); fever and cough/coryza it scores absent as "not reported" -> 1 (its answer).
    as_given = _run_absent("feverpain", attend_rapidly=True, purulence=False, inflamed_tonsils=False)
    assert as_given.value == 1
    assert sorted(as_given.assumed_absent) == ["Fever in the past 24 hours", "No cough or coryza"]
    # Read from the note itself, two items differ but cancel: 38.5 °C (fever +1), symptoms for 12 days (not
    # within 3 days, 0), nasal congestion (coryza, 0), purulent discharge in the pharynx, not the tonsils (0) -> 1
    from_note = _run("feverpain", fever_24h=True, purulence=False, attend_rapidly=False, inflamed_tonsils=False,
                     no_cough_or_coryza=False)  # fmt: skip
    assert from_note.value == 1


def test_feverpain_missing_and_bad_values() -> None:
    result = _run("feverpain", fever_24h=True)
    assert result.status == "needs_more_info"
    assert [m.input for m in result.missing] == list(_FEVERPAIN_KEYS[1:])
    with pytest.raises(ValidationError, match="not yes or no"):
        _run("feverpain", fever_24h="maybe")
