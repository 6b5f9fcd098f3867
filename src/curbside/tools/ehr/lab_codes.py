"""Common lab and vital-sign names mapped to the LOINC codes a chart files them under.

A clinician asks for "a1c" or "potassium"; the chart holds Observations coded in LOINC, often under
more than one code for one idea (potassium measured in blood or in serum/plasma; eGFR by MDRD or by
CKD-EPI). Each ``Concept`` lists the codes that answer its name, so a search asks for all of them at
once (``code=http://loinc.org|A,http://loinc.org|B``: a comma is OR in FHIR search,
https://hl7.org/fhir/R4/search.html#combining).

Codes and their LOINC long names are from https://loinc.org/<code> (LOINC 2.7x); those Synthea writes
are in ``../shared/data/fhir``. Vital-sign codes follow the FHIR R4 vital signs profile
(https://hl7.org/fhir/R4/observation-vitalsigns.html), which makes 85354-9 the blood-pressure panel
with systolic 8480-6 and diastolic 8462-4 as components.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from curbside.errors import ValidationError

__all__ = [
    "CHART_LABS",
    "CHART_VITALS",
    "CONCEPTS",
    "DIASTOLIC",
    "LOINC",
    "SYSTOLIC",
    "Concept",
    "known_names",
    "resolve",
]

LOINC = "http://loinc.org"
SYSTOLIC = "8480-6"  # Systolic blood pressure
DIASTOLIC = "8462-4"  # Diastolic blood pressure
_LOINC_CODE = re.compile(r"\d{1,7}-\d")


@dataclass(frozen=True)
class Concept:
    """One thing a clinician names: its name, what else it is called, and every LOINC code it is filed under."""

    name: str
    label: str  # how the chart shows it, e.g. "HbA1c"
    codes: tuple[str, ...]
    kind: Literal["lab", "vital"]
    aliases: tuple[str, ...] = ()

    def search_code(self) -> str:
        """The FHIR ``code`` search value: every code of the concept, ORed."""
        return ",".join(f"{LOINC}|{code}" for code in self.codes)


CONCEPTS: tuple[Concept, ...] = (
    # --- vital signs -----------------------------------------------------------------------------------
    # 85354-9 Blood pressure panel with all children optional; 55284-4 Blood pressure systolic and diastolic
    Concept("bp", "Blood pressure", ("85354-9", "55284-4"), "vital", ("blood pressure",)),
    Concept("heart rate", "Heart rate", ("8867-4",), "vital", ("hr", "pulse")),  # 8867-4 Heart rate
    Concept("respiratory rate", "Respiratory rate", ("9279-1",), "vital", ("rr",)),  # 9279-1 Respiratory rate
    Concept("temperature", "Temperature", ("8310-5",), "vital", ("temp", "body temperature")),  # 8310-5 Body temp
    # 2708-6 Oxygen saturation in Arterial blood; 59408-5 ... by Pulse oximetry (the US Core pulse-ox code)
    Concept("spo2", "SpO2", ("2708-6", "59408-5"), "vital", ("oxygen saturation", "o2 sat", "sat")),
    # 29463-7 Body weight; 3141-9 Body weight Measured
    Concept("weight", "Weight", ("29463-7", "3141-9"), "vital", ("body weight", "wt")),
    Concept("height", "Height", ("8302-2",), "vital", ("body height", "ht")),  # 8302-2 Body height
    Concept("bmi", "BMI", ("39156-5",), "vital", ("body mass index",)),  # 39156-5 Body mass index (BMI) [Ratio]
    # --- laboratory ------------------------------------------------------------------------------------
    # 4548-4 Hemoglobin A1c/Hemoglobin.total in Blood; 17856-6 ... in Blood by HPLC
    Concept("hba1c", "HbA1c", ("4548-4", "17856-6"), "lab", ("a1c", "hemoglobin a1c", "glycated hemoglobin")),
    # 2339-0 Glucose [Mass/volume] in Blood; 2345-7 ... in Serum or Plasma
    Concept("glucose", "Glucose", ("2339-0", "2345-7"), "lab", ("blood glucose", "blood sugar")),
    # 38483-4 Creatinine [Mass/volume] in Blood; 2160-0 ... in Serum or Plasma
    Concept("creatinine", "Creatinine", ("38483-4", "2160-0"), "lab", ("cr", "creat")),
    # 33914-3 eGFR/1.73 sq M predicted by Creatinine-based formula (MDRD); 62238-1 ... (CKD-EPI);
    # 98979-8 ... (CKD-EPI 2021)
    Concept("egfr", "eGFR", ("33914-3", "62238-1", "98979-8"), "lab", ("gfr",)),
    # 6298-4 Potassium [Moles/volume] in Blood; 2823-3 ... in Serum or Plasma
    Concept("potassium", "Potassium", ("6298-4", "2823-3"), "lab", ("k",)),
    # 2947-0 Sodium [Moles/volume] in Blood; 2951-2 ... in Serum or Plasma
    Concept("sodium", "Sodium", ("2947-0", "2951-2"), "lab", ("na",)),
    # 6299-2 Urea nitrogen [Mass/volume] in Blood; 3094-0 ... in Serum or Plasma
    Concept("bun", "Urea nitrogen", ("6299-2", "3094-0"), "lab", ("urea nitrogen", "urea")),
    # 18262-6 Cholesterol in LDL [Mass/volume] in Serum or Plasma by Direct assay; 13457-7 ... by calculation
    Concept("ldl", "LDL cholesterol", ("18262-6", "13457-7"), "lab", ("ldl cholesterol", "ldl c")),
    # 2085-9 Cholesterol in HDL [Mass/volume] in Serum or Plasma
    Concept("hdl", "HDL cholesterol", ("2085-9",), "lab", ("hdl cholesterol", "hdl c")),
    # 2093-3 Cholesterol [Mass/volume] in Serum or Plasma
    Concept("total cholesterol", "Total cholesterol", ("2093-3",), "lab", ("cholesterol",)),
    # 2571-8 Triglyceride [Mass/volume] in Serum or Plasma
    Concept("triglycerides", "Triglycerides", ("2571-8",), "lab", ("tg", "triglyceride")),
    # 14959-1 Microalbumin/Creatinine [Mass Ratio] in Urine; 9318-7 Albumin/Creatinine [Mass Ratio] in Urine
    Concept("uacr", "Urine albumin/creatinine", ("14959-1", "9318-7"), "lab", ("acr", "albumin creatinine ratio")),
    Concept("hemoglobin", "Hemoglobin", ("718-7",), "lab", ("hgb", "hb")),  # 718-7 Hemoglobin [Mass/volume] in Blood
    # 6690-2 Leukocytes [#/volume] in Blood by Automated count
    Concept("wbc", "WBC", ("6690-2",), "lab", ("white cell count", "leukocytes")),
    # 777-3 Platelets [#/volume] in Blood by Automated count
    Concept("platelets", "Platelets", ("777-3",), "lab", ("plt",)),
    # 1742-6 Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma
    Concept("alt", "ALT", ("1742-6",), "lab", ("alanine aminotransferase",)),
    # 1920-8 Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma
    Concept("ast", "AST", ("1920-8",), "lab", ("aspartate aminotransferase",)),
    # 6301-6 INR in Platelet poor plasma by Coagulation assay; 34714-6 INR in Blood by Coagulation assay
    Concept("inr", "INR", ("6301-6", "34714-6"), "lab"),
    Concept("tsh", "TSH", ("3016-3",), "lab", ("thyrotropin",)),  # 3016-3 Thyrotropin [Units/volume] in Serum or Plasma
    Concept("crp", "CRP", ("1988-5",), "lab", ("c reactive protein",)),  # 1988-5 C reactive protein [Mass/volume] ...
)

_BY_NAME: dict[str, Concept] = {}
_BY_CODE: dict[str, Concept] = {}
for _concept in CONCEPTS:
    for _name in (_concept.name, *_concept.aliases):
        _BY_NAME[_name] = _concept
    for _code in _concept.codes:
        _BY_CODE[_code] = _concept

# what the chart summary shows, most important first (a summary over its size loses the tail first)
CHART_VITALS: tuple[Concept, ...] = tuple(c for c in CONCEPTS if c.kind == "vital")
CHART_LABS: tuple[Concept, ...] = tuple(
    _BY_NAME[name]
    for name in (
        "hba1c",
        "creatinine",
        "egfr",
        "potassium",
        "sodium",
        "glucose",
        "ldl",
        "hdl",
        "total cholesterol",
        "triglycerides",
        "uacr",
        "hemoglobin",
        "platelets",
        "alt",
    )
)


def known_names() -> list[str]:
    """Every name ``resolve`` knows (aliases included), sorted."""
    return sorted(_BY_NAME)


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[-_./]", " ", text.lower()).split())


def resolve(code_or_name: str) -> Concept:
    """The concept for a LOINC code (``4548-4``, ``http://loinc.org|4548-4``) or a common name (``a1c``).

    A bare LOINC code asks for exactly that code, labelled with its concept when it has one; a name asks
    for every code of its concept. Anything else is a ValidationError listing the names known.
    """
    text = code_or_name.strip()
    code = text.removeprefix(f"{LOINC}|")
    if _LOINC_CODE.fullmatch(code):
        known = _BY_CODE.get(code)
        if known is None:
            return Concept(code, f"LOINC {code}", (code,), "lab")
        return Concept(known.name, known.label, (code,), known.kind, known.aliases)
    concept = _BY_NAME.get(_normal(text))
    if concept is None:
        names = ", ".join(c.name for c in CONCEPTS)
        raise ValidationError(
            f"{code_or_name!r} is neither a LOINC code (e.g. '4548-4') nor a lab or vital name Curbside knows: "
            f"{names} (or aliases such as 'a1c', 'blood pressure', 'pulse'). Give one of those, or its LOINC code."
        )
    return concept
