"""The pure parts of the EHR read tools: names to LOINC codes, FHIR elements to words, trimming order."""

from __future__ import annotations

from datetime import date

import pytest

from curbside.errors import ValidationError
from curbside.tools.ehr.chart_models import (
    ChartAllergy,
    ChartEncounter,
    ChartMedication,
    ChartPatient,
    ChartProblem,
    ChartSummary,
    ChartValue,
)
from curbside.tools.ehr.chart_trim import summary_bytes, trim_to
from curbside.tools.ehr.fhir_read import age_on, dose_text, local_date, observation_value, patient_row
from curbside.tools.ehr.lab_codes import CHART_LABS, CONCEPTS, known_names, resolve
from curbside.tools.ehr.read_models import Coded


@pytest.mark.parametrize(
    ("asked", "name", "codes"),
    [
        ("hba1c", "hba1c", ("4548-4", "17856-6")),
        ("HbA1c", "hba1c", ("4548-4", "17856-6")),
        ("Hemoglobin A1c", "hba1c", ("4548-4", "17856-6")),
        ("blood pressure", "bp", ("85354-9", "55284-4")),
        ("Blood-Pressure", "bp", ("85354-9", "55284-4")),
        ("eGFR", "egfr", ("33914-3", "62238-1", "98979-8")),
        ("k", "potassium", ("6298-4", "2823-3")),
        ("2160-0", "creatinine", ("2160-0",)),  # a code asks for exactly that code
        ("http://loinc.org|8867-4", "heart rate", ("8867-4",)),
        ("12345-6", "12345-6", ("12345-6",)),  # a code Curbside has no name for
    ],
)
def test_resolve(asked: str, name: str, codes: tuple[str, ...]) -> None:
    concept = resolve(asked)
    assert (concept.name, concept.codes) == (name, codes)


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(ValidationError) as caught:
        resolve("vitamin q")
    message = str(caught.value)
    assert message.startswith("'vitamin q' is neither a LOINC code (e.g. '4548-4') nor a lab or vital name")
    assert all(c.name in message for c in CONCEPTS)


def test_codes_are_unique_and_names_unambiguous() -> None:
    codes = [code for c in CONCEPTS for code in c.codes]
    assert len(codes) == len(set(codes))
    assert len(known_names()) == sum(1 + len(c.aliases) for c in CONCEPTS)
    assert CHART_LABS[0].name == "hba1c"


def test_search_code_ors_every_code() -> None:
    assert resolve("glucose").search_code() == "http://loinc.org|2339-0,http://loinc.org|2345-7"


def test_dose_text_from_text_or_structure() -> None:
    assert dose_text({"dosageInstruction": [{"text": "Take as needed.", "asNeededBoolean": True}]}) == "Take as needed."
    structured = {
        "dosageInstruction": [
            {
                "timing": {"repeat": {"frequency": 1, "period": 1.0, "periodUnit": "d"}},
                "asNeededBoolean": False,
                "doseAndRate": [{"doseQuantity": {"value": 1.0}}],
            }
        ]
    }
    assert dose_text(structured) == "dose 1, once a day"
    twice = {
        "dosageInstruction": [
            {
                "route": {"text": "oral"},
                "timing": {"repeat": {"frequency": 2, "period": 8, "periodUnit": "h"}},
                "doseAndRate": [{"doseQuantity": {"value": 500, "unit": "mg"}}],
                "asNeededCodeableConcept": {"text": "pain"},
            }
        ]
    }
    assert dose_text(twice) == "dose 500 mg, oral, twice every 8 hours, as needed for pain"
    assert dose_text({}) is None  # no instruction: none, not a guess


def test_dates_and_ages() -> None:
    assert local_date("2014-08-06T00:01:39+02:00") == date(2014, 8, 6)  # the recorded day, not UTC's
    assert local_date("2019-04") == date(2019, 4, 1)
    assert local_date(None) is None and local_date("garbage") is None
    assert age_on("1980-03-16", date(2026, 3, 15)) == 45
    assert age_on("1980-03-16", date(2026, 3, 16)) == 46
    assert age_on(None, date(2026, 1, 1)) is None


def test_values_and_patient_rows() -> None:
    assert observation_value({"valueQuantity": {"value": 5.8, "unit": "%"}}) == (5.8, "%")
    assert observation_value({"valueQuantity": {"value": 72, "code": "/min"}}) == (72, "/min")
    words = {"valueCodeableConcept": {"coding": [{"display": "Never smoked tobacco (finding)"}]}}
    assert observation_value(words) == ("Never smoked tobacco (finding)", None)
    assert observation_value({}) == (None, None)
    row = patient_row({"id": "p1", "name": [{"family": "Doe"}], "deceasedBoolean": True})
    assert (row.name, row.deceased, row.mrn, row.birth_date) == ("Doe", "yes", None, None)


def _summary() -> ChartSummary:
    coded = Coded(system="SNOMED CT", code="1", display="x" * 40)
    value = ChartValue(name="Lab", value=1.0, unit="mg/dL", date="2024-01-01", previous=2.0, previous_date="2023-01-01")
    return ChartSummary(
        patient=ChartPatient(id="p", name="A B", birth_date="1980-01-01", sex="female", mrn="m", age=46),
        as_of="2026-11-27",
        problems=[
            ChartProblem(problem=Coded(display="Diabetes"), onset="2000-01-01"),
            ChartProblem(problem=Coded(display="Stress (finding)"), onset="2020-01-01"),
        ],
        medications=[ChartMedication(medication=coded, dose="dose 1, once a day", since="2020-01-01", reason=None)],
        allergies=[ChartAllergy(substance=coded, criticality="high", reactions=["Hives (mild)"])],
        vitals=[value.model_copy() for _ in range(3)],
        labs=[value.model_copy() for _ in range(6)],
        encounters=[ChartEncounter(date="2024-01-01", type="Check up", encounter_class="ambulatory", reason=None)] * 5,
    )


def _length(section: object) -> int:
    return len(section) if isinstance(section, list) else 0


def test_trim_order_least_useful_first() -> None:
    full = _summary()
    size = summary_bytes(full)
    assert trim_to(full.model_copy(deep=True), size) == full
    seen_still_over = False
    for limit in range(size - 1, 199, -25):  # below the setting's floor of 1000, to reach every step
        cut = trim_to(full.model_copy(deep=True), limit)
        if cut.warnings[-1] == f"Still over {limit} bytes with every optional part left out.":
            seen_still_over = True
            assert (cut.problems, cut.medications, cut.allergies) == ("left out to fit",) * 3
            continue
        assert summary_bytes(cut) <= limit
        assert cut.warnings[-1].startswith(f"Trimmed to fit {limit} bytes")
        labs = cut.labs if isinstance(cut.labs, list) else []
        previous = [lab.previous for lab in labs]
        if None in previous:  # labs lose their previous values from the last one up, after encounters past three
            assert _length(cut.encounters) == 3
            assert previous == sorted(previous, key=lambda p: p is None)
        if _length(cut.labs) < 6:  # labs go once none has a previous value left
            assert set(previous) <= {None}
        if _length(cut.encounters) < 3:  # the rest of the encounters, after every lab
            assert cut.labs == "left out to fit"
        if _length(cut.problems) < 2:  # the finding before the disease
            assert cut.vitals == "left out to fit" and cut.encounters == "left out to fit"
            assert cut.problems == "left out to fit" or [p.problem.display for p in cut.problems] == ["Diabetes"]
        if _length(cut.allergies) < 1:  # allergies last of all
            assert cut.medications == "left out to fit"
    assert seen_still_over
    bare = trim_to(full.model_copy(deep=True), 1000)
    assert isinstance(bare.allergies, list) and len(bare.allergies) == 1
