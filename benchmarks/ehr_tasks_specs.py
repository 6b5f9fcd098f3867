"""The EHR tasks as a clinician asks them: message, patient, reference time and the parameters the builder
(``ehr_tasks_build.py``) computes the expected answer from. Messages are written by hand, phrased the way
they would be typed; codes appear where an order needs one a planner could not otherwise know (a referral's
SNOMED CT concept, a drug's RxNorm code), as MedAgentBench's instructions give them.

Patients (the start of their ids): 1a4cf854 Eryn Kuhic, a59944cf Felica Prosacco, b71278db Leticia Esquivel,
320556cd Luciano Hessel (deceased 2019: read tasks only), 69e1a2a9 Minta Lynch, 5cef2f19 Ricardo Prosacco,
d9018d49 Rosy Feest, d3fa7161 Rusty Herman, 1687bddc Shaquita Lemke, d8663b50 Vivan Veum, 6faf5362 Alethia
Champlin, 7a69e4ff Annett Rath, 85ba33a1 Blair Herzog, 88c7e398 Blair McKenzie, 827f0c1a Caleb Kohler,
adb1029a Charissa Paucek, f559fcd6 Colton Grant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEV2", "HELD_OUT", "SPECS", "Spec"]


@dataclass(frozen=True)
class Spec:
    """One task as written: the builder turns it into a row of ehr_tasks.jsonl with its expected answer."""

    id: str
    type: str
    patient: str | None  # the start of the patient id (8 characters); None for a lookup
    message: str
    params: dict[str, Any] = field(default_factory=dict)
    now: str | None = None  # ISO with offset; None: the chart's default (the day after its last observation)
    split: str = "dev"  # dev: the baseline's rules were written against these; heldout: written after, never tuned on;
    # dev2: a second development set (see DEV2)


_HOURS_24 = {"hours": 24}
_YEAR = {"days": 365}

SPECS: tuple[Spec, ...] = (
    # --- patient lookup by name and birth date ----------------------------------------------------------
    Spec("lookup-01", "lookup", None, "Can you pull up Felica Prosacco, DOB 1958-05-28? I need her MRN.",
         {"name": "Felica Prosacco", "birth_date": "1958-05-28"}),
    Spec("lookup-02", "lookup", None, "looking for ricardo prosacco born 20 May 1965 - what's his MRN",
         {"name": "Ricardo Prosacco", "birth_date": "1965-05-20"}),
    Spec("lookup-03", "lookup", None, "MRN for Blair Herzog please, date of birth 03/16/1980",
         {"name": "Blair Herzog", "birth_date": "1980-03-16"}),
    Spec("lookup-04", "lookup", None, "Find Blair McKenzie (DOB Feb 20, 1976) in the system.",
         {"name": "Blair McKenzie", "birth_date": "1976-02-20"}),
    Spec("lookup-05", "lookup", None, "Patient in room 4 is Charissa Paucek, born 16-Nov-1964. Which chart is hers?",
         {"name": "Charissa Paucek", "birth_date": "1964-11-16"}),
    Spec("lookup-06", "lookup", None, "Is there a record for Leticia Esquivel, born April 12, 1982?",
         {"name": "Leticia Esquivel", "birth_date": "1982-04-12"}),
    Spec("lookup-07", "lookup", None, "I've got Colton Grant here, dob 11 July 1956 - can you find his chart?",
         {"name": "Colton Grant", "birth_date": "1956-07-11"}),
    Spec("lookup-08", "lookup", None, "Look up Maria Gonzalez, DOB 1970-01-01.",
         {"name": "Maria Gonzalez", "birth_date": "1970-01-01"}),
    # --- age at the reference time ------------------------------------------------------------------------
    Spec("age-01", "age", "a59944cf", "How old is she now?"),
    Spec("age-02", "age", "69e1a2a9", "What's her age?"),
    Spec("age-03", "age", "d3fa7161", "Remind me how old this gentleman is."),
    Spec("age-04", "age", "7a69e4ff", "age?"),
    Spec("age-05", "age", "827f0c1a", "How old is the patient, in years?"),
    Spec("age-06", "age", "f559fcd6", "Quick one - how old is he today?"),
    # --- record a vital sign --------------------------------------------------------------------------------
    Spec("vital-01", "record_vital", "1a4cf854", "Record a heart rate of 88 for her, just taken.",
         {"kind": "heart_rate", "value": 88, "unit": "/min"}),
    Spec("vital-02", "record_vital", "5cef2f19", "BP 148/92 sitting, please chart it.",
         {"kind": "blood_pressure", "systolic": 148, "diastolic": 92}),
    Spec("vital-03", "record_vital", "1687bddc", "Temp 38.4 °C this morning - log it in her vitals.",
         {"kind": "temperature", "value": 38.4, "unit": "Cel"}),
    Spec("vital-04", "record_vital", "7a69e4ff", "Can you document a temperature of 100.9 F?",
         {"kind": "temperature", "value": 100.9, "unit": "[degF]"}),
    Spec("vital-05", "record_vital", "85ba33a1", "Sat 93% on room air, add it to his flowsheet.",
         {"kind": "spo2", "value": 93, "unit": "%"}),
    Spec("vital-06", "record_vital", "88c7e398", "Weighed him today: 262 lb. Please record.",
         {"kind": "weight", "value": 262, "unit": "[lb_av]"}),
    Spec("vital-07", "record_vital", "d9018d49", "Resp rate 22 - enter it in the chart.",
         {"kind": "respiratory_rate", "value": 22, "unit": "/min"}),
    # --- latest value of a lab within a window ------------------------------------------------------------
    Spec("latest-01", "latest_lab", "1a4cf854", "What was her potassium in the last 24 hours?",
         {"lab": "potassium", "window": _HOURS_24}),
    Spec("latest-02", "latest_lab", "d3fa7161", "Most recent creatinine within the past year?",
         {"lab": "creatinine", "window": _YEAR}),
    Spec("latest-03", "latest_lab", "6faf5362", "Has she had an eGFR in the last 12 months? If so, what was it?",
         {"lab": "egfr", "window": _YEAR}),
    Spec("latest-04", "latest_lab", "320556cd", "For the mortality review: his latest HbA1c from the past year?",
         {"lab": "hba1c", "window": _YEAR}),
    Spec("latest-05", "latest_lab", "88c7e398", "glucose from the last 48h?",
         {"lab": "glucose", "window": {"hours": 48}}),
    Spec("latest-06", "latest_lab", "adb1029a", "Any hemoglobin drawn in the past 6 months?",
         {"lab": "hemoglobin", "window": {"days": 182}}),
    Spec("latest-07", "latest_lab", "1a4cf854", "Her most recent Hb in the last two years - what was the value?",
         {"lab": "hemoglobin", "window": {"days": 730}}),
    Spec("latest-08", "latest_lab", "f559fcd6", "Did he have a sodium checked in the last 24 hours?",
         {"lab": "sodium", "window": _HOURS_24}, now="2023-11-26T09:00:00+01:00"),
    # --- average of a lab over a window -------------------------------------------------------------------
    Spec("average-01", "average_lab", "d9018d49", "What's her average creatinine over the last 6 months?",
         {"lab": "creatinine", "window": {"days": 182}}),
    Spec("average-02", "average_lab", "d8663b50", "Mean potassium over the last 6 months?",
         {"lab": "potassium", "window": {"days": 182}}),
    Spec("average-03", "average_lab", "85ba33a1", "Average his glucose readings for the last 2 years.",
         {"lab": "glucose", "window": {"days": 730}}),
    Spec("average-04", "average_lab", "1a4cf854", "Average glucose over the last 6 months please.",
         {"lab": "glucose", "window": {"days": 182}}),
    Spec("average-05", "average_lab", "5cef2f19", "What has his systolic averaged over the past year?",
         {"lab": "systolic", "window": _YEAR}),
    Spec("average-06", "average_lab", "6faf5362", "Give me the mean A1c for the last 3 years.",
         {"lab": "hba1c", "window": {"days": 1095}}),
    Spec("average-07", "average_lab", "d8663b50", "How has her weight averaged over the past 2 years?",
         {"lab": "weight", "window": {"days": 730}}),
    # --- conditional orders: a dose by rule when the latest potassium crosses a threshold, and a follow-up -
    Spec("conditional-01", "conditional_order", "b71278db",
         "Check her latest K. Cardiac history, so I want it at 4.0 or above: if it's under 4.0 give KCl 10 mEq "
         "ER tablets (RxNorm 8591) PO once, one tablet for every 0.1 below 4.0 rounded up, and order a repeat "
         "potassium for tomorrow at 08:00. If it's fine, don't order anything.",
         {"rule": "low", "threshold": 4.0, "per": 0.1}),
    Spec("conditional-02", "conditional_order", "adb1029a",
         "Look at her most recent potassium. Target is >= 4.0 - if it's lower, replace with potassium chloride "
         "10 mEq ER tabs (RxNorm 8591), 1 tab per 0.1 mmol/L under 4.0 (round up), single oral dose, plus a "
         "repeat K draw tomorrow 8am. Otherwise leave it.",
         {"rule": "low", "threshold": 4.0, "per": 0.1}),
    Spec("conditional-03", "conditional_order", "a59944cf",
         "She's on HCTZ - if the last potassium is below 4.0, order KCl 10 mEq ER tablets (RxNorm 8591) by "
         "mouth, one tab for each 0.1 below 4.0 rounding up, as a one-off dose, and recheck K tomorrow at "
         "08:00. No orders if it's 4.0 or more.",
         {"rule": "low", "threshold": 4.0, "per": 0.1}),
    Spec("conditional-04", "conditional_order", "5cef2f19",
         "If his most recent potassium is below 3.5, replace it: KCl 10 mEq ER tablets (RxNorm 8591), one "
         "tablet per 0.1 under 3.5 rounded up, single dose PO, and a repeat potassium tomorrow 08:00. "
         "If not, nothing to do.",
         {"rule": "low", "threshold": 3.5, "per": 0.1}),
    Spec("conditional-05", "conditional_order", "69e1a2a9",
         "She's on lisinopril. If her latest K is above 5.0, order a stat repeat potassium and a stat 12-lead "
         "ECG (SNOMED 268400002). If it isn't, leave things as they are.",
         {"rule": "high", "threshold": 5.0}),
    Spec("conditional-06", "conditional_order", "d8663b50",
         "Check the last potassium - anything over 5.0 and I want a stat repeat K and a stat ECG "
         "(SNOMED 268400002). No orders if it's 5.0 or less.",
         {"rule": "high", "threshold": 5.0}),
    Spec("conditional-07", "conditional_order", "6faf5362",
         "If her most recent potassium is greater than 5.0: repeat potassium stat and a stat 12 lead ECG, "
         "SNOMED 268400002. Otherwise no orders.",
         {"rule": "high", "threshold": 5.0}),
    Spec("conditional-08", "conditional_order", "f559fcd6",
         "Hyperkalemia check: if his latest K is above 5.0, get a stat potassium and a stat ECG "
         "(SNOMED 268400002); if not, don't order anything.",
         {"rule": "high", "threshold": 5.0}),
    # --- referrals -------------------------------------------------------------------------------------------
    Spec("referral-01", "referral", "a59944cf", "Refer her to cardiology (SNOMED 183519002) for exertional chest pain.",
         {"snomed": "183519002", "reason": ["chest pain"]}),
    Spec("referral-02", "referral", "69e1a2a9",
         "Please put in an endocrinology referral, SNOMED 306118006 - reason: type 2 diabetes not at target "
         "on metformin.",
         {"snomed": "306118006", "reason": ["diabetes"]}),
    Spec("referral-03", "referral", "88c7e398",
         "Sleep clinic referral (SNOMED 698560000) for loud snoring and daytime sleepiness, please.",
         {"snomed": "698560000", "reason": ["snoring"]}),
    Spec("referral-04", "referral", "5cef2f19",
         "Send him to the hypertension clinic, SNOMED 183856001, for hypertension uncontrolled on three drugs.",
         {"snomed": "183856001", "reason": ["hypertension"]}),
    Spec("referral-05", "referral", "1687bddc", "Ortho referral please - SNOMED 308481009, right knee osteoarthritis.",
         {"snomed": "308481009", "reason": ["knee"]}),
    Spec("referral-06", "referral", "7a69e4ff", "Refer to physical rehab (SNOMED 78429003), reason recurrent falls.",
         {"snomed": "78429003", "reason": ["falls"]}),
    Spec("referral-07", "referral", "85ba33a1", "Cardiology referral for palpitations, SNOMED 183519002.",
         {"snomed": "183519002", "reason": ["palpitations"]}),
    # --- order a new HbA1c if the last is older than a year -----------------------------------------------
    Spec("hba1c-01", "hba1c_reorder", "69e1a2a9", "Order a new HbA1c if her last one is more than a year old.",
         now="2024-11-20T09:00:00+01:00"),
    Spec("hba1c-02", "hba1c_reorder", "1687bddc",
         "If the last A1c is older than 12 months, order one (LOINC 4548-4).", now="2024-03-05T09:00:00+01:00"),
    Spec("hba1c-03", "hba1c_reorder", "827f0c1a", "Is his A1c due? Order one if the last result is over a year old."),
    Spec("hba1c-04", "hba1c_reorder", "f559fcd6",
         "He's back after a long gap. If his most recent HbA1c is more than a year old, order a new one.",
         now="2025-01-15T09:00:00+01:00"),
    Spec("hba1c-05", "hba1c_reorder", "a59944cf", "Needs an A1c? Only order it if the last one is over a year ago.",
         now="2024-09-30T09:00:00+02:00"),
    Spec("hba1c-06", "hba1c_reorder", "85ba33a1",
         "Order a hemoglobin A1c (LOINC 4548-4) if his last one was more than a year ago; otherwise don't.",
         now="2025-01-10T09:00:00+01:00"),
    # --- medication list -------------------------------------------------------------------------------------
    Spec("meds-01", "medication_list", "1a4cf854", "What is she currently taking?"),
    Spec("meds-02", "medication_list", "b71278db", "Active med list please."),
    Spec("meds-03", "medication_list", "320556cd", "What was he on at the time of death? List his active medications."),
    Spec("meds-04", "medication_list", "6faf5362", "Which meds is she on right now?"),
    Spec("meds-05", "medication_list", "88c7e398", "Current prescriptions?"),
    Spec("meds-06", "medication_list", "f559fcd6", "what meds is he on"),
    # --- allergy list ----------------------------------------------------------------------------------------
    Spec("allergies-01", "allergy_list", "b71278db", "Any allergies?"),
    Spec("allergies-02", "allergy_list", "88c7e398", "What is he allergic to?"),
    Spec("allergies-03", "allergy_list", "827f0c1a", "Allergy list please."),
    Spec("allergies-04", "allergy_list", "7a69e4ff", "Does she have any documented allergies?"),
    Spec("allergies-05", "allergy_list", "a59944cf", "Before I prescribe - is she allergic to anything?"),
    Spec("allergies-06", "allergy_list", "5cef2f19", "Check his allergies."),
    Spec("allergies-07", "allergy_list", "1687bddc", "Any known allergies on file for her?"),
    # --- a calculator from chart values ---------------------------------------------------------------------
    Spec("calc-01", "calculator", "88c7e398", "Work out his BMI from the latest height and weight.",
         {"calculator": "bmi"}),
    Spec("calc-02", "calculator", "69e1a2a9", "What's her BMI using the most recent height and weight on file?",
         {"calculator": "bmi"}),
    Spec("calc-03", "calculator", "1687bddc", "Calculate BMI from her last measured height/weight.",
         {"calculator": "bmi"}),
    Spec("calc-04", "calculator", "1a4cf854", "Calculate her eGFR with CKD-EPI 2021 from the latest creatinine.",
         {"calculator": "ckd_epi_2021"}),
    Spec("calc-05", "calculator", "d3fa7161", "eGFR by CKD-EPI 2021 using his most recent creatinine?",
         {"calculator": "ckd_epi_2021"}),
    Spec("calc-06", "calculator", "85ba33a1", "Run CKD-EPI (2021, race-free) on his latest creatinine.",
         {"calculator": "ckd_epi_2021"}),
    Spec("calc-07", "calculator", "827f0c1a", "What's his CKD-EPI eGFR from the last creatinine?",
         {"calculator": "ckd_epi_2021"}),
)  # fmt: skip

# Paraphrases written after the tools-only baseline's rules and never used to tune them: how far such rules carry
# to phrasing they were not written against (a deterministic planner faces the same).
_H = "heldout"
HELD_OUT: tuple[Spec, ...] = (
    Spec("lookup-h1", "lookup", None, "Need the chart for Rosy Feest, birthdate 25/03/1972.",
         {"name": "Rosy Feest", "birth_date": "1972-03-25"}, split=_H),
    Spec("lookup-h2", "lookup", None, "who is Shaquita Lemke b. 1952-07-20?",
         {"name": "Shaquita Lemke", "birth_date": "1952-07-20"}, split=_H),
    Spec("age-h1", "age", "1687bddc", "Patient's age?", split=_H),
    Spec("age-h2", "age", "d8663b50", "She's how old?", split=_H),
    Spec("vital-h1", "record_vital", "adb1029a", "pulse 104, irregular - put it in",
         {"kind": "heart_rate", "value": 104, "unit": "/min"}, split=_H),
    Spec("vital-h2", "record_vital", "b71278db", "Height measured at 171 cm today, please save it to her chart.",
         {"kind": "height", "value": 171, "unit": "cm"}, split=_H),
    Spec("latest-h1", "latest_lab", "f559fcd6", "Latest LDL from the past 2 years?",
         {"lab": "ldl", "window": {"days": 730}}, split=_H),
    Spec("latest-h2", "latest_lab", "b71278db", "Most recent glucose in the last 3 months for her",
         {"lab": "glucose", "window": {"days": 91}}, split=_H),
    Spec("average-h1", "average_lab", "d3fa7161", "avg systolic BP last 6 months",
         {"lab": "systolic", "window": {"days": 182}}, split=_H),
    Spec("average-h2", "average_lab", "1687bddc", "What's the mean of her potassium values over the last 2 years?",
         {"lab": "potassium", "window": {"days": 730}}, split=_H),
    Spec("conditional-h1", "conditional_order", "7a69e4ff",
         "If potassium < 3.5 give KCl 10 mEq ER (RxNorm 8591) PO, one tab per 0.1 below 3.5, round up, and recheck "
         "a K tomorrow 08:00.",
         {"rule": "low", "threshold": 3.5, "per": 0.1}, split=_H),
    Spec("conditional-h2", "conditional_order", "d8663b50",
         "Potassium above 5.0? If yes: stat K and a stat ECG (SNOMED 268400002), otherwise nothing.",
         {"rule": "high", "threshold": 5.0}, split=_H),
    Spec("referral-h1", "referral", "88c7e398", "Dietitian referral please (SNOMED 103699006) - weight management.",
         {"snomed": "103699006", "reason": ["weight"]}, split=_H),
    Spec("referral-h2", "referral", "5cef2f19",
         "Can you refer him on to orthopaedics, SNOMED 308481009, because of chronic low back pain?",
         {"snomed": "308481009", "reason": ["back pain"]}, split=_H),
    Spec("hba1c-h1", "hba1c_reorder", "d9018d49", "A1c overdue? If >1 yr since the last, order one.",
         now="2025-03-01T09:00:00+01:00", split=_H),
    Spec("hba1c-h2", "hba1c_reorder", "d8663b50",
         "Order an HbA1c only if it's been more than 12 months since her last one.",
         now="2024-06-01T09:00:00+02:00", split=_H),
    Spec("meds-h1", "medication_list", "85ba33a1", "Remind me of his current med list", split=_H),
    Spec("meds-h2", "medication_list", "d9018d49", "Is she on anything at the moment?", split=_H),
    Spec("allergies-h1", "allergy_list", "f559fcd6", "NKDA?", split=_H),
    Spec("allergies-h2", "allergy_list", "6faf5362", "Allergies for this one?", split=_H),
    Spec("calc-h1", "calculator", "f559fcd6", "BMI?", {"calculator": "bmi"}, split=_H),
    Spec("calc-h2", "calculator", "adb1029a", "Estimate her GFR (CKD-EPI 2021) from the most recent creatinine",
         {"calculator": "ckd_epi_2021"}, split=_H),
)  # fmt: skip

# A second development set, written after the blind sets showed the rules fitted to the phrasings above and
# before any rule was changed for them (issue #18): everyday vital words and units (lb, °F, "over", sats),
# referrals to a specialty named in plain words with the reason in the message, loosely phrased averages,
# and lists where "file" and "chart" are ordinary words. Measured before the rules were changed.
_D2 = "dev2"
DEV2: tuple[Spec, ...] = (
    Spec("vital-d1", "record_vital", "1a4cf854", "O2 sat 94% on room air - chart it please",
         {"kind": "spo2", "value": 94, "unit": "%"}, split=_D2),
    Spec("vital-d2", "record_vital", "69e1a2a9", "pt weighs 176 lbs today, add it to her vitals",
         {"kind": "weight", "value": 176, "unit": "[lb_av]"}, split=_D2),
    Spec("vital-d3", "record_vital", "d3fa7161", "BP this visit 138 over 86. Put that in for him.",
         {"kind": "blood_pressure", "systolic": 138, "diastolic": 86}, split=_D2),
    Spec("vital-d4", "record_vital", "adb1029a", "Temp 101.4°F at triage, please document it.",
         {"kind": "temperature", "value": 101.4, "unit": "[degF]"}, split=_D2),
    Spec("vital-d5", "record_vital", "6faf5362", "oxygen saturation of 97 percent - record it",
         {"kind": "spo2", "value": 97, "unit": "%"}, split=_D2),
    Spec("vital-d6", "record_vital", "f559fcd6", "He's 198 pounds on our scale, can you chart that weight?",
         {"kind": "weight", "value": 198, "unit": "[lb_av]"}, split=_D2),
    Spec("vital-d7", "record_vital", "827f0c1a", "hr 58 at rest, pls log in his chart",
         {"kind": "heart_rate", "value": 58, "unit": "/min"}, split=_D2),
    Spec("vital-d8", "record_vital", "b71278db", "Could you add a respiratory rate of 20 to her vitals?",
         {"kind": "respiratory_rate", "value": 20, "unit": "/min"}, split=_D2),
    Spec("referral-d1", "referral", "d9018d49",
         "Pls send a referral to a heart specialist for her, SNOMED 183519002, because of new exertional dyspnea",
         {"snomed": "183519002", "reason": ["dyspnea"]}, split=_D2),
    Spec("referral-d2", "referral", "d3fa7161",
         "He needs to see the bone and joint people about his hip pain - referral please, SNOMED 308481009",
         {"snomed": "308481009", "reason": ["hip pain"]}, split=_D2),
    Spec("referral-d3", "referral", "1687bddc",
         "Could you set up a referral to a diabetes doctor (SNOMED 306118006)? Sugars poorly controlled on two agents.",
         {"snomed": "306118006", "reason": ["poorly controlled"]}, split=_D2),
    Spec("referral-d4", "referral", "adb1029a",
         "Get her in with a dietitian, SNOMED 103699006, for weight loss counselling",
         {"snomed": "103699006", "reason": ["weight loss"]}, split=_D2),
    Spec("referral-d5", "referral", "827f0c1a",
         "sleep medicine referral - SNOMED 698560000 - his wife says he stops breathing at night",
         {"snomed": "698560000", "reason": ["stops breathing"]}, split=_D2),
    Spec("referral-d6", "referral", "6faf5362", "refer to endo re: thyroid nodule (SNOMED 306118006)",
         {"snomed": "306118006", "reason": ["thyroid nodule"]}, split=_D2),
    Spec("average-d1", "average_lab", "d8663b50", "what's her potassium been averaging the last 6 months?",
         {"lab": "potassium", "window": {"days": 182}}, split=_D2),
    Spec("average-d2", "average_lab", "d3fa7161", "on average, how high has his systolic been over the past year",
         {"lab": "systolic", "window": _YEAR}, split=_D2),
    Spec("average-d3", "average_lab", "d8663b50", "avg wt past 2 yrs",
         {"lab": "weight", "window": {"days": 730}}, split=_D2),
    Spec("average-d4", "average_lab", "85ba33a1", "Typical glucose for him over the last year - give me the mean",
         {"lab": "glucose", "window": _YEAR}, split=_D2),
    Spec("average-d5", "average_lab", "d9018d49", "Can you average out her creatinines from the past 2 years?",
         {"lab": "creatinine", "window": {"days": 730}}, split=_D2),
    Spec("latest-d1", "latest_lab", "1a4cf854", "pt's last K+ in the past yr?",
         {"lab": "potassium", "window": _YEAR}, split=_D2),
    Spec("latest-d2", "latest_lab", "6faf5362", "Sorry to bug you - most recent a1c in the last 2 yrs?",
         {"lab": "hba1c", "window": {"days": 730}}, split=_D2),
    Spec("allergies-d1", "allergy_list", "69e1a2a9", "What allergies does she have on file?", split=_D2),
    Spec("allergies-d2", "allergy_list", "d3fa7161", "Does his chart list any allergies?", split=_D2),
    Spec("meds-d1", "medication_list", "1687bddc", "List the meds on her chart please", split=_D2),
    Spec("meds-d2", "medication_list", "827f0c1a", "what's on file for his current meds", split=_D2),
    Spec("age-d1", "age", "b71278db", "how old's the pt?", split=_D2),
    Spec("calc-d1", "calculator", "d3fa7161", "bmi from his chart pls", {"calculator": "bmi"}, split=_D2),
    Spec("hba1c-d1", "hba1c_reorder", "69e1a2a9", "a1c more than a yr old? if so order one pls",
         now="2024-11-20T09:00:00+01:00", split=_D2),
)  # fmt: skip
