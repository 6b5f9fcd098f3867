"""The chart summary ``ehr.get_patient_chart`` returns: small enough to hand a model whole.

Each section is a list, or words saying why it is not: ``"none recorded"`` (the EHR answered and holds
nothing), ``"could not be read"`` (the EHR failed for that part: see warnings) or ``"left out to fit"``
(the summary reached its size limit: the section's own tool has it).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from curbside.tools.ehr.read_models import Coded, PatientRow, Value

__all__ = [
    "LEFT_OUT",
    "NONE_RECORDED",
    "SOFT_TAGS",
    "UNREADABLE",
    "ChartAllergy",
    "ChartEncounter",
    "ChartMedication",
    "ChartPatient",
    "ChartProblem",
    "ChartSummary",
    "ChartValue",
    "Missing",
]

NONE_RECORDED = "none recorded"
UNREADABLE = "could not be read"
LEFT_OUT = "left out to fit"
Missing = Literal["none recorded", "could not be read", "left out to fit"]
# SNOMED CT semantic tags of problems that describe context rather than disease: listed after disorders,
# and the first problems a summary over its size leaves out
SOFT_TAGS = ("(finding)", "(situation)", "(social concept)")


class ChartPatient(PatientRow):
    age: int | None = Field(description="Whole years at the summary's date (at death, for a deceased patient).")


class ChartProblem(BaseModel):
    problem: Coded
    onset: str | None = Field(description="Onset date, YYYY-MM-DD.")


class ChartMedication(BaseModel):
    medication: Coded
    dose: str | None = Field(description="The dosage instruction in words; None when the order gives none.")
    since: str | None = Field(description="Date the order was written.")
    reason: str | None = None


class ChartAllergy(BaseModel):
    substance: Coded
    criticality: str | None
    reactions: list[str] = Field(default_factory=list)


class ChartValue(BaseModel):
    """The latest value of one lab or vital sign, and the one before it for the trend."""

    name: str
    value: Value | None
    unit: str | None
    date: str | None
    previous: Value | None = None
    previous_date: str | None = None
    loinc: str | None = None


class ChartEncounter(BaseModel):
    date: str | None
    type: str | None
    encounter_class: str | None
    reason: str | None


class ChartSummary(BaseModel):
    patient: ChartPatient
    as_of: str = Field(description="The date the summary describes (ages are at this date).")
    problems: list[ChartProblem] | Missing = Field(description="Active conditions, latest onset first.")
    medications: list[ChartMedication] | Missing = Field(description="Active medication orders, newest first.")
    allergies: list[ChartAllergy] | Missing = Field(description="Allergies and intolerances not refuted or resolved.")
    vitals: list[ChartValue] | Missing = Field(description="Latest vital signs, with the previous value.")
    labs: list[ChartValue] | Missing = Field(description="Latest common labs, with the previous value.")
    encounters: list[ChartEncounter] | Missing = Field(description="Most recent encounters, newest first.")
    warnings: list[str] = Field(default_factory=list, description="Parts that failed or were left out, and why.")
