"""Triage by rules (#18): the route and intents of representative messages, the slots read from them, and
when the rules say they are unsure. Messages here are not the benchmark's (benchmarks/data/routing_set.jsonl)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from curbside.agent import slots
from curbside.agent.triage import triage

# a few calculators, so these tests do not depend on the catalog's contents
CALCS = {
    "wells_pe": "Wells score for pulmonary embolism",
    "wells_dvt": "Wells score for DVT (2003)",
    "cha2ds2_vasc": "CHA₂DS₂-VASc score (stroke risk in atrial fibrillation)",
    "has_bled": "HAS-BLED score (major bleeding risk in atrial fibrillation)",
    "cockcroft_gault": "Cockcroft-Gault creatinine clearance",
    "ckd_epi_2021": "eGFR, CKD-EPI creatinine 2021 (race-free)",
    "meld_na": "MELD-Na (UNOS/OPTN 2016)",
    "bmi": "Body mass index",
    "map": "Mean arterial pressure",
    "qtc": "Corrected QT interval (QTc)",
    "anion_gap": "Anion gap",
    "free_water_deficit": "Free water deficit",
}


def run(message: str, has_patient: bool = True):
    return triage(message, has_patient=has_patient, calculators=CALCS)


def kinds(message: str, has_patient: bool = True) -> list[str]:
    return sorted(run(message, has_patient).kinds)


DIRECT = [
    ("hello there", False),
    ("thanks, that helps", True),
    ("what can you help with?", False),
    ("can you prescribe?", False),
    ("Do you have access to the ODB formulary?", False),
    ("good evening, Dr. Singh here", False),
]
LOOKUP = [
    ("whats her most recent potassium", True, ["patient_labs"]),
    ("BP trend over the last 2 weeks", True, ["patient_vitals"]),
    ("meds?", True, ["patient_medications"]),
    ("does she have any drug allergies", True, ["patient_allergies"]),
    ("what's on his problem list", True, ["patient_problems"]),
    ("give me a quick summary of this patient", True, ["patient_summary"]),
    ("find Sarah O'Neil born 1971-05-30", False, ["patient_find"]),
    ("add latex allergy, reaction hives", True, ["chart_write"]),
    ("order a TSH", True, ["chart_write"]),
    ("compute her HAS-BLED", True, ["calculator"]),
    ("Does ODB cover Rybelsus?", False, ["coverage"]),
    ("what's the renal dose of enoxaparin", False, ["drug_label"]),
    ("can i take ibuprofen with lisinopril", False, ["drug_interactions"]),
    ("adverse events reported for tirzepatide", False, ["adverse_events"]),
    ("systematic reviews of colchicine for pericarditis", False, ["literature"]),
    ("recruiting trials for ALS in Montreal", False, ["trials"]),
    ("KDIGO recommendations on SGLT2 inhibitors in CKD", False, ["guideline"]),
    ("first-line treatment for uncomplicated cystitis?", False, ["knowledge"]),
    ("who's on my schedule today?", False, ["calendar"]),
    ("open the discharge summary pdf", True, ["files"]),
]
REASONING = [
    ("should I hold her ramipril given her potassium?", True, ["drug_label", "patient_labs"]),
    ("is her renal function ok for apixaban 5 mg bid?", True, ["drug_label", "patient_labs"]),
    ("why is his hemoglobin dropping?", True, ["patient_labs"]),
    ("Given his CKD, what dose of gabapentin?", True, ["drug_label"]),
    ("what would you add for a 60M on metformin with an A1c of 8.4?", False, ["knowledge"]),
    ("Review her chart and tell me if she needs a statin", True, ["patient_summary"]),
    ("K 3.1 this am - replace?", True, ["knowledge"]),
    ("ECG shows QTc 520 - ok to continue citalopram?", True, ["drug_label"]),
]
MULTI_STEP = [
    ("What's the latest A1c for Maria Garcia born 1975-03-14?", False, ["patient_find", "patient_labs"]),
    ("get her latest eGFR and then calculate her CrCl", True, ["calculator", "patient_labs"]),
    ("check INR; if > 3 hold warfarin and recheck in 2 days", True, ["chart_write", "patient_labs"]),
    ("order an A1c if the last one is older than a year", True, ["chart_write", "patient_labs"]),
    ("start her on apixaban 5 mg BID and save a note", True, ["chart_write"]),
    ("pull her labs, meds and allergies", True, ["patient_allergies", "patient_labs", "patient_medications"]),
    ("her last TSH, and is levothyroxine covered by ODB?", True, ["coverage", "patient_labs"]),
    ("check her meds for interactions with fluconazole", True, ["drug_interactions", "patient_medications"]),
]


@pytest.mark.parametrize(("message", "has_patient"), DIRECT)
def test_direct(message: str, has_patient: bool) -> None:
    result = run(message, has_patient)
    assert (result.route, result.kinds, result.confident) == ("direct", ("greeting",), True)


@pytest.mark.parametrize(("message", "has_patient", "expected"), LOOKUP)
def test_lookup(message: str, has_patient: bool, expected: list[str]) -> None:
    result = run(message, has_patient)
    assert (result.route, sorted(result.kinds)) == ("lookup", expected)


@pytest.mark.parametrize(("message", "has_patient", "expected"), REASONING)
def test_reasoning(message: str, has_patient: bool, expected: list[str]) -> None:
    result = run(message, has_patient)
    assert (result.route, sorted(result.kinds)) == ("reasoning", expected)


@pytest.mark.parametrize(("message", "has_patient", "expected"), MULTI_STEP)
def test_multi_step(message: str, has_patient: bool, expected: list[str]) -> None:
    result = run(message, has_patient)
    assert (result.route, sorted(result.kinds)) == ("multi_step", expected)


# --- slots ----------------------------------------------------------------------------------------------


def slots_of(message: str, kind: str, has_patient: bool = True) -> dict:
    return next(i.slots for i in run(message, has_patient).intents if i.kind == kind)


def test_lab_name_latest_and_window() -> None:
    assert slots_of("whats her lastest a1c", "patient_labs") == {"lab": "hba1c", "latest": True}
    assert slots_of("average glucose in the past 24 hours", "patient_labs") == {
        "lab": "glucose",
        "window": "24h",
        "aggregate": "average",
    }
    assert slots_of("creatinine trend over the last 6 months", "patient_labs") == {
        "lab": "creatinine",
        "window": "6m",
        "aggregate": "trend",
    }
    assert slots_of("potassium levels between 2024-01-01 and 2024-03-01", "patient_labs") == {
        "lab": "potassium",
        "since": "2024-01-01",
        "until": "2024-03-01",
    }
    assert slots_of("K+ this week?", "patient_labs") == {"lab": "potassium", "window": "1w"}


def test_lab_groups_and_names_the_chart_lacks() -> None:
    assert slots_of("pull up her lipid panel", "patient_labs")["labs"] == [
        "ldl",
        "hdl",
        "total cholesterol",
        "triglycerides",
    ]
    assert slots_of("magnesium in the last 24h", "patient_labs") == {
        "lab": "magnesium",
        "lab_known": False,
        "window": "24h",
    }


def test_a_value_given_is_not_a_question_about_the_chart() -> None:
    assert "patient_labs" not in run("Her A1c is 8.9 on metformin - what would you add?").kinds
    assert run("calc QTc: QT 440 ms, HR 95", has_patient=False).kinds == ("calculator",)


def test_prescription_slots() -> None:
    # in ehr.prescribe_medication's argument names (its RxNorm code is the planner's to find)
    assert slots_of("Prescribe amoxicillin 500 mg PO tid for 7 days", "chart_write") == {
        "write": "prescribe_medication",
        "medication": "amoxicillin",
        "dose": 500.0,
        "dose_unit": "mg",
        "route": "oral",
        "frequency": "three times daily",
        "duration_days": 7,
    }
    assert slots_of("start metformin 500mg bid", "chart_write")["frequency"] == "twice daily"
    assert slots_of("Rx atorvastatin 20 mg qhs", "chart_write")["frequency"] == "at bedtime"
    assert slots_of("give 40 mEq KCl PO q8h", "chart_write")["frequency"] == "every 8 hours"
    assert slots_of("prescribe oxycodone 5 mg po q4h prn", "chart_write") == {
        "write": "prescribe_medication",
        "medication": "oxycodone",
        "dose": 5.0,
        "dose_unit": "mg",
        "route": "oral",
        "frequency": "every 4 hours",
        "as_needed": True,
    }
    switched = slots_of("switch metformin to linagliptin 5 mg daily", "chart_write")
    assert (switched["medication"], switched["note"]) == ("linagliptin", "replaces metformin")


def test_a_question_about_starting_a_drug_is_not_a_prescription() -> None:
    result = run("should I start metformin 500 mg bid given her eGFR?")
    assert result.route == "reasoning"
    assert "chart_write" not in result.kinds


def test_other_write_slots() -> None:
    assert slots_of("Record BP 132/84 for her", "chart_write") == {
        "write": "record_vital",
        "kind": "blood_pressure",
        "systolic": 132.0,
        "diastolic": 84.0,
    }
    assert slots_of("O2 sat 91% on RA, record please", "chart_write") == {
        "write": "record_vital",
        "kind": "spo2",
        "value": 91.0,
        "unit": "%",
    }
    assert slots_of("she's allergic to sulfa - rash. please add it", "chart_write") == {
        "write": "add_allergy",
        "substance": "sulfa",
        "reaction": "rash",
    }
    assert slots_of("please refer him to nephrology for CKD", "chart_write") == {
        "write": "order_service",
        "kind": "referral",
        "display": "nephrology",
    }
    assert slots_of("order an HbA1c stat", "chart_write") == {
        "write": "order_service",
        "kind": "lab",
        "display": "HbA1c",
        "code_system": "loinc",
        "code": "4548-4",
        "priority": "stat",
    }
    assert slots_of("order a chest x-ray", "chart_write")["kind"] == "imaging"
    note = slots_of("save a progress note: seen for HTN, BP controlled", "chart_write")
    assert note == {"write": "save_clinical_note", "note_type": "11506-3", "text": "seen for HTN, BP controlled"}
    assert slots_of("record that she declined the flu vaccine", "chart_write")["text"] == "she declined the flu vaccine"


def test_two_orders_are_two_writes() -> None:
    result = run("if her potassium is below 3.5 order a replacement and a repeat draw")
    assert result.route == "multi_step"
    assert [i.kind for i in result.intents] == ["patient_labs", "chart_write", "chart_write"]


def test_drug_names_and_calculators() -> None:
    assert slots_of("ddi check: apixaban, diltiazem, amiodarone", "drug_interactions", False) == {
        "drugs": ["apixaban", "diltiazem", "amiodarone"]
    }
    assert slots_of("boxed warning for amiodarone", "drug_label", False) == {
        "drug": "amiodarone",
        "section": "boxed_warning",
    }
    assert slots_of("is dapagliflozin ok in pregnancy", "drug_label", False)["section"] == "pregnancy"
    assert [
        slots_of(m, "calculator", False)["calculator"] for m in ("chads vasc?", "CrCl for 70 kg, Cr 120", "MAP 120/80")
    ] == [
        "cha2ds2_vasc",
        "cockcroft_gault",
        "map",
    ]
    # no alias written for it: found by its title
    assert slots_of("free water deficit for Na 152, 70 kg", "calculator", False)["calculator"] == "free_water_deficit"
    # a calculator not in the mapping is not offered
    assert (
        "calculator"
        not in triage("what's her MELD 3.0", has_patient=True, calculators={"bmi": "Body mass index"}).kinds
    )


def test_coverage_program() -> None:
    assert slots_of("What's the fee for A007?", "coverage", False) == {"program": "ohip"}
    assert slots_of("what % does ADP pay for a walker", "coverage", False) == {"program": "adp"}
    assert slots_of("LU criteria for Jardiance", "coverage", False) == {"program": "odb"}
    assert slots_of("can I bill C124 and is a walker covered?", "coverage", False) == {"program": "any"}


def test_patient_identifiers() -> None:
    assert slots_of("What's the MRN for Peter Chen, DOB March 12 1948?", "patient_find", False) == {
        "name": "Peter Chen",
        "birth_date": "1948-03-12",
    }
    assert slots_of("look up mrn 4471823 and list his meds", "patient_find", False) == {
        "mrn": "4471823",
        "identifier": "4471823",
    }
    # 01/02/1960 reads two ways: kept as written for the planner to ask
    assert slots_of("Mr. John Smith DOB 01/02/1960 - latest BP?", "patient_find", False) == {
        "name": "John Smith",
        "birth_date_as_written": "01/02/1960",
    }
    # a colleague is not a patient
    assert "patient_find" not in run("Hi, Dr. Anna Patel from the ED", has_patient=False).kinds


def test_trial_slots() -> None:
    assert slots_of("any new trials for pancreatic cancer recruiting in Canada", "trials", False) == {
        "condition": "pancreatic cancer",
        "location": "Canada",
        "status": "RECRUITING",
    }


def test_unsure_without_a_patient_or_without_a_rule() -> None:
    needs = run("what was the patient's last temp?", has_patient=False)
    assert (needs.route, needs.kinds, needs.confident) == ("lookup", ("patient_vitals",), False)
    assert "needs a patient" in needs.reason
    found = run("find John Smith born 1960-01-02 and show his last HbA1c", has_patient=False)
    assert (found.route, found.confident) == ("multi_step", True)
    nothing = run("zebra crossing", has_patient=False)
    assert (nothing.route, nothing.kinds, nothing.confident) == ("lookup", ("knowledge",), False)
    change = run("d/c the metformin")
    assert (change.kinds, change.confident) == (("unknown",), False)
    empty = run("   ")
    assert (empty.route, empty.confident) == ("direct", False)


def test_typos_are_read() -> None:
    assert slots_of("presribe ramipril 5 mg once daily", "chart_write")["medication"] == "ramipril"
    assert run("alergies?").kinds == ("patient_allergies",)
    assert run("sertraline + tramadol intercation?", has_patient=False).kinds == ("drug_interactions",)


def test_slot_helpers() -> None:
    assert slots.dose("500mg") == (500.0, "mg")
    assert slots.dose("2 puffs") == (2.0, "puffs")
    assert slots.frequency("bid") == "twice daily"
    assert slots.frequency("q6h") == "every 6 hours"
    assert slots.frequency("prn") == "as needed"
    assert slots.route("by mouth") == "oral"
    assert slots.time_slots("in the past year") == {"window": "1y"}
    assert slots.time_slots("last 48h") == {"window": "48h"}
    assert slots.time_slots("since 2024-05-01") == {"since": "2024-05-01"}
    assert slots.birth_date("dob 31/12/1950") == "1950-12-31"
    assert [m.name for m in slots.drugs_in(slots.Text.of("warfarin, Eliquis and dapagliflozin"))] == [
        "warfarin",
        "eliquis",
        "dapagliflozin",
    ]


def test_importing_triage_loads_no_tools() -> None:
    code = "import sys, curbside.agent.triage; print(any(m.startswith('curbside.tools') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"
