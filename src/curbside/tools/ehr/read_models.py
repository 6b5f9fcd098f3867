"""The compact rows the EHR read tools return: one per FHIR resource, only what a clinician reads.

Dates are ISO 8601 as the chart recorded them (a date, or a date-time with its offset); values keep the
units the chart gave; codes keep their system and display. Nothing is filled in: an element the chart
does not have is None (or an empty list), never a guess.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = [
    "AllergyRow",
    "Coded",
    "ComponentRow",
    "ConditionRow",
    "EncounterRow",
    "MedicationRow",
    "ObservationRow",
    "PatientRow",
    "Value",
]

# a value as the chart holds it: a number (valueQuantity, valueInteger), words (valueCodeableConcept,
# valueString) or yes/no (valueBoolean)
Value = float | int | str | bool


class Coded(BaseModel):
    """A code: its system (LOINC, SNOMED CT, RxNorm, ICD-10-CM, or the system's URI), code and display."""

    system: str | None = None
    code: str | None = None
    display: str | None = Field(None, description="The coding's display, or the concept's text.")


class PatientRow(BaseModel):
    id: str = Field(description="The Patient id: what every other EHR tool takes as patient_id.")
    name: str | None = Field(description="Given and family name of the official (or first) name.")
    birth_date: str | None
    sex: str | None = Field(description="Administrative gender: female, male, other or unknown.")
    mrn: str | None = Field(description="The medical record number (identifier of type MR).")
    deceased: str | None = Field(None, description="Date of death, or 'yes' when only the fact is recorded.")


class ConditionRow(BaseModel):
    id: str
    code: Coded
    clinical_status: str | None = Field(description="active, recurrence, relapse, inactive, remission, resolved.")
    verification_status: str | None = None
    onset: str | None = None
    abatement: str | None = None
    recorded: str | None = None


class MedicationRow(BaseModel):
    id: str
    medication: Coded = Field(description="Usually RxNorm.")
    status: str | None = Field(description="active, on-hold, stopped, completed, cancelled, …")
    dose: str | None = Field(description="The dosage instruction in words; None when the order gives none.")
    authored_on: str | None = None
    reason: str | None = Field(None, description="Why it was prescribed, when the order says.")


class AllergyRow(BaseModel):
    id: str
    substance: Coded
    type: str | None = Field(None, description="allergy or intolerance.")
    category: list[str] = Field(default_factory=list, description="food, medication, environment, biologic.")
    criticality: str | None = Field(None, description="low, high or unable-to-assess.")
    clinical_status: str | None = None
    verification_status: str | None = None
    reactions: list[str] = Field(default_factory=list, description="Manifestations, with severity when recorded.")
    recorded: str | None = None


class ComponentRow(BaseModel):
    code: Coded
    value: Value | None
    unit: str | None


class ObservationRow(BaseModel):
    id: str
    date: str | None = Field(description="When it was observed (effective), else when it was issued.")
    code: Coded
    value: Value | None = Field(description="None for a panel whose values are in components.")
    unit: str | None
    status: str | None = None
    interpretation: list[str] = Field(default_factory=list, description="e.g. H (high), L (low), N (normal).")
    components: list[ComponentRow] = Field(default_factory=list, description="e.g. systolic and diastolic BP.")


class EncounterRow(BaseModel):
    id: str
    date: str | None = Field(description="Start of the encounter.")
    end: str | None = None
    encounter_class: str | None = Field(None, description="ambulatory, emergency, inpatient, virtual, home, …")
    type: str | None = None
    reason: str | None = None
    status: str | None = None
