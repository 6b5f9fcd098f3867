"""Blind EHR tasks (#18): 30 tasks over the Synthea adults, written by someone who had not read the consult turn's
rules (``src/curbside/agent/``), its EHR-task adapter (``ehr_tasks_turn.py``) or the other tasks' messages (only the
first two specs of each type in ``ehr_tasks_specs.py``, for the format). Built by
``ehr_tasks_build.py --specs blind`` into ``data/ehr_tasks_blind.jsonl``; run with
``bench_ehr_tasks.py --tasks benchmarks/data/ehr_tasks_blind.jsonl``. Nothing may be tuned on these messages or
their misses: they are here to measure how far the rules carry to phrasings they were not written against.

The parameters are what the builder computes the expected answer from (see ``ehr_tasks_build.py``); patients by
the start of their id (the list in ``ehr_tasks_specs.py``). Referral SNOMED CT concepts are given in the message,
as MedAgentBench's instructions give them: 183524004 referral to psychiatry service, 183545006 referral to
orthopaedic service, 183519002 referral to cardiology service.
"""

from __future__ import annotations

from ehr_tasks_specs import Spec

__all__ = ["BLIND"]

_B = "blind"

BLIND: tuple[Spec, ...] = (
    # --- lookup by name and birth date (one does not exist: the birth date is a day off) ---
    Spec("blind-lookup-01", "lookup", None, "pls find Blair McKenzie, dob 20/02/1976 - need his MRN for a requisition",
         {"name": "Blair McKenzie", "birth_date": "1976-02-20"}, split=_B),
    Spec("blind-lookup-02", "lookup", None, "Hi - can you look up Colton Grant? Born July 11, 1956. What's his MRN?",
         {"name": "Colton Grant", "birth_date": "1956-07-11"}, split=_B),
    Spec("blind-lookup-03", "lookup", None, "Do we have an Annett Rath, date of birth 1962-11-15, on file? MRN if so",
         {"name": "Annett Rath", "birth_date": "1962-11-15"}, split=_B),
    # --- age ---
    Spec("blind-age-01", "age", "d3fa7161", "how old is this pt", split=_B),
    Spec("blind-age-02", "age", "6faf5362", "Remind me of her age?", split=_B),
    # --- record a vital ---
    Spec("blind-vital-01", "record_vital", "827f0c1a", "temp 38.4 oral just now, pls document",
         {"kind": "temperature", "value": 38.4, "unit": "Cel"}, split=_B),
    Spec("blind-vital-02", "record_vital", "85ba33a1", "O2 sat 91% on RA - can you put that in his chart",
         {"kind": "spo2", "value": 91, "unit": "%"}, split=_B),
    Spec("blind-vital-03", "record_vital", "adb1029a", "She weighed in at 154 lbs today, add it to her vitals",
         {"kind": "weight", "value": 154, "unit": "[lb_av]"}, split=_B),
    Spec("blind-vital-04", "record_vital", "7a69e4ff", "can u enter a BP of 138 over 86 for her, L arm seated",
         {"kind": "blood_pressure", "systolic": 138, "diastolic": 86}, split=_B),
    # --- latest lab in a window (one with nothing in it) ---
    Spec("blind-latest-01", "latest_lab", "d8663b50", "eGFR in the last 2 wks?",
         {"lab": "egfr", "window": {"days": 14}}, split=_B),
    Spec("blind-latest-02", "latest_lab", "88c7e398", "Has he had an LDL checked in the past 2 yrs? whats the value",
         {"lab": "ldl", "window": {"days": 730}}, split=_B),
    Spec("blind-latest-03", "latest_lab", "7a69e4ff", "latest haemoglobin from the past year pls",
         {"lab": "hemoglobin", "window": {"days": 365}}, split=_B),
    Spec("blind-latest-04", "latest_lab", "d9018d49", "what was her Na in the last 48 hrs",
         {"lab": "sodium", "window": {"hours": 48}}, split=_B),
    # --- average over a window ---
    Spec("blind-average-01", "average_lab", "85ba33a1", "Average systolic for him over the last 2 months?",
         {"lab": "systolic", "window": {"days": 60}}, split=_B),
    Spec("blind-average-02", "average_lab", "1a4cf854", "can you give me her mean eGFR over the past 6 mo",
         {"lab": "egfr", "window": {"days": 182}}, split=_B),
    Spec("blind-average-03", "average_lab", "d8663b50", "What has her weight averaged over the last year?",
         {"lab": "weight", "window": {"days": 365}}, split=_B),
    # --- conditional orders ---
    Spec("blind-conditional-01", "conditional_order", "85ba33a1",
         "He's post-MI so I want his potassium at least 4.5. Look at the most recent K - if it's below 4.5, order "
         "potassium chloride 10 mEq ER tabs (RxNorm 8591) by mouth, one tab per 0.1 under 4.5 (round up), one dose, "
         "and book a repeat K for 08:00 tomorrow. If he's at or above 4.5 nothing needed.",
         {"rule": "low", "threshold": 4.5, "per": 0.1}, split=_B),
    Spec("blind-conditional-02", "conditional_order", "69e1a2a9",
         "pls check her last K+. If it's over 5.0 I want a stat repeat potassium and a stat 12-lead ECG "
         "(SNOMED 268400002); if 5.0 or under, leave it alone",
         {"rule": "high", "threshold": 5.0}, split=_B),
    Spec("blind-conditional-03", "conditional_order", "f559fcd6",
         "What's his latest potassium? If above 5.0: STAT repeat K and a STAT ECG (SNOMED 268400002). Otherwise "
         "don't order anything.",
         {"rule": "high", "threshold": 5.0}, split=_B),
    # --- referrals ---
    Spec("blind-referral-01", "referral", "1a4cf854",
         "Can you send a psychiatry referral for her (SNOMED 183524004)? Depression not responding to fluoxetine.",
         {"snomed": "183524004", "reason": ["depression"]}, split=_B),
    Spec("blind-referral-02", "referral", "d3fa7161",
         "ortho referral pls, SNOMED 183545006, R knee pain x 6 months, failed physio",
         {"snomed": "183545006", "reason": ["knee"]}, split=_B),
    Spec("blind-referral-03", "referral", "5cef2f19",
         "I'd like cardiology to see him for recurrent palpitations - referral code 183519002",
         {"snomed": "183519002", "reason": ["palpitations"]}, split=_B),
    # --- "order an HbA1c if the last is older than a year" ---
    Spec("blind-hba1c-01", "hba1c_reorder", "827f0c1a",
         "When was his last A1c? If it's been over a year, go ahead and order one.",
         now="2024-10-15T09:00:00+02:00", split=_B),
    Spec("blind-hba1c-02", "hba1c_reorder", "88c7e398",
         "pls order an HbA1c only if he hasn't had one in the last 12 months", split=_B),
    # --- medication and allergy lists ---
    Spec("blind-meds-01", "medication_list", "85ba33a1", "what meds is he on right now", split=_B),
    Spec("blind-meds-02", "medication_list", "7a69e4ff", "Can you list her active prescriptions?", split=_B),
    Spec("blind-allergies-01", "allergy_list", "1a4cf854", "does she have any drug or other allergies documented?",
         split=_B),
    Spec("blind-allergies-02", "allergy_list", "6faf5362", "allergy list pls", split=_B),
    # --- calculators from chart values ---
    Spec("blind-calc-01", "calculator", "d3fa7161",
         "calculate his eGFR with CKD-EPI 2021 using the most recent creatinine", {"calculator": "ckd_epi_2021"},
         split=_B),
    Spec("blind-calc-02", "calculator", "6faf5362", "BMI from her last recorded ht and wt?", {"calculator": "bmi"},
         split=_B),
)  # fmt: skip
